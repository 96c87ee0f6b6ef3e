// The exact walker at jump-point speed: A* over the jump points of a plain octile grid
// (jump_grid.h), with every straight and diagonal run read from the jump tables.
//
// Successors follow Harabor and Grastien's JPS with no corner cutting, flattened as in their JPS2:
// a diagonal run is not a node of its own; the straight jump points found from each of its cells
// are the successors, one diagonal-then-straight segment each, so only straight jump points (and
// the goal) enter the heap. The goal counts as a jump point wherever a run passes over it. The
// octile heuristic is consistent over these segments (each costs exactly the octile distance of
// its ends), so no node is expanded twice; costs equal the fine-grid A*'s on the same grid.
//
// One JumpPointSearch per thread: it owns its buffers, sized to the largest grid searched and
// generation-stamped. The JumpGrid it reads is shared.
#pragma once

#include <cstdint>
#include <vector>

#include "nav/search/fine_grid_astar.h"
#include "nav/search/jump_grid.h"

namespace walk::nav {

class JumpPointSearch {
 public:
  JumpPointSearch() = default;
  JumpPointSearch(const JumpPointSearch&) = delete;
  JumpPointSearch& operator=(const JumpPointSearch&) = delete;

  // The cheapest walk from surface `from` to surface `to` of `continent` (which `grid` was built
  // from), each column of the walk `column_yards` long and costing `seconds_per_column` (the
  // metric's, times its uniform multiplier: JumpGrid::PricesUniformly). As FineGridAStar::FindWalk
  // for `path`, `max_expanded` and `stop`; `path` gets every surface entered, not only the jump
  // points.
  SearchResult FindWalk(const JumpGrid& grid, const Continent& continent, double column_yards,
                        double seconds_per_column, SurfaceId from, SurfaceId to,
                        std::vector<PathStep>* path = nullptr,
                        std::uint64_t max_expanded = UINT64_MAX, const SearchStop* stop = nullptr);

 private:
  static constexpr std::uint8_t kFromStart = 8;  // the start's "arrival": every direction
  static constexpr std::uint32_t kClosed = 0xFFFFFFFF;
  struct Node {
    std::uint32_t stamp;
    std::uint32_t parent;    // the jump point this one was reached from
    double g;                // columns from the start
    std::uint32_t heap_pos;  // its place in heap_, or kClosed once expanded
    std::uint8_t arrival;    // the straight direction it was entered along, or kFromStart
  };
  // A heap entry carries its keys, so sifting compares without touching the nodes; 16 bytes, as
  // g only breaks ties (the order that matters is f's).
  struct Entry {
    double f;
    float g;
    std::uint32_t cell;
  };
  static bool Before(const Entry& a, const Entry& b) {
    return a.f < b.f || (a.f == b.f && a.g > b.g);  // ties: the one further along
  }

  void Prepare(const JumpGrid& grid, std::uint32_t goal);
  void Expand(std::uint32_t p);
  // (x, y) is p's cell, g its cost; scans one direction from it.
  void ScanStraight(std::uint32_t p, std::int32_t x, std::int32_t y, double g, int d);
  void ScanDiagonal(std::uint32_t p, std::int32_t x, std::int32_t y, double g, int d);
  void Reach(std::uint32_t cell, std::int32_t x, std::int32_t y, double g, std::uint32_t parent,
             int arrival);
  // Indexed 4-ary min-heap (decrease-key through Node::heap_pos).
  void SiftUp(std::uint32_t pos, Entry entry);
  void SiftDown(std::uint32_t pos, Entry entry);
  std::uint32_t PopMin();
  void Unpack(std::uint32_t start, std::vector<PathStep>* path) const;

  const JumpGrid* grid_ = nullptr;
  std::uint32_t goal_ = 0;
  std::int32_t goal_x_ = 0, goal_y_ = 0;
  std::uint32_t generation_ = 0;
  std::vector<Node> nodes_;
  std::vector<Entry> heap_;
  std::uint32_t heap_size_ = 0;
  std::uint64_t heap_operations_ = 0;
};

}  // namespace walk::nav
