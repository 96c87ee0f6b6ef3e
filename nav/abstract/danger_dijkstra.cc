#include "nav/abstract/danger_dijkstra.h"

#include <algorithm>

#include "nav/cost/zone_mix.h"

namespace walk::nav {

void DangerDijkstra::Begin(const Request& request) {
  const std::vector<PricedNode>& targets = request.targets;
  const std::uint32_t n = request.graph.node_count();
  if (stamp_.size() < n) {
    stamp_.assign(n, 0);
    target_stamp_.assign(n, 0);
    settled_.resize(n);
    g_.resize(n);
    h_.resize(n);
    parent_arc_.resize(n);
    source_of_.resize(n);
    target_seconds_.resize(n);
    target_index_.resize(n);
    generation_ = 0;
  }
  if (++generation_ == 0) {
    std::fill(stamp_.begin(), stamp_.end(), 0);
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
  // A node first reached is pushed keyed by seconds so far plus its potential, unless no target
  // can be reached from it. Reached again more cheaply it is lowered, or settled again when it
  // was settled (a potential consistent but for rounding).
  auto reach = [&](std::uint32_t v, double g, std::uint32_t arc, std::uint32_t source) {
    if (stamp_[v] != generation_) {
      stamp_[v] = generation_;
      g_[v] = g;
      parent_arc_[v] = arc;
      source_of_[v] = source;
      h_[v] = potential_of(v);
      settled_[v] = h_[v] < kInfCost ? 0 : 1;  // a dead end is never pushed
      if (!settled_[v]) heap_.Push(v, g + h_[v]);
    } else if (g < g_[v] && h_[v] < kInfCost) {
      g_[v] = g;
      parent_arc_[v] = arc;
      source_of_[v] = source;
      if (settled_[v]) {
        settled_[v] = 0;
        heap_.Push(v, g + h_[v]);
      } else {
        heap_.Decrease(v, g + h_[v]);
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
      h_[v] = potential_of(v);
      if (h_[v] < kInfCost) heap_.Push(v, g_[v] + h_[v]);
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
    const double g = g_[v];
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
    settled_[v] = 1;
    ++result.settled;
    if (request.stop != nullptr) {
      result.stopped = request.stop->Poll(result.settled);
      if (!result.stopped.ok()) return result;
    }
    if (target_stamp_[v] == generation_ && g + target_seconds_[v] < result.seconds) {
      result.seconds = g + target_seconds_[v];
      best_node = v;
    }
    for (std::uint32_t a = graph.first_arc[v]; a < graph.first_arc[v + 1]; ++a) {
      double w = prices.seconds[a];
      if (!(w < kInfCost)) continue;
      if (danger) w = prices.DangerSecondsOf(a, band, exempt_a, exempt_b);
      reach(graph.arc_head[a], g + w, a, source_of_[v]);
    }
  }
  if (best_node == kInvalidId) return result;
  result.found = true;
  result.source = source_of_[best_node];
  result.target = target_index_[best_node];
  if (arcs != nullptr) {
    arcs->clear();
    // Walk parents back: an arc's tail is the node whose arc range holds it.
    for (std::uint32_t v = best_node; parent_arc_[v] != kInvalidId;) {
      const std::uint32_t a = parent_arc_[v];
      arcs->push_back(a);
      v = static_cast<std::uint32_t>(
          std::upper_bound(graph.first_arc.begin(), graph.first_arc.end(), a) -
          graph.first_arc.begin() - 1);
    }
    std::reverse(arcs->begin(), arcs->end());
  }
  return result;
}

}  // namespace walk::nav
