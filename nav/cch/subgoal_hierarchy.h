// Exact walks at subgoal-hierarchy speed: a customizable contraction hierarchy (cch.h) over the
// subgoal graph of a plain octile grid (nav/search/subgoal_graph.h), as 2019-SGCH-JPD contracts
// its subgoal graph, but in a nested-dissection order and customized once with the arcs' octile
// lengths. A walk joins the start and the goal to their direct-h-reachable subgoals by the
// diagonal-first scan, answers the direct walk when the start sees the goal, and else asks the
// elimination-tree query (CchQuery) for the cheapest way between the two sets of subgoals; the
// hierarchy's arcs unpack to subgoal arcs, and those refine into cells.
//
// SubgoalHierarchy is built once per grid and is immutable and shared across threads; it keeps a
// pointer to the SubgoalGraph, which must outlive it. SubgoalHierarchySearch is one per thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nav/cch/cch.h"
#include "nav/cch/cch_bound.h"
#include "nav/cch/cch_metric.h"
#include "nav/cch/cch_query.h"
#include "nav/search/fine_grid_astar.h"
#include "nav/search/subgoal_graph.h"

namespace walk::nav {

struct SubgoalHierarchyOptions {
  // CchMetric's perfect customization: queries relax only the arcs some shortest way needs.
  bool perfect = true;
  // The most arcs the hierarchy may have (its chordal supergraph, known before customization),
  // beyond which Build gives up: where subgoals see many others (random maps, 10 % blocked: 3
  // million arcs for 67,000 subgoals) a hierarchy takes seconds to order and customize, more than
  // a world's load should spend on it; jump points answer there instead.
  std::uint64_t max_arcs = std::uint64_t{1} << 20;
  // The most arcs the subgoal graph may have (each edge counted both ways), beyond which Build
  // gives up before ordering, a second or so sooner: on the MovingAI maps, graphs of more than
  // 75,000 arcs have hierarchies over 6 times larger (random maps: 460,000 arcs), the others at
  // most 3 times.
  std::uint64_t max_graph_arcs = std::uint64_t{1} << 18;
};

class SubgoalHierarchy {
 public:
  // Orders, contracts and customizes `graph` on one thread; null, with `why_not` (may be null)
  // saying why, when the graph has more than options.max_graph_arcs arcs or the hierarchy would
  // have more than options.max_arcs.
  static std::unique_ptr<const SubgoalHierarchy> Build(const SubgoalGraph& graph,
                                                       const SubgoalHierarchyOptions& options = {},
                                                       std::string* why_not = nullptr);

  const SubgoalGraph& graph() const { return *graph_; }
  const Cch& cch() const { return *cch_; }
  const CchMetric& metric() const { return *metric_; }
  const CchBound& bound() const { return bound_; }
  // The subgoal an input arc (a subgoal arc) leaves from; its head is graph().head()[arc].
  std::uint32_t tail(std::uint32_t arc) const { return tail_[arc]; }
  // Bytes held (the graph's not counted), and the seconds Build took.
  std::uint64_t MemoryBytes() const;
  double build_seconds() const { return build_seconds_; }
  // Distinct for every hierarchy built in this process: a query's buffers are bound to it, not
  // to its address, which a later hierarchy may reuse.
  std::uint64_t serial() const { return serial_; }

 private:
  SubgoalHierarchy() = default;

  const SubgoalGraph* graph_ = nullptr;
  std::vector<std::uint32_t> tail_;  // per subgoal arc
  std::vector<float> rank_x_, rank_y_;
  std::unique_ptr<Cch> cch_;
  std::unique_ptr<CchMetric> metric_;
  CchBound bound_;
  double build_seconds_ = 0.0;
  std::uint64_t serial_ = 0;
};

class SubgoalHierarchySearch {
 public:
  SubgoalHierarchySearch() = default;
  SubgoalHierarchySearch(const SubgoalHierarchySearch&) = delete;
  SubgoalHierarchySearch& operator=(const SubgoalHierarchySearch&) = delete;

  // The cheapest walk from surface `from` to surface `to` of `continent` (which the graph's
  // JumpGrid was built from), as JumpPointSearch::FindWalk for the other parameters; the result's
  // nodes_expanded counts the subgoals the two scans found. The query's buffers are sized to the
  // first hierarchy searched and sized again when another is.
  SearchResult FindWalk(const SubgoalHierarchy& hierarchy, const Continent& continent,
                        double column_yards, double seconds_per_column, SurfaceId from,
                        SurfaceId to, std::vector<PathStep>* path = nullptr);

 private:
  // The subgoals a scan from `cell` finds as endpoints (the cell itself when it is one); the
  // columns to `extra` where the scan sees it first, else kInfCost.
  double Endpoints(const SubgoalGraph& graph, std::uint32_t cell, std::uint32_t extra,
                   std::vector<CchEndpoint>* endpoints);
  void Unpack(const SubgoalHierarchy& hierarchy, std::uint32_t start_cell, std::uint32_t goal_cell,
              const CchResult& found, std::vector<PathStep>* path);

  std::uint64_t bound_to_ = 0;  // the serial of the hierarchy query_ is sized to; 0: none
  std::unique_ptr<CchQuery> query_;
  std::vector<SubgoalGraph::Direct> direct_;
  std::vector<CchEndpoint> sources_, targets_;
  std::vector<std::uint32_t> arc_path_;
};

}  // namespace walk::nav
