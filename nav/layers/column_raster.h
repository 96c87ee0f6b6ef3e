// Which grid columns a layer's shape covers. One rule for every layer, decided by the column's
// centre in the world's frame (WorldFrame::CentreX, CentreY):
//
// - An area (a polygon with its holes) covers a column when the column's centre lies inside it,
//   inside meaning an odd number of its rings surround the centre (even-odd: holes are left
//   out, whatever their orientation). A centre exactly on the boundary is inside on the area's
//   west and south edges and outside on its east and north edges (the half-open rule of the
//   classic crossing test), so two areas sharing an edge never both cover a column, and a
//   rectangle [x0, x1] x [y0, y1] covers the columns whose centres lie in [x0, x1) x [y0, y1).
// - A line `width_yards` wide covers a column when the column's centre lies within
//   width_yards / 2 of it (at most that distance: a centre exactly at the edge is covered),
//   measured to the nearest point of any of its segments (so its ends are round).
//
// Columns off the continent's extent are never visited; those on an absent tile are (they hold
// no surfaces, so laying anything there changes nothing).
//
// Both sweep the rows: an area's edges, and a line's segments, each enter and leave the sweep
// once, and each row takes the sections of those on it. A shape costs the rows its edges or
// segments span plus the columns it covers, never a segment's whole box: a line of 200,000
// positions 1,000 yards wide over a 512 x 512 map is laid in about a second
// (docs/benchmarks.md, "Wide roads").
#pragma once

#include <cstdint>

#include "absl/functional/function_ref.h"
#include "nav/grid/grid.h"
#include "nav/layers/geojson.h"

namespace walk::nav {

// Calls visit(x, y) once for every grid column of `c` whose centre lies inside `polygon`.
void ForEachColumnInPolygon(const Continent& c, const WorldFrame& frame, const GeoPolygon& polygon,
                            absl::FunctionRef<void(std::uint32_t x, std::uint32_t y)> visit);

// Calls visit(x, y) once for every grid column of `c` whose centre lies within
// `half_width_yards` of `line`.
void ForEachColumnNearLine(const Continent& c, const WorldFrame& frame, const GeoLine& line,
                           double half_width_yards,
                           absl::FunctionRef<void(std::uint32_t x, std::uint32_t y)> visit);

}  // namespace walk::nav
