// The cheapest trip between two places: walking all the way, or walk -> rides -> walk through a
// travel network (several rides, transfers walked between nodes of one continent, the
// hearthstone once). A trip never walks twice in a row: walking on past a node is one walk
// between the two ends, so a walk leads to a ride or to the goal.
//
// Exact, as an A* over the start, the goal and two states of each node a profile may use (there
// after a ride or a cast, free to walk or ride; there on foot, to ride), whose potential is each
// state's least seconds to the goal over lower bounds alone: every ride at its seconds, every
// walk at the straight line's bound, between boxes of nodes (nav/travel/travel_index.h) for the
// walks between nodes. Walk edges enter the queue at a lower bound of their cost, whole boxes of
// nodes at once, opened only when they reach the queue's front, and a walk is priced (a real
// walk) only when its own bound does; so walks that cannot matter are never asked, and nodes
// that cannot matter are never looked at. docs/trips.md.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/cost/cost_model.h"
#include "nav/search/search_stop.h"
#include "nav/travel/travel_network.h"

namespace walk::nav {

// The seconds of a way that is not there.
inline constexpr double kNoWaySeconds = std::numeric_limits<double>::infinity();

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
  // Asked at most some seconds (TripWalks::WalkAtMost), the walk was shown to cost more: not
  // found, and not an answer to keep.
  bool dearer = false;
  std::uint64_t expansions = 0;  // surfaces or nodes its search expanded (the trip's budget)
};

// A lower bound of every walk's seconds from the straight line between its places:
// max(0, yards - slack) x seconds_per_yard ({0, 0} is always one), where the slack is
// slack_yards less settle_yards for each end that is never settled (TravelNode::may_settle,
// TripAsk::from_may_settle and to_may_settle).
struct WalkBound {
  double seconds_per_yard = 0.0;
  double slack_yards = 0.0;   // both ends
  double settle_yards = 0.0;  // of slack_yards / 2, what only an end that may settle needs

  // The slack an end needs.
  double EndSlackYards(bool may_settle) const {
    return slack_yards / 2.0 - (may_settle ? 0.0 : settle_yards);
  }
  double Seconds(double straight_yards, double slack) const {
    return straight_yards > slack ? (straight_yards - slack) * seconds_per_yard : 0.0;
  }
  double Seconds(double straight_yards) const { return Seconds(straight_yards, slack_yards); }
};

// Prices the walks a trip may take, between points of one continent.
class TripWalks {
 public:
  virtual ~TripWalks() = default;
  // The walk from point `from` to point `to`. An error (a passed deadline, a cancelled call)
  // stops the trip's search with it.
  virtual absl::StatusOr<LegWalk> Walk(std::uint32_t from, std::uint32_t to) = 0;
  // The same walk, wanted only when it costs at most `max_seconds`: it may stop as soon as it
  // has shown the walk costs more (LegWalk::dearer); any walk it finds is Walk's. The trip asks
  // this of every walk but walking all the way, with what could still improve the trip.
  virtual absl::StatusOr<LegWalk> WalkAtMost(std::uint32_t from, std::uint32_t to,
                                             double max_seconds) {
    return Walk(from, to);
  }
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
  // The start's and goal's surfaces are in small regions, so their walks may settle them.
  bool from_may_settle = true;
  bool to_may_settle = true;
  // The regions their walks start and end in (nav/travel/travel_network.h, WalkRegion).
  std::uint32_t from_region = kAnyRegion;
  std::uint32_t to_region = kAnyRegion;
  // Checked as the search goes (its budget counts the states, boxes and walks it takes off its
  // queues and what the walks it prices expanded); null: never stops. The walks' own searches
  // are stopped by TripWalks.
  const SearchStop* stop = nullptr;
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
  std::uint32_t points_settled = 0;  // states (the start, the goal, nodes) taken off the queue
  std::uint64_t expansions = 0;      // everything taken off the queues: what the budget counts
};

// Finds the cheapest trip for `ask` over `network` (its nodes placed: nav/travel/
// travel_network.h; its index built there, or here when it has none), pricing walks with `walks`.
// Rides leave only from nodes `ask.profile` may use and that are placed. Errors:
// INVALID_ARGUMENT when ask.profile is null, what ask.stop says (RESOURCE_EXHAUSTED when the
// search spent its budget), and whatever `walks` returns.
absl::StatusOr<Trip> FindTrip(const TravelNetwork& network, const TripAsk& ask, TripWalks& walks);

// The straight-line yards between two places of one continent (0 across continents).
double StraightYards(const Place& a, const Place& b);

}  // namespace walk::nav
