#include "nav/demo/crags.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "nav/demo/plan.h"
#include "nav/demo/random.h"

namespace walk::nav::demo {

void Plan::LayCrags() {
  const int count =
      std::clamp<int>(static_cast<int>(2 * options_.tiles_x * options_.tiles_y), 2, 4000);
  constexpr std::array<double, 4> kSlopes = {1.3, 1.45, 1.6, 2.2};  // 52, 55, 58, 66 degrees
  for (int k = 0; k < count; ++k) {
    Rng rng(Salt(options_.seed, 600 + static_cast<std::uint64_t>(k)));
    for (int attempt = 0; attempt < 40; ++attempt) {
      Crag c;
      c.radius = rng.Uniform(7.0, 12.0);
      c.height = c.radius * kSlopes[static_cast<std::size_t>(rng.Int(0, 3))];
      const double margin = c.radius + 5.0;
      c.center = {rng.Uniform(margin, width_ - margin), rng.Uniform(margin, height_ - margin)};
      bool ok = water_.Distance(c.center, c.radius + 30.0) >= c.radius + 30.0 &&
                roads_.Distance(c.center, c.radius + 20.0) >= c.radius + 20.0;
      for (const Town& t : towns_) {
        if (!ok) break;
        ok = Length(t.center - c.center) >= t.radius + c.radius + 30.0;
      }
      for (const Mesa& m : mesas_) {
        if (!ok) break;
        ok = Length(m.center - c.center) >= m.radius * (1.0 + kMesaShape) + c.radius + 20.0;
      }
      for (const Crag& o : crags_) {
        if (!ok) break;
        ok = Length(o.center - c.center) >= o.radius + c.radius + 10.0;
      }
      if (!ok) continue;
      crags_.push_back(c);
      break;
    }
  }
}

}  // namespace walk::nav::demo
