// Settling an end that stands in a small pocket (a ledge, a sealed room, a speck of voxel noise)
// onto the nearest surface of a large region, so that a walk from it can be found.
#pragma once

#include <cstdint>

#include "nav/grid/grid.h"
#include "nav/query/answer.h"

namespace walk::nav {

// How far a place in a small pocket may be settled, and what counts as a large region.
struct SettleOptions {
  double radius_yards = 25.0;  // horizontally
  double up_yards = 10.0;      // at most this much higher
  double down_yards = 30.0;    // at most this much lower
  // A region of at least this many surfaces is large; a smaller one is a pocket.
  std::uint32_t large_region_surfaces = 1000;
};

// Moves `end` (a snapped end whose region is small) to the nearest surface of a large region
// within the settle bounds: nearest horizontally, then vertically. Returns false, leaving `end`
// as it was, when its region is already large or nothing is in reach.
bool SettleEnd(const Continent& continent, double column_yards, const SettleOptions& options,
               End* end);

// Settles whichever of a walk's two ends stands in a pocket apart from the other (a region of
// its own): `a` first, then `b` if they still lie apart, as every walk settles its ends.
void SettleApart(const Continent& continent, double column_yards, const SettleOptions& options,
                 End* a, End* b);

}  // namespace walk::nav
