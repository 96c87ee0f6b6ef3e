// Ring searches: the nearest standable cell, and resolving a blocked target toward the caller.
//
// Both search square rings of growing radius around the target and visit only each ring's
// perimeter (O(r²) cells for radius r, not the O(r³) of scanning each (2r + 1)² square and
// discarding its interior), in the row-major order such a discarding scan would produce, so ties
// between equal-score candidates fall the same way: to the first in row-major order.
//
// With `need` (BodyClass::need) a cell counts as standable only when the body fits on it
// (LiveGrid::Fits); need 0 is plain standability.
//
// All functions read the grid only: call them under the world's shared lock.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "nav/live/cell.h"
#include "nav/live/live_grid.h"

namespace walk::nav::live {

// Calls f(cell) for every map cell of the ring at Chebyshev distance `radius` from `center`, in
// row-major order: the top row left to right, then each middle row's left and right cell, then the
// bottom row. Radius 0 is the centre alone. Cells off the map are skipped.
template <typename F>
void ForEachRingCell(Cell center, std::int32_t radius, std::int32_t width, std::int32_t height,
                     F&& f) {
  const std::int32_t x0 = center.x - radius, x1 = center.x + radius;
  const std::int32_t y0 = center.y - radius, y1 = center.y + radius;
  const std::int32_t cx0 = x0 < 0 ? 0 : x0, cx1 = x1 >= width ? width - 1 : x1;
  auto full_row = [&](std::int32_t y) {
    if (y < 0 || y >= height) return;
    for (std::int32_t x = cx0; x <= cx1; ++x) f(Cell{x, y});
  };
  full_row(y0);
  if (radius == 0) return;
  for (std::int32_t y = (y0 + 1 < 0 ? 0 : y0 + 1); y < y1 && y < height; ++y) {
    if (x0 >= 0 && x0 < width) f(Cell{x0, y});
    if (x1 >= 0 && x1 < width) f(Cell{x1, y});
  }
  full_row(y1);
}

// What a ring search cost.
struct RingStats {
  std::uint64_t rings = 0;          // rings searched (radius 0 included)
  std::uint64_t cells_scanned = 0;  // cells looked at
};

// The squared distance between two cells' centres.
inline std::int64_t SquaredDistance(Cell a, Cell b) {
  const std::int64_t dx = a.x - b.x, dy = a.y - b.y;
  return dx * dx + dy * dy;
}

// The first ring around `center` (radius first_radius .. max_radius, clipped where every ring
// lies off the map) holding a cell `score_of` scores; in it, the cell of the lowest score (ties:
// the first in ForEachRingCell's order). `score_of(c)` returns an optional ordered score; nullopt
// rejects the cell.
template <typename ScoreOf>
std::optional<Cell> BestInNearestRing(const LiveGrid& grid, Cell center, std::int32_t first_radius,
                                      std::int32_t max_radius, RingStats* stats,
                                      ScoreOf&& score_of) {
  const std::int64_t reach = std::max<std::int64_t>(
      std::max<std::int64_t>(center.x, grid.width() - 1 - std::int64_t{center.x}),
      std::max<std::int64_t>(center.y, grid.height() - 1 - std::int64_t{center.y}));
  const std::int32_t last = static_cast<std::int32_t>(std::min<std::int64_t>(max_radius, reach));
  for (std::int32_t r = first_radius; r <= last; ++r) {
    std::optional<Cell> best;
    decltype(score_of(center)) best_score;
    std::uint64_t scanned = 0;
    ForEachRingCell(center, r, grid.width(), grid.height(), [&](Cell c) {
      ++scanned;
      auto score = score_of(c);
      if (score && (!best_score || *score < *best_score)) {
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

// The standable cell nearest `target` for `passability`: `target` itself when standable, else
// the cell of the first ring (radius 1 .. max_radius) that holds any, closest to `target` by
// Euclidean distance, ties to the first in row-major order. Nothing within max_radius: nullopt.
// `target` may lie off the map (the rings are clipped).
std::optional<Cell> NearestStandable(const LiveGrid& grid, Cell target, Passability passability,
                                     std::int32_t max_radius, RingStats* stats = nullptr,
                                     std::uint16_t need = 0);

// Resolves an order onto ground the unit can stand on, on the unit's own side: `target` itself
// when standable; else, in the first ring around `target` holding a standable cell in the same
// region as `from` (the caller's position), the one closest to `target`, then to `from` (ties:
// row-major). When no ring within max_radius holds one (or `from` is not standable),
// NearestStandable(target).
std::optional<Cell> ResolveToward(const LiveGrid& grid, Cell target, Cell from,
                                  Passability passability, std::int32_t max_radius,
                                  RingStats* stats = nullptr, std::uint16_t need = 0);

}  // namespace walk::nav::live
