// Snapping a place to a surface of the column under it.
#pragma once

#include <optional>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "nav/grid/grid.h"
#include "nav/query/answer.h"

namespace walk::nav {

// Largest coordinate any continent can have, in columns (256 tiles of 256 columns).
inline constexpr double kMaxColumns = 256.0 * kTileColumns;
// Heights beyond this many yards from 0 are refused as out of range.
inline constexpr double kMaxAbsHeightYards = 1e6;

// Checks a place's fields: finite coordinates, 0 <= x, y < 65,536 columns, |z| <= 1e6 yards.
// INVALID_ARGUMENT names the field as `field`.x_yards and so on.
absl::Status ValidatePlace(const Place& place, double column_yards, absl::string_view field);

// The outcome of snapping one place.
struct Snap {
  WalkStatus status = WalkStatus::kOk;  // kOk, kOffMap or kNoSurface
  End end;                              // set when kOk
};

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

// The place standing on surface `s`: its column's centre at the surface's height (what checks
// and benchmarks ask walks between).
Place PlaceOf(const Continent& continent, double column_yards, SurfaceId s);

// Snaps `place` (validated, on `continent`) to a surface: with a height, the floor nearest it
// (the lower on a tie); without one, the lowest indoor floor if the column has one, else the top
// surface (a street above buried ground, a deck above a river bed).
Snap SnapPlace(const Continent& continent, double column_yards, const Place& place);

}  // namespace walk::nav
