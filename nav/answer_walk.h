// One walk, step by step, as the seed walks it: validate; snap both ends; settle an end that
// stands in a small pocket; answer from regions when they differ; take the straight line when it
// is plain walking and provably optimal; else search the fine grid; with no walk at the places'
// own heights, ask once more at their columns' usual floors.
#pragma once

#include "absl/status/statusor.h"
#include "nav/grid.h"
#include "nav/metric.h"
#include "nav/snap.h"
#include "nav/walk_answer.h"
#include "nav/walker.h"

namespace walk::nav {

struct WalkOptions {
  SettleOptions settle;
  bool want_path = false;       // fill WalkAnswer::path
  bool try_straight_line = true;
};

// Answers the walk from `from` to `to` on `world`, priced by `metric` (built for this world),
// searching with `walker` (the caller's per-thread walker).
// Errors: INVALID_ARGUMENT naming the field (a bad coordinate; ends on two continents),
// NOT_FOUND naming the field (no such continent). Ends off the map, on no surface, or with no
// walk between them are answers with that status, not errors.
absl::StatusOr<WalkAnswer> AnswerWalk(const World& world, const Metric& metric, const Place& from,
                                      const Place& to, Walker& walker,
                                      const WalkOptions& options = WalkOptions());

}  // namespace walk::nav
