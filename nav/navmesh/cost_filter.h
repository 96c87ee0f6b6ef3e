// walkd's Detour query filter: a dtQueryFilter of our own that prices a polygon entered by the
// cost model (navmesh_pricing.h) and passes polygons by their flags. Detour's headers stay in
// cost_filter.cc; callers that query pass detour() to dtNavMeshQuery themselves.
//
// The Detour we link is built without DT_VIRTUAL_QUERYFILTER, so getCost cannot be overridden:
// the filter sets Detour's per-area costs instead (Detour prices a move as its length x the area
// cost of the polygon it crosses). Area a costs multiplier(a) / m, m the least multiplier of any
// area (road's 0.8 under terrain pricing): the cheapest yard costs 1, so findPath's heuristic
// (straight-line yards, not scaled by the filter) never overestimates, and its cost is seconds x
// run speed / m. Detour measures those moves between polygon edge midpoints; a walk's seconds
// are re-priced along its straight path (navmesh_walker.h) with SecondsPerYard, in double.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "nav/navmesh/navmesh_pricing.h"

class dtQueryFilter;

namespace walk::nav {

class CostFilter {
 public:
  explicit CostFilter(const NavMeshPricing& pricing);
  CostFilter(CostFilter&&) noexcept;
  CostFilter& operator=(CostFilter&&) noexcept;
  ~CostFilter();

  // Seconds per yard inside a polygon of `area` (codes past Detour's 64 areas cost as ground).
  double SecondsPerYard(std::uint8_t area) const {
    return area < seconds_per_yard_.size() ? seconds_per_yard_[area] : seconds_per_yard_[0];
  }
  // Detour's filter, for dtNavMeshQuery. Never null; owned by this object.
  const dtQueryFilter* detour() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::array<double, 64> seconds_per_yard_{};  // by area (DT_MAX_AREAS)
};

}  // namespace walk::nav
