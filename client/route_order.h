// Improving the order of a route's stops: the stops marked free may move, the others keep their
// places. Or-opt (move one free stop elsewhere) and 2-opt (reverse a run of free stops), until no
// move saves time. Costs come from a matrix of walk seconds between the stops.
#pragma once

#include <cstddef>
#include <vector>

namespace walk::client {

// seconds[i][j]: the time from stop i to stop j.
using SecondsMatrix = std::vector<std::vector<double>>;

// The route's total time in `order` (stop indices).
double RouteSeconds(const SecondsMatrix& seconds, const std::vector<std::size_t>& order);

// A better order of stops 0 .. n-1 (starting from 0, 1, ..., n-1): every stop with free[i]
// false stays at position i; free stops may take any free position. Never worse than the
// original; deterministic.
std::vector<std::size_t> ImproveOrder(const SecondsMatrix& seconds, const std::vector<bool>& free);

}  // namespace walk::client
