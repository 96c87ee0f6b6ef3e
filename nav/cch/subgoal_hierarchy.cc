#include "nav/cch/subgoal_hierarchy.h"

#include <cassert>
#include <chrono>

#include "absl/strings/str_cat.h"
#include "nav/cch/cch_order.h"
#include "nav/grid/serial.h"

namespace walk::nav {

std::unique_ptr<const SubgoalHierarchy> SubgoalHierarchy::Build(
    const SubgoalGraph& graph, const SubgoalHierarchyOptions& options, std::string* why_not) {
  const auto started = std::chrono::steady_clock::now();
  if (graph.arc_count() > options.max_graph_arcs) {
    if (why_not != nullptr) {
      *why_not = absl::StrCat(graph.arc_count(), " subgoal arcs, over ", options.max_graph_arcs);
    }
    return nullptr;
  }
  std::unique_ptr<SubgoalHierarchy> h(new SubgoalHierarchy());
  h->graph_ = &graph;
  const std::uint32_t n = graph.node_count();
  h->tail_.resize(graph.arc_count());
  for (std::uint32_t u = 0; u < n; ++u) {
    for (std::uint32_t a = graph.first_out()[u]; a < graph.first_out()[u + 1]; ++a) h->tail_[a] = u;
  }
  std::vector<float> x(n), y(n);
  for (std::uint32_t u = 0; u < n; ++u) {
    x[u] = static_cast<float>(graph.x(u));
    y[u] = static_cast<float>(graph.y(u));
  }
  const std::vector<std::uint32_t> order = NestedDissectionOrder(n, h->tail_, graph.head(), x, y);
  h->cch_ = std::make_unique<Cch>(n, order, h->tail_, graph.head());
  if (h->cch_->arc_count() > options.max_arcs) {
    if (why_not != nullptr) {
      *why_not = absl::StrCat(h->cch_->arc_count(), " hierarchy arcs, over ", options.max_arcs);
    }
    return nullptr;
  }
  h->metric_ = std::make_unique<CchMetric>(*h->cch_, graph.weight(), options.perfect, 1);
  h->rank_x_.resize(n);
  h->rank_y_.resize(n);
  for (std::uint32_t r = 0; r < n; ++r) {
    h->rank_x_[r] = x[order[r]];
    h->rank_y_[r] = y[order[r]];
  }
  // Every arc costs exactly the octile distance between its ends.
  h->bound_ = CchBound{&h->rank_x_, &h->rank_y_, 1.0 - 1e-9};
  h->serial_ = NewSerial();
  h->build_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return h;
}

std::uint64_t SubgoalHierarchy::MemoryBytes() const {
  return tail_.size() * sizeof(std::uint32_t) + (rank_x_.size() + rank_y_.size()) * sizeof(float) +
         cch_->MemoryBytes() + metric_->MemoryBytes();
}

double SubgoalHierarchySearch::Endpoints(const SubgoalGraph& graph, std::uint32_t cell,
                                         std::uint32_t extra, std::vector<CchEndpoint>* endpoints) {
  endpoints->clear();
  if (const std::uint32_t node = graph.NodeAt(cell); node != kInvalidId) {
    endpoints->push_back({node, 0.0});
    return kInfCost;
  }
  direct_.clear();
  graph.ScanDirect(cell, extra, &direct_);
  double to_extra = kInfCost;
  for (const SubgoalGraph::Direct& f : direct_) {
    if (f.cell == extra) {
      to_extra = f.columns;
    } else {
      endpoints->push_back({graph.NodeAt(f.cell), f.columns});
    }
  }
  return to_extra;
}

SearchResult SubgoalHierarchySearch::FindWalk(const SubgoalHierarchy& hierarchy,
                                              const Continent& continent, double column_yards,
                                              double seconds_per_column, SurfaceId from,
                                              SurfaceId to, std::vector<PathStep>* path) {
  SearchResult result;
  const SubgoalGraph& graph = hierarchy.graph();
  const JumpGrid& grid = graph.grid();
  const std::uint32_t start = grid.IndexOf(continent, from), goal = grid.IndexOf(continent, to);
  if (graph.Area(start) != graph.Area(goal)) return result;
  if (bound_to_ != hierarchy.serial()) {
    query_ = std::make_unique<CchQuery>(hierarchy.cch());
    bound_to_ = hierarchy.serial();
  }
  // A goal that is no subgoal is found as one where the start sees it first: then the direct
  // walk, as long as the octile distance, is the cheapest.
  const std::uint32_t extra = start != goal && graph.NodeAt(goal) == kInvalidId ? goal : kInvalidId;
  double columns = start == goal ? 0.0 : Endpoints(graph, start, extra, &sources_);
  CchResult found;
  if (columns == kInfCost) {
    Endpoints(graph, goal, kInvalidId, &targets_);
    found = query_->Run(hierarchy.metric(), CchRequest{sources_, targets_, &hierarchy.bound()},
                        &arc_path_);
    if (!found.found) return result;
    columns = found.cost;
    result.stats.nodes_expanded = sources_.size() + targets_.size();
  }
  result.found = true;
  result.seconds = columns * seconds_per_column;
  result.yards = columns * column_yards;
  if (path != nullptr) Unpack(hierarchy, start, goal, found, path);
  return result;
}

// The cells of the subgoals passed, each subgoal arc refined into its h-long walk.
void SubgoalHierarchySearch::Unpack(const SubgoalHierarchy& hierarchy, std::uint32_t start_cell,
                                    std::uint32_t goal_cell, const CchResult& found,
                                    std::vector<PathStep>* path) {
  const SubgoalGraph& graph = hierarchy.graph();
  path->clear();
  path->push_back({graph.grid().SurfaceAt(start_cell), PathStep::kViaStart});
  std::uint32_t at = start_cell;
  auto walk_to = [&](std::uint32_t cell) {
    // Every arc and every scan's find is an h-long walk one of the two ways.
    [[maybe_unused]] const bool joined = graph.AppendSegment(at, cell, path);
    assert(joined);
    at = cell;
  };
  if (found.found) {
    std::uint32_t node = sources_[found.source].node;
    walk_to(graph.cell(node));
    for (const std::uint32_t arc : arc_path_) {
      node = hierarchy.tail(arc) == node ? graph.head()[arc] : hierarchy.tail(arc);
      walk_to(graph.cell(node));
    }
  }
  walk_to(goal_cell);
}

}  // namespace walk::nav
