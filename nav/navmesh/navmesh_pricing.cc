#include "nav/navmesh/navmesh_pricing.h"

namespace walk::nav {

NavMeshPricing NavMeshPricing::ForProfile(const Profile& profile, const CostModel& model) {
  NavMeshPricing pricing;
  pricing.model = model;
  pricing.pricing = profile.pricing;
  pricing.faction = profile.faction;
  pricing.move = profile.move;
  return pricing;
}

double NavMeshPricing::AreaMultiplier(std::uint8_t area) const {
  if (pricing == Pricing::kShortest) return 1.0;
  switch (area) {
    case kNavAreaWater:
      return model.water;
    case kNavAreaRoad:
      return model.road;
    case kNavAreaSteep:
      return model.steep;
    case kNavAreaHubA:
      return faction == Faction::kB ? model.hostile : 1.0;
    case kNavAreaHubB:
      return faction == Faction::kA ? model.hostile : 1.0;
    default:
      return 1.0;
  }
}

std::uint16_t NavMeshPricing::IncludedFlags() const {
  std::uint16_t flags = kNavFlagWalk | kNavFlagSwim;
  if (move == MoveProfile::kLight) flags |= kNavFlagForest;
  return flags;
}

}  // namespace walk::nav
