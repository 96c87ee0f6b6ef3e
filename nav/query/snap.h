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

// A walk's places as SnapPlace snaps them on continent `on`, snapped already by the caller (a
// table snaps each of its places once for all its cells); a null one is snapped by the walk.
// Taken only on that very continent: a world loaded again has new ones.
struct GivenSnaps {
  const Continent* on = nullptr;
  const Snap* from = nullptr;
  const Snap* to = nullptr;
  const Snap* FromOn(const Continent& c) const { return on == &c ? from : nullptr; }
  const Snap* ToOn(const Continent& c) const { return on == &c ? to : nullptr; }
};

// The place standing on surface `s`: its column's centre at the surface's height, in `frame`
// (what checks and benchmarks ask walks between).
Place PlaceOf(const Continent& continent, const WorldFrame& frame, SurfaceId s);

// The end standing on surface `s` of `continent`, not settled.
End EndAt(const Continent& continent, SurfaceId s);

// The surface a place snaps to, without the rest of its end.
struct SurfaceSnap {
  WalkStatus status = WalkStatus::kOk;  // kOk, kOffMap or kNoSurface
  SurfaceId surface = kInvalidId;       // set when kOk
};

// Snaps `place` (validated, on `continent`) to a surface: with a height, the floor nearest it
// (the lower on a tie); without one, the lowest indoor floor if the column has one, else the top
// surface (a street above buried ground, a deck above a river bed).
// The place's x and y are in `frame`; a column outside the continent's extent is kOffMap.
Snap SnapPlace(const Continent& continent, const WorldFrame& frame, const Place& place);

// SnapPlace's surface alone: it reads the column's surfaces and their heights or flags, none of
// the grid's other arrays (a store key needs no more).
SurfaceSnap SnapSurface(const Continent& continent, const WorldFrame& frame, const Place& place);

// The snap whose surface `surface` is: SnapPlace is SnapOfSurface(SnapSurface(...)).
Snap SnapOfSurface(const Continent& continent, const SurfaceSnap& surface);

}  // namespace walk::nav
