// walkd's Detour query filter for one walk: per-area costs from the navmesh's pricing classes
// (navmesh_pricing.h) with the walk's ends' zones exempt, and passability by flags. Detour's
// headers stay in cost_filter.cc; callers that query pass detour() to dtNavMeshQuery themselves.
//
// The Detour we link is built without DT_VIRTUAL_QUERYFILTER, so getCost cannot be overridden:
// every price goes through Detour's per-area costs (Detour prices a move as its length x the
// area cost of the polygon it crosses), which is why classes are areas (navmesh_ground.h). Area
// a costs multiplier(a) / m, m the least multiplier of any class: the cheapest yard costs 1, so
// findPath's heuristic (straight-line yards, not scaled by the filter) never overestimates.
// Detour measures those moves between polygon edge midpoints; a walk's seconds are re-priced
// along its straight path (navmesh_walker.h) with SecondsPerYard, in double.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "nav/navmesh/navmesh_pricing.h"

class dtQueryFilter;

namespace walk::nav {

class CostFilter {
 public:
  // The filter of `pricing` with zones `exempt_a` and `exempt_b` exempt from danger.
  CostFilter(const NavMeshPricing& pricing, std::uint16_t exempt_a, std::uint16_t exempt_b);
  // Prices for `pricing` and the exempt zones instead; nothing is recomputed when they are the
  // ones it already prices for (a walker's filter is reused walk after walk). The metric and
  // ground are known by address: they must outlive the filter's use of them (a served world's
  // live as long as the world).
  void Set(const NavMeshPricing& pricing, std::uint16_t exempt_a, std::uint16_t exempt_b);
  CostFilter(CostFilter&&) noexcept;
  CostFilter& operator=(CostFilter&&) noexcept;
  ~CostFilter();

  // Seconds per yard inside a polygon of `area`.
  double SecondsPerYard(std::uint8_t area) const {
    return area < seconds_per_yard_.size() ? seconds_per_yard_[area] : seconds_per_yard_[0];
  }
  // Detour's filter, for dtNavMeshQuery. Never null; owned by this object.
  const dtQueryFilter* detour() const;
  // The zones it exempts now.
  std::uint16_t exempt_a() const { return exempt_a_; }
  std::uint16_t exempt_b() const { return exempt_b_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::array<double, 64> seconds_per_yard_{};  // by area (DT_MAX_AREAS)
  // What it prices for now.
  const Metric* metric_ = nullptr;
  const NavMeshGround* ground_ = nullptr;
  std::uint16_t exempt_a_ = 0, exempt_b_ = 0;
};

}  // namespace walk::nav
