#include "nav/live/recovery.h"

#include <limits>
#include <tuple>

#include "nav/live/live_search.h"

namespace walk::nav::live {
namespace {

std::int64_t SquaredDistance(Cell a, Cell b) {
  const std::int64_t dx = a.x - b.x, dy = a.y - b.y;
  return dx * dx + dy * dy;
}

std::int32_t Sign(std::int32_t v) { return (v > 0) - (v < 0); }

}  // namespace

std::vector<Cell> EscapeLeg(Cell from, Cell to) {
  std::vector<Cell> cells{from};
  Cell at = from;
  while (!(at == to)) {
    at = Cell{at.x + Sign(to.x - at.x), at.y + Sign(to.y - at.y)};
    cells.push_back(at);
  }
  return cells;
}

std::optional<Recovery> FindRecovery(const LiveGrid& grid, Cell start, Cell goal,
                                     std::optional<RegionId> goal_region, Passability passability,
                                     std::int32_t max_radius, RingStats* stats) {
  // (off the goal's region, distance to start, distance to goal): smaller is better.
  using Score = std::tuple<bool, std::int64_t, std::int64_t>;
  const Regions& regions = grid.regions(passability);
  for (std::int32_t r = 1; r <= max_radius; ++r) {
    std::optional<Cell> best;
    Score best_score{true, std::numeric_limits<std::int64_t>::max(), 0};
    std::uint64_t scanned = 0;
    ForEachRingCell(start, r, grid.width(), grid.height(), [&](Cell c) {
      ++scanned;
      const CellIndex i = grid.Index(c);
      if (!grid.Open(i, passability)) return;
      const bool off_side = goal_region.has_value() && regions.RegionOf(i) != *goal_region;
      const Score score{off_side, SquaredDistance(c, start), SquaredDistance(c, goal)};
      if (score < best_score) {
        best_score = score;
        best = c;
      }
    });
    if (stats != nullptr) {
      ++stats->rings;
      stats->cells_scanned += scanned;
    }
    if (!best) continue;
    Recovery out{*best, OctileCost(start, *best), EscapeLeg(start, *best)};
    return out;
  }
  return std::nullopt;
}

}  // namespace walk::nav::live
