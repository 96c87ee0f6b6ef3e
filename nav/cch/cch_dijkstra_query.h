// A bidirectional Dijkstra over a CCH's upward arcs with stall-on-demand: each side settles ranks
// in cost order and stops once its cheapest open rank costs no less than the best meeting, so
// ranks far along a long separator are never touched. The same answers as CchQuery (ties may
// pick another of the equally cheap ways); a comparison for benchmarks and tests.
#pragma once

#include <cstdint>
#include <vector>

#include "nav/cch/cch.h"
#include "nav/cch/cch_metric.h"
#include "nav/cch/cch_path_unpacker.h"
#include "nav/cch/cch_request.h"
#include "nav/search/indexed_heap.h"

namespace walk::nav {

// A reusable query: buffers sized once to the Cch and generation-stamped. One per thread; not
// thread-safe. Keeps a pointer to the Cch, which must outlive it.
class CchDijkstraQuery {
 public:
  explicit CchDijkstraQuery(const Cch& cch);
  CchDijkstraQuery(const CchDijkstraQuery&) = delete;
  CchDijkstraQuery& operator=(const CchDijkstraQuery&) = delete;

  // The cheapest s.cost + dist(s.node, t.node) + t.cost over all s in `sources` and t in
  // `targets` (as CchRequest's), priced by `metric`; `arc_path` as in CchQuery::Run.
  CchResult Run(const CchMetric& metric, const std::vector<CchEndpoint>& sources,
                const std::vector<CchEndpoint>& targets,
                std::vector<std::uint32_t>* arc_path = nullptr);

 private:
  // One direction's state: up from the sources over forward slots, or up from the targets over
  // backward slots. Per rank, valid where stamp == generation_.
  struct Side {
    std::vector<std::uint32_t> stamp;
    std::vector<double> cost;
    std::vector<std::uint32_t> endpoint;  // index of the endpoint the cost comes from
    std::vector<std::uint32_t> pred;      // lower rank reached from, kInvalidId at an endpoint
    std::vector<std::uint32_t> pred_arc;  // the arc from pred
    std::vector<std::uint8_t> settled;    // taken off the heap
    IndexedMinHeap heap;
  };
  // Starts a new generation of stamps.
  void NextGeneration();
  // Reaches rank r of `side` at `cost`, from endpoint `endpoint` through `pred` and `pred_arc`,
  // where that is cheaper than it was.
  void Reach(Side& side, std::uint32_t r, double cost, std::uint32_t endpoint, std::uint32_t pred,
             std::uint32_t pred_arc);

  const Cch* cch_;
  std::uint32_t generation_ = 0;
  Side side_[2];  // [Cch::kForward] from the sources, [Cch::kBackward] from the targets
  CchPathUnpacker unpacker_;
};

}  // namespace walk::nav
