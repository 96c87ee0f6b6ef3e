// Stepping out of a shut gate: a unit standing in a doorway when its gate shuts is inside the
// gate's blocker, on cells no path may enter. It is still free to move inside that blocker and
// out of it, to either side: that is how anyone gets back out of a doorway. (Only a shut gate's
// own cells allow it; a unit inside a wall, a building or a tree must be moved with Nearest.)
//
// StepOuts finds the open cells a unit at `start` can step out to: every gate cell joined to
// `start` through gate cells (8-neighbour steps that cut no corner of anything else) is inside,
// and each open cell one step from an inside cell is a way out, priced 10 a straight step and 14
// a diagonal one from `start`.
//
// Reads the grid only: call it under the world's shared lock.
#pragma once

#include <cstdint>
#include <vector>

#include "nav/live/cell.h"
#include "nav/live/live_grid.h"

namespace walk::nav::live {

struct StepOut {
  std::uint32_t cost = 0;
  std::vector<Cell> cells;  // start .. the open cell stepped out to
};

// The ways out of the shut gate holding `start`, cheapest first; empty when `start` is not a
// shut gate's cell or the gate leads nowhere open. Looks at most `max_inside` gate cells.
std::vector<StepOut> StepOuts(const LiveGrid& grid, Cell start, Passability passability,
                              std::size_t max_inside = 1024);

}  // namespace walk::nav::live
