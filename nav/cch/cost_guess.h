// A guess of how much a walk costs over its lower bound, learnt from the walks answered, so
// that a CCH query can be pruned against a likely upper bound from its first rank instead of
// only once both sides meet (CchRequest's `below`; nav/cch/guessed_query.h). A guess too low only
// costs a second query without it: answers stay exact.
#pragma once

#include <atomic>
#include <cstdint>

namespace walk::nav {

class CostGuess {
 public:
  // The share of guesses meant to hold (the others ask twice). High rather than tight: a query
  // on two threads waits for its slower direction, so a tighter bound gains less there than a
  // second query costs.
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

}  // namespace walk::nav
