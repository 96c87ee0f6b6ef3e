// The demo world's crags: cones whose sides are steeper than 50 degrees, added to the terrain.
// Plan::LayCrags (crags.cc) places them. Internal to nav/demo.
#pragma once

#include "nav/demo/plane.h"

namespace walk::nav::demo {

struct Crag {
  Vec2 center;
  double radius = 0.0;
  double height = 0.0;  // at the centre, above the ground around it
};

}  // namespace walk::nav::demo
