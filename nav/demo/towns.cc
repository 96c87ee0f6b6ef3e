#include "nav/demo/towns.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "nav/demo/plan.h"
#include "nav/demo/random.h"
#include "nav/demo/water.h"

namespace walk::nav::demo {

void Plan::LayTowns() {
  const int count =
      std::clamp<int>(static_cast<int>(options_.tiles_x * options_.tiles_y / 3), 4, 400);
  const double spacing0 = 0.55 * std::sqrt(width_ * height_ / count);
  const River& split = water_.faction_river();
  for (int k = 0; k < count; ++k) {
    Rng rng(Salt(options_.seed, 300 + static_cast<std::uint64_t>(k)));
    const int side = k % 2;  // faction A north of the faction river, B south
    Town best;
    double best_penalty = std::numeric_limits<double>::infinity();
    double spacing = spacing0;
    for (int attempt = 0; attempt < 600 && best_penalty > 0.0; ++attempt) {
      if (attempt > 0 && attempt % 60 == 0) spacing *= 0.85;
      Town t;
      t.radius = rng.Uniform(48.0, 60.0);
      const double margin = t.radius + 45.0;
      t.center = {rng.Uniform(margin, std::max(margin, width_ - margin)),
                  rng.Uniform(margin, std::max(margin, height_ - margin))};
      t.faction = side;
      t.level = hills_.Height(t.center);
      double penalty = 0.0;
      const bool north = t.center.y < RiverYAt(split, t.center.x);
      if (north != (side == 0)) penalty += 1e6;
      // Far enough from water that the valley toward it (BlendToward's width) stays outside.
      const double reach = t.radius + kMaxBlend + 20.0;
      double level = t.level;
      const double edge = water_.Distance(t.center, reach, &level);
      const double valley = std::min(12.0 + 6.0 * std::abs(t.level - level - kBankRise), kMaxBlend);
      penalty += std::max(0.0, t.radius + 20.0 + valley - edge);
      for (const Town& other : towns_) {
        penalty += std::max(0.0, spacing - Length(other.center - t.center));
      }
      if (penalty < best_penalty) {
        best_penalty = penalty;
        best = t;
      }
    }
    towns_.push_back(best);
  }
}

}  // namespace walk::nav::demo
