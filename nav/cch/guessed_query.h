// walkd's CCH query of one walk: pruned from its first rank against a likely upper bound, a
// learnt multiple (CostGuess) of a lower bound on the walk, and asked again without it when no
// way is that cheap, so that answers stay exact; the cost it finds is learnt.
#pragma once

#include <cstdint>
#include <vector>

#include "nav/cch/cch_bound.h"
#include "nav/cch/cch_metric.h"
#include "nav/cch/cch_path_unpacker.h"
#include "nav/cch/cch_query.h"
#include "nav/cch/cch_request.h"
#include "nav/cch/cch_split_query.h"
#include "nav/cch/cost_guess.h"

namespace walk::nav {

// One walk's guessed query. Nothing is owned; all must outlive the call.
struct GuessedCchRequest {
  const CchMetric& metric;
  const CchBound& bound;
  CostGuess& guess;
  // A lower bound on the walk's cost, which the guess multiplies (walkd's: BoundBetween the
  // endpoints, or StraightLineFloor for a cold walk).
  double lower;
  const std::vector<CchEndpoint>& sources;
  const std::vector<CchEndpoint>& targets;
  // Runs the split query's two directions, and its path's two halves, where it finds threads.
  CchRunBoth both = CchOneAfterTheOther;
  // Optional, not owned: lowered weights over `metric`'s (CchRequest::patch).
  const CchMetricPatch* patch = nullptr;
};

// The guessed query: `split` under the guess's upper bound over `request.lower` (each direction
// on its own; on two threads when `request.both` finds a second), asked again on `tree` with
// the bound alone when no way is that cheap (then *asked_twice, when given, is set), and the
// cost learnt. Ends too close for a guess (a lower bound of 0) go to `tree` at once. Same answer
// as CchQuery::Run with `request.bound` alone; `arc_path` as there.
CchResult RunGuessed(CchSplitQuery& split, CchQuery& tree, const GuessedCchRequest& request,
                     std::vector<std::uint32_t>* arc_path = nullptr, bool* asked_twice = nullptr);

// After a query under `request.guess`'s upper bound over `request.lower` answered `r`: when it
// found nothing that cheap, asks `tree` again with the bound alone (then *asked_twice, when
// given, is set); learns the cost. `request.both` is not used.
CchResult RetryUnguessed(CchQuery& tree, const GuessedCchRequest& request, CchResult r,
                         std::vector<std::uint32_t>* arc_path = nullptr,
                         bool* asked_twice = nullptr);

}  // namespace walk::nav
