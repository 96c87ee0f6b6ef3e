#include "nav/live/live_search.h"

#include <algorithm>
#include <bit>
#include <cassert>

namespace walk::nav::live {
namespace {

constexpr std::uint8_t kAnyDirection = 0xFF;  // the start: no step to carry straight on from

}  // namespace

int StepDirection(Cell a, Cell b) {
  for (int d = 0; d < 8; ++d) {
    if (a.x + kDirX[d] == b.x && a.y + kDirY[d] == b.y) return d;
  }
  return -1;
}

std::uint32_t PriceCells(const LiveGrid& grid, std::span<const Cell> cells, Passability p,
                         BodyClass body) {
  if (cells.empty()) return kNoCost;
  if (!grid.Fits(cells[0], p, body.need)) return kNoCost;
  std::uint32_t cost = 0;
  int previous = -1;
  for (std::size_t k = 1; k < cells.size(); ++k) {
    const Cell a = cells[k - 1], b = cells[k];
    const int d = StepDirection(a, b);
    if (d < 0 || !grid.Fits(b, p, body.need)) return kNoCost;
    const bool diagonal = (d & 1) != 0;
    if (diagonal && (!grid.Fits(Cell{a.x + kDirX[d], a.y}, p, body.need) ||
                     !grid.Fits(Cell{a.x, a.y + kDirY[d]}, p, body.need))) {
      return kNoCost;
    }
    cost += diagonal ? kDiagonalCost : kStraightCost;
    if (grid.flags()[grid.Index(b)] & NearBit(p)) cost += kClearanceCost;
    if (previous >= 0 && previous != d) cost += kTurnCost;
    cost += OverlapPrice(grid.clearance().At(grid.Index(b), p), body.half_width);
    previous = d;
  }
  return cost;
}

void LiveSearch::Prepare(std::uint32_t cell_count) {
  if (node_.size() < cell_count) {
    node_.assign(cell_count, Node{0, 0, 0, 0});
    generation_ = 0;
  }
  if (++generation_ == 0) {  // wrapped: the only time the stamps are cleared
    for (Node& n : node_) n.stamp = 0;
    generation_ = 1;
  }
  buckets_.resize(kBuckets);
  for (std::vector<QueueEntry>& bucket : buckets_) bucket.clear();  // keeps the capacity
}

SearchResult LiveSearch::FindPath(const LiveGrid& grid, Cell start, Cell goal,
                                  Passability passability, std::vector<Cell>* cells,
                                  BodyClass body) {
  assert(grid.InBounds(start) && grid.InBounds(goal));
  SearchResult result;
  if (!grid.Open(start, passability) || !grid.Open(goal, passability)) return result;
  if (body.wide()) {
    if (!grid.Fits(start, passability, body.need) || !grid.Fits(goal, passability, body.need)) {
      result.too_narrow = true;
      return result;
    }
    if (body.half_width != overlap_width_) {
      FillOverlapTable(body.half_width, overlap_);
      overlap_width_ = body.half_width;
    }
    result = Search<true>(grid, start, goal, passability, body);
  } else {
    result = Search<false>(grid, start, goal, passability, body);
  }
  if (result.found && cells != nullptr) WalkBack(grid, start, goal, cells);
  return result;
}

template <bool kWide>
SearchResult LiveSearch::Search(const LiveGrid& grid, Cell start, Cell goal,
                                Passability passability, BodyClass body) {
  SearchResult result;
  Prepare(grid.cell_count());
  const std::uint8_t* flags = grid.flags();
  const std::uint16_t* clear = grid.clearance().values(passability);
  const std::uint8_t open_bit = OpenBit(passability);
  const std::uint8_t near_bit = NearBit(passability);
  const std::int32_t w = grid.width();
  const std::int32_t h = grid.height();
  const CellIndex from = grid.Index(start);
  const CellIndex to = grid.Index(goal);
  const std::int32_t step_offset[8] = {1, w + 1, w, w - 1, -1, -w - 1, -w, -w + 1};
  // A cell the searching body may enter.
  auto enterable = [&](CellIndex c) {
    if constexpr (kWide) return (flags[c] & open_bit) != 0 && clear[c] >= body.need;
    return (flags[c] & open_bit) != 0;
  };

  std::uint32_t f_min = OctileCost(start, goal);  // the bucket being drained
  std::size_t queued = 0;
  auto push = [&](CellIndex c, std::uint32_t f, std::uint32_t g) {
    assert(f >= f_min && f - f_min < kBuckets);
    buckets_[f % kBuckets].push_back(QueueEntry{c, g});
    ++queued;
    ++result.stats.heap_operations;
  };
  // Offers cell `c` = (cx, cy) reached at cost `g` by a step in direction `d`.
  auto relax = [&](CellIndex c, std::int32_t cx, std::int32_t cy, std::uint32_t g, int d) {
    const std::uint8_t bit = static_cast<std::uint8_t>(1u << d);
    Node& n = node_[c];
    if (n.stamp != generation_ || g < n.g) {
      n = Node{generation_, g, bit, 0};
      push(c, g + OctileCost({cx, cy}, goal), g);
    } else if (g == n.g && !(n.arrive & bit)) {
      n.arrive |= bit;
      // Expanded already: again, so the new direction's straight continuation is priced.
      if (n.expanded != 0) push(c, g + OctileCost({cx, cy}, goal), g);
    }
  };

  node_[from] = Node{generation_, 0, kAnyDirection, 0};
  push(from, f_min, 0);
  while (queued > 0) {
    std::vector<QueueEntry>& bucket = buckets_[f_min % kBuckets];
    if (bucket.empty()) {
      ++f_min;
      continue;
    }
    const QueueEntry entry = bucket.back();
    bucket.pop_back();
    --queued;
    ++result.stats.heap_operations;
    const CellIndex v = entry.cell;
    Node& node = node_[v];
    if (entry.g != node.g || node.expanded == node.arrive) continue;  // stale, or done
    node.expanded = node.arrive;
    ++result.stats.cells_expanded;
    if (v == to) {
      result.found = true;
      result.cost = node.g;
      break;
    }
    const std::int32_t vx = static_cast<std::int32_t>(v % static_cast<std::uint32_t>(w));
    const std::int32_t vy = static_cast<std::int32_t>(v / static_cast<std::uint32_t>(w));
    const std::uint32_t g_v = node.g;
    const std::uint8_t arrive = node.arrive;
    // Which orthogonal neighbours are open decides the diagonals (no corner cutting).
    bool open[8] = {};
    for (int d = 0; d < 8; d += 2) {
      const std::int32_t nx = vx + kDirX[d], ny = vy + kDirY[d];
      open[d] = nx >= 0 && ny >= 0 && nx < w && ny < h &&
                enterable(static_cast<CellIndex>(static_cast<std::int32_t>(v) + step_offset[d]));
    }
    for (int d = 1; d < 8; d += 2) {
      if (!open[d - 1] || !open[(d + 1) & 7]) continue;
      open[d] = enterable(static_cast<CellIndex>(static_cast<std::int32_t>(v) + step_offset[d]));
    }
    for (int d = 0; d < 8; ++d) {
      if (!open[d]) continue;
      const CellIndex n = static_cast<CellIndex>(static_cast<std::int32_t>(v) + step_offset[d]);
      std::uint32_t g = g_v + ((d & 1) ? kDiagonalCost : kStraightCost);
      if (flags[n] & near_bit) g += kClearanceCost;
      if (!(arrive & (1u << d))) g += kTurnCost;
      if constexpr (kWide) g += overlap_[clear[n]];
      relax(n, vx + kDirX[d], vy + kDirY[d], g, d);
    }
  }
  return result;
}

void LiveSearch::WalkBack(const LiveGrid& grid, Cell start, Cell goal,
                          std::vector<Cell>* cells) const {
  // Keep going straight where that was as cheap, else take any cheapest arrival.
  const std::int32_t w = grid.width();
  const std::int32_t step_offset[8] = {1, w + 1, w, w - 1, -1, -w - 1, -w, -w + 1};
  const CellIndex from = grid.Index(start);
  const CellIndex to = grid.Index(goal);
  cells->clear();
  CellIndex c = to;
  int d = std::countr_zero(static_cast<unsigned>(node_[to].arrive));
  while (c != from) {
    cells->push_back(grid.CellOf(c));
    const CellIndex p = static_cast<CellIndex>(static_cast<std::int32_t>(c) - step_offset[d]);
    assert(node_[p].stamp == generation_ && node_[p].g < node_[c].g);
    if (p != from && !(node_[p].arrive & (1u << d))) {
      d = std::countr_zero(static_cast<unsigned>(node_[p].arrive));
    }
    c = p;
  }
  cells->push_back(start);
  std::reverse(cells->begin(), cells->end());
}

}  // namespace walk::nav::live
