// Snapping a place to a surface of the column under it.
#pragma once

#include <optional>

#include "nav/grid/grid.h"
#include "nav/query/answer.h"

namespace walk::nav {

// The outcome of snapping one place.
struct Snap {
  WalkStatus status = WalkStatus::kOk;  // kOk, kOffMap or kNoSurface
  End end;                              // set when kOk
};

// The place standing on surface `s`: its column's centre at the surface's height (what checks
// and benchmarks ask walks between).
Place PlaceOf(const Continent& continent, double column_yards, SurfaceId s);

// The end standing on surface `s` of `continent`, not settled.
End EndAt(const Continent& continent, SurfaceId s);

// Snaps `place` (validated, on `continent`) to a surface: with a height, the floor nearest it
// (the lower on a tie); without one, the lowest indoor floor if the column has one, else the top
// surface (a street above buried ground, a deck above a river bed).
Snap SnapPlace(const Continent& continent, double column_yards, const Place& place);

}  // namespace walk::nav
