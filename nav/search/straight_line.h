// Walking a straight line over the grid by its links: the straight-line answer and the
// corner-safe segment test that pulls paths taut.
#pragma once

#include <optional>
#include <vector>

#include "nav/cost/metric.h"
#include "nav/grid/grid.h"
#include "nav/search/fine_grid_astar.h"

namespace walk::nav {

// Follows the 8-connected line of columns from `from` to the column of `to` (Bresenham's
// octile line: max(|dx|, |dy|) steps, so its length is the octile distance), taking each step by
// the surface's link in that direction (diagonals only when both orthogonal links exist).
// Returns the steps when the line reaches `to` by plain walking only: walk or indoor links onto
// ground whose multiplier under `metric` is exactly 1 (no road, water, steep face, hostile town
// or danger; the zones of `from` and `to` exempt). Otherwise nullopt.
std::optional<std::vector<PathStep>> PlainOctileLine(const Continent& continent,
                                                     const Metric& metric, SurfaceId from,
                                                     SurfaceId to);

// The corner-safe supercover segment test: true when the segment between the centres of the
// columns of `from` and `to` can be walked by links from `from` to exactly `to`, entering every
// column the segment passes through, and through a corner only when both columns beside it are
// linked (never squeezing past a blocked corner). Lifts are never part of a segment.
bool SegmentWalkable(const Continent& continent, SurfaceId from, SurfaceId to);

}  // namespace walk::nav
