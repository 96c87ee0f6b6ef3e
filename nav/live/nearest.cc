#include "nav/live/nearest.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace walk::nav::live {
namespace {

// Nearest `target`, then nearest `toward`, among the cells `accept` takes.
template <typename Accept>
auto NearestTarget(Cell target, Cell toward, Accept&& accept) {
  return [target, toward, accept](Cell c) -> std::optional<std::pair<std::int64_t, std::int64_t>> {
    if (!accept(c)) return std::nullopt;
    return std::pair{SquaredDistance(c, target), SquaredDistance(c, toward)};
  };
}

}  // namespace

std::optional<Cell> NearestStandable(const LiveGrid& grid, Cell target, Passability passability,
                                     std::int32_t max_radius, RingStats* stats,
                                     std::uint16_t need) {
  return BestInNearestRing(grid, target, 0, max_radius, stats,
                           NearestTarget(target, target, [&](Cell c) {
                             return grid.Fits(grid.Index(c), passability, need);
                           }));
}

std::optional<Cell> ResolveToward(const LiveGrid& grid, Cell target, Cell from,
                                  Passability passability, std::int32_t max_radius,
                                  RingStats* stats, std::uint16_t need) {
  if (grid.Fits(target, passability, need)) return target;
  if (grid.Open(from, passability)) {
    const RegionId side = grid.RegionOf(from, passability);
    std::optional<Cell> resolved = BestInNearestRing(
        grid, target, 0, max_radius, stats, NearestTarget(target, from, [&](Cell c) {
          const CellIndex i = grid.Index(c);
          return grid.Fits(i, passability, need) && grid.regions(passability).RegionOf(i) == side;
        }));
    if (resolved) return resolved;
  }
  return NearestStandable(grid, target, passability, max_radius, stats, need);
}

}  // namespace walk::nav::live
