// One walk, step by step, as the seed walks it: validate; snap both ends; settle an end that
// stands in a small pocket; answer from regions when they differ; take the straight line when it
// is plain walking and provably optimal; else search: the abstract graph (legs, then the CCH for
// band 0 or the danger-pricing Dijkstra) when the world has one for the profile, else the fine
// grid, which first looks for a trap at an end when the graph found nothing or it has searched
// long (nav/search/reach_check.h); with no walk at the places' own heights, ask once more at their
// columns' usual floors.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "nav/abstract/abstract_router.h"
#include "nav/cost/metric.h"
#include "nav/grid/grid.h"
#include "nav/query/answer.h"
#include "nav/query/snap.h"
#include "nav/search/fine_grid_astar.h"

namespace walk::nav {

struct WalkOptions {
  SettleOptions settle;
  bool want_path = false;  // fill WalkAnswer::path
  bool try_straight_line = true;
  // kAuto: the fastest correct search. Forcing one (diagnostics) also skips the straight line.
  SearchMode search = SearchMode::kAuto;
  // The world's abstract graph, or nullptr (the fine grid answers).
  const AbstractRouter* router = nullptr;
  // A fine-grid walk that has settled this many surfaces without an answer looks for a trap at
  // an end (nav/search/reach_check.h) before it goes on: a few hundred ms at most, against the tens
  // of seconds a trap costs it on a continent.
  std::uint64_t trap_check_after = 1u << 20;
};

// One thread's searchers: the fine-grid walker and the abstract searcher.
struct Searchers {
  FineGridAStar astar;
  AbstractSearcher abstract;
};

// Answers the walk from `from` to `to` on `world`, priced by `metric` (built for this world),
// searching with `searchers` (the caller's per-thread searchers).
// Errors: INVALID_ARGUMENT naming the field (a bad coordinate; ends on two continents),
// NOT_FOUND naming the field (no such continent), FAILED_PRECONDITION naming `search` (a forced
// search this world cannot do). Ends off the map, on no surface, or with no walk between them
// are answers with that status, not errors.
absl::StatusOr<WalkAnswer> AnswerWalk(const World& world, const Metric& metric, const Place& from,
                                      const Place& to, Searchers& searchers,
                                      const WalkOptions& options = WalkOptions());

// The same on the fine grid alone (options.router and options.search are not consulted).
absl::StatusOr<WalkAnswer> AnswerWalk(const World& world, const Metric& metric, const Place& from,
                                      const Place& to, FineGridAStar& astar,
                                      const WalkOptions& options = WalkOptions());

}  // namespace walk::nav
