#include "nav/live/step_out.h"

#include <algorithm>
#include <queue>
#include <unordered_map>

#include "nav/live/live_search.h"

namespace walk::nav::live {

std::vector<StepOut> StepOuts(const LiveGrid& grid, Cell start, Passability passability,
                              std::size_t max_inside) {
  std::vector<StepOut> outs;
  if (!grid.InBounds(start) || grid.value(start) != CellValue::kGate) return outs;
  auto inside = [&](Cell c) { return grid.InBounds(c) && grid.value(c) == CellValue::kGate; };
  auto passable = [&](Cell c) { return inside(c) || grid.Open(c, passability); };

  // A Dijkstra over the gate's cells; open cells reached are ways out and are not expanded.
  struct Label {
    std::uint32_t cost;
    CellIndex parent;
  };
  std::unordered_map<CellIndex, Label> label;
  using Item = std::pair<std::uint32_t, CellIndex>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  const CellIndex from = grid.Index(start);
  label[from] = Label{0, kInvalidCell};
  queue.push({0, from});
  std::size_t expanded = 0;
  std::vector<CellIndex> exits;
  while (!queue.empty() && expanded < max_inside) {
    const auto [cost, v] = queue.top();
    queue.pop();
    if (cost != label[v].cost) continue;
    const Cell c = grid.CellOf(v);
    if (!inside(c)) {
      exits.push_back(v);
      continue;
    }
    ++expanded;
    for (int d = 0; d < 8; ++d) {
      const Cell n{c.x + kDirX[d], c.y + kDirY[d]};
      if (!passable(n)) continue;
      if ((d & 1) && (!passable(Cell{c.x + kDirX[d], c.y}) || !passable(Cell{c.x, c.y + kDirY[d]})))
        continue;
      const std::uint32_t g = cost + ((d & 1) ? kDiagonalCost : kStraightCost);
      const CellIndex ni = grid.Index(n);
      auto it = label.find(ni);
      if (it != label.end() && it->second.cost <= g) continue;
      label[ni] = Label{g, v};
      queue.push({g, ni});
    }
  }
  for (CellIndex e : exits) {
    StepOut out;
    out.cost = label[e].cost;
    for (CellIndex c = e; c != kInvalidCell; c = label[c].parent)
      out.cells.push_back(grid.CellOf(c));
    std::reverse(out.cells.begin(), out.cells.end());
    outs.push_back(std::move(out));
  }
  std::stable_sort(outs.begin(), outs.end(),
                   [](const StepOut& a, const StepOut& b) { return a.cost < b.cost; });
  return outs;
}

}  // namespace walk::nav::live
