#include "nav/check/abstract_check.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include "absl/strings/str_cat.h"
#include "nav/query/snap.h"
#include "nav/query/walk_pipeline.h"

namespace walk::nav {

ExactnessReport CheckExactness(const World& world, const Metric& metric,
                               const AbstractRouter& router, std::uint32_t pairs,
                               std::uint64_t seed, SearchMode mode) {
  using Clock = std::chrono::steady_clock;
  ExactnessReport report;
  const Continent& c = world.continents.at(0);
  if (c.surface_count() == 0) return report;
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  Searchers searchers;
  FineGridAStar astar;
  WalkOptions abstract_options;
  abstract_options.router = &router;
  abstract_options.search = mode;
  // The oracle: the fine grid alone, without the trap check (it must not share a mistake).
  WalkOptions exact_options;
  exact_options.trap_check_after = UINT64_MAX;
  auto place_of = [&](SurfaceId s) { return PlaceOf(c, world.FrameOf(c), s); };
  auto problem = [&](std::string text) {
    ++report.disagree;
    if (report.problems.size() < 20) report.problems.push_back(std::move(text));
  };
  double seconds_sum = 0.0, yards_sum = 0.0;
  for (std::uint32_t i = 0; i < pairs; ++i) {
    const Place from = place_of(any(random)), to = place_of(any(random));
    ++report.pairs;
    const auto t0 = Clock::now();
    auto fast = AnswerWalk(world, metric, from, to, searchers, abstract_options);
    const auto t1 = Clock::now();
    auto exact = AnswerWalk(world, metric, from, to, astar, exact_options);
    const auto t2 = Clock::now();
    report.abstract_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    report.grid_us.push_back(std::chrono::duration<double, std::micro>(t2 - t1).count());
    if (!fast.ok() || !exact.ok()) {
      problem(absl::StrCat("pair ", i, ": ",
                           !fast.ok() ? fast.status().ToString() : exact.status().ToString()));
      continue;
    }
    const bool fast_found = fast->status == WalkStatus::kOk,
               exact_found = exact->status == WalkStatus::kOk;
    if (fast_found != exact_found) {
      problem(absl::StrCat("pair ", i, ": abstract says ", WalkStatusName(fast->status), " (",
                           MethodName(fast->method), "), the fine grid ",
                           WalkStatusName(exact->status)));
      continue;
    }
    if (!fast_found) {
      ++report.no_walk;
      continue;
    }
    ++report.compared;
    ++report.methods[static_cast<int>(fast->method)];
    const double seconds_excess = exact->seconds > 0.0 ? fast->seconds / exact->seconds - 1.0 : 0.0;
    const double yards_excess = exact->yards > 0.0 ? fast->yards / exact->yards - 1.0 : 0.0;
    if (seconds_excess < -1e-6) {
      problem(absl::StrCat("pair ", i, ": abstract ", fast->seconds, " s is below the exact ",
                           exact->seconds, " s"));
    }
    seconds_sum += seconds_excess;
    yards_sum += yards_excess;
    report.worst_seconds_excess = std::max(report.worst_seconds_excess, seconds_excess);
    report.worst_yards_excess = std::max(report.worst_yards_excess, yards_excess);
    report.least_yards_excess = std::min(report.least_yards_excess, yards_excess);
  }
  if (report.compared == 0) report.least_yards_excess = 0.0;
  if (report.compared > 0) {
    report.mean_seconds_excess = seconds_sum / report.compared;
    report.mean_yards_excess = yards_sum / report.compared;
  }
  return report;
}

}  // namespace walk::nav
