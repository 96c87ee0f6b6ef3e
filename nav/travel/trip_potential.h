// The states of a trip's search and its potential (nav/travel/trip_search.h): each state's
// least seconds to the goal over lower bounds alone, by a Dijkstra back from the goal in which a
// ride costs its seconds and a walk its straight-line bound. Walks between nodes are bounded
// between cells (boxes of the travel index, nav/travel/travel_index.h: the least yards between
// two boxes), so the potential costs the rides and the cells' pairs, never the nodes' pairs.
// It is a lower bound of the rest of any trip and consistent (no edge costs less than the drop
// in potential across it), so the A* over it stays exact.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/search/search_stop.h"
#include "nav/travel/trip_search.h"

namespace walk::nav {

// A trip's states: the start (kTripStart), the goal (kTripGoal), node i after a ride or the
// hearthstone (free to walk or ride: kFirstNodePoint + i, its point) and node i reached on foot
// (to ride: kFirstNodePoint + nodes + i). Borrows the network and the ask.
class TripStates {
 public:
  TripStates(const TravelNetwork& network, const TripAsk& ask, const WalkBound& bound);

  std::size_t Count() const { return kFirstNodePoint + 2 * nodes_; }
  std::uint32_t Arrived(std::uint32_t node) const { return kFirstNodePoint + node; }
  std::uint32_t OnFoot(std::uint32_t node) const {
    return kFirstNodePoint + static_cast<std::uint32_t>(nodes_) + node;
  }
  bool IsOnFoot(std::uint32_t state) const { return state >= kFirstNodePoint + nodes_; }
  // The point (trip_search.h) of a state.
  std::uint32_t PointOf(std::uint32_t state) const {
    return IsOnFoot(state) ? state - static_cast<std::uint32_t>(nodes_) : state;
  }
  const Place& PlaceOf(std::uint32_t point) const;
  // The profile may use node `node`, and it is placed.
  bool Usable(std::uint32_t node) const { return usable_[node]; }
  // The hearthstone, when it may be cast (its bind node usable); else null.
  const Hearthstone* stone() const { return stone_; }
  const WalkBound& bound() const { return bound_; }
  const TravelNetwork& network() const { return network_; }

  // The slack of a walk's end at `point`, and the largest of any node's in `box`.
  double EndSlack(std::uint32_t point) const;
  double BoxSlack(const TravelBox& box) const { return bound_.EndSlackYards(box.may_settle); }
  // Some walk may join the two points: they stand on one continent, and in one region unless
  // either's is unknown.
  bool MayWalk(std::uint32_t a, std::uint32_t b) const;
  // The lower bound of the walk between two points of one continent.
  double WalkSeconds(std::uint32_t a, std::uint32_t b) const;

 private:
  const TravelNetwork& network_;
  const TripAsk& ask_;
  const WalkBound bound_;
  std::size_t nodes_ = 0;
  std::vector<bool> usable_;
  const Hearthstone* stone_ = nullptr;
};

struct TripPotential {
  std::vector<double> seconds;    // by state; infinity where the goal cannot be reached
  std::vector<double> box_least;  // by box of the index: the least over its usable nodes on foot
  std::uint64_t expansions = 0;   // states and cells settled
};

// The potential of `states` over `index`. Errors: what `stop` says (null: never stops).
absl::StatusOr<TripPotential> ComputeTripPotential(const TripStates& states,
                                                   const TravelIndex& index,
                                                   const SearchStop* stop);

}  // namespace walk::nav
