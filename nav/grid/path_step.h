// A walk as the grid spells it: the surfaces it enters, in order, and the link each was
// entered by. What every search returns and every pricing and drawing reads.
#pragma once

#include <cstdint>
#include <vector>

#include "nav/grid/ids.h"

namespace walk::nav {

// One step of a found walk: the surface reached and how (the first step has kViaStart).
struct PathStep {
  static constexpr std::uint8_t kViaStart = 255;
  static constexpr std::uint8_t kViaLift = 8;
  SurfaceId surface = kInvalidId;
  std::uint8_t via = kViaStart;  // a direction 0..7, kViaLift, or kViaStart
};

// The columns walked along `steps` (1 or sqrt(2) a step; a lift ride walks none).
double WalkedColumns(const std::vector<PathStep>& steps);

}  // namespace walk::nav
