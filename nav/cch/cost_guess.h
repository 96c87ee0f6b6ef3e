// A guess of how much a walk costs over its lower bound, learnt from the walks answered, so
// that a CCH query can be pruned against a likely upper bound from its first rank instead of
// only once both sides meet (nav/cch/cch.h, CchQuery::Run's `below`). A guess too low only costs a
// second query without it: answers stay exact.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "nav/cch/cch.h"

namespace walk::nav {

class CostGuess {
 public:
  // The share of guesses meant to hold (the others ask twice). 0.9 rather than 0.8 on the
  // 32 x 32 world: half the second queries (17 of 200 walks, not 37), and a query on two
  // threads 363-369 us rather than 402-403 (its directions wait for the slower one, so a tighter
  // bound gains less there than a second query costs).
  static constexpr double kHolds = 0.9;

  // An upper bound likely to hold for a walk whose lower bound is `lower`.
  double Upper(double lower) const { return lower * factor_.load(std::memory_order_relaxed); }

  // Learns from a walk whose lower bound was `lower` and whose cost was `cost`: the factor
  // moves up by kStep * kHolds when the guess would not have held and down by
  // kStep * (1 - kHolds) when it would, so it settles where kHolds of the walks fit (a
  // stochastic quantile). Racing threads may lose an update; the factor stays a guess.
  void Learn(double lower, double cost) {
    if (!(lower > 0.0) || !(cost >= lower) || !(cost < 1e300)) return;
    const double factor = factor_.load(std::memory_order_relaxed);
    const bool held = cost < lower * factor;
    const double next =
        held ? factor * (1.0 - kStep * (1.0 - kHolds)) : factor * (1.0 + kStep * kHolds);
    factor_.store(next < 1.0 ? 1.0 : next, std::memory_order_relaxed);
  }

  double factor() const { return factor_.load(std::memory_order_relaxed); }

 private:
  static constexpr double kStep = 0.05;
  std::atomic<double> factor_{1.5};
};

// After a query against `guess`'s upper bound over `lower` answered `r`: when it found nothing
// that cheap, asks again without it (then *asked_twice, when given, is set); learns the cost.
inline CchQuery::Result RetryUnguessed(CchQuery& query, const CchMetric& metric,
                                       const CchBound& bound, CostGuess& guess, double lower,
                                       const std::vector<CchQuery::Seed>& sources,
                                       const std::vector<CchQuery::Seed>& targets,
                                       std::vector<std::uint32_t>* arc_path, bool* asked_twice,
                                       CchQuery::Result r) {
  if (asked_twice != nullptr) *asked_twice = !r.found;
  if (!r.found) r = query.Run(metric, sources, targets, arc_path, &bound);
  if (r.found) guess.Learn(lower, r.cost);
  return r;
}

// walkd's CCH query: pruned from the first rank against `guess`'s likely upper bound over
// `lower` (a lower bound on the walk: walkd's is BoundBetween the seeds), each direction on its
// own (RunSplit; on two threads when `both` finds a second), asked again without it when no
// way is that cheap (Run, which prunes against the meetings it finds; then *asked_twice, when
// given, is set), and the cost learnt. Same answer as Run with `bound` alone.
inline CchQuery::Result RunGuessed(CchQuery& query, const CchMetric& metric, const CchBound& bound,
                                   CostGuess& guess, double lower,
                                   const std::vector<CchQuery::Seed>& sources,
                                   const std::vector<CchQuery::Seed>& targets,
                                   std::vector<std::uint32_t>* arc_path,
                                   bool* asked_twice = nullptr,
                                   CchQuery::RunBoth both = CchQuery::OneAfterTheOther) {
  if (!(lower > 0.0)) {  // ends too close for a guess to help (and to learn from)
    if (asked_twice != nullptr) *asked_twice = false;
    return query.Run(metric, sources, targets, arc_path, &bound);
  }
  CchQuery::Result r =
      query.RunSplit(metric, sources, targets, arc_path, &bound, guess.Upper(lower), both);
  return RetryUnguessed(query, metric, bound, guess, lower, sources, targets, arc_path, asked_twice,
                        r);
}

}  // namespace walk::nav
