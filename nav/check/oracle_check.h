// walkd's answers against an independent plain Dijkstra on random pairs of a world: the
// correctness check of the cost model and the whole walk pipeline (snap, settle, regions,
// straight line, A*), used by tests and by `walkgrid oracle-check`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nav/cost/metric.h"
#include "nav/grid/grid.h"

namespace walk::nav {

struct OracleReport {
  std::uint32_t pairs = 0;
  std::uint32_t walks = 0;          // both found a walk, costs compared
  std::uint32_t no_walk = 0;        // both found none
  std::uint32_t straight_line = 0;  // answered by the straight line
  std::uint32_t settled = 0;        // an end was settled
  std::uint32_t disagree = 0;       // found/not found differ, or seconds differ by > 1e-6 rel.
  double worst_relative_difference = 0.0;
  std::vector<double> walkd_us;       // per pair, the whole AnswerWalk
  std::vector<double> dijkstra_us;    // per pair
  std::vector<std::string> problems;  // one line per disagreement (at most 20)
};

// Asks `pairs` walks between random surfaces of continent 0 (seed `seed`; each place at its
// surface's column centre and height) and compares each answer's seconds with a plain Dijkstra
// between the surfaces the answer's ends snapped to.
OracleReport OracleCheck(const World& world, const Metric& metric, std::uint32_t pairs,
                         std::uint64_t seed);

}  // namespace walk::nav
