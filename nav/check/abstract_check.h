// How close abstract-graph walks come to the exact fine-grid walk: random pairs of a world,
// answered both ways. Used by `walkgrid abstract-check`, the benchmarks and the tests.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "nav/abstract/abstract_router.h"
#include "nav/cost/metric.h"
#include "nav/grid/grid.h"

namespace walk::nav {

struct ExactnessReport {
  std::uint32_t pairs = 0;
  std::uint32_t compared = 0;  // both found a walk
  std::uint32_t no_walk = 0;   // both found none
  std::uint32_t disagree = 0;  // one found a walk and the other none, or an error
  // Relative excess of the abstract walk over the exact one (0.01 = 1 % longer).
  double mean_seconds_excess = 0.0;
  double worst_seconds_excess = 0.0;
  // Yards may also come out shorter: these are signed. Where the profile's cost is not yards
  // (neutral: seconds), a walk that costs more may be shorter, so the least is below zero.
  double mean_yards_excess = 0.0;
  double worst_yards_excess = 0.0;
  double least_yards_excess = kInfCost;               // 0 when nothing was compared
  std::array<std::uint32_t, kMethodCount> methods{};  // how the abstract answers were found
  std::vector<double> abstract_us;                    // per pair, the whole AnswerWalk
  std::vector<double> grid_us;
  std::vector<std::string> problems;  // at most 20
};

// Asks `pairs` walks between random surfaces of continent 0 (seed `seed`), once through `router`
// with `mode` and once on the fine grid (exact), priced by `metric`.
ExactnessReport CheckExactness(const World& world, const Metric& metric,
                               const AbstractRouter& router, std::uint32_t pairs,
                               std::uint64_t seed, SearchMode mode);

}  // namespace walk::nav
