#include "nav/query/search_choice.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "nav/grid/road_distance.h"
#include "nav/search/reach_check.h"
#include "nav/search/straight_line.h"

namespace walk::nav {
namespace {

// The straight line answers only within this much of the best possible cost (the octile lower
// bound at the cheapest ground present), which makes it exact for the costs we have.
constexpr double kStraightLineSlack = 1.002;
// How far a trap check (nav/search/reach_check.h) grows each end's side before it gives up.
constexpr std::uint64_t kReachBudget = 1u << 20;

double OctileColumns(const Continent& c, SurfaceId a, SurfaceId b) {
  return nav::OctileColumns(std::abs(static_cast<double>(c.column_x[a]) - c.column_x[b]),
                            std::abs(static_cast<double>(c.column_y[a]) - c.column_y[b]));
}

// The least any walk from `a` to `b`, `octile` columns apart, can cost. Only roads and lifts are
// cheaper than plain ground (every other multiplier is at least 1), and a walk that takes one
// first crosses the plain columns between each end and the nearest road or lift landing
// (nav/grid/road_distance.h); the rest it may cover at the cheapest price there is.
double LeastSeconds(const SearchContext& x, SurfaceId a, SurfaceId b, double octile) {
  const Continent& c = x.continent;
  auto plain_columns = [&](SurfaceId s) {
    const std::uint32_t far = ColumnsToRoadAtLeast(c, c.column_x[s], c.column_y[s]);
    return far == 0 ? 0.0 : static_cast<double>(far - 1);
  };
  const double plain = std::min(octile, plain_columns(a) + plain_columns(b));
  return plain * x.metric.seconds_per_column() +
         (octile - plain) * x.metric.min_seconds_per_column();
}

// The straight line from `a` to `b` as the route, when it is plain walking and costs the least
// any walk between them could.
bool TakeStraightLine(const SearchContext& x, const End& a, const End& b, Route* route) {
  // The bound first: it reads two road distances, while tracing the line may read thousands of
  // columns, and the line's cost does not depend on its columns.
  const double octile = OctileColumns(x.continent, a.surface, b.surface);
  const double line_seconds = octile * x.metric.seconds_per_column();
  if (line_seconds > kStraightLineSlack * LeastSeconds(x, a.surface, b.surface, octile)) {
    return false;
  }
  std::optional<std::vector<PathStep>> line =
      PlainOctileLine(x.continent, x.metric, a.surface, b.surface);
  if (!line) return false;
  route->status = WalkStatus::kOk;
  route->method = Method::kStraightLine;
  route->seconds = line_seconds;
  route->yards = octile * x.frame.column_yards;
  route->steps = *std::move(line);
  return true;
}

// Whether the abstract graph answers: when forced, or under auto when the world has a graph for
// the profile and the ends are not near (the exact fine-grid walk is cheap there, and a detour
// to an entrance would be a large share of a short walk).
bool GraphAnswers(const SearchContext& x, const AbstractRouter* router, SearchMode mode,
                  const End& a, const End& b) {
  if (router == nullptr) return false;
  if (mode == SearchMode::kDijkstra || mode == SearchMode::kCch) return true;
  const bool near = OctileColumns(x.continent, a.surface, b.surface) <= router->near_columns();
  return mode == SearchMode::kAuto && !near && router->HasProfile(x.metric.profile().name) &&
         router->HasContinent(x.continent);
}

// The abstract graph's route into `route` (its method and stats even when it finds none).
absl::Status RouteOverGraph(const SearchContext& x, const AbstractRouter& router, SearchMode mode,
                            const End& a, const End& b, Route* route) {
  absl::StatusOr<AbstractWalk> walk = router.Route(x.continent, x.metric, a.surface, b.surface,
                                                   mode, x.options.want_path, *x.abstract);
  if (!walk.ok()) return walk.status();
  route->method = walk->method;
  route->stats = walk->stats;
  route->dearer = walk->dearer;
  if (!walk->found) return absl::OkStatus();
  route->status = WalkStatus::kOk;
  route->seconds = walk->seconds;
  route->yards = walk->yards;
  route->steps = std::move(walk->steps);
  route->zone_cells = std::move(walk->zone_cells);
  route->has_zone_cells = true;
  route->zone_cells_left_out = walk->zone_cells_left_out;
  return absl::OkStatus();
}

// The exact walk by jump points, when the continent is a plain octile grid priced alike
// everywhere: false when it is not (the A* answers). Under kAuto, by the continent's subgoal
// hierarchy where it has one (the same cost; quicker on every MovingAI set in total). No trap
// check: such a grid's links all go both ways, so two ends in one region always have a walk.
bool RouteByJumpPoints(const SearchContext& x, SearchMode mode, const End& a, const End& b,
                       Route* route, absl::Status* stopped) {
  const JumpGrid* grid = x.jump != nullptr && x.options.jump_grids != nullptr
                             ? x.options.jump_grids->For(x.continent.id)
                             : nullptr;
  double multiplier = 1.0;
  if (grid == nullptr || !grid->PricesUniformly(x.metric, &multiplier)) return false;
  const double per_column = x.metric.seconds_per_column() * multiplier;
  const SubgoalHierarchy* hierarchy =
      x.subgoal != nullptr && x.options.subgoal_hierarchies != nullptr && mode == SearchMode::kAuto
          ? x.options.subgoal_hierarchies->For(x.continent.id)
          : nullptr;
  route->method = hierarchy != nullptr ? Method::kSubgoalHierarchy : Method::kJumpPoints;
  const SearchResult found =
      hierarchy != nullptr
          ? x.subgoal->FindWalk(*hierarchy, x.continent, x.frame.column_yards, per_column,
                                a.surface, b.surface, &route->steps)
          : x.jump->FindWalk(*grid, x.continent, x.frame.column_yards, per_column, a.surface,
                             b.surface, &route->steps, UINT64_MAX, x.options.stop);
  route->stats.Add(found.stats);
  *stopped = found.stopped;
  if (found.found) {
    route->status = WalkStatus::kOk;
    route->seconds = found.seconds;
    route->yards = found.yards;
  }
  return true;
}

// The fine grid's route into `route`. With an end in a trap it would settle everything the
// start reaches before it knew: when the abstract graph found nothing (`graph_found_nothing`,
// most often a trap), or once the fine grid has searched long, the trap is looked for first.
// Jump points answer where they can (RouteByJumpPoints). A forced `grid` is the fine-grid walk and
// nothing else (diagnostics): no trap check.
absl::Status RouteOnFineGrid(const SearchContext& x, SearchMode mode, const End& a, const End& b,
                             bool graph_found_nothing, Route* route) {
  if (absl::Status stopped; RouteByJumpPoints(x, mode, a, b, route, &stopped)) return stopped;
  bool checked = false;
  auto trapped = [&] {
    const ReachResult reach = CheckReach(x.continent, x.metric, a.surface, b.surface, kReachBudget);
    route->stats.nodes_expanded += reach.visited;
    checked = true;
    if (reach.reach != Reach::kNo) return false;
    route->method = Method::kReach;
    return true;
  };
  if (graph_found_nothing && trapped()) return absl::OkStatus();
  route->method = Method::kFineGrid;
  const bool unchecked = checked || mode == SearchMode::kGrid;
  SearchResult found = x.astar.FindWalk(
      x.continent, x.frame.column_yards, x.metric, a.surface, b.surface, &route->steps,
      unchecked ? UINT64_MAX : x.options.trap_check_after, x.options.stop);
  route->stats.Add(found.stats);
  if (!found.stopped.ok()) return found.stopped;
  if (found.gave_up) {
    if (trapped()) return absl::OkStatus();
    found = x.astar.FindWalk(x.continent, x.frame.column_yards, x.metric, a.surface, b.surface,
                             &route->steps, UINT64_MAX, x.options.stop);
    route->stats.Add(found.stats);
    if (!found.stopped.ok()) return found.stopped;
  }
  if (found.found) {
    route->status = WalkStatus::kOk;
    route->seconds = found.seconds;
    route->yards = found.yards;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Route> SearchBetween(const SearchContext& x, const End& a, const End& b) {
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
  const SearchMode mode = x.abstract != nullptr ? x.options.search : SearchMode::kAuto;
  const AbstractRouter* router = x.abstract != nullptr ? x.options.router : nullptr;
  if (x.options.try_straight_line && mode == SearchMode::kAuto &&
      TakeStraightLine(x, a, b, &route)) {
    return route;
  }
  const bool forced_graph = mode == SearchMode::kDijkstra || mode == SearchMode::kCch;
  if (forced_graph && router == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("search: ", SearchModeName(mode),
                     " needs the world's abstract graph, and it has none (walkgrid prepare)"));
  }
  bool graph_found_nothing = false;
  if (x.abstract != nullptr) {
    x.abstract->stop = x.options.stop;
    x.abstract->max_seconds = x.options.max_seconds;
  }
  if (GraphAnswers(x, router, mode, a, b)) {
    if (absl::Status s = RouteOverGraph(x, *router, mode, a, b, &route); !s.ok()) return s;
    // The ends share a region, yet no way through the entrances: one-way links along a border
    // can hide an entrance from a leg. Under auto the fine grid has the last word.
    if (route.status == WalkStatus::kOk || route.dearer || mode != SearchMode::kAuto) return route;
    graph_found_nothing = true;
  }
  if (absl::Status s = RouteOnFineGrid(x, mode, a, b, graph_found_nothing, &route); !s.ok()) {
    return s;
  }
  return route;
}

}  // namespace walk::nav
