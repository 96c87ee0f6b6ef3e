// The demo world's bridges: wherever a road crosses water, a deck above the highest water under
// it, with earth ramps up to both ends. Plan::LayBridges and Plan::EmitBridge (bridges.cc) lay
// and build them. Internal to nav/demo.
#pragma once

#include <vector>

#include "nav/demo/plane.h"

namespace walk::nav::demo {

inline constexpr double kDeckHalfWidth = 3.6;  // yards
inline constexpr double kDeckClearance = 3.0;  // deck above the highest water under it, yards
inline constexpr double kRampSlope = 0.16;     // 0.33 yards a column: walked

struct Bridge {
  std::vector<Vec2> points;  // the road from before one ramp to after the other, every 2 yards
  double deck_from = 0.0;    // arc (from points[0]) where the deck starts and ends
  double deck_to = 0.0;
  double ramp = 0.0;  // length of each ramp
  double deck_level = 0.0;
  Box box;  // everything the bridge touches
};

// The height of bridge b's ramps and their earth at p, or -infinity where they do not reach.
double Embankment(const Bridge& b, Vec2 p);

}  // namespace walk::nav::demo
