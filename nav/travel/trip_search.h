// The cheapest trip between two places: walking all the way, or walk -> rides -> walk through a
// travel network (several rides, transfers walked between nodes of one continent, the
// hearthstone once). Exact: an A* over the start, the goal and the nodes a profile may use, its
// potential each point's least seconds to the goal over the walks' bounds and the rides; walk
// edges enter the queue at a lower bound of their cost and are priced (a real walk) only when
// they reach its front, so walks that cannot matter are never asked. docs/trips.md.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/cost/cost_model.h"
#include "nav/travel/travel_network.h"

namespace walk::nav {

// The points of a trip: the start, the goal, then node i as point kFirstNodePoint + i.
inline constexpr std::uint32_t kTripStart = 0;
inline constexpr std::uint32_t kTripGoal = 1;
inline constexpr std::uint32_t kFirstNodePoint = 2;

// A walk between two points, as the walk pipeline answered it.
struct LegWalk {
  bool found = false;
  double seconds = 0.0;
  double yards = 0.0;
  bool stored = false;  // the walk store (or a cache) answered: no search ran
};

// A lower bound of every walk's seconds from the straight line between its places:
// max(0, yards - slack_yards) x seconds_per_yard ({0, 0} is always one).
struct WalkBound {
  double seconds_per_yard = 0.0;
  double slack_yards = 0.0;

  double Seconds(double straight_yards) const {
    return straight_yards > slack_yards ? (straight_yards - slack_yards) * seconds_per_yard : 0.0;
  }
};

// Prices the walks a trip may take, between points of one continent.
class TripWalks {
 public:
  virtual ~TripWalks() = default;
  // The walk from point `from` to point `to`. An error (a passed deadline, a cancelled call)
  // stops the trip's search with it.
  virtual absl::StatusOr<LegWalk> Walk(std::uint32_t from, std::uint32_t to) = 0;
  // A bound that no walk found by Walk costs less than.
  virtual WalkBound Bound() const = 0;
  // A tighter lower bound of Walk(from, to).seconds than Bound's, dearer to find but much
  // cheaper than the walk (a danger band's walk bounded by its band-0 walk); infinity when the
  // walk will not be found; nullopt when there is none. Asked before the walk, when its
  // straight-line bound reaches the queue's front. Errors stop the search.
  virtual absl::StatusOr<std::optional<double>> RefinedBound(std::uint32_t from, std::uint32_t to) {
    return std::nullopt;
  }
};

struct TripAsk {
  Place from;
  Place to;
  const Profile* profile = nullptr;  // required: it decides which nodes may be used
  // The hearthstone may be cast: it is off cooldown, or will be after `hearthstone_wait_seconds`
  // (the trip then waits for it before casting). Ignored for a profile without one.
  bool hearthstone_ready = true;
  double hearthstone_wait_seconds = 0.0;
  // Also price walking all the way when the search did not need to (Trip::walk).
  bool price_walk = false;
  // The goal stands on a surface: false (off the map, in a wall, in deep water) means no walk
  // reaches it from anywhere, so there is no trip, and nothing is searched.
  bool goal_on_surface = true;
};

enum class TripLegKind : std::uint8_t { kWalk, kWait, kRide, kHearthstone };
const char* TripLegKindName(TripLegKind kind);  // "walk", "wait", "ride", "hearthstone"

struct TripLeg {
  TripLegKind kind = TripLegKind::kWalk;
  RideKind ride = RideKind::kFlight;  // for kRide
  std::uint32_t from_point = kTripStart;
  std::uint32_t to_point = kTripGoal;
  double seconds = 0.0;
  // Walked yards for a walk; the straight line between the nodes for a ride on one continent
  // (0 across continents, for portals and for the hearthstone and waits).
  double yards = 0.0;
  bool stored = false;  // a walk the store answered
};

struct Trip {
  bool found = false;  // some trip reaches the goal
  double seconds = 0.0;
  double yards = 0.0;
  std::vector<TripLeg> legs;  // in order; a wait leg comes before the ride or cast it waits for
  bool rode = false;          // some leg is a ride or the hearthstone
  // The hearthstone was cast, this many seconds into the trip (after any wait for it).
  bool hearthstone_used = false;
  double hearthstone_cast_at_seconds = 0.0;
  // Walking all the way, when it was priced (it always is when it is the answer, or when
  // TripAsk::price_walk asked); unset across continents.
  std::optional<LegWalk> walk;
  std::uint32_t walks_priced = 0;    // walks asked of TripWalks
  std::uint32_t points_settled = 0;  // points taken off the queue
};

// Finds the cheapest trip for `ask` over `network` (its nodes placed: nav/travel/
// travel_network.h), pricing walks with `walks`. Rides leave only from nodes `ask.profile` may
// use and that are placed. Errors: INVALID_ARGUMENT when ask.profile is null, and whatever
// `walks` returns.
absl::StatusOr<Trip> FindTrip(const TravelNetwork& network, const TripAsk& ask, TripWalks& walks);

// The straight-line yards between two places of one continent (0 across continents).
double StraightYards(const Place& a, const Place& b);

}  // namespace walk::nav
