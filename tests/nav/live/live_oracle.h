// The oracle the live searches are tested against: a plain Dijkstra over (cell, arrival
// direction) states, fresh arrays, no heuristic and no pruning, with the step, turn and
// clearance prices of live_search.h written out again. `fits` says which cells a body may enter
// (a diagonal needs both flanks too) and `extra` what entering a cell adds (a formation's overlap
// price; 0 for a single body).
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "nav/live/live_grid.h"
#include "nav/live/live_search.h"

namespace walk::nav::live::testing {

inline std::uint32_t OracleCost(const LiveGrid& grid, Cell start, Cell goal, Passability p,
                                const std::function<bool(Cell)>& fits,
                                const std::function<std::uint32_t(Cell)>& extra) {
  if (!fits(start) || !fits(goal)) return kNoCost;
  std::vector<std::uint32_t> dist(std::size_t{grid.cell_count()} * 9, kNoCost);
  using Item = std::pair<std::uint32_t, std::size_t>;  // cost, state = cell * 9 + arrival (8: none)
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  const std::size_t s0 = std::size_t{grid.Index(start)} * 9 + 8;
  dist[s0] = 0;
  queue.push({0, s0});
  while (!queue.empty()) {
    const auto [cost, state] = queue.top();
    queue.pop();
    if (cost != dist[state]) continue;
    const Cell c = grid.CellOf(static_cast<CellIndex>(state / 9));
    const int arrival = static_cast<int>(state % 9);
    if (c == goal) return cost;
    for (int d = 0; d < 8; ++d) {
      const Cell m{c.x + kDirX[d], c.y + kDirY[d]};
      if (!fits(m)) continue;
      if ((d & 1) && (!fits(Cell{m.x, c.y}) || !fits(Cell{c.x, m.y}))) continue;
      std::uint32_t next = cost + ((d & 1) ? kDiagonalCost : kStraightCost) + extra(m);
      if (grid.flags()[grid.Index(m)] & NearBit(p)) next += kClearanceCost;
      if (arrival != 8 && arrival != d) next += kTurnCost;
      const std::size_t to = std::size_t{grid.Index(m)} * 9 + static_cast<std::size_t>(d);
      if (next < dist[to]) {
        dist[to] = next;
        queue.push({next, to});
      }
    }
  }
  return kNoCost;
}

}  // namespace walk::nav::live::testing
