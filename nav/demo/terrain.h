// The demo world's terrain: rolling hills of value noise, and the blend that bends them toward a
// feature's level (a town's, a bank's). Plan::Height (terrain.cc) composes the ground's height
// from the hills and every feature. Internal to nav/demo.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "nav/demo/plane.h"
#include "nav/demo/random.h"

namespace walk::nav::demo {

// The widest blend of the terrain toward a feature, yards.
inline constexpr double kMaxBlend = 250.0;

// Blends height h toward `target` by how far beyond a feature's edge the point lies: the target
// at the edge and inside, h from `width` out, where the width grows with the difference so no
// blended slope is steeper than a quarter (about 14 degrees: walked).
inline double BlendToward(double h, double target, double edge_distance) {
  if (edge_distance <= 0.0) return target;
  const double width = std::clamp(12.0 + 6.0 * std::abs(h - target), 12.0, kMaxBlend);
  if (edge_distance >= width) return h;
  return target + (h - target) * Smoothstep(edge_distance / width);
}

// The hills: three octaves of value noise (600, 180 and 50 yards; +-16, +-5 and +-1.2 yards
// around 20).
class Hills {
 public:
  // The hills of the world's random `seed`.
  explicit Hills(std::uint64_t seed);

  // The hills' height at p, yards, before any feature shapes it.
  double Height(Vec2 p) const;

 private:
  std::uint64_t seed_[3] = {};
};

}  // namespace walk::nav::demo
