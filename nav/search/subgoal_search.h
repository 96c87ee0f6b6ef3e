// The exact walker over a subgoal graph (subgoal_graph.h): the start and the goal are joined to
// their direct-h-reachable subgoals by the diagonal-first scan, an A* with the octile heuristic
// searches the graph between them, and the walk is refined into cells along each arc. The
// heuristic is consistent over the arcs (each costs exactly the octile distance of its ends), so
// no node is expanded twice; costs equal jump point search's on the same grid.
//
// One SubgoalSearch per thread: it owns its buffers, sized to the largest graph searched and
// generation-stamped. The SubgoalGraph it reads is shared.
#pragma once

#include <cstdint>
#include <vector>

#include "nav/search/fine_grid_astar.h"
#include "nav/search/subgoal_graph.h"

namespace walk::nav {

class SubgoalSearch {
 public:
  SubgoalSearch() = default;
  SubgoalSearch(const SubgoalSearch&) = delete;
  SubgoalSearch& operator=(const SubgoalSearch&) = delete;

  // The cheapest walk from surface `from` to surface `to` of `continent` (which the graph's
  // JumpGrid was built from), as JumpPointSearch::FindWalk for every parameter; `max_expanded`
  // counts subgoals taken off the heap.
  SearchResult FindWalk(const SubgoalGraph& graph, const Continent& continent, double column_yards,
                        double seconds_per_column, SurfaceId from, SurfaceId to,
                        std::vector<PathStep>* path = nullptr,
                        std::uint64_t max_expanded = UINT64_MAX, const SearchStop* stop = nullptr);

 private:
  static constexpr std::uint32_t kClosed = 0xFFFFFFFF;
  struct Node {
    std::uint32_t stamp;
    std::uint32_t parent;      // the node this one was reached from, kInvalidId from the start
    double g;                  // columns from the start
    std::uint32_t heap_pos;    // its place in heap_, or kClosed once expanded
    std::uint32_t goal_stamp;  // == the generation when the goal is direct-h-reachable from it
    double to_goal;            // then its columns to the goal
  };
  struct Entry {
    double f;
    float g;
    std::uint32_t node;
  };
  static bool Before(const Entry& a, const Entry& b) {
    return a.f < b.f || (a.f == b.f && a.g > b.g);
  }

  void Prepare(const SubgoalGraph& graph, std::uint32_t goal_cell);
  // Joins the goal and the start to their direct-h-reachable subgoals.
  void LinkGoal(std::uint32_t goal_cell);
  void LinkStart(std::uint32_t start_cell, std::uint32_t goal_cell);
  void Expand(std::uint32_t u);
  void Reach(std::uint32_t node, double g, std::uint32_t parent);
  void SiftUp(std::uint32_t pos, Entry entry);
  void SiftDown(std::uint32_t pos, Entry entry);
  std::uint32_t PopMin();
  void Unpack(std::uint32_t start_cell, std::uint32_t goal_cell, std::vector<PathStep>* path);

  const SubgoalGraph* graph_ = nullptr;
  std::uint32_t goal_node_ = 0;  // node_count(): the goal's own node
  std::int32_t goal_x_ = 0, goal_y_ = 0;
  std::uint32_t generation_ = 0;
  std::vector<Node> nodes_;
  std::vector<Entry> heap_;
  std::uint32_t heap_size_ = 0;
  std::uint64_t heap_operations_ = 0;
  std::vector<SubgoalGraph::Direct> direct_;
  std::vector<std::uint32_t> cells_;
};

}  // namespace walk::nav
