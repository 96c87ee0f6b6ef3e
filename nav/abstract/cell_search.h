// Dijkstra inside one cell of the abstract graph: a square of columns that never leaves its
// tile (the cell side divides 256). It prices the abstract graph's edges (from each entrance to
// the others), a place's legs (outward from a start, backward into a goal) and a walk whose two
// ends share a cell.
//
// A search never leaves its cell: a way that goes out and comes back is the abstract graph's to
// find, and so is a lift ride whose other landing lies outside the cell. Only its origin and its
// targets may lie outside the cell, one step from it (the cell's portals in its neighbours,
// docs/abstract_graph.md): it steps from such an origin into the cell and from the cell onto such a
// target, and goes no further. Buffers are indexed by a surface's offset inside its tile (those
// outside take slots after the tile's) and generation-stamped: one CellSearch per thread, sized
// once.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "nav/cost/metric.h"
#include "nav/grid/grid.h"
#include "nav/search/bucket_queue.h"
#include "nav/search/fine_grid_astar.h"
#include "nav/search/radix_heap.h"

namespace walk::nav {

// A cell: its column rectangle [x0, x1) x [y0, y1) and the surface ids of its tile.
struct Cell {
  std::uint32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  SurfaceId tile_first = 0;  // the tile's first surface
  SurfaceId tile_end = 0;    // one past its last
  bool Contains(std::uint32_t x, std::uint32_t y) const {
    return x >= x0 && x < x1 && y >= y0 && y < y1;
  }
};

// The cell of side `cell_columns` holding column (x, y), which must lie on a tile.
Cell CellAt(const Continent& c, std::uint32_t cell_columns, std::uint32_t x, std::uint32_t y);
// The cell of side `cell_columns` holding surface `s`.
Cell CellOf(const Continent& c, std::uint32_t cell_columns, SurfaceId s);

class CellSearch {
 public:
  // What one search asks for.
  struct Request {
    SurfaceId origin = kInvalidId;  // may lie outside the cell, one step from it, unless backward
    // Forward: walks leaving the origin; backward: walks arriving at it.
    bool backward = false;
    // Zones free of danger (a walk's ends' zones).
    std::uint16_t exempt_a = 0;
    std::uint16_t exempt_b = 0;
    // The search stops once every one is settled. Not owned; may lie outside the cell, one step
    // from it.
    std::span<const SurfaceId> targets = {};
    // With `targets` empty, a single target: the search is an A* toward it (forward only) and
    // stops once it is settled. May lie outside the cell, one step from it.
    SurfaceId stop_at = kInvalidId;
    // The search stops once nothing cheaper than this is left: a way known elsewhere that the
    // search must beat to matter.
    double bound = kInfCost;
  };
  // Settles the surfaces of `cell` in cost order from `request.origin`, priced by `metric`,
  // until the request's targets are settled or nothing is left to settle.
  void Run(const Continent& c, const Cell& cell, const Metric& metric, const Request& request);

  bool Settled(SurfaceId s) const {
    const std::uint32_t i = LocalOf(s);
    return i != kInvalidId && state_[i].stamp == generation_ && state_[i].settled &&
           state_[i].g < kInfCost;
  }
  // The cost between the origin and settled surface `s`, seconds.
  double Seconds(SurfaceId s) const { return state_[LocalOf(s)].g; }
  // The steps of the walk between the origin and settled `s`, in walking order (forward: origin
  // to s; backward: s to origin); none when `s` was not settled.
  void Steps(SurfaceId s, std::vector<PathStep>* steps) const;
  std::uint64_t settled_count() const { return settled_count_; }
  // Whether the last search filed its surfaces in Dial's buckets (else in the radix heap).
  bool used_buckets() const { return used_buckets_; }

 private:
  // One search's constants and its relaxing of a settled surface's steps (cell_search.cc).
  template <typename Queue, bool kPrepared>
  class Sweep;
  // Run with `queue` (heap_ or buckets_); kPrepared: every state of the cell stamped first, for
  // a search that settles most of it (neither guided nor bounded).
  template <typename Queue, bool kPrepared>
  void RunWith(Queue& queue, const Continent& c, const Cell& cell, const Metric& metric,
               const Request& request);
  // Starts a search of `cell`: slots for the origin and targets outside it, a new generation,
  // the targets stamped. Returns how many distinct targets there are.
  std::size_t Begin(const Continent& c, const Cell& cell, const Request& request);
  // Whether a surface of `cell` is a lift's landing one may ride from.
  static bool HasLifts(const Continent& c, const Cell& cell);
  // The slot of surface `s`: its offset in the tile, or after the tile's for one outside the
  // cell; kInvalidId for a surface of another tile the search does not know.
  std::uint32_t LocalOf(SurfaceId s) const;
  // The slot of surface `s` among those outside the cell, or kInvalidId.
  std::uint32_t OutsideSlot(SurfaceId s) const;
  SurfaceId SurfaceOf(std::uint32_t local) const {
    return local < tile_size_ ? tile_first_ + local : outside_[local - tile_size_];
  }

  bool backward_ = false;
  std::vector<SurfaceId> outside_;  // the origin and targets outside the cell, sorted
  SurfaceId tile_first_ = 0;
  std::uint32_t tile_size_ = 0;  // surfaces of the searched tile
  std::uint32_t generation_ = 0;
  std::uint64_t settled_count_ = 0;
  bool used_buckets_ = false;
  // A surface's search state, in one place: relaxing a step reads and writes one state, not
  // one entry in each of eight arrays.
  struct State {
    double g;
    double enter;                // forward: the surface's enter multiplier
    std::uint32_t parent;        // local index: the previous (forward) or next (backward)
    std::uint32_t stamp;         // == generation_ when the fields above and below are valid
    std::uint32_t target_stamp;  // == generation_ for a target
    std::uint8_t settled;
    std::uint8_t via;  // direction of the step between parent and surface, or lift
  };
  std::vector<State> state_;  // by local index (surface - tile_first_)
  RadixHeap heap_;            // for A*s, bounded searches and cells with lifts
  BucketQueue buckets_;       // for the others
};

}  // namespace walk::nav
