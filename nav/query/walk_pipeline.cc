#include "nav/query/walk_pipeline.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "absl/strings/str_cat.h"
#include "nav/query/path_description.h"
#include "nav/search/reach_check.h"
#include "nav/search/straight_line.h"

namespace walk::nav {
namespace {

constexpr double kSqrt2 = 1.41421356237309504880;
// The straight line answers only within this much of the best possible cost (the octile lower
// bound at the cheapest ground present), which makes it exact for the costs we have.
constexpr double kStraightLineSlack = 1.002;
// How far a trap check (nav/search/reach_check.h) grows each end's side: a few hundred ms at most.
constexpr std::uint64_t kReachBudget = 1u << 20;

double OctileColumns(const Continent& c, SurfaceId a, SurfaceId b) {
  return nav::OctileColumns(std::abs(static_cast<double>(c.column_x[a]) - c.column_x[b]),
                            std::abs(static_cast<double>(c.column_y[a]) - c.column_y[b]));
}

void AddStats(const SearchStats& more, SearchStats* total) {
  total->nodes_expanded += more.nodes_expanded;
  total->heap_operations += more.heap_operations;
}

// A route between two snapped ends: its status, method, cost and steps.
struct Route {
  WalkStatus status = WalkStatus::kNoWalk;
  Method method = Method::kTrivial;
  double seconds = 0.0;
  double yards = 0.0;  // searched, before smoothing
  std::vector<PathStep> steps;
  bool has_zone_cells = false;  // abstract walks tally their own
  std::vector<ZoneCell> zone_cells;
  SearchStats stats;
};

absl::StatusOr<Route> FindRoute(const Continent& c, double column_yards, const Metric& metric,
                                const End& a, const End& b, FineGridAStar& astar,
                                AbstractSearcher* abstract, const WalkOptions& options) {
  Route route;
  if (a.surface == b.surface) {
    route.status = WalkStatus::kOk;
    route.steps = {{a.surface, PathStep::kViaStart}};
    return route;
  }
  if (a.region != b.region) {
    route.method = Method::kRegions;
    return route;
  }
  const SearchMode mode = abstract != nullptr ? options.search : SearchMode::kAuto;
  const AbstractRouter* router = abstract != nullptr ? options.router : nullptr;
  if (options.try_straight_line && mode == SearchMode::kAuto) {
    if (auto line = PlainOctileLine(c, metric, a.surface, b.surface)) {
      const double octile = OctileColumns(c, a.surface, b.surface);
      const double line_seconds = octile * metric.seconds_per_column();
      if (line_seconds <= kStraightLineSlack * octile * metric.min_seconds_per_column()) {
        route.status = WalkStatus::kOk;
        route.method = Method::kStraightLine;
        route.seconds = line_seconds;
        route.yards = octile * column_yards;
        route.steps = *std::move(line);
        return route;
      }
    }
  }
  const bool forced_abstract = mode == SearchMode::kDijkstra || mode == SearchMode::kCch;
  if (forced_abstract && router == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("search: ", SearchModeName(mode),
                     " needs the world's abstract graph, and it has none (walkgrid prepare)"));
  }
  // Near ends: the exact fine-grid walk is cheap there, and a detour to an entrance would be a
  // large share of a short walk.
  const bool near =
      OctileColumns(c, a.surface, b.surface) <= (router != nullptr ? router->near_columns() : 0.0);
  bool abstract_found_nothing = false;
  if (router != nullptr && (forced_abstract || (mode == SearchMode::kAuto && !near &&
                                                router->HasProfile(metric.profile().name)))) {
    absl::StatusOr<AbstractWalk> walk =
        router->Route(c, metric, a.surface, b.surface, mode, options.want_path, *abstract);
    if (!walk.ok()) return walk.status();
    route.method = walk->method;
    route.stats = walk->stats;
    if (walk->found) {
      route.status = WalkStatus::kOk;
      route.seconds = walk->seconds;
      route.yards = walk->yards;
      route.steps = std::move(walk->steps);
      route.zone_cells = std::move(walk->zone_cells);
      route.has_zone_cells = true;
      return route;
    }
    // The ends share a region, yet no way through the entrances: one-way links along a border
    // can hide an entrance from a leg. Under auto the fine grid has the last word.
    if (mode != SearchMode::kAuto) return route;
    abstract_found_nothing = true;
  }
  // The fine grid. With an end in a trap it would settle everything the start reaches before
  // it knew: when the abstract graph found nothing (most often a trap), or once the fine grid
  // has searched long, the trap is looked for first.
  bool checked = false;
  auto trapped = [&] {
    const ReachResult reach = CheckReach(c, metric, a.surface, b.surface, kReachBudget);
    route.stats.nodes_expanded += reach.visited;
    checked = true;
    if (reach.reach != Reach::kNo) return false;
    route.method = Method::kReach;
    return true;
  };
  if (abstract_found_nothing && trapped()) return route;
  route.method = Method::kFineGrid;
  // A forced `grid` is the fine-grid walk and nothing else (diagnostics): no trap check.
  const bool unchecked = checked || mode == SearchMode::kGrid;
  SearchResult found = astar.FindWalk(c, column_yards, metric, a.surface, b.surface, &route.steps,
                                      unchecked ? UINT64_MAX : options.trap_check_after);
  AddStats(found.stats, &route.stats);
  if (found.gave_up) {
    if (trapped()) return route;
    found = astar.FindWalk(c, column_yards, metric, a.surface, b.surface, &route.steps);
    AddStats(found.stats, &route.stats);
  }
  if (found.found) {
    route.status = WalkStatus::kOk;
    route.seconds = found.seconds;
    route.yards = found.yards;
  }
  return route;
}

absl::StatusOr<WalkAnswer> AnswerWith(const World& world, const Metric& metric, const Place& from,
                                      const Place& to, FineGridAStar& astar,
                                      AbstractSearcher* abstract, const WalkOptions& options) {
  if (absl::Status s = ValidatePlace(from, world.column_yards, "from"); !s.ok()) return s;
  if (absl::Status s = ValidatePlace(to, world.column_yards, "to"); !s.ok()) return s;
  if (from.continent != to.continent) {
    return absl::InvalidArgumentError(absl::StrCat("to.continent: ", to.continent,
                                                   " differs from from.continent ", from.continent,
                                                   "; walks never cross continents"));
  }
  const Continent* continent = world.FindContinent(from.continent);
  if (continent == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("from.continent: the world has no continent ", from.continent));
  }
  const Continent& c = *continent;

  WalkAnswer answer;
  Snap a = SnapPlace(c, world.column_yards, from);
  Snap b = SnapPlace(c, world.column_yards, to);
  if (a.status != WalkStatus::kOk || b.status != WalkStatus::kOk) {
    if (a.status == WalkStatus::kOk) answer.from_end = a.end;
    if (b.status == WalkStatus::kOk) answer.to_end = b.end;
    answer.status = a.status != WalkStatus::kOk ? a.status : b.status;
    return answer;
  }
  // An end in a small pocket, apart from the other end, is settled onto a large region.
  auto settle = [&](End* x, const End& other) {
    if (x->region != other.region) SettleEnd(c, world.column_yards, options.settle, x);
  };
  settle(&a.end, b.end);
  settle(&b.end, a.end);

  absl::StatusOr<Route> found =
      FindRoute(c, world.column_yards, metric, a.end, b.end, astar, abstract, options);
  if (!found.ok()) return found.status();
  Route route = *std::move(found);
  SearchStats stats = route.stats;
  if (route.status != WalkStatus::kOk && (from.z_yards || to.z_yards)) {
    // The places' own heights found no walk: ask once more at the columns' usual floors.
    Place from_floor = from, to_floor = to;
    from_floor.z_yards.reset();
    to_floor.z_yards.reset();
    Snap a2 = SnapPlace(c, world.column_yards, from_floor);
    Snap b2 = SnapPlace(c, world.column_yards, to_floor);
    settle(&a2.end, b2.end);
    settle(&b2.end, a2.end);
    if (a2.end.surface != a.end.surface || b2.end.surface != b.end.surface) {
      answer.retried = true;
      absl::StatusOr<Route> retried =
          FindRoute(c, world.column_yards, metric, a2.end, b2.end, astar, abstract, options);
      if (!retried.ok()) return retried.status();
      Route again = *std::move(retried);
      AddStats(again.stats, &stats);
      if (again.status == WalkStatus::kOk) {
        route = std::move(again);
        a = a2;
        b = b2;
      }
    }
  }
  answer.from_end = a.end;
  answer.to_end = b.end;
  answer.status = route.status;
  answer.method = route.method;
  answer.stats = stats;
  if (route.status != WalkStatus::kOk) return answer;
  const double smoothing = metric.profile().smoothing;
  answer.seconds = route.seconds;
  answer.yards = route.yards * smoothing;
  answer.zone_cells = route.has_zone_cells
                          ? std::move(route.zone_cells)
                          : ZoneCellsOf(c, world.column_yards, smoothing, route.steps);
  if (options.want_path) answer.path = DescribePath(c, world.column_yards, metric, route.steps);
  return answer;
}

}  // namespace

absl::StatusOr<WalkAnswer> AnswerWalk(const World& world, const Metric& metric, const Place& from,
                                      const Place& to, Searchers& searchers,
                                      const WalkOptions& options) {
  return AnswerWith(world, metric, from, to, searchers.astar, &searchers.abstract, options);
}

absl::StatusOr<WalkAnswer> AnswerWalk(const World& world, const Metric& metric, const Place& from,
                                      const Place& to, FineGridAStar& astar,
                                      const WalkOptions& options) {
  return AnswerWith(world, metric, from, to, astar, nullptr, options);
}

}  // namespace walk::nav
