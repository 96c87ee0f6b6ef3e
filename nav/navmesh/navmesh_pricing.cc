#include "nav/navmesh/navmesh_pricing.h"

#include <algorithm>

namespace walk::nav {

double NavMeshPricing::ClassMultiplier(std::uint8_t area, std::uint16_t exempt_a,
                                       std::uint16_t exempt_b) const {
  if (area >= ground->classes().size()) return 1.0;
  const NavMeshClass& c = ground->classes()[area];
  double m = metric->Multiplier(c.flags, c.marks, c.zone, exempt_a, exempt_b);
  if (c.lift) {
    const double landing = std::min(m, kNavMeshMaxMultiplier);
    m = metric->RideSeconds(c.ride, landing) * run_yards_per_second() / c.ride_yards;
  }
  return std::min(m, kNavMeshMaxMultiplier);
}

std::uint16_t NavMeshPricing::IncludedFlags() const {
  std::uint16_t flags = kNavFlagWalk | kNavFlagSwim;
  if (metric->profile().move == MoveProfile::kLight ||
      metric->profile().pricing == Pricing::kShortest) {
    flags |= kNavFlagForest;
  }
  return flags;
}

}  // namespace walk::nav
