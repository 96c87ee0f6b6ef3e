// What a piece of a walk (an abstract edge, a leg) costs, split by zone, so a danger band can
// price it later without searching again: seconds = base seconds + the sum over its zones of
// (the zone's danger multiplier - 1) x the seconds spent entering that zone's surfaces.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "nav/cost/metric.h"
#include "nav/grid/grid.h"
#include "nav/grid/path_step.h"

namespace walk::nav {

// Seconds and yards a piece spends in one zone (never zone 0, which no band prices).
struct ZoneShare {
  std::uint16_t zone = 0;
  float seconds = 0.0f;  // under the band-0 metric, the danger-multiplied part only
  float yards = 0.0f;    // searched yards (before smoothing)
};

struct PieceCost {
  double seconds = 0.0;        // under the band-0 metric
  double yards = 0.0;          // searched yards
  std::vector<ZoneShare> mix;  // sorted by zone
};

// Prices `steps` (a walk in walking order) under `base`, a band-0 metric.
PieceCost PriceSteps(const Continent& c, double column_yards, const Metric& base,
                     const std::vector<PathStep>& steps);

// The seconds of a piece under `band` (the same profile as the base it was priced with): the
// danger of every zone in its mix but `exempt_a` and `exempt_b` added.
inline double DangerSeconds(double base_seconds, std::span<const ZoneShare> mix, const Metric& band,
                            std::uint16_t exempt_a, std::uint16_t exempt_b) {
  double seconds = base_seconds;
  for (const ZoneShare& share : mix) {
    if (share.zone == exempt_a || share.zone == exempt_b) continue;
    seconds += share.seconds * (band.ZoneMultiplier(share.zone) - 1.0);
  }
  return seconds;
}

}  // namespace walk::nav
