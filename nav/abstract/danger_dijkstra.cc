#include "nav/abstract/danger_dijkstra.h"

#include <algorithm>

#include "nav/cost/zone_mix.h"

namespace walk::nav {

void DangerDijkstra::Begin(const Request& request) {
  const std::vector<PricedNode>& targets = request.targets;
  const std::uint32_t n = request.graph.node_count();
  if (node_.size() < n) {
    node_.assign(n, NodeState{});
    target_stamp_.assign(n, 0);
    target_seconds_.resize(n);
    target_index_.resize(n);
    generation_ = 0;
  }
  if (++generation_ == (1u << 31)) {
    for (NodeState& node : node_) node.stamp = 0;
    std::fill(target_stamp_.begin(), target_stamp_.end(), 0);
    generation_ = 1;
  }
  heap_.Reset(n);
  best_seconds_ = kInfCost;
  best_node_ = kInvalidId;
  for (std::uint32_t i = 0; i < targets.size(); ++i) {
    const PricedNode& t = targets[i];
    if (target_stamp_[t.node] != generation_ || t.seconds < target_seconds_[t.node]) {
      target_stamp_[t.node] = generation_;
      target_seconds_[t.node] = t.seconds;
      target_index_[t.node] = i;
    }
  }
}

DangerDijkstraResult DangerDijkstra::Run(const Request& request, std::vector<std::uint32_t>* arcs) {
  const ContinentGraph& graph = request.graph;
  const ArcPrices& prices = request.prices;
  const Metric& band = request.band;
  const std::uint16_t exempt_a = request.exempt_a, exempt_b = request.exempt_b;
  const std::vector<PricedNode>& sources = request.sources;
  const std::uint32_t n = graph.node_count();
  const bool resume = request.resume && resumable_;
  resumable_ = false;
  if (!resume) Begin(request);
  DangerDijkstraResult result;
  CchPotential* const potential = request.potential;
  ZoneBound* const zone_bound = request.zone_bound;
  auto potential_of = [&](std::uint32_t v) {
    return zone_bound != nullptr  ? zone_bound->ToTargets(v)
           : potential != nullptr ? potential->ToTargets(v)
                                  : 0.0;
  };
  const std::uint32_t reached = generation_ << 1;  // settled: reached | 1
  // A node first reached is pushed keyed by seconds so far plus its potential, unless no target
  // can be reached from it. Reached again more cheaply it is lowered, or settled again when it
  // was settled (a potential consistent but for rounding).
  auto reach = [&](std::uint32_t v, double g, std::uint32_t arc, std::uint32_t source) {
    NodeState& node = node_[v];
    if ((node.stamp & ~1u) != reached) {
      node.g = g;
      node.h = potential_of(v);
      node.parent_arc = arc;
      node.source = source;
      const bool dead_end = !(node.h < kInfCost);  // never pushed
      node.stamp = reached | (dead_end ? 1u : 0u);
      if (!dead_end) heap_.Push(v, g + node.h);
    } else if (g < node.g && node.h < kInfCost) {
      node.g = g;
      node.parent_arc = arc;
      node.source = source;
      if (node.stamp == (reached | 1)) {
        node.stamp = reached;
        heap_.Push(v, g + node.h);
      } else {
        heap_.Decrease(v, g + node.h);
      }
    }
  };
  if (resume) {
    // The queue keyed again by this request's potential; the nodes settled stay settled.
    queued_.clear();
    while (!heap_.empty()) {
      double key;
      queued_.push_back(heap_.PopMin(&key));
    }
    heap_.Reset(n);
    for (const std::uint32_t v : queued_) {
      NodeState& node = node_[v];
      node.h = potential_of(v);
      if (node.h < kInfCost) heap_.Push(v, node.g + node.h);
    }
  } else {
    for (std::uint32_t i = 0; i < sources.size(); ++i)
      reach(sources[i].node, sources[i].seconds, kInvalidId, i);
  }
  result.seconds = best_seconds_;

  const bool danger = band.prices_danger();
  std::uint32_t best_node = best_node_;
  while (!heap_.empty()) {
    double key;
    const std::uint32_t v = heap_.PopMin(&key);
    if (key >= result.seconds) break;
    if (key > request.max_seconds) {  // whatever was met costs more too
      result.dearer = true;
      result.seconds = kInfCost;
      return result;
    }
    const double g = node_[v].g;
    if (result.settled == request.max_settled) {
      // v back in the queue, and what was met kept: a request to resume goes on from here.
      heap_.Push(v, key);
      best_seconds_ = result.seconds;
      best_node_ = best_node;
      resumable_ = true;
      result.gave_up = true;
      result.seconds = kInfCost;
      return result;
    }
    node_[v].stamp = reached | 1;
    ++result.settled;
    if (request.stop != nullptr) {
      result.stopped = request.stop->Poll(result.settled);
      if (!result.stopped.ok()) return result;
    }
    if (target_stamp_[v] == generation_ && g + target_seconds_[v] < result.seconds) {
      result.seconds = g + target_seconds_[v];
      best_node = v;
    }
    const std::uint32_t source = node_[v].source;
    for (std::uint32_t a = graph.first_arc[v]; a < graph.first_arc[v + 1]; ++a) {
      const double base = prices.seconds[a];
      if (!(base < kInfCost)) continue;
      const std::uint32_t head = graph.arc_head[a];
      // Danger only adds to an arc's seconds: a head its base seconds cannot lower (most often
      // one settled already) is passed without reading the arc's mix.
      const NodeState& other = node_[head];
      if ((other.stamp & ~1u) == reached && !(g + base < other.g && other.h < kInfCost)) continue;
      const double w = danger ? prices.DangerSecondsOf(a, band, exempt_a, exempt_b) : base;
      reach(head, g + w, a, source);
    }
  }
  if (best_node == kInvalidId) return result;
  result.found = true;
  result.source = node_[best_node].source;
  result.target = target_index_[best_node];
  if (arcs != nullptr) ArcsTo(graph, best_node, arcs);
  return result;
}

void DangerDijkstra::ArcsTo(const ContinentGraph& graph, std::uint32_t node,
                            std::vector<std::uint32_t>* arcs) const {
  arcs->clear();
  // Walk parents back, from each arc to its tail.
  for (std::uint32_t v = node; node_[v].parent_arc != kInvalidId;) {
    const std::uint32_t a = node_[v].parent_arc;
    arcs->push_back(a);
    v = graph.TailOf(a);
  }
  std::reverse(arcs->begin(), arcs->end());
}

}  // namespace walk::nav
