// Landmark (ALT) bounds for a CCH query: costs from and to a few landmarks far apart bound the
// rest of a way by the triangle inequality, tighter than the geometric bound (nav/cch/cch_bound.h)
// for seconds of work and tens of MB a metric.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "nav/cch/cch.h"
#include "nav/cch/cch_request.h"
#include "nav/grid/ids.h"

namespace walk::nav {

// Landmark costs: for `count` landmarks far apart, the cost from each landmark to every rank and
// from every rank to each landmark (by the triangle inequality, d(r, t) >= d(L, t) - d(L, r) and
// >= d(r, L) - d(t, L)). By rank, `count` floats a rank.
struct CchLandmarks {
  std::uint32_t count = 0;
  std::vector<float> from;  // [rank * count + l]: cost landmark l -> rank (infinity: none)
  std::vector<float> to;    // [rank * count + l]: cost rank -> landmark l

  // Chooses `count` landmarks (each the node farthest from those already chosen) and runs a
  // Dijkstra from and to each over arcs tails[a] -> heads[a] priced `weights`.
  static CchLandmarks Compute(const Cch& cch, const std::vector<std::uint32_t>& tails,
                              const std::vector<std::uint32_t>& heads,
                              const std::vector<double>& weights, std::uint32_t count);
  std::uint64_t MemoryBytes() const { return (from.capacity() + to.capacity()) * sizeof(float); }
};

// The landmark bound of one side of a query: for the forward side, of the rest of the way from a
// rank to the targets; for the backward side, of the way from the sources to a rank. Per
// landmark L, what the endpoints (cost c) contribute, by the triangle inequality:
//   to targets:    d(r,t) + c >= p - d(L,r), p = min (d(L,t) + c);
//                  d(r,t) + c >= d(r,L) - q, q = max (d(t,L) - c)
//   from sources:  d(s,r) + c >= d(L,r) - p, p = max (d(L,s) - c);
//                  d(s,r) + c >= q - d(r,L), q = min (d(s,L) + c)
// An infinite cost where a finite one is needed proves the rank cut off: the bound is infinite.
// Keeps a pointer to the landmarks, which must outlive it.
struct CchLandmarkBound {
  const CchLandmarks* marks;
  bool to_endpoints;
  std::vector<double> p, q;

  // The bound toward `endpoints` (the targets) when `to`, else from them (the sources).
  CchLandmarkBound(const CchLandmarks& m, const Cch& cch, const std::vector<CchEndpoint>& endpoints,
                   bool to);
  static double Cost(float c) { return std::isinf(c) ? kInfCost : static_cast<double>(c); }
  // a - b, a hair less (floats round); b finite, a possibly infinite.
  static double Less(double a, double b) { return a - b - 1e-6 * (std::abs(a) + std::abs(b)); }

  double At(std::uint32_t r) const {
    const std::size_t at = std::size_t{r} * marks->count;
    double bound = 0.0;
    for (std::uint32_t l = 0; l < marks->count; ++l) {
      const double from_l = Cost(marks->from[at + l]), to_l = Cost(marks->to[at + l]);
      if (to_endpoints) {
        if (from_l < kInfCost)
          bound = std::max(bound, p[l] < kInfCost ? Less(p[l], from_l) : kInfCost);
        if (q[l] < kInfCost) bound = std::max(bound, to_l < kInfCost ? Less(to_l, q[l]) : kInfCost);
      } else {
        if (p[l] < kInfCost)
          bound = std::max(bound, from_l < kInfCost ? Less(from_l, p[l]) : kInfCost);
        if (to_l < kInfCost) bound = std::max(bound, q[l] < kInfCost ? Less(q[l], to_l) : kInfCost);
      }
    }
    return bound;
  }
};

}  // namespace walk::nav
