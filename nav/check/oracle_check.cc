#include "nav/check/oracle_check.h"

#include <chrono>
#include <cmath>
#include <random>

#include "absl/strings/str_cat.h"
#include "nav/check/reference_dijkstra.h"
#include "nav/query/snap.h"
#include "nav/query/walk_pipeline.h"

namespace walk::nav {

OracleReport OracleCheck(const World& world, const Metric& metric, std::uint32_t pairs,
                         std::uint64_t seed) {
  using Clock = std::chrono::steady_clock;
  OracleReport report;
  const Continent& c = world.continents.at(0);
  if (c.surface_count() == 0) return report;
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  FineGridAStar astar;
  auto place_of = [&](SurfaceId s) { return PlaceOf(c, world.FrameOf(c), s); };
  auto problem = [&](std::string text) {
    ++report.disagree;
    if (report.problems.size() < 20) report.problems.push_back(std::move(text));
  };
  for (std::uint32_t i = 0; i < pairs; ++i) {
    const SurfaceId a = any(random), b = any(random);
    ++report.pairs;
    const auto t0 = Clock::now();
    auto answer = AnswerWalk(world, metric, place_of(a), place_of(b), astar);
    report.walkd_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    if (!answer.ok() || !answer->from_end || !answer->to_end) {
      problem(absl::StrCat("pair ", i, ": ",
                           answer.ok() ? "an end did not snap" : answer.status().ToString()));
      continue;
    }
    report.settled += (answer->from_end->settled || answer->to_end->settled) ? 1 : 0;
    const auto t1 = Clock::now();
    const SearchResult oracle = ReferenceDijkstra(
        c, world.column_yards, metric, answer->from_end->surface, answer->to_end->surface);
    report.dijkstra_us.push_back(
        std::chrono::duration<double, std::micro>(Clock::now() - t1).count());
    const bool found = answer->status == WalkStatus::kOk;
    if (found != oracle.found) {
      problem(absl::StrCat("pair ", i, " (", a, " -> ", b, "): walkd says ",
                           WalkStatusName(answer->status), ", Dijkstra found ",
                           oracle.found ? "one" : "none"));
      continue;
    }
    if (!found) {
      ++report.no_walk;
      continue;
    }
    ++report.walks;
    report.straight_line += answer->method == Method::kStraightLine ? 1 : 0;
    const double rel = std::abs(answer->seconds - oracle.seconds) / std::max(1.0, oracle.seconds);
    report.worst_relative_difference = std::max(report.worst_relative_difference, rel);
    if (rel > 1e-6) {
      problem(absl::StrCat("pair ", i, ": walkd ", answer->seconds, " s, Dijkstra ", oracle.seconds,
                           " s"));
    }
  }
  return report;
}

}  // namespace walk::nav
