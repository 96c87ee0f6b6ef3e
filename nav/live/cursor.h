// The cursor's questions: what is on a cell, and where a worker stands to work a resource or a
// building.
//
// The specification keeps the two apart on purpose. The cursor asks "what is here?" and may select
// a tree; a builder asks "where beside it may I stand?" and never stands on the tree. The resource
// or building stays blocked while it exists; when nothing beside it is standable the order is
// rejected (NOT_FOUND), it is never resolved onto the target itself.
//
// Work cells: beside a resource, its 8 neighbours; beside a building (or a shut gate), the ring of
// cells around its footprint. Each must be standable for the worker's passability and pass the
// caller's `fits` test, the hook for a body radius (clearance): empty, every standable cell fits.
//
// All functions read the grid and layers only: call them under the world's shared lock.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/live/cell.h"
#include "nav/live/layers.h"
#include "nav/live/live_grid.h"

namespace walk::nav::live {

// What kind of footprint lies on a cell.
enum class BlockerKind : std::uint8_t {
  kNone = 0,
  kBuilding = 1,  // a building or wall segment
  kGate = 2,      // a shut gate's own footprint
};
const char* BlockerKindName(BlockerKind kind);

// Everything known about one cell, for a cursor hovering over it.
struct CellReport {
  Cell cell;
  CellValue value = CellValue::kWalkable;    // the composed value
  CellValue terrain = CellValue::kWalkable;  // kWalkable, kBlocked, kMountain or kRiver
  bool forest = false;                       // forest floor (composes to kForest where open)
  bool road = false;
  std::optional<CrossingKind> crossing;       // a bridge deck or hill entrance
  CellValue resource = CellValue::kWalkable;  // kTree, kBoulder, kIronOre; kWalkable: none
  // The footprint on the cell: a shut gate's when there is one, else the building (lowest id) —
  // also where a doorway reopens it (then `value` is open). `footprints` counts all of them.
  BlockerKind blocker = BlockerKind::kNone;
  EntityId footprint_id = 0;
  std::uint32_t footprints = 0;
  // The gate whose cells hold this one (open: its doorway; shut: its footprint), its structure and
  // state. 0: none.
  EntityId gate = 0;
  EntityId gate_owner = 0;
  bool gate_open = false;
  bool gap = false;  // a permanent gap in a wall opens this cell
  bool light_standable = false;
  bool heavy_standable = false;
  std::uint64_t revision = 0;
};

// The report for cell `c` (on the map).
CellReport DescribeCell(const LiveGrid& grid, const Layers& layers, Cell c);

// What a work order's target holds.
struct WorkTarget {
  CellValue value = CellValue::kWalkable;  // a resource, kBuilding or kGate
  EntityId footprint_id = 0;               // the building or gate (0 for a resource)
  CellRect cells;                          // the resource's cell, or the footprint's cells
};

// The resource or building on `target` (on the map): a footprint on the cell wins (the one
// DescribeCell reports), else a resource the composed value shows. Errors: FAILED_PRECONDITION
// naming what the cell holds when it is neither.
absl::StatusOr<WorkTarget> WorkTargetAt(const LiveGrid& grid, const Layers& layers, Cell target);

// The cells around `target.cells` (the 8-neighbourhood of a one-cell target) standable for
// `passability` that `fits` accepts (empty: all), in row-major order.
std::vector<Cell> WorkCandidates(const LiveGrid& grid, const WorkTarget& target,
                                 Passability passability, const std::function<bool(Cell)>& fits);

// The answer to "where does this worker stand?".
struct WorkCellAnswer {
  Cell cell;               // the work cell chosen
  WorkTarget target;       // what the target holds
  bool reachable = false;  // a path joins the unit's cell and `cell`
  std::uint32_t cost = 0;  // that path's cost (search units; 0 when not reachable)
  std::uint64_t revision = 0;
};

// Searches ChooseWorkCell runs at most: a big building's ring can hold a hundred cells, and the
// lower bound seldom leaves more than two or three worth a search.
inline constexpr std::uint32_t kMaxWorkCellSearches = 8;

// The candidate nearest `unit`. Candidates the unit can reach (`reachable`) are ranked by path
// cost (`path_cost`, kNoCost for none), looked at in order of the octile lower bound and no
// further once none can beat the best, nor after `max_searches` of them (the best so far wins);
// when none is reachable, by Euclidean distance from the unit (ties: the first in row-major
// order). Needs at least one candidate.
WorkCellAnswer ChooseWorkCell(std::span<const Cell> candidates, Cell unit,
                              const std::function<bool(Cell)>& reachable,
                              const std::function<std::uint32_t(Cell)>& path_cost,
                              std::uint32_t max_searches = kMaxWorkCellSearches);

}  // namespace walk::nav::live
