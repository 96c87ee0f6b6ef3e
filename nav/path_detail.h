// What a found walk is made of: its zone cells, and its path pulled taut with the seconds spent
// on each kind of ground.
#pragma once

#include <vector>

#include "nav/grid.h"
#include "nav/metric.h"
#include "nav/walk_answer.h"
#include "nav/walker.h"

namespace walk::nav {

inline constexpr double kZoneCellYards = 200.0;

// The walked yards (step yards x smoothing) of `steps` per 200-yard zone cell and zone; a step
// counts in the cell and zone of the surface it enters. Lift rides walk no yards.
std::vector<ZoneCell> ZoneCellsOf(const Continent& continent, double column_yards,
                                  double smoothing, const std::vector<PathStep>& steps);

// The points of `steps` (column centres at surface heights), pulled taut: each point is kept
// only when the segment from the last kept point past it fails SegmentWalkable; lift rides and
// falls always keep their ends. Seconds are summed by kind (walk, road, indoor, swim, steep,
// climb, jump, fall, lift) under `metric`.
PathDetail DescribePath(const Continent& continent, double column_yards, const Metric& metric,
                        const std::vector<PathStep>& steps);

}  // namespace walk::nav
