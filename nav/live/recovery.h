// Recovering a unit that stands where it may not: after a building finished on top of it, a
// resource was placed under it, a save was loaded onto a changed map. The specification's rule:
// valid -> blocked is refused, but invalid -> valid is allowed, and the escape is narrow: the
// nearest recovery cell, then the unit's existing order continues from there.
//
// FindRecovery chooses the cell: the first ring around the start (radius 1 .. max_radius) that
// holds any cell standable for the unit, and in it the cell
//   1. in the goal's region (the unit's side facing its order: a unit caught in a wall escapes to
//      the side it can walk on toward its goal, not the nearer side it could never leave), then
//   2. nearest the start (Euclidean: a side before a corner), then
//   3. nearest the goal, then the first in row-major order.
// Only the first ring is looked at: recovery never carries a unit further than its nearest way
// out, even to reach the goal's side. The cell need only be standable: no body radius applies
// (the specification's one zero-radius escape).
//
// The escape leg runs from the start to that cell in 8-neighbour steps (diagonal while both
// coordinates differ, then straight), through whatever blocks: the one place a path may cross
// closed cells. It is priced 10 a straight and 14 a diagonal step, as a step out of a shut gate.
//
// Reads the grid only: call it under the world's shared lock.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "nav/live/cell.h"
#include "nav/live/live_grid.h"
#include "nav/live/nearest.h"
#include "nav/live/regions.h"

namespace walk::nav::live {

struct Recovery {
  Cell cell;                // the standable cell escaped to
  std::uint32_t cost = 0;   // of `cells`: 10 a straight step, 14 a diagonal one
  std::vector<Cell> cells;  // start .. cell, each an 8-neighbour of the one before
};

// The escape for a unit at `start` (on the map) heading for `goal`, or nullopt when no cell within
// max_radius is standable for `passability`. `goal_region` is the region the unit's order lies in
// (nullopt: no preference). `start` itself is never the answer.
std::optional<Recovery> FindRecovery(const LiveGrid& grid, Cell start, Cell goal,
                                     std::optional<RegionId> goal_region, Passability passability,
                                     std::int32_t max_radius, RingStats* stats = nullptr);

// The escape leg from `from` to `to`: 8-neighbour steps, diagonal while both coordinates differ.
std::vector<Cell> EscapeLeg(Cell from, Cell to);

}  // namespace walk::nav::live
