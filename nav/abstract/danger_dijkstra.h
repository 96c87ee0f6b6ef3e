// Dijkstra over the abstract graph from a start leg's nodes to a goal leg's nodes, pricing each
// arc as it reads it: its band-0 seconds plus the danger of the zones in its mix (the ends'
// zones exempt). It answers every band; the CCH (nav/cch/cch_query.h) answers band 0 faster.
// Given the band-0 distances to the goal (CchPotential) it is an A* guided by them: danger only
// adds to band-0 seconds, so they never overestimate and the cost found is the same.
// One per thread: generation-stamped buffers sized once.
#pragma once

#include <cstdint>
#include <vector>

#include "nav/abstract/abstract_graph.h"
#include "nav/abstract/zone_bound.h"
#include "nav/cch/cch_potential.h"
#include "nav/cost/metric.h"
#include "nav/search/indexed_heap.h"
#include "nav/search/search_stop.h"

namespace walk::nav {

struct PricedNode {
  std::uint32_t node = 0;
  double seconds = 0.0;  // from the start to the node (sources), or from the node to the goal
};

struct DangerDijkstraResult {
  bool found = false;
  double seconds = kInfCost;
  std::uint32_t source = kInvalidId;  // index into the sources
  std::uint32_t target = kInvalidId;  // index into the targets
  std::uint64_t settled = 0;          // nodes settled (and settled again, in an A*)
  absl::Status stopped;               // not OK: the request's `stop` stopped it, nothing found
  bool dearer = false;                // every way costs more than the request's max_seconds
  bool gave_up = false;               // settled more than the request's max_settled, unfinished
};

class DangerDijkstra {
 public:
  // What one search asks for. Nothing is owned; all must outlive the call.
  struct Request {
    const ContinentGraph& graph;
    const ArcPrices& prices;  // one profile's prices of the graph's arcs
    const Metric& band;       // prices danger when it has any; the same profile as `prices`
    // Zones free of danger (a walk's ends' zones).
    std::uint16_t exempt_a = 0;
    std::uint16_t exempt_b = 0;
    const std::vector<PricedNode>& sources;
    const std::vector<PricedNode>& targets;
    const SearchStop* stop = nullptr;  // polled as it settles nodes; may be null
    // A way dearer than this is not wanted: the search stops, found nothing and `dearer`, once
    // its queue's least key is above it (keys never overestimate what a way through them costs).
    double max_seconds = kInfCost;
    // Optional: each node's band-0 seconds to the targets (their band-0 seconds included),
    // Reset by the caller for these targets under the profile's band-0 CCH metric. The search
    // is then an A* settling nodes by seconds so far plus these.
    CchPotential* potential = nullptr;
    // Optional, read instead of `potential`: a bound that knows the ends' zones (ZoneBound).
    ZoneBound* zone_bound = nullptr;
    // Settling more nodes than this, the search gives up (found nothing, `gave_up`).
    std::uint64_t max_settled = UINT64_MAX;
    // Goes on from the last Run, which gave up (the same graph, prices, band, zones, sources
    // and targets; another potential or bound), rather than starting again: the nodes it settled
    // stay settled (a consistent potential, as band 0's is, settled them at their seconds), the
    // nodes in its queue are keyed again, and what it met is kept. Starts again when the last
    // Run did not give up.
    bool resume = false;
  };
  // The cheapest source.seconds + way + target.seconds. When `arcs` is non-null and found, it
  // receives the arcs taken.
  DangerDijkstraResult Run(const Request& request, std::vector<std::uint32_t>* arcs = nullptr);

 private:
  // Readies the buffers for a new search of `request`'s graph and marks its targets.
  void Begin(const Request& request);
  // The arcs of the way the last Run found to `node`, from its source, into *arcs.
  void ArcsTo(const ContinentGraph& graph, std::uint32_t node,
              std::vector<std::uint32_t>* arcs) const;

  std::uint32_t generation_ = 0;  // below 2^31
  // Where a search that gave up stopped: the cheapest way it met, and whether Run may resume.
  double best_seconds_ = kInfCost;
  std::uint32_t best_node_ = kInvalidId;
  bool resumable_ = false;
  std::vector<std::uint32_t> queued_;  // Run's scratch while it resumes
  // A reached node's state in one place: a relaxed arc's head costs one cache miss, not five.
  struct NodeState {
    double g = 0.0;
    double h = 0.0;                // the potential (0 without one)
    std::uint32_t stamp = 0;       // generation_ << 1, and 1 while settled
    std::uint32_t parent_arc = 0;  // kInvalidId at a source
    std::uint32_t source = 0;      // which source the way starts from
  };
  std::vector<NodeState> node_;
  std::vector<std::uint32_t> target_stamp_;
  std::vector<double> target_seconds_;
  std::vector<std::uint32_t> target_index_;
  IndexedMinHeap heap_;
};

}  // namespace walk::nav
