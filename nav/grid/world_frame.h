// A world's frame: the coordinates its places are named in, which are its source's own (a mesh's
// x and z, a MovingAI map's cells, the demo world's yards). Frame column k covers
// [k, k + 1) x column_yards; the grid's column 0 is frame column `origin_x` (and row 0 frame row
// `origin_y`), so a grid built from a level whose lowest corner is at x = -1200 answers at -1200,
// not at 0. Every place asked and every coordinate answered (ends, path points, zone cells,
// floors) is in this frame; inside nav/ the grid's own columns (0 .. width) are used.
#pragma once

#include <cmath>
#include <cstdint>

#include "nav/grid/checked_floor.h"

namespace walk::nav {

struct WorldFrame {
  // Columns this far out are off every map; clamping there keeps the origin's offset exact.
  static constexpr std::int64_t kFarColumn = std::int64_t{1} << 52;

  double column_yards = 1.0;
  std::int64_t origin_x = 0;  // the frame column of the grid's column 0
  std::int64_t origin_y = 0;  // the frame row of the grid's row 0

  // The grid column under frame coordinate `x_yards` (negative or past the extent off the map).
  std::int64_t ColumnX(double x_yards) const {
    return ClampedFloor(x_yards / column_yards, kFarColumn) - origin_x;
  }
  std::int64_t ColumnY(double y_yards) const {
    return ClampedFloor(y_yards / column_yards, kFarColumn) - origin_y;
  }
  // The frame column and row of a grid column.
  std::int64_t FrameColumnX(std::int64_t column) const { return column + origin_x; }
  std::int64_t FrameColumnY(std::int64_t row) const { return row + origin_y; }
  // The frame coordinates of a grid column's centre.
  double CentreX(std::int64_t column) const {
    return (static_cast<double>(column + origin_x) + 0.5) * column_yards;
  }
  double CentreY(std::int64_t row) const {
    return (static_cast<double>(row + origin_y) + 0.5) * column_yards;
  }
  // Frame coordinates of a point given in yards from the grid's corner (a piece's midpoint).
  double FrameX(double grid_x_yards) const {
    return grid_x_yards + static_cast<double>(origin_x) * column_yards;
  }
  double FrameY(double grid_y_yards) const {
    return grid_y_yards + static_cast<double>(origin_y) * column_yards;
  }
};

}  // namespace walk::nav
