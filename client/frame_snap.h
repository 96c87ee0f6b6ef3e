// Snapping a grid column of a world, for the tools that read coordinates from their users: the
// one place walkgrid's inspection commands call SnapPlace.
#pragma once

#include <cstdint>
#include <optional>

#include "nav/grid/grid.h"
#include "nav/query/snap.h"

namespace walk::client {

// Snaps the place at the centre of grid column (column_x, column_y) of `continent` (a continent
// of `world`), at `z_yards` when given, else on the column's usual floor. Asking at the centre
// keeps the column exactly the one the caller computed with WorldFrame::ColumnX/ColumnY.
inline nav::Snap SnapColumn(const nav::World& world, const nav::Continent& continent,
                            std::int64_t column_x, std::int64_t column_y,
                            std::optional<double> z_yards) {
  const nav::WorldFrame frame = world.FrameOf(continent);
  nav::Place place;
  place.continent = continent.id;
  place.x_yards = frame.CentreX(column_x);
  place.y_yards = frame.CentreY(column_y);
  place.z_yards = z_yards;
  return nav::SnapPlace(continent, frame, place);
}

}  // namespace walk::client
