// A* over a live grid, priced the RTS way.
//
// What a step costs (integer units; a straight step is 10):
//   straight step 10, diagonal step 14;
//   +1 entering a cell that touches (8-neighbourhood, map edge excluded) a cell closed to the
//      searching passability: clearance is priced, never required;
//   +1 turning: a step whose direction differs from the step before it (the first step is free).
// Diagonals never cut a corner: both orthogonal flanks must be open. The heuristic is the octile
// distance in the same units (10 · max + 4 · min): the exact price of the cheapest unobstructed
// route, so admissible and consistent.
//
// The turn price makes a step's cost depend on how its cell was entered. The search stays exact
// with one label per cell: an arrival that costs 1 more than the cheapest arrival at the same cell
// can never do better afterwards (its only possible advantage is one saved turn, worth 1), so each
// cell keeps its cheapest cost and the set of directions that achieve it. A cell reached again at
// equal cost from a new direction after it was expanded is reopened to extend that set.
//
// The open list is a bucket queue, not a binary or 4-ary heap: costs are integers and, with a
// consistent heuristic, every queued f lies in [f_min, f_min + 30] (one step adds at most 16 to g
// and 14 to h), so a ring of 64 buckets indexed by f holds it with O(1) pushes and pops. Within a
// bucket the most recently queued entry comes first (a depth-first bias toward the goal, as
// "larger g first" is for a heap). A cheaper arrival is queued again rather than decreased in
// place; stale entries are skipped when popped. On the 800 × 800 benchmark map this halves the
// time of a 4-ary heap with inline keys (docs/live_grids.md).
//
// Wide bodies (clearance.h): a search may carry a BodyClass. A body of radius r enters only cells
// whose clearance is at least r, and a diagonal needs both flanks to fit as well (the corner rule
// at that radius); a start or goal the body does not fit on finds nothing (too_narrow). A
// formation of half-width w pays OverlapPrice (at most kOverlapCost - 1) on entering a cell of
// clearance below w, on top of the prices above. The price of a step still depends only on the
// cell entered and the turn, so one label per cell stays exact; the heuristic (octile, no overlap)
// stays admissible and consistent. The widest f spread grows to 30 + kOverlapCost = 50, which the
// ring of 64 buckets still holds (static_assert below). A search with BodyClass{} (radius 0, no
// half-width) runs the narrow code path unchanged: the wide one is a separate instantiation.
//
// A LiveSearch owns its buffers: sized once to the largest grid it has searched (the buckets grow
// to their high-water mark and keep it) and generation-stamped, so nothing is cleared or allocated
// per search. One LiveSearch per thread; it is not thread-safe, the LiveGrid it reads is shared
// (read under the world's shared lock).
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "nav/live/cell.h"
#include "nav/live/clearance.h"
#include "nav/live/live_grid.h"

namespace walk::nav::live {

inline constexpr std::uint32_t kStraightCost = 10;
inline constexpr std::uint32_t kDiagonalCost = 14;
inline constexpr std::uint32_t kClearanceCost = 1;
inline constexpr std::uint32_t kTurnCost = 1;
// No path. Two of them still fit in 64 bits; path costs stay far below 2^31.
inline constexpr std::uint32_t kNoCost = std::numeric_limits<std::uint32_t>::max();
static_assert(std::uint64_t{kNoCost} + kNoCost > kNoCost,
              "two infinities must not wrap in 64 bits");

// The eight directions, clockwise from east; odd ones are diagonal. (0, 0) is the top-left cell,
// so +y is south.
inline constexpr std::int32_t kDirX[8] = {1, 1, 0, -1, -1, -1, 0, 1};
inline constexpr std::int32_t kDirY[8] = {0, 1, 1, 1, 0, -1, -1, -1};

// The exact cost of the cheapest unobstructed route from a to b (the heuristic).
inline std::uint32_t OctileCost(Cell a, Cell b) {
  const std::uint32_t dx = static_cast<std::uint32_t>(a.x > b.x ? a.x - b.x : b.x - a.x);
  const std::uint32_t dy = static_cast<std::uint32_t>(a.y > b.y ? a.y - b.y : b.y - a.y);
  return kStraightCost * (dx > dy ? dx : dy) +
         (kDiagonalCost - kStraightCost) * (dx < dy ? dx : dy);
}

// The direction (0..7) of the step a -> b between 8-neighbours, or -1.
int StepDirection(Cell a, Cell b);

// The price of walking `cells` (each an 8-neighbour of the one before) under the rules above for
// `body`, or kNoCost when a cell is closed, off the map or too narrow for the body, two cells are
// not neighbours, or a diagonal cuts a corner. One cell costs 0.
std::uint32_t PriceCells(const LiveGrid& grid, std::span<const Cell> cells, Passability p,
                         BodyClass body = {});

// What one search cost: the counters the server exports.
struct SearchStats {
  std::uint64_t cells_expanded = 0;   // cells expanded (a cell reopened for a new direction: again)
  std::uint64_t heap_operations = 0;  // open-list pushes and pops (stale pops included)
};

struct SearchResult {
  bool found = false;
  // Nothing searched: the start or goal is open but the body does not fit there.
  bool too_narrow = false;
  std::uint32_t cost = kNoCost;
  SearchStats stats;
};

class LiveSearch {
 public:
  LiveSearch() = default;
  LiveSearch(const LiveSearch&) = delete;
  LiveSearch& operator=(const LiveSearch&) = delete;

  // The cheapest path from `start` to `goal` (both on the map) for `passability`. When `cells` is
  // non-null and a path is found it receives the cells from start to goal inclusive. A closed start
  // or goal finds nothing without expanding anything; so does one `body` does not fit on.
  SearchResult FindPath(const LiveGrid& grid, Cell start, Cell goal, Passability passability,
                        std::vector<Cell>* cells = nullptr, BodyClass body = {});

 private:
  // A queue entry carries its key: the cost the cell was queued with (stale when it no longer
  // matches the cell's cost).
  struct QueueEntry {
    CellIndex cell;
    std::uint32_t g;
  };
  // One record per cell, so relaxing a neighbour touches one cache line.
  struct Node {
    std::uint32_t stamp;    // == generation_ when the fields below are valid
    std::uint32_t g;        // cheapest cost found from start
    std::uint8_t arrive;    // directions achieving g (bit d: entered moving in direction d)
    std::uint8_t expanded;  // `arrive` as it was when the cell was last expanded (0: never)
  };
  static constexpr std::uint32_t kBuckets = 64;  // > the widest f spread, 30 + kOverlapCost
  static_assert(kBuckets >
                    kDiagonalCost + kClearanceCost + kTurnCost + kOverlapCost + kDiagonalCost,
                "one step raises f by at most its price plus the heuristic's drop");

  void Prepare(std::uint32_t cell_count);
  // The search itself; kWide adds the body's fit test and overlap price.
  template <bool kWide>
  SearchResult Search(const LiveGrid& grid, Cell start, Cell goal, Passability passability,
                      BodyClass body);
  // The cells of the path found to `goal`, start to goal.
  void WalkBack(const LiveGrid& grid, Cell start, Cell goal, std::vector<Cell>* cells) const;

  std::uint32_t generation_ = 0;
  std::vector<Node> node_;                        // sized once to the cell count
  std::vector<std::vector<QueueEntry>> buckets_;  // kBuckets, indexed by f % kBuckets
  std::uint8_t overlap_[kClearanceCap + 1] = {};  // OverlapPrice by clearance, for overlap_width_
  std::uint16_t overlap_width_ = 0;
};

}  // namespace walk::nav::live
