// The plain trip search that the pruned one (nav/travel/trip_search.h) is checked and benchmarked
// against: a Dijkstra over the same states (the start, the goal, each node after a ride and on
// foot), with no potential and no boxes: every state it settles that may walk queues a walk to
// every usable node of its continent and to the goal, each at its straight-line bound, and
// prices it when it reaches the queue's front. Exact by construction, and as slow as that sounds
// on a large network. Linked by tests and benchmarks, never by walkd.
#pragma once

#include "absl/status/statusor.h"
#include "nav/travel/trip_search.h"

namespace walk::nav {

// The cheapest trip for `ask`, as FindTrip answers it (found, seconds, legs, walk, walks_priced,
// points_settled). Errors: INVALID_ARGUMENT when ask.profile is null, and what `walks` returns.
absl::StatusOr<Trip> FindTripPlainly(const TravelNetwork& network, const TripAsk& ask,
                                     TripWalks& walks);

}  // namespace walk::nav
