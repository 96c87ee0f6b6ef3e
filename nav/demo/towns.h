// The demo world's towns: discs of flattened ground, alternating between the two factions.
// Plan::LayTowns (towns.cc) places them. Internal to nav/demo.
#pragma once

#include "nav/demo/plane.h"

namespace walk::nav::demo {

struct Town {
  Vec2 center;
  double radius = 0.0;
  double level = 0.0;  // the height the town is flattened to
  int faction = 0;     // 0: A, 1: B
};

}  // namespace walk::nav::demo
