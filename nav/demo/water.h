// The demo world's water: rivers running west to east across the map, and lakes on them.
// Internal to nav/demo.
#pragma once

#include <cstdint>
#include <vector>

#include "nav/demo/context.h"
#include "nav/demo/demo_world.h"
#include "nav/demo/plane.h"
#include "nav/demo/terrain.h"

namespace walk::nav::demo {

inline constexpr double kBankRise = 0.3;  // the bank above the water's edge, yards
inline constexpr double kMaxRiverHalfWidth = 9.0;
inline constexpr double kLakeShape = 0.22;  // a lake's radius varies by this fraction

struct River {
  double x0 = 0.0;  // points[i].x = x0 + i * step: a river is a function of x
  double step = 12.0;
  std::vector<Vec2> points;   // west to east (the way it flows)
  std::vector<double> level;  // water level at each point, never rising downstream
  std::vector<double> half_width;
  double y_min = 0.0, y_max = 0.0;
};

struct Lake {
  Vec2 center;
  double radius = 0.0;
  double level = 0.0;
  std::uint64_t shape = 0;  // the random seed of its wavy shore
};

// The point of a river nearest a query point.
struct RiverHit {
  double distance = 0.0, level = 0.0, half_width = 0.0;
};

// The point of river `r` nearest p when it lies closer than `limit` (then true, and *hit says
// where); false otherwise.
bool NearestOnRiver(const River& r, Vec2 p, double limit, RiverHit* hit);

// River r's y at x (clamped to its ends).
double RiverYAt(const River& r, double x);

// Distance from p to the lake's wavy shore, negative inside.
double LakeEdgeDistance(const Lake& lake, Vec2 p);

// The rivers and lakes of the plan, and the queries that look at all of them.
class Water {
 public:
  // Lays the rivers across a map `width` x `height` yards: each has a band of the map's height
  // and a polyline sampled every 12 yards; its levels are the hills along it, sunk a yard,
  // smoothed, and made never to rise downstream.
  void LayRivers(const DemoOptions& options, double width, double height, const Hills& hills);
  // Lays the lakes on the rivers (the river is level through each, eased back in and out).
  void LayLakes(const DemoOptions& options);

  const std::vector<River>& rivers() const { return rivers_; }
  const std::vector<Lake>& lakes() const { return lakes_; }
  // The river between the factions' halves: faction A's towns lie north of it, B's south.
  const River& faction_river() const { return rivers_[static_cast<std::size_t>(faction_river_)]; }

  // True when p lies in the water of one of the context's rivers or lakes; *level receives its
  // level.
  bool At(Vec2 p, const Context& c, double* level) const;
  // Distance to the nearest water's edge (negative inside), at most `limit`; *level (when given)
  // receives that water's level, and is left alone when none is within the limit.
  double Distance(Vec2 p, double limit, double* level = nullptr) const;

 private:
  std::vector<River> rivers_;
  int faction_river_ = 0;
  std::vector<Lake> lakes_;
};

}  // namespace walk::nav::demo
