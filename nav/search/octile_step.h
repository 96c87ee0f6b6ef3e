// Unit steps between grid cells, by the eight directions of nav/grid/surface.h: what the jump
// point search and the subgoal graph both turn a displacement into.
#pragma once

#include <cstdint>

#include "nav/grid/surface.h"

namespace walk::nav {

// -1, 0 or 1: the sign of `v`.
inline int StepSign(std::int32_t v) { return (v > 0) - (v < 0); }

// The direction of a unit step (sx, sy), each in -1..1, not both 0.
inline int DirectionOfStep(int sx, int sy) {
  for (int d = 0; d < kDirectionCount; ++d) {
    if (kDirectionDx[d] == sx && kDirectionDy[d] == sy) return d;
  }
  return 0;
}

}  // namespace walk::nav
