#include "nav/cch/cch_dijkstra_query.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace walk::nav {

CchDijkstraQuery::CchDijkstraQuery(const Cch& cch) : cch_(&cch), unpacker_(cch) {
  for (Side& side : side_) {
    side.stamp.assign(cch.node_count(), 0);
    side.cost.resize(cch.node_count());
    side.endpoint.resize(cch.node_count());
    side.pred.resize(cch.node_count());
    side.pred_arc.resize(cch.node_count());
    side.settled.resize(cch.node_count());
  }
}

void CchDijkstraQuery::NextGeneration() {
  if (++generation_ != 0) return;
  // Wrapped: the only time the stamps are cleared.
  for (Side& side : side_) std::fill(side.stamp.begin(), side.stamp.end(), 0);
  generation_ = 1;
}

void CchDijkstraQuery::Reach(Side& side, std::uint32_t r, double cost, std::uint32_t endpoint,
                             std::uint32_t pred, std::uint32_t pred_arc) {
  if (side.stamp[r] != generation_) {
    side.stamp[r] = generation_;
    side.settled[r] = 0;
    side.cost[r] = cost;
    side.endpoint[r] = endpoint;
    side.pred[r] = pred;
    side.pred_arc[r] = pred_arc;
    side.heap.Push(r, cost);
  } else if (!side.settled[r] && cost < side.cost[r]) {
    side.cost[r] = cost;
    side.endpoint[r] = endpoint;
    side.pred[r] = pred;
    side.pred_arc[r] = pred_arc;
    side.heap.Decrease(r, cost);
  }
}

CchResult CchDijkstraQuery::Run(const CchMetric& metric, const std::vector<CchEndpoint>& sources,
                                const std::vector<CchEndpoint>& targets,
                                std::vector<std::uint32_t>* arc_path) {
  assert(&metric.cch() == cch_);
  if (arc_path != nullptr) arc_path->clear();
  NextGeneration();
  const CchWeights w[2] = {metric.weights(Cch::kForward), metric.weights(Cch::kBackward)};
  const std::uint32_t* const first_out = cch_->first_out().data();
  const std::uint32_t* const head = cch_->head().data();
  for (std::uint32_t d = 0; d < 2; ++d) {
    Side& side = side_[d];
    side.heap.Reset(cch_->node_count());
    const std::vector<CchEndpoint>& endpoints = d == Cch::kForward ? sources : targets;
    for (std::uint32_t i = 0; i < endpoints.size(); ++i) {
      assert(endpoints[i].node < cch_->node_count());
      if (endpoints[i].cost < kInfCost)
        Reach(side, cch_->rank(endpoints[i].node), endpoints[i].cost, i, kInvalidId, kInvalidId);
    }
  }
  double best = kInfCost;
  std::uint32_t meet = kInvalidId;
  bool open[2] = {true, true};
  std::uint32_t turn = Cch::kForward;
  while (open[0] || open[1]) {
    if (!open[turn]) turn ^= 1;
    Side& side = side_[turn];
    const Side& other = side_[turn ^ 1];
    if (side.heap.empty()) {
      open[turn] = false;
      continue;
    }
    double cost;
    const std::uint32_t r = side.heap.PopMin(&cost);
    if (!(cost < best)) {  // nothing cheaper is left on this side
      open[turn] = false;
      continue;
    }
    side.settled[r] = 1;
    if (other.stamp[r] == generation_ && cost + other.cost[r] < best) {
      best = cost + other.cost[r];
      meet = r;
    }
    if (metric.perfect()) {  // the kept arcs only (their weights are exact: no stalling needed)
      const auto& first = metric.kept_first(turn);
      for (std::uint32_t k = first[r]; k < first[r + 1]; ++k) {
        Reach(side, metric.kept_head(turn)[k], cost + metric.kept_weight(turn)[k], side.endpoint[r],
              r, metric.kept_arc(turn)[k]);
      }
      turn ^= 1;
      continue;
    }
    // Stalled: a higher rank reaches r more cheaply going down, so no shortest up-way passes r.
    bool stalled = false;
    for (std::uint32_t x = first_out[r]; x < first_out[r + 1] && !stalled; ++x) {
      const std::uint32_t h = head[x];
      stalled = side.stamp[h] == generation_ && side.cost[h] + w[turn ^ 1][x] < cost;
    }
    if (!stalled) {
      for (std::uint32_t x = first_out[r]; x < first_out[r + 1]; ++x) {
        Reach(side, head[x], cost + w[turn][x], side.endpoint[r], r, x);
      }
    }
    turn ^= 1;
  }
  auto step = [&](std::uint32_t d, std::uint32_t r) {
    return std::pair<std::uint32_t, std::uint32_t>{side_[d].pred[r], side_[d].pred_arc[r]};
  };
  auto endpoint = [&](std::uint32_t d, std::uint32_t r) { return side_[d].endpoint[r]; };
  return unpacker_.Conclude(metric, meet, best, step, endpoint, arc_path);
}

}  // namespace walk::nav
