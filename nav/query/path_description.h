// What a found walk is made of: its path pulled taut, with the seconds spent on each kind of
// ground. Points are in the world's frame (nav/grid/world_frame.h).
#pragma once

#include <vector>

#include "nav/cost/metric.h"
#include "nav/grid/grid.h"
#include "nav/query/answer.h"
#include "nav/search/fine_grid_astar.h"

namespace walk::nav {

// The points of `steps` (column centres at surface heights), pulled taut: each point is kept
// only when the segment from the last kept point past it fails SegmentWalkable; lift rides and
// falls always keep their ends. Seconds are summed by kind (walk, road, indoor, swim, steep,
// climb, jump, fall, lift) under `metric`.
PathDetail DescribePath(const Continent& continent, const WorldFrame& frame, const Metric& metric,
                        const std::vector<PathStep>& steps);

}  // namespace walk::nav
