// How a walk is answered: what to settle, what to return, which search may answer.
#pragma once

#include <cstdint>

#include "nav/abstract/abstract_router.h"
#include "nav/cch/subgoal_hierarchies.h"
#include "nav/query/settle.h"
#include "nav/query/snap.h"
#include "nav/search/jump_grid.h"
#include "nav/search/method.h"
#include "nav/search/search_stop.h"

namespace walk::nav {

struct WalkOptions {
  SettleOptions settle;
  bool want_path = false;  // fill WalkAnswer::path
  bool try_straight_line = true;
  // kAuto: the fastest correct search. Forcing one (diagnostics) also skips the straight line.
  SearchMode search = SearchMode::kAuto;
  // The world's abstract graph, or nullptr (the fine grid answers).
  const AbstractRouter* router = nullptr;
  // The world's jump grids (nav/search/jump_grid.h), or nullptr: the fine grid's exact walks
  // then use the A* everywhere.
  const JumpGrids* jump_grids = nullptr;
  // The world's subgoal hierarchies (nav/cch/subgoal_hierarchies.h), or nullptr: kAuto's exact
  // walks on plain octile grids then go by jump points.
  const SubgoalHierarchies* subgoal_hierarchies = nullptr;
  // A fine-grid walk that has settled this many surfaces without an answer looks for a trap at
  // an end (nav/search/reach_check.h) before it goes on: the check costs far less than what a
  // trap costs the fine grid on a continent (everything the start reaches).
  std::uint64_t trap_check_after = 1u << 20;
  // When the walk's searches must stop (a cancelled call, a deadline, a work budget); may be
  // null. AnswerWalk then answers with the reason (SearchStop::Check).
  const SearchStop* stop = nullptr;
  // A walk dearer than this is not wanted (a trip's walk that could not improve the trip): a
  // danger band's search over the abstract graph stops once it has shown every walk costs more,
  // and the answer says only that (WalkAnswer::dearer). Other searches find the walk as usual.
  double max_seconds = kInfCost;
  // The places snapped already by the caller, or none: the walk snaps its places itself.
  GivenSnaps snaps = {};
};

}  // namespace walk::nav
