// How a customized metric's weights are kept and read: as doubles, or as floats where every
// weight is a whole number of ticks (1/256 s) below 2^24 of them, which a float holds exactly.
// Prices rounded up to whole ticks (OnTicks) are what lets a metric keep the smaller form;
// docs/abstract_graph.md says which prices are.
#pragma once

#include <cmath>
#include <cstddef>

#include "nav/grid/ids.h"

namespace walk::nav {

// The weights of one direction as queries read them, whichever way the metric keeps them: in
// doubles, or in floats of whole ticks. Such a float converts exactly to the double it stands
// for, and sums of those are exact (queries add in doubles), so a query answers the same cost
// either way; infinity stays infinity.
class CchWeights {
 public:
  // A power of two, so that sums of ticks stay exact.
  static constexpr double kTickSeconds = 1.0 / 256;
  // Floats hold whole ticks exactly below this (2^24 ticks: 18 hours).
  static constexpr double kMostFloatSeconds = 16777216.0 * kTickSeconds;

  explicit CchWeights(const double* wide) : wide_(wide) {}
  explicit CchWeights(const float* narrow) : narrow_(narrow) {}

  double operator[](std::size_t arc) const {
    return narrow_ == nullptr ? wide_[arc] : narrow_[arc];
  }

 private:
  const double* wide_ = nullptr;
  const float* narrow_ = nullptr;
};

// `seconds` rounded up to a whole tick (CchWeights::kTickSeconds): prices in whole ticks let a
// metric keep 4 bytes a weight, exactly, and rounded up they still never undercut the way they
// price. Infinity stays infinity.
inline double OnTicks(double seconds) {
  return seconds < kInfCost
             ? std::ceil(seconds / CchWeights::kTickSeconds) * CchWeights::kTickSeconds
             : seconds;
}

}  // namespace walk::nav
