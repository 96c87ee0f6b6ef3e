// How a navmesh walk is priced: the cost model (nav/cost/cost_model.h) read through the area
// codes of nav_areas.h, for one profile's pricing, faction and move profile.
//
// A polygon of area a costs multiplier(a) seconds per run-speed yard:
//   ground 1, water CostModel::water, road CostModel::road, steep CostModel::steep, a hub
//   CostModel::hostile to the other faction (1 to its own and to neutrals), unknown areas 1;
// under "shortest" pricing every area costs 1. Zones are not carried by areas, so no danger.
// Passability is by flags: walk and swim for everyone, forest for light move profiles only.
#pragma once

#include <cstdint>

#include "nav/cost/cost_model.h"
#include "nav/navmesh/nav_areas.h"

namespace walk::nav {

struct NavMeshPricing {
  CostModel model;  // defaults are DefaultCostModel()'s
  Pricing pricing = Pricing::kTerrain;
  Faction faction = Faction::kNeutral;
  MoveProfile move = MoveProfile::kLight;

  // The pricing of `profile` under `model`.
  static NavMeshPricing ForProfile(const Profile& profile, const CostModel& model);

  // The multiplier of entering a polygon of `area` (>= 1 at every area but road).
  double AreaMultiplier(std::uint8_t area) const;
  // The polygon flags this walker may enter (Detour's include flags).
  std::uint16_t IncludedFlags() const;
};

}  // namespace walk::nav
