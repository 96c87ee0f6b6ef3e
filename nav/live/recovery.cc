#include "nav/live/recovery.h"

#include <limits>
#include <tuple>

#include "nav/live/live_search.h"

namespace walk::nav::live {
namespace {

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
  const std::optional<Cell> best =
      BestInNearestRing(grid, start, 1, max_radius, stats, [&](Cell c) -> std::optional<Score> {
        const CellIndex i = grid.Index(c);
        if (!grid.Open(i, passability)) return std::nullopt;
        const bool off_side = goal_region.has_value() && regions.RegionOf(i) != *goal_region;
        return Score{off_side, SquaredDistance(c, start), SquaredDistance(c, goal)};
      });
  if (!best) return std::nullopt;
  return Recovery{*best, OctileCost(start, *best), EscapeLeg(start, *best)};
}

}  // namespace walk::nav::live
