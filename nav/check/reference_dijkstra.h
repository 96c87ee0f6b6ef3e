// A plain Dijkstra over the surface links: the oracle the walker is tested against and the
// baseline it is benchmarked against. Deliberately textbook: fresh arrays per call,
// std::priority_queue with lazy deletion, no heuristic. Not for serving.
#pragma once

#include "nav/cost/metric.h"
#include "nav/grid/grid.h"
#include "nav/search/fine_grid_astar.h"

namespace walk::nav {

// The cheapest walk from `from` to `to`, by the same rules as FineGridAStar::FindWalk (diagonals
// only with both orthogonal links, steps priced by `metric`, lifts ridden), found without a
// heuristic.
SearchResult ReferenceDijkstra(const Continent& continent, double column_yards,
                               const Metric& metric, SurfaceId from, SurfaceId to);

}  // namespace walk::nav
