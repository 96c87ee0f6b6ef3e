#include "nav/live/world_frame.h"

#include "nav/grid/checked_floor.h"

namespace walk::nav::live {

Cell WorldFrame::CellHolding(WorldPoint p) const {
  const CellPoint c = ToCells(p);
  return Cell{SaturatingFloor<std::int32_t>(c.x), SaturatingFloor<std::int32_t>(c.y)};
}

}  // namespace walk::nav::live
