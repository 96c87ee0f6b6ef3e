// The split query of a CCH: given an upper bound up front, each direction sweeps its own
// elimination-tree ancestors alone, pruned against that bound (and the way on to a box around
// the other side's endpoints), and the cheapest meeting is taken at the end. Without meeting
// checks a sweep is a tighter loop than CchQuery's, and the two directions share no state, so
// they may run on two threads.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "nav/cch/cch.h"
#include "nav/cch/cch_ancestor_walk.h"
#include "nav/cch/cch_bound.h"
#include "nav/cch/cch_metric.h"
#include "nav/cch/cch_metric_patch.h"
#include "nav/cch/cch_path_unpacker.h"
#include "nav/cch/cch_rank_marks.h"
#include "nav/cch/cch_request.h"

namespace walk::nav {

// A reusable query: buffers sized once to the Cch and generation-stamped. One per thread; not
// thread-safe, except that the two Side calls of one query may run at the same time. Keeps a
// pointer to the Cch, which must outlive it.
class CchSplitQuery {
 public:
  // A query with labels of its own.
  explicit CchSplitQuery(const Cch& cch);
  // A query on `walk`'s labels (borrowed: it must outlive the query), shared with the other
  // queries of one thread (CchQuery) so that they keep one set of labels warm between them.
  explicit CchSplitQuery(CchAncestorWalk& walk);
  CchSplitQuery(const CchSplitQuery&) = delete;
  CchSplitQuery& operator=(const CchSplitQuery&) = delete;

  // The way `request` asks for, each direction swept up its own ancestors on its own, pruned
  // against `request.below` alone (and `request.bound`'s geometric part, toward the box around
  // the other side's endpoints; not its landmarks), then the cheapest meeting taken, the lowest
  // rank among equals: `both` may run the two sweeps on two threads, and the path's two halves'
  // unpacking. Same cost as CchQuery::Run with the same `below`. `arc_path` as there.
  CchResult Run(const CchMetric& metric, const CchRequest& request,
                std::vector<std::uint32_t>* arc_path = nullptr,
                CchRunBoth both = CchOneAfterTheOther);

  // What one side sweeps: its endpoints (the sources forward, the targets backward); with
  // `bound` (not owned), the box and least cost of the other side's endpoints it prunes toward
  // (ignored without); and the upper bound.
  struct SideRequest {
    const std::vector<CchEndpoint>& endpoints;
    const CchBound* bound = nullptr;
    CchEndpointArea other = {};
    double below = kInfCost;
    // Optional, not owned: lowered weights over the metric's (CchRequest::patch).
    const CchMetricPatch* patch = nullptr;
  };
  // Run in pieces, for a caller that sweeps each side on its own thread as soon as its
  // endpoints are known: Begin, then Side for each direction d (Cch::kForward, Cch::kBackward;
  // the two may run at the same time, on two threads), then End with the same `below`, which
  // may unpack the path's way up and way down on two threads (`both`).
  void Begin(const CchMetric& metric);
  void Side(std::uint32_t d, const CchMetric& metric, const SideRequest& request);
  // Side's start alone, for a caller that sweeps the ancestors its own way (CchSideSweep):
  // marks direction d's ancestors of `endpoints` (visited(d)), direction d's labels there reset
  // and the endpoints' costs set.
  void MarkSide(std::uint32_t d, const std::vector<CchEndpoint>& endpoints);
  CchResult End(const CchMetric& metric, double below, std::vector<std::uint32_t>* arc_path,
                CchRunBoth both = CchOneAfterTheOther, const CchMetricPatch* patch = nullptr);
  // After Side(d): the ranks direction d swept, ascending, and their labels (direction d's
  // half, valid where walk().Reached(r, d)); until the next Begin.
  const std::vector<std::uint32_t>& visited(std::uint32_t d) const { return visited_[d]; }
  const CchAncestorWalk& walk() const { return walk_; }

 private:
  std::unique_ptr<CchAncestorWalk> own_walk_;  // null when the labels are borrowed
  CchAncestorWalk& walk_;
  // Per direction: the ranks its Side marks, and those ranks, ascending.
  CchRankMarks marks_[2];
  std::vector<std::uint32_t> visited_[2];
};

}  // namespace walk::nav
