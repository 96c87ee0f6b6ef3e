#include "nav/search/subgoal_search.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>

#include "nav/search/four_ary_heap.h"

namespace walk::nav {

void SubgoalSearch::Prepare(const SubgoalGraph& graph, std::uint32_t goal_cell) {
  graph_ = &graph;
  goal_node_ = graph.node_count();
  const std::uint32_t stride = graph.grid().stride();
  goal_x_ = static_cast<std::int32_t>(goal_cell % stride);
  goal_y_ = static_cast<std::int32_t>(goal_cell / stride);
  if (nodes_.size() < graph.node_count() + 1) {
    nodes_.assign(graph.node_count() + 1, Node{0, 0, 0.0, 0, 0, 0.0});
    heap_.resize(graph.node_count() + 1);
    generation_ = 0;
  }
  if (++generation_ == 0) {  // wrapped: stamps from 2^32 searches ago would look current
    for (Node& n : nodes_) n.stamp = n.goal_stamp = 0;
    generation_ = 1;
  }
  heap_size_ = 0;
  heap_operations_ = 0;
}

void SubgoalSearch::SiftUp(std::uint32_t pos, Entry entry) {
  SiftUp4(heap_, pos, entry, Before, [this](std::uint32_t at, const Entry& e) {
    heap_[at] = e;
    nodes_[e.node].heap_pos = at;
  });
}

void SubgoalSearch::SiftDown(std::uint32_t pos, Entry entry) {
  SiftDown4(heap_, heap_size_, pos, entry, Before, [this](std::uint32_t at, const Entry& e) {
    heap_[at] = e;
    nodes_[e.node].heap_pos = at;
  });
}

std::uint32_t SubgoalSearch::PopMin() {
  const std::uint32_t node = heap_[0].node;
  if (--heap_size_ > 0) SiftDown(0, heap_[heap_size_]);
  nodes_[node].heap_pos = kClosed;
  ++heap_operations_;
  return node;
}

void SubgoalSearch::Reach(std::uint32_t node, double g, std::uint32_t parent) {
  Node& n = nodes_[node];
  const bool seen = n.stamp == generation_;
  if (seen && (n.heap_pos == kClosed || n.g <= g)) return;
  double f = g;
  if (node != goal_node_) {
    f += OctileColumns(std::abs(graph_->x(node) - goal_x_), std::abs(graph_->y(node) - goal_y_));
  }
  const std::uint32_t pos = seen ? n.heap_pos : heap_size_++;
  n.stamp = generation_;
  n.parent = parent;
  n.g = g;
  n.heap_pos = pos;
  SiftUp(pos, Entry{f, static_cast<float>(g), node});
  ++heap_operations_;
}

void SubgoalSearch::LinkGoal(std::uint32_t goal_cell) {
  direct_.clear();
  if (const std::uint32_t v = graph_->NodeAt(goal_cell); v != kInvalidId) {
    direct_.push_back({goal_cell, 0.0});
  } else {
    graph_->ScanDirect(goal_cell, kInvalidId, &direct_);
  }
  for (const SubgoalGraph::Direct& f : direct_) {
    Node& n = nodes_[graph_->NodeAt(f.cell)];
    if (n.goal_stamp == generation_ && n.to_goal <= f.columns) continue;
    n.goal_stamp = generation_;
    n.to_goal = f.columns;
  }
}

void SubgoalSearch::LinkStart(std::uint32_t start_cell, std::uint32_t goal_cell) {
  if (const std::uint32_t u = graph_->NodeAt(start_cell); u != kInvalidId) {
    Reach(u, 0.0, kInvalidId);
    return;
  }
  // A goal that is no subgoal is found as one, where the start sees it first.
  const std::uint32_t extra = graph_->NodeAt(goal_cell) == kInvalidId ? goal_cell : kInvalidId;
  direct_.clear();
  graph_->ScanDirect(start_cell, extra, &direct_);
  for (const SubgoalGraph::Direct& f : direct_) {
    Reach(f.cell == extra ? goal_node_ : graph_->NodeAt(f.cell), f.columns, kInvalidId);
  }
}

void SubgoalSearch::Expand(std::uint32_t u) {
  const Node& n = nodes_[u];
  const double g = n.g;
  if (n.goal_stamp == generation_) Reach(goal_node_, g + n.to_goal, u);
  const std::vector<std::uint32_t>& first_out = graph_->first_out();
  const std::vector<std::uint32_t>& head = graph_->head();
  const std::vector<double>& weight = graph_->weight();
  for (std::uint32_t a = first_out[u]; a < first_out[u + 1]; ++a) Reach(head[a], g + weight[a], u);
}

SearchResult SubgoalSearch::FindWalk(const SubgoalGraph& graph, const Continent& continent,
                                     double column_yards, double seconds_per_column, SurfaceId from,
                                     SurfaceId to, std::vector<PathStep>* path,
                                     std::uint64_t max_expanded, const SearchStop* stop) {
  SearchResult result;
  const JumpGrid& grid = graph.grid();
  const std::uint32_t start = grid.IndexOf(continent, from), goal = grid.IndexOf(continent, to);
  if (graph.Area(start) != graph.Area(goal)) return result;
  if (start == goal) {
    result.found = true;
    result.seconds = result.yards = 0.0;
    if (path != nullptr) *path = {PathStep{from, PathStep::kViaStart}};
    return result;
  }
  Prepare(graph, goal);
  LinkGoal(goal);
  LinkStart(start, goal);
  std::uint64_t expanded = 0;
  while (heap_size_ > 0) {
    const std::uint32_t u = PopMin();
    if (u == goal_node_) {
      result.found = true;
      result.seconds = nodes_[u].g * seconds_per_column;
      result.yards = nodes_[u].g * column_yards;
      if (path != nullptr) Unpack(start, goal, path);
      break;
    }
    if (expanded >= max_expanded) {
      result.gave_up = true;
      break;
    }
    if (stop != nullptr) {
      if (absl::Status s = stop->Poll(expanded + 1); !s.ok()) {
        result.stopped = std::move(s);
        break;
      }
    }
    ++expanded;
    Expand(u);
  }
  result.stats.nodes_expanded = expanded;
  result.stats.heap_operations = heap_operations_;
  return result;
}

// The cells of the subgoals passed, each arc refined into its h-long walk.
void SubgoalSearch::Unpack(std::uint32_t start_cell, std::uint32_t goal_cell,
                           std::vector<PathStep>* path) {
  cells_.clear();
  cells_.push_back(goal_cell);
  for (std::uint32_t u = nodes_[goal_node_].parent; u != kInvalidId; u = nodes_[u].parent) {
    cells_.push_back(graph_->cell(u));
  }
  cells_.push_back(start_cell);
  std::reverse(cells_.begin(), cells_.end());
  path->clear();
  path->push_back({graph_->grid().SurfaceAt(start_cell), PathStep::kViaStart});
  for (std::size_t i = 1; i < cells_.size(); ++i) {
    // Every arc and every scan's find is an h-long walk one of the two ways.
    [[maybe_unused]] const bool joined = graph_->AppendSegment(cells_[i - 1], cells_[i], path);
    assert(joined);
  }
}

}  // namespace walk::nav
