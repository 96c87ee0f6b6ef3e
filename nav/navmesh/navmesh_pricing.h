// How a navmesh walk is priced: the grid's metric (nav/cost/metric.h: the profile, the band's
// danger table, the cost model) read through the navmesh's pricing classes (navmesh_ground.h),
// so a polygon costs what the grid's surface of the same ground costs and a lift ride what the
// grid's ride costs.
//
// A ground class costs Metric::Multiplier(its flags, marks, zone) seconds per run-speed yard;
// a lift class Metric::RideSeconds(its ride, the multiplier of its landing) over the yards
// between the connection's ends. The zones of a walk's two ends carry no danger. Passability is
// by flags: walk and swim for everyone, forest for light move profiles only.
#pragma once

#include <cstdint>

#include "nav/cost/metric.h"
#include "nav/navmesh/nav_areas.h"
#include "nav/navmesh/navmesh_ground.h"

namespace walk::nav {

// The most a class may cost per run-speed yard: forbidden ground is kept out by flags, and a
// finite cap keeps Detour's float costs finite whatever a model says.
inline constexpr double kNavMeshMaxMultiplier = 1e6;

struct NavMeshPricing {
  const Metric* metric = nullptr;         // borrowed; priced for the world the navmesh belongs to
  const NavMeshGround* ground = nullptr;  // borrowed; the navmesh's classes

  // The multiplier (seconds per run-speed yard, relative to plain ground) of class `area` with
  // zones `exempt_a` and `exempt_b` exempt from danger; 1 for a class the ground does not have.
  double ClassMultiplier(std::uint8_t area, std::uint16_t exempt_a, std::uint16_t exempt_b) const;
  // The polygon flags this walker may enter (Detour's include flags).
  std::uint16_t IncludedFlags() const;
  double run_yards_per_second() const { return metric->model().run_yards_per_second; }
};

}  // namespace walk::nav
