// Geometric lower bounds on the ways of a CCH query, for pruning: every input arc costs at least
// a fixed cost per octile column between its ends, so no way costs less than that times the
// octile distance between its ends (octile distance is a norm). Toward one side's endpoints the
// bound is taken to a shape around them: a disc (CchQuery) or a box (CchSplitQuery).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "nav/cch/cch.h"
#include "nav/cch/cch_request.h"
#include "nav/grid/ids.h"
#include "nav/grid/surface.h"

namespace walk::nav {

struct CchLandmarks;

// A lower bound on ways, for pruning queries: every input arc costs at least `cost_per_unit`
// times the octile distance between its ends' coordinates. Coordinates are by rank; not owned.
struct CchBound {
  const std::vector<float>* x = nullptr;  // by rank
  const std::vector<float>* y = nullptr;  // by rank
  double cost_per_unit = 0.0;
  const CchLandmarks* landmarks = nullptr;  // optional: tighter bounds (CchQuery only)

  // The largest cost_per_unit that holds for `weights` on arcs tails[a] -> heads[a], with node
  // coordinates x[node], y[node]; a hair below it, so rounding never makes a bound too high.
  static double LowestCostPerUnit(const std::vector<std::uint32_t>& tails,
                                  const std::vector<std::uint32_t>& heads,
                                  const std::vector<double>& weights, const std::vector<float>& x,
                                  const std::vector<float>& y);
};

// A lower bound on the cost of any way from a source to a target (endpoint costs included) under
// `bound`: the least, over pairs of endpoints, of both endpoints' costs plus cost_per_unit times
// the octile distance between them. kInfCost when a side has no endpoint.
double BoundBetween(const CchBound& bound, const Cch& cch, const std::vector<CchEndpoint>& sources,
                    const std::vector<CchEndpoint>& targets);

// Where one side's endpoints lie, for a split side's bound: a box of columns [x0, x1] x [y0, y1]
// around them (by CchBound's coordinates) and the least endpoint cost. Empty: no endpoint.
struct CchEndpointArea {
  double x0 = kInfCost, y0 = kInfCost, x1 = -kInfCost, y1 = -kInfCost;
  double cheapest = kInfCost;

  // The box around `endpoints`.
  static CchEndpointArea Of(const CchBound& bound, const Cch& cch,
                            const std::vector<CchEndpoint>& endpoints);
  // Octile columns from (x, y) to the box (0 inside it).
  double Columns(double x, double y) const {
    return OctileColumns(std::max({0.0, x0 - x, x - x1}), std::max({0.0, y0 - y, y - y1}));
  }
};

// A lower bound of the cost from a rank at (x, y) to the cheapest of some endpoints (or from
// them to it): their centre, how far the farthest lies from it, and the cheapest endpoint's cost.
struct CchEndpointDisc {
  double x = 0.0, y = 0.0, radius = 0.0, cheapest = 0.0, cost_per_unit = 0.0;

  CchEndpointDisc(const CchBound& bound, const Cch& cch, const std::vector<CchEndpoint>& endpoints);
  // dist(r, endpoint) + endpoint cost >= cost_per_unit * (octile(r, centre) - radius) + cheapest.
  double At(double rx, double ry) const {
    const double units = OctileColumns(std::abs(rx - x), std::abs(ry - y)) - radius;
    return (units > 0.0 ? cost_per_unit * units : 0.0) + cheapest;
  }
};

}  // namespace walk::nav
