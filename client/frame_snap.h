// Snapping a place named in a world's frame (nav/grid/world_frame.h), for the tools that read
// coordinates from their users: the one place walkgrid's inspection commands call SnapPlace.
#pragma once

#include <cstdint>
#include <optional>

#include "nav/grid/grid.h"
#include "nav/query/snap.h"

namespace walk::client {
namespace frame_snap_internal {

// SnapPlace takes either the world's frame or, in its older form, the column width and x, y
// yards from the grid's corner; this compiles against either, so the tools need not change
// when nav/query moves to the frame.
template <typename ContinentT>
nav::Snap Snap(const nav::World& world, const ContinentT& continent, nav::Place place) {
  if constexpr (requires { nav::SnapPlace(continent, world.frame(), place); }) {
    return nav::SnapPlace(continent, world.frame(), place);
  } else {
    place.x_yards -= static_cast<double>(world.origin_column_x) * world.column_yards;
    place.y_yards -= static_cast<double>(world.origin_column_y) * world.column_yards;
    return nav::SnapPlace(continent, world.column_yards, place);
  }
}

}  // namespace frame_snap_internal

// Snaps the place at the centre of grid column (column_x, column_y) of `continent` (a continent
// of `world`), at `z_yards` when given, else on the column's usual floor. Asking at the centre
// keeps the column exactly the one the caller computed with WorldFrame::ColumnX/ColumnY.
inline nav::Snap SnapColumn(const nav::World& world, const nav::Continent& continent,
                            std::int64_t column_x, std::int64_t column_y,
                            std::optional<double> z_yards) {
  const nav::WorldFrame frame = world.frame();
  nav::Place place;
  place.continent = continent.id;
  place.x_yards = frame.CentreX(column_x);
  place.y_yards = frame.CentreY(column_y);
  place.z_yards = z_yards;
  return frame_snap_internal::Snap(world, continent, place);
}

}  // namespace walk::client
