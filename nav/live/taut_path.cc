#include "nav/live/taut_path.h"

#include <cmath>
#include <limits>

#include "nav/grid/checked_floor.h"
#include "nav/live/live_search.h"

namespace walk::nav::live {
namespace {

// Parameter distance (0..1 along the segment) within which two boundary crossings are one corner.
constexpr double kTieEpsilon = 1e-9;
// Cell-unit distance within which a coordinate lies on a grid line.
constexpr double kLineEpsilon = 1e-9;

}  // namespace

bool WorldSegmentClear(const LiveGrid& grid, double cell_size, WorldPoint a, WorldPoint b,
                       Passability passability, bool reject_portals, std::vector<Cell>* cells,
                       std::uint16_t need) {
  const double ax = a.x / cell_size, ay = a.y / cell_size;
  const double bx = b.x / cell_size, by = b.y / cell_size;
  if (!std::isfinite(ax) || !std::isfinite(ay) || !std::isfinite(bx) || !std::isfinite(by)) {
    return false;
  }
  std::int32_t cx = SaturatingFloor<std::int32_t>(ax);
  std::int32_t cy = SaturatingFloor<std::int32_t>(ay);
  const std::int32_t ex = SaturatingFloor<std::int32_t>(bx);
  const std::int32_t ey = SaturatingFloor<std::int32_t>(by);
  const Cell first{cx, cy}, last{ex, ey};
  if (!grid.InBounds(first) || !grid.InBounds(last)) return false;  // the map is convex
  if (cells != nullptr) cells->clear();

  // A cell the segment passes through: open, and no portal inside the segment when asked.
  auto through = [&](Cell c) {
    if (!grid.Fits(c, passability, need)) return false;
    if (reject_portals && grid.Portal(grid.Index(c)) && !(c == first) && !(c == last)) return false;
    if (cells != nullptr) cells->push_back(c);
    return true;
  };
  // A cell the segment only grazes (a corner's flank, the far side of a grid line it runs along):
  // it must be open; off the map it is not touched at all.
  auto grazed = [&](Cell c) { return !grid.InBounds(c) || grid.Fits(c, passability, need); };

  const double dx = bx - ax, dy = by - ay;
  // Running exactly along a grid line touches the cells on both sides of it.
  const bool on_row_line = dy == 0.0 && std::abs(ay - std::round(ay)) < kLineEpsilon;
  const bool on_column_line = dx == 0.0 && std::abs(ax - std::round(ax)) < kLineEpsilon;
  auto sides_clear = [&](Cell c) {
    if (on_row_line) {
      const std::int32_t line = static_cast<std::int32_t>(std::round(ay));
      if (!grazed(Cell{c.x, line - 1}) || !grazed(Cell{c.x, line})) return false;
    }
    if (on_column_line) {
      const std::int32_t line = static_cast<std::int32_t>(std::round(ax));
      if (!grazed(Cell{line - 1, c.y}) || !grazed(Cell{line, c.y})) return false;
    }
    return true;
  };

  if (!through(first) || !sides_clear(first)) return false;
  const std::int32_t step_x = dx > 0 ? 1 : (dx < 0 ? -1 : 0);
  const std::int32_t step_y = dy > 0 ? 1 : (dy < 0 ? -1 : 0);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const double t_delta_x = step_x != 0 ? 1.0 / std::abs(dx) : kInf;
  const double t_delta_y = step_y != 0 ? 1.0 / std::abs(dy) : kInf;
  double t_max_x = dx > 0 ? (cx + 1 - ax) / dx : (dx < 0 ? (ax - cx) / -dx : kInf);
  double t_max_y = dy > 0 ? (cy + 1 - ay) / dy : (dy < 0 ? (ay - cy) / -dy : kInf);
  while (cx != ex || cy != ey) {
    if (cx == ex) {
      cy += step_y;
      t_max_y += t_delta_y;
    } else if (cy == ey) {
      cx += step_x;
      t_max_x += t_delta_x;
    } else if (std::abs(t_max_x - t_max_y) <= kTieEpsilon) {
      // Through a corner: both flanks must be open, as for a diagonal step of the search.
      if (!grazed(Cell{cx + step_x, cy}) || !grazed(Cell{cx, cy + step_y})) return false;
      cx += step_x;
      cy += step_y;
      t_max_x += t_delta_x;
      t_max_y += t_delta_y;
    } else if (t_max_x < t_max_y) {
      cx += step_x;
      t_max_x += t_delta_x;
    } else {
      cy += step_y;
      t_max_y += t_delta_y;
    }
    if (!through(Cell{cx, cy}) || !sides_clear(Cell{cx, cy})) return false;
  }
  return true;
}

bool SegmentClear(const LiveGrid& grid, Cell a, Cell b, Passability passability,
                  bool reject_portals, std::vector<Cell>* cells, std::uint16_t need) {
  return WorldSegmentClear(grid, 1.0, WorldPoint{a.x + 0.5, a.y + 0.5},
                           WorldPoint{b.x + 0.5, b.y + 0.5}, passability, reject_portals, cells,
                           need);
}

std::vector<Cell> PullTaut(const LiveGrid& grid, std::span<const Cell> path,
                           Passability passability, std::uint16_t need) {
  const std::size_t n = path.size();
  if (n <= 2) return std::vector<Cell>(path.begin(), path.end());
  // Candidate waypoints: turning points, every portal cell, the goal. Between two consecutive
  // candidates the path runs straight through no portal, so that leg is always clear.
  std::vector<std::size_t> candidates;
  for (std::size_t k = 1; k + 1 < n; ++k) {
    const bool turn = StepDirection(path[k - 1], path[k]) != StepDirection(path[k], path[k + 1]);
    if (turn || grid.Portal(grid.Index(path[k]))) candidates.push_back(k);
  }
  candidates.push_back(n - 1);

  auto usable = [&](std::size_t from, std::size_t to) {
    return SegmentClear(grid, path[from], path[to], passability, /*reject_portals=*/true, nullptr,
                        need);
  };
  std::vector<Cell> waypoints{path[0]};
  std::size_t anchor = 0;
  std::size_t next = 0;  // the first candidate after `anchor`
  while (anchor != n - 1) {
    std::size_t best;
    if (!usable(anchor, candidates[next])) {
      best = anchor + 1;  // cannot happen for a searched path; stay cell by cell if it does
    } else {
      // Never past a portal cell: the path lands on each one.
      while (next + 1 < candidates.size() && !grid.Portal(grid.Index(path[candidates[next]])) &&
             usable(anchor, candidates[next + 1])) {
        ++next;
      }
      best = candidates[next];
    }
    waypoints.push_back(path[best]);
    anchor = best;
    while (next < candidates.size() && candidates[next] <= anchor) ++next;
  }
  return waypoints;
}

}  // namespace walk::nav::live
