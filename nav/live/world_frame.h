// Where a live world lies in its game's world units: the size of a cell and the corner of cell
// (0, 0). Everything inside nav/live works in cells; callers that think in world units (a game
// server's units, its building rectangles) are converted here and nowhere else.
#pragma once

#include <cstdint>

#include "nav/live/cell.h"

namespace walk::nav::live {

struct WorldFrame {
  double cell_size = 1.0;  // world units per cell, > 0
  WorldPoint origin;       // the top-left corner of cell (0, 0), world units

  // A world point in cell units (cell (x, y) spans [x, x + 1) × [y, y + 1)).
  CellPoint ToCells(WorldPoint p) const {
    return CellPoint{(p.x - origin.x) / cell_size, (p.y - origin.y) / cell_size};
  }
  // A point in cell units in world units.
  WorldPoint ToWorld(CellPoint p) const {
    return WorldPoint{origin.x + p.x * cell_size, origin.y + p.y * cell_size};
  }
  // A cell's centre in world units.
  WorldPoint Centre(Cell c) const { return ToWorld(CellPoint{c.x + 0.5, c.y + 0.5}); }
  // The cell holding a world point; a point on a boundary belongs to the cell after it. The cell
  // may lie off the map (coordinates saturate at the int32 range).
  Cell CellHolding(WorldPoint p) const;
  // A world rectangle moved so that the origin is (0, 0), still in world units: what
  // CellsCovering takes.
  WorldRect FromOrigin(const WorldRect& r) const {
    return WorldRect{r.x0 - origin.x, r.y0 - origin.y, r.x1 - origin.x, r.y1 - origin.y};
  }
};

}  // namespace walk::nav::live
