#include "nav/query/walk_pipeline.h"

#include <utility>

#include "nav/cost/zone_cells.h"
#include "nav/query/path_description.h"
#include "nav/query/place_check.h"
#include "nav/query/search_choice.h"
#include "nav/query/settle.h"
#include "nav/query/snap.h"

namespace walk::nav {
namespace {

// Both ends snapped and, where one stands in a small pocket apart from the other, settled.
struct Ends {
  Snap a, b;
  bool ok() const { return a.status == WalkStatus::kOk && b.status == WalkStatus::kOk; }
};

// Both given (snapped by the caller) where not null.
Ends SnapEnds(const Continent& c, const WorldFrame& frame, const SettleOptions& settle,
              const Place& from, const Place& to, const Snap* from_given = nullptr,
              const Snap* to_given = nullptr) {
  Ends ends{from_given != nullptr ? *from_given : SnapPlace(c, frame, from),
            to_given != nullptr ? *to_given : SnapPlace(c, frame, to)};
  if (ends.ok()) SettleApart(c, frame.column_yards, settle, &ends.a.end, &ends.b.end);
  return ends;
}

// The places' own heights found no walk: asks once more at their columns' usual floors, when
// those are other surfaces. On a walk found there, `route` and `ends` become its; the stats of
// the second search are added either way.
absl::Status RetryAtUsualFloors(const SearchContext& x, const Place& from, const Place& to,
                                Ends* ends, Route* route, SearchStats* stats, bool* retried) {
  Place from_floor = from, to_floor = to;
  from_floor.z_yards.reset();
  to_floor.z_yards.reset();
  Ends floors = SnapEnds(x.continent, x.frame, x.options.settle, from_floor, to_floor);
  if (floors.a.end.surface == ends->a.end.surface && floors.b.end.surface == ends->b.end.surface) {
    return absl::OkStatus();
  }
  *retried = true;
  absl::StatusOr<Route> again = SearchBetween(x, floors.a.end, floors.b.end);
  if (!again.ok()) return again.status();
  stats->Add(again->stats);
  if (again->status != WalkStatus::kOk) return absl::OkStatus();
  *route = *std::move(again);
  *ends = floors;
  return absl::OkStatus();
}

// The answer of a found `route`: seconds, yards after smoothing, zone cells, and the path.
void Describe(const SearchContext& x, Route& route, WalkAnswer* answer) {
  const double smoothing = x.metric.profile().smoothing;
  answer->seconds = route.seconds;
  answer->yards = route.yards * smoothing;
  answer->zone_cells_left_out = route.zone_cells_left_out;
  answer->zone_cells = route.has_zone_cells
                           ? std::move(route.zone_cells)
                           : ZoneCellsOf(x.continent, x.frame, smoothing, route.steps);
  if (x.options.want_path) {
    answer->path = DescribePath(x.continent, x.frame, x.metric, route.steps);
  }
}

absl::StatusOr<WalkAnswer> AnswerWith(const World& world, const Metric& metric, const Place& from,
                                      const Place& to, FineGridAStar& astar,
                                      AbstractSearcher* abstract, JumpPointSearch* jump,
                                      SubgoalHierarchySearch* subgoal, const WalkOptions& options) {
  absl::StatusOr<const Continent*> continent = ValidateEnds(world, from, to);
  if (!continent.ok()) return continent.status();
  const SearchContext x{
      **continent, world.FrameOf(**continent), metric, astar, abstract, options, jump, subgoal};

  WalkAnswer answer;
  Ends ends = SnapEnds(x.continent, x.frame, options.settle, from, to,
                       options.snaps.FromOn(x.continent), options.snaps.ToOn(x.continent));
  if (!ends.ok()) {
    if (ends.a.status == WalkStatus::kOk) answer.from_end = ends.a.end;
    if (ends.b.status == WalkStatus::kOk) answer.to_end = ends.b.end;
    answer.status = ends.a.status != WalkStatus::kOk ? ends.a.status : ends.b.status;
    return answer;
  }
  absl::StatusOr<Route> found = SearchBetween(x, ends.a.end, ends.b.end);
  if (!found.ok()) return found.status();
  Route route = *std::move(found);
  SearchStats stats = route.stats;
  if (route.dearer) {
    answer.dearer = true;
    answer.method = route.method;
    answer.stats = stats;
    return answer;
  }
  if (route.status != WalkStatus::kOk && (from.z_yards || to.z_yards)) {
    absl::Status s = RetryAtUsualFloors(x, from, to, &ends, &route, &stats, &answer.retried);
    if (!s.ok()) return s;
  }
  answer.from_end = ends.a.end;
  answer.to_end = ends.b.end;
  answer.from_zone = ends.a.end.zone;
  answer.to_zone = ends.b.end.zone;
  answer.status = route.status;
  answer.method = route.method;
  answer.stats = stats;
  if (route.status == WalkStatus::kOk) Describe(x, route, &answer);
  return answer;
}

}  // namespace

bool UsualFloorEnds(const Continent& c, const WorldFrame& frame, const SettleOptions& settle,
                    Place from, Place to, End* from_end, End* to_end) {
  from.z_yards.reset();
  to.z_yards.reset();
  const Ends ends = SnapEnds(c, frame, settle, from, to);
  if (!ends.ok()) return false;
  *from_end = ends.a.end;
  *to_end = ends.b.end;
  return true;
}

absl::StatusOr<WalkAnswer> AnswerWalk(const World& world, const Metric& metric, const Place& from,
                                      const Place& to, Searchers& searchers,
                                      const WalkOptions& options) {
  return AnswerWith(world, metric, from, to, searchers.astar, &searchers.abstract, &searchers.jump,
                    &searchers.subgoal, options);
}

absl::StatusOr<WalkAnswer> AnswerWalk(const World& world, const Metric& metric, const Place& from,
                                      const Place& to, FineGridAStar& astar,
                                      const WalkOptions& options) {
  return AnswerWith(world, metric, from, to, astar, nullptr, nullptr, nullptr, options);
}

}  // namespace walk::nav
