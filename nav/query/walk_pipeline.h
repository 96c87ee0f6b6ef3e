// One walk answered, step by step: check the places (nav/query/place_check.h); snap both ends
// (snap.h); settle an end that stands in a small pocket (settle.h); choose the search and run it
// (search_choice.h); with no walk at the places' own heights, ask once more at their columns'
// usual floors; count the zone cells and, when asked, describe the path (path_description.h).
#pragma once

#include "absl/status/statusor.h"
#include "nav/abstract/abstract_router.h"
#include "nav/cost/metric.h"
#include "nav/grid/grid.h"
#include "nav/navmesh/navmesh_walkers.h"
#include "nav/query/answer.h"
#include "nav/query/walk_options.h"
#include "nav/search/fine_grid_astar.h"
#include "nav/search/jump_point_search.h"

namespace walk::nav {

// One thread's searchers: the fine-grid A*, jump point search, the abstract searcher and the
// navmesh walker. Their buffers are sized by the largest world searched and bound to none (the
// navmesh walker is bound again to each walk's navmesh, known by its serial, never its
// address); what is sized to one world's CCH is leased from that world (nav/grid/lease_pool.h)
// and goes with it when walkd reloads the world.
struct Searchers {
  FineGridAStar astar;
  JumpPointSearch jump;
  SubgoalHierarchySearch subgoal;
  AbstractSearcher abstract;
  NavMeshWalkers navmesh;
};

// Answers the walk from `from` to `to` on `world`, priced by `metric` (built for this world),
// searching with `searchers` (the caller's per-thread searchers).
// Errors: INVALID_ARGUMENT naming the field (a bad coordinate; ends on two continents),
// NOT_FOUND naming the field (no such continent), FAILED_PRECONDITION naming `search` (a forced
// search this world cannot do), and what options.stop says when it stops a search (CANCELLED,
// UNAVAILABLE, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED). Ends off the map, on no surface, or with
// no walk between them are answers with that status, not errors.
absl::StatusOr<WalkAnswer> AnswerWalk(const World& world, const Metric& metric, const Place& from,
                                      const Place& to, Searchers& searchers,
                                      const WalkOptions& options = WalkOptions());

// Where a walk between `from` and `to` on continent `c` found only at the columns' usual floors
// (WalkAnswer::retried) stands at its ends, as AnswerWalk answers: the places snapped without
// their heights, an end in a pocket apart from the other settled. For an answer kept without its
// ends (the walk store). False when an end does not snap.
bool UsualFloorEnds(const Continent& c, const WorldFrame& frame, const SettleOptions& settle,
                    Place from, Place to, End* from_end, End* to_end);

// The same on the fine grid alone (options.router and options.search are not consulted).
absl::StatusOr<WalkAnswer> AnswerWalk(const World& world, const Metric& metric, const Place& from,
                                      const Place& to, FineGridAStar& astar,
                                      const WalkOptions& options = WalkOptions());

}  // namespace walk::nav
