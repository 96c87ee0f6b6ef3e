// "Is this straight line clear?" and pulling a cell path taut with that same test.
//
// The segment test walks every cell a segment touches (a supercover, Amanatides–Woo in cell
// units) and refuses a segment that passes exactly through a cell corner unless both cells flanking
// that corner are open: the rule the search applies to its own diagonal steps, so a straight line
// never slips through a wall that a path could not. Passing within 1e-9 cell of a corner counts as
// through it (conservative), and a segment lying exactly on a grid line touches the cells on both
// sides. Movement asks this question before taking a shortcut; PullTaut asks it for every shortcut
// it takes, so the two cannot disagree.
//
// With `need` (BodyClass::need, a body's radius class) every cell touched or grazed must also fit
// the body (LiveGrid::Fits): the one-body test of a wide unit. need 0 is the plain test.
//
// All functions read the grid only: call them under the world's shared lock.
#pragma once

#include <span>
#include <vector>

#include "nav/live/cell.h"
#include "nav/live/live_grid.h"

namespace walk::nav::live {

// True when the segment between world points `a` and `b` (world units, cells `cell_size` wide)
// touches only cells open to `passability` and squeezes past no blocked corner. When
// `reject_portals` is set it is also refused if a portal cell (bridge deck, hill entrance) other
// than the cells holding `a` and `b` is touched. When `cells` is non-null it receives the cells the
// segment walks through, in order, each an 8-neighbour of the one before (diagonal only across an
// open corner); it is filled only when the segment is clear.
bool WorldSegmentClear(const LiveGrid& grid, double cell_size, WorldPoint a, WorldPoint b,
                       Passability passability, bool reject_portals = false,
                       std::vector<Cell>* cells = nullptr, std::uint16_t need = 0);

// The same test between the centres of cells `a` and `b`.
bool SegmentClear(const LiveGrid& grid, Cell a, Cell b, Passability passability,
                  bool reject_portals = false, std::vector<Cell>* cells = nullptr,
                  std::uint16_t need = 0);

// Pulls a searched path (cells, start to goal) taut: from each kept waypoint it advances to the
// furthest later turning point the segment to which is clear and crosses no portal, keeps that
// one, and continues from there. Every cell of a bridge deck or hill entrance stays a waypoint, so
// legs across a portal are walked cell by cell. Returns the waypoints, first and last cell
// included; a path of one or two cells comes back unchanged.
std::vector<Cell> PullTaut(const LiveGrid& grid, std::span<const Cell> path,
                           Passability passability, std::uint16_t need = 0);

}  // namespace walk::nav::live
