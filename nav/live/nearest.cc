#include "nav/live/nearest.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace walk::nav::live {
namespace {

std::int64_t SquaredDistance(Cell a, Cell b) {
  const std::int64_t dx = a.x - b.x, dy = a.y - b.y;
  return dx * dx + dy * dy;
}

// The first ring around `target` (radius 0 .. max_radius) holding a cell `accept` takes; in it, the
// cell nearest `target`, then nearest `toward` (ties: the first in row-major order).
template <typename Accept>
std::optional<Cell> RingSearch(const LiveGrid& grid, Cell target, Cell toward,
                               std::int32_t max_radius, RingStats* stats, Accept&& accept) {
  using Score = std::pair<std::int64_t, std::int64_t>;
  // Radius beyond which every ring lies wholly off the map.
  const std::int64_t reach = std::max<std::int64_t>(
      std::max<std::int64_t>(target.x, grid.width() - 1 - std::int64_t{target.x}),
      std::max<std::int64_t>(target.y, grid.height() - 1 - std::int64_t{target.y}));
  const std::int32_t last = static_cast<std::int32_t>(std::min<std::int64_t>(max_radius, reach));
  for (std::int32_t r = 0; r <= last; ++r) {
    std::optional<Cell> best;
    Score best_score{std::numeric_limits<std::int64_t>::max(), 0};
    std::uint64_t scanned = 0;
    ForEachRingCell(target, r, grid.width(), grid.height(), [&](Cell c) {
      ++scanned;
      if (!accept(c)) return;
      const Score score{SquaredDistance(c, target), SquaredDistance(c, toward)};
      if (score < best_score) {
        best_score = score;
        best = c;
      }
    });
    if (stats != nullptr) {
      ++stats->rings;
      stats->cells_scanned += scanned;
    }
    if (best) return best;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Cell> NearestStandable(const LiveGrid& grid, Cell target, Passability passability,
                                     std::int32_t max_radius, RingStats* stats,
                                     std::uint16_t need) {
  return RingSearch(grid, target, target, max_radius, stats,
                    [&](Cell c) { return grid.Fits(grid.Index(c), passability, need); });
}

std::optional<Cell> ResolveToward(const LiveGrid& grid, Cell target, Cell from,
                                  Passability passability, std::int32_t max_radius,
                                  RingStats* stats, std::uint16_t need) {
  if (grid.Fits(target, passability, need)) return target;
  if (grid.Open(from, passability)) {
    const RegionId side = grid.RegionOf(from, passability);
    std::optional<Cell> resolved = RingSearch(grid, target, from, max_radius, stats, [&](Cell c) {
      const CellIndex i = grid.Index(c);
      return grid.Fits(i, passability, need) && grid.regions(passability).RegionOf(i) == side;
    });
    if (resolved) return resolved;
  }
  return NearestStandable(grid, target, passability, max_radius, stats, need);
}

}  // namespace walk::nav::live
