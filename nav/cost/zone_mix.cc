#include "nav/cost/zone_mix.h"

#include <algorithm>
#include <cmath>

namespace walk::nav {

PieceCost PriceSteps(const Continent& c, double column_yards, const Metric& base,
                     const std::vector<PathStep>& steps) {
  PieceCost cost;
  auto add = [&](std::uint16_t zone, double seconds, double yards) {
    if (zone == 0) return;
    auto it = std::lower_bound(cost.mix.begin(), cost.mix.end(), zone,
                               [](const ZoneShare& s, std::uint16_t z) { return s.zone < z; });
    if (it == cost.mix.end() || it->zone != zone)
      it = cost.mix.insert(it, ZoneShare{zone, 0.0f, 0.0f});
    it->seconds += static_cast<float>(seconds);
    it->yards += static_cast<float>(yards);
  };
  for (std::size_t i = 1; i < steps.size(); ++i) {
    const SurfaceId from = steps[i - 1].surface, to = steps[i].surface;
    if (steps[i].via == PathStep::kViaLift) {
      // Priced as the searches price it: by the ride's own length and timing.
      const LiftRide* ride = c.FindRide(from, to);
      const double seconds = ride != nullptr ? base.LiftSeconds(c, *ride, 0, 0) : kInfCost;
      cost.seconds += seconds;
      add(c.zone[to], seconds, 0.0);
      continue;
    }
    const LinkKind kind = LinkKindOf(c.links[from][steps[i].via]);
    const double columns = IsDiagonal(steps[i].via) ? kSqrt2 : 1.0;
    const double seconds = base.StepSeconds(c, to, kind, columns, 0, 0);
    cost.seconds += seconds;
    cost.yards += columns * column_yards;
    add(c.zone[to], seconds - base.FixedSeconds(kind), columns * column_yards);
  }
  return cost;
}

}  // namespace walk::nav
