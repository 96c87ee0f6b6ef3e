// Choosing the search that answers a walk between two snapped ends, and running it: the same
// surface; different regions; the straight line when it is plain walking and provably optimal;
// the abstract graph (legs, then the CCH for band 0 or the danger-pricing Dijkstra) when the world
// has one for the profile and the ends are not near; else the fine grid, which first looks for a
// trap at an end when the graph found nothing or it has searched long (nav/search/reach_check.h).
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "nav/abstract/abstract_router.h"
#include "nav/cch/subgoal_hierarchy.h"
#include "nav/cost/metric.h"
#include "nav/cost/zone_cells.h"
#include "nav/grid/grid.h"
#include "nav/query/answer.h"
#include "nav/query/walk_options.h"
#include "nav/search/fine_grid_astar.h"
#include "nav/search/jump_point_search.h"

namespace walk::nav {

// What the searches of one walk read and use: the continent and its pricing, and the asking
// thread's searchers. `abstract` is null when only the fine grid may answer.
struct SearchContext {
  const Continent& continent;
  WorldFrame frame;
  const Metric& metric;
  FineGridAStar& astar;
  AbstractSearcher* abstract = nullptr;
  const WalkOptions& options;
  // The asking thread's jump point search, or null: exact walks on plain octile grids then use
  // the A* too (options.jump_grids says where the jump tables are).
  JumpPointSearch* jump = nullptr;
  // The asking thread's subgoal hierarchy search, or null: such walks then go by jump points
  // (options.subgoal_hierarchies says where the hierarchies are).
  SubgoalHierarchySearch* subgoal = nullptr;
};

// A route between two snapped ends: its status, method, cost and steps.
struct Route {
  WalkStatus status = WalkStatus::kNoWalk;
  Method method = Method::kTrivial;
  double seconds = 0.0;
  double yards = 0.0;  // searched, before smoothing
  std::vector<PathStep> steps;
  bool has_zone_cells = false;  // abstract walks tally their own
  std::vector<ZoneCell> zone_cells;
  bool zone_cells_left_out = false;  // a known walk's (KnownWalks): none tallied
  bool dearer = false;  // dearer than WalkOptions::max_seconds: not found, nothing else searched
  SearchStats stats;
};

// The route from `a` to `b`. Errors: FAILED_PRECONDITION naming `search` when a forced search
// cannot run on this world or profile; what options.stop says when it stops a search.
absl::StatusOr<Route> SearchBetween(const SearchContext& context, const End& a, const End& b);

}  // namespace walk::nav
