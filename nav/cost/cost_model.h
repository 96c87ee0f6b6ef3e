// The cost model: what a step costs, in seconds, for a profile and a danger band.
//
// A step costs its length (1 or sqrt(2) columns x the column width, yards) at the run speed,
// times the multiplier of the surface it enters, plus a fixed cost for a jump or a fall:
//
//   seconds = yards / run_speed x ground(surface) x hostile(surface) x danger(zone) + fixed(kind)
//
// ground: road 0.8, water 2.0, steep 40, climb 1000, else 1 (the first that applies, in that
// order of precedence: climb, steep, water, road); hostile: 20 inside the other faction's towns
// and outposts; danger: per band, x3 or x20 by the zone's lowest level (nav/cost/danger.h), the
// zones of both ends exempt. A heavy move profile may not enter forest ground; nobody enters
// blocked ground. A lift ride costs its own wait plus its length at its own speed (each ride
// carries its timing: LiftRide, nav/grid/grid.h), as seconds, times the multiplier of the
// surface it lands on.
//
// The "shortest" pricing ignores all of that: every step costs its length (the MovingAI metric).
// Bump kCostModelVersion whenever a constant or rule here changes what a walk costs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "nav/grid/grid.h"

namespace walk::nav {

inline constexpr std::uint32_t kCostModelVersion = 1;

struct CostModel {
  double run_yards_per_second = 7.0;  // running pace on plain ground
  double road = 0.8;                  // players prefer roads
  double water = 2.0;                 // about three running yards per swum yard, in all
  double steep = 40.0;                // walking onto a steep face
  double climb = 1000.0;              // a climb: only when nothing else goes
  double hostile = 20.0;              // inside the other faction's town or outpost
  double jump_seconds = 0.5;          // added per jump (a small step up)
  double fall_seconds = 0.25;         // added per fall (a drop off a ledge)
  // The timing a lift is built with when it names none (ContinentBuilder::AddLift, a lifts
  // layer's defaults). A ride is priced by the timing it carries, not by these.
  double lift_wait_seconds = kDefaultLiftWaitSeconds;
  double lift_shaft_yards_per_second = kDefaultLiftShaftYardsPerSecond;
};

// The cost model every profile but "shortest" prices with.
const CostModel& DefaultCostModel();

enum class Pricing : std::uint8_t {
  kShortest,  // every step costs its length: the MovingAI metric
  kTerrain,   // the cost model above
};

// Which towns are hostile: faction A's towns are hostile to faction B and back.
enum class Faction : std::uint8_t { kNeutral, kA, kB };

// Heavy units (a passability class, as RTS games have them) may not enter forest ground.
enum class MoveProfile : std::uint8_t { kLight, kHeavy };

struct Profile {
  std::string name;
  Pricing pricing = Pricing::kTerrain;
  Faction faction = Faction::kNeutral;
  MoveProfile move = MoveProfile::kLight;
  // Walked yards = searched yards x smoothing: the arrow's smoothed line is a little shorter than
  // the column-by-column path.
  double smoothing = 0.961;
};

// The profile of that name, or nullptr. An empty name is "shortest".
const Profile* FindProfile(std::string_view name);
// Every profile name, sorted.
std::vector<std::string> ProfileNames();

}  // namespace walk::nav
