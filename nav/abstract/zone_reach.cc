#include "nav/abstract/zone_reach.h"

#include <algorithm>
#include <iterator>

namespace walk::nav {

ReverseArcs ReverseArcs::Of(const ContinentGraph& graph) {
  const std::uint32_t n = graph.node_count();
  ReverseArcs reverse;
  reverse.first_in.assign(n + 1, 0);
  for (const std::uint32_t head : graph.arc_head) ++reverse.first_in[head + 1];
  for (std::uint32_t v = 0; v < n; ++v) reverse.first_in[v + 1] += reverse.first_in[v];
  reverse.in_arc.resize(graph.arc_count());
  reverse.in_tail.resize(graph.arc_count());
  std::vector<std::uint32_t> next(reverse.first_in.begin(), reverse.first_in.end() - 1);
  for (std::uint32_t tail = 0; tail < n; ++tail) {
    for (std::uint32_t a = graph.first_arc[tail]; a < graph.first_arc[tail + 1]; ++a) {
      const std::uint32_t slot = next[graph.arc_head[a]]++;
      reverse.in_arc[slot] = a;
      reverse.in_tail[slot] = tail;
    }
  }
  return reverse;
}

namespace {

// Calls visit(arc, other) for every arc leaving node v (`reverse` null; other: its head), or
// entering it (other: its tail).
template <typename Visit>
void ForArcsOf(const ContinentGraph& graph, const ReverseArcs* reverse, std::uint32_t v,
               Visit&& visit) {
  if (reverse == nullptr) {
    for (std::uint32_t a = graph.first_arc[v]; a < graph.first_arc[v + 1]; ++a)
      visit(a, graph.arc_head[a]);
  } else {
    for (std::uint32_t i = reverse->first_in[v]; i < reverse->first_in[v + 1]; ++i)
      visit(reverse->in_arc[i], reverse->in_tail[i]);
  }
}

// Marks in *seen every node reached from `seed` over arcs `prices` can take (backward: the nodes
// reaching it).
void Flood(const ContinentGraph& graph, const ArcPrices& prices, const ReverseArcs* reverse,
           std::uint32_t seed, std::vector<bool>* seen) {
  const std::uint32_t n = graph.node_count();
  seen->assign(n, false);
  std::vector<std::uint32_t> stack{seed};
  (*seen)[seed] = true;
  auto visit = [&](std::uint32_t arc, std::uint32_t other) {
    if (prices.seconds[arc] < kInfCost && !(*seen)[other]) {
      (*seen)[other] = true;
      stack.push_back(other);
    }
  };
  while (!stack.empty()) {
    const std::uint32_t v = stack.back();
    stack.pop_back();
    ForArcsOf(graph, reverse, v, visit);
  }
}

// Asks for the arcs of node u (likely settled next) while the last node's are relaxed: a node's
// arcs and their mixes lie far from the last node's.
void PrefetchArcsOf(const ContinentGraph& graph, const ArcPrices& prices,
                    const ReverseArcs* reverse, std::uint32_t u) {
  if (reverse != nullptr) {
    const std::uint32_t first = reverse->first_in[u];
    __builtin_prefetch(&reverse->in_arc[first]);
    __builtin_prefetch(&reverse->in_tail[first]);
  } else {
    const std::uint32_t first = graph.first_arc[u];
    __builtin_prefetch(&graph.arc_head[first]);
    __builtin_prefetch(&prices.seconds[first]);
    __builtin_prefetch(prices.mix.data() + prices.mix_first[first]);
  }
}

// Puts a reach's settled inner border nodes (kept in the order settled) in node order.
void SortInner(ZoneReach* out) {
  std::vector<std::uint32_t> order(out->inner.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return out->inner[a].node < out->inner[b].node;
  });
  std::vector<CchEndpoint> inner;
  std::vector<float> yards;
  for (const std::uint32_t i : order) {
    inner.push_back(out->inner[i]);
    yards.push_back(out->inner_yards[i]);
  }
  out->inner = std::move(inner);
  out->inner_yards = std::move(yards);
}

// Where a reach touched `zone`; at kInfCost where it never did.
ZoneTouch TouchOf(const std::vector<ZoneTouch>& touched, std::uint16_t zone) {
  const auto it = std::lower_bound(touched.begin(), touched.end(), zone,
                                   [](const ZoneTouch& t, std::uint16_t z) { return t.zone < z; });
  return it != touched.end() && it->zone == zone ? *it : ZoneTouch{zone, kInfCost, kInfCost};
}

}  // namespace

GiantPart GiantPart::Of(const Continent& c, const ContinentGraph& graph, const ArcPrices& prices,
                        const ReverseArcs& reverse) {
  const std::uint32_t n = graph.node_count();
  GiantPart part;
  part.in_part.assign(n, false);
  if (c.region_count() == 0 || n == 0) return part;
  RegionId largest = 0;
  for (RegionId r = 1; r < c.region_count(); ++r)
    if (c.region_size[r] > c.region_size[largest]) largest = r;
  std::uint32_t region_nodes = 0;
  for (std::uint32_t v = 0; v < n; ++v) region_nodes += c.region[graph.node_surface[v]] == largest;
  constexpr int kSeedsTried = 8;
  int tried = 0;
  for (std::uint32_t v = 0; v < n && tried < kSeedsTried; v += 1 + n / 64) {
    if (c.region[graph.node_surface[v]] != largest) continue;
    ++tried;
    Flood(graph, prices, nullptr, v, &part.forward);
    Flood(graph, prices, &reverse, v, &part.backward);
    std::uint32_t size = 0;
    for (std::uint32_t u = 0; u < n; ++u) {
      part.in_part[u] = part.forward[u] && part.backward[u];
      size += part.in_part[u];
    }
    if (2 * size >= region_nodes) break;
  }
  if (part.forward.empty()) {
    part.forward.assign(n, false);
    part.backward.assign(n, false);
  }
  return part;
}

NodeZones NodeZones::Of(const ContinentGraph& graph, const ArcPrices& prices,
                        const ReverseArcs& reverse) {
  const std::uint32_t n = graph.node_count();
  NodeZones zones;
  // One node's zones from its arcs (those `prices` can take), each once, ascending.
  auto fill = [&](std::vector<std::uint32_t>* first, std::vector<std::uint16_t>* list,
                  const ReverseArcs* by_head) {
    first->assign(n + 1, 0);
    std::vector<std::uint16_t> node;
    for (std::uint32_t v = 0; v < n; ++v) {
      node.clear();
      ForArcsOf(graph, by_head, v, [&](std::uint32_t arc, std::uint32_t) {
        if (!(prices.seconds[arc] < kInfCost)) return;
        for (const ZoneShare& share : prices.MixOf(arc)) node.push_back(share.zone);
      });
      std::sort(node.begin(), node.end());
      node.erase(std::unique(node.begin(), node.end()), node.end());
      list->insert(list->end(), node.begin(), node.end());
      (*first)[v + 1] = static_cast<std::uint32_t>(list->size());
    }
  };
  fill(&zones.first_out, &zones.out, nullptr);
  fill(&zones.first_in, &zones.in, &reverse);
  return zones;
}

SidesAnswer MeetSides(const PlaceSide& from, const PlaceSide& to, double seconds,
                      std::uint32_t from_node, std::uint32_t to_node) {
  auto has = [](const std::vector<std::uint16_t>& zones, std::uint16_t zone) {
    return std::binary_search(zones.begin(), zones.end(), zone);
  };
  if (!from.reached && !to.reached) return {.known = true, .seconds = seconds};
  if ((from.reached && !from.reach->searched) || (to.reached && !to.reach->searched)) return {};
  // Through a border node a reach stopped before, the seconds are a bound (never above the
  // walk's, nor above any way through it), not a way's.
  auto far = [](const PlaceSide& side, std::uint32_t node) {
    return side.reached && std::binary_search(side.reach->far.begin(), side.reach->far.end(), node);
  };
  if (far(from, from_node) || far(to, to_node)) return {};
  SidesAnswer answer{.known = true, .seconds = seconds};
  double below = kInfCost;  // no way the answer does not hold costs less
  // A way ending its last arc through from's zone at a goal entrance no arc leaves it by (or
  // starting its first through to's zone at a start entrance none enters it by) is cut at a
  // node neither side starts from: the reach's own seconds to it, where it settled it.
  auto inner_ways = [&](const PlaceSide& reached, const PlaceSide& other) {
    const ZoneReach& reach = *reached.reach;
    for (std::size_t i = 0; i < other.entrances.size(); ++i) {
      const std::uint32_t node = other.entrances[i].node;
      if (!std::binary_search(reached.inner.begin(), reached.inner.end(), node)) continue;
      const auto it =
          std::lower_bound(reach.inner.begin(), reach.inner.end(), node,
                           [](const CchEndpoint& e, std::uint32_t n) { return e.node < n; });
      if (it == reach.inner.end() || it->node != node) {
        below = std::min(below, reach.relaxed_to + other.entrances[i].cost);
        continue;
      }
      const double way = it->cost + other.entrances[i].cost;
      if (way < answer.seconds) {
        answer = {.known = true,
                  .seconds = way,
                  .inner = true,
                  .yards = reach.inner_yards[it - reach.inner.begin()] + other.entrance_yards[i]};
      }
    }
  };
  if (from.reached) inner_ways(from, to);
  if (to.reached) inner_ways(to, from);
  if (from.zone != to.zone) {
    if (to.reached && has(from.leg_zones, to.zone)) return {};
    if (from.reached && has(to.leg_zones, from.zone)) return {};
    if (from.reached && to.reached) {
      // A way through to's zone and later from's costs at least from's reach to its first arc
      // through to's zone (and that arc) and to's reach from its last arc through from's (or
      // that arc and on): its first such arc and its last may be one arc, counted once.
      const ZoneTouch first = TouchOf(from.reach->touched, to.zone);
      const ZoneTouch last = TouchOf(to.reach->touched, from.zone);
      below = std::min(below, std::max(first.through + last.seconds, first.seconds + last.through));
    }
  }
  answer.known = answer.seconds <= below;
  return answer;
}

std::uint32_t ZoneReachSearch::Begin(std::uint32_t n, ZoneReach* out) {
  if (state_.size() < n) {
    state_.assign(n, NodeState{0.0, 0.0f, 0});
    kind_.assign(n, 0);
    generation_ = 0;
  }
  if (touch_of_.empty()) touch_of_.assign(65536, 0);
  if (++generation_ == (1u << 31)) {
    for (NodeState& state : state_) state.stamp = 0;
    generation_ = 1;
  }
  heap_.Reset(n);
  out->endpoints.clear();
  out->yards.clear();
  out->touched.clear();
  out->far.clear();
  out->inner.clear();
  out->inner_yards.clear();
  out->searched = true;
  return generation_ << 1;
}

void ZoneReachSearch::Run(const Request& request, ZoneReach* out) {
  const ContinentGraph& graph = request.graph;
  const ArcPrices& prices = request.prices;
  const std::uint32_t reached = Begin(graph.node_count(), out);
  std::uint64_t settled_count = 0;
  settled_border_.clear();
  auto reach = [&](std::uint32_t v, double g, float yards) {
    NodeState& state = state_[v];
    if ((state.stamp & ~1u) != reached) {
      state = {g, yards, reached};
      heap_.Push(v, g);
    } else if (state.stamp == reached && g < state.g) {
      state.g = g;
      state.yards = yards;
      heap_.Decrease(v, g);
    }
  };
  for (const ReachStart& s : request.starts) {
    if (s.seconds < kInfCost) reach(s.node, s.seconds, s.yards);
  }
  const std::span<const std::uint32_t> border = request.border;
  // Which nodes are border and inner nodes, a byte a node, not a search of each settled node.
  for (const std::uint32_t v : border) kind_[v] |= kBorder;
  for (const std::uint32_t v : request.inner) kind_[v] |= kInner;
  const bool backward = request.reverse != nullptr;
  const Metric& band = request.band;
  // Notes settled node v's zones (at g seconds). Whether its arcs cost their band-0 seconds
  // (every zone of their mixes exempt or unpriced, so DangerSecondsOf adds nothing and its mix
  // need not be read); and in *through whether an arc of it may lower a priced zone's `through`.
  auto note = [&](std::uint32_t v, double g, bool* through) {
    bool plain = true;
    *through = false;
    for (const std::uint16_t zone :
         backward ? request.zones.Entering(v) : request.zones.Leaving(v)) {
      if (touch_of_[zone] == 0) {
        out->touched.push_back({zone, g});  // nodes settle by seconds: the first is least
        touch_of_[zone] = static_cast<std::uint32_t>(out->touched.size());
      }
      if (zone != request.zone && band.ZoneMultiplier(zone) != 1.0) {
        plain = false;
        *through = *through || g < out->touched[touch_of_[zone] - 1].through;
      }
    }
    return plain;
  };
  // Lowers the `through` of the priced zones in arc's mix (from a node at g seconds).
  auto through_arc = [&](double g, double base, std::uint32_t arc) {
    const std::span<const ZoneShare> mix = prices.MixOf(arc);
    for (const ZoneShare& share : mix) {
      if (share.zone == request.zone || band.ZoneMultiplier(share.zone) == 1.0) continue;
      double& through = out->touched[touch_of_[share.zone] - 1].through;
      through =
          std::min(through, g + OnTicks(DangerSeconds(base, mix, band, request.zone, share.zone)));
    }
  };
  // Prices an arc taken from a settled node (at g seconds and `yards`) to `other`.
  auto relax = [&](double g, float yards, bool plain, bool through, std::uint32_t arc,
                   std::uint32_t other) {
    const double base = prices.seconds[arc];
    if (!(base < kInfCost)) return;
    if (through) through_arc(g, base, arc);
    // Danger only adds to an arc's seconds: a head its base seconds cannot lower (most heads of
    // a cell's arcs are settled by then) is passed without reading the arc's mix.
    const NodeState& head = state_[other];
    if ((head.stamp & ~1u) == reached && !(g + base < head.g)) return;
    const double seconds =
        plain ? OnTicks(base) : prices.DangerSecondsOf(arc, band, request.zone, 0);
    reach(other, g + seconds, yards + prices.yards[arc]);
  };
  double stop = kInfCost;        // where the reach stopped short: every node not settled costs this
  double relaxed_to = kInfCost;  // a node it did not relax costs at least this
  while (!heap_.empty()) {
    double key;
    const std::uint32_t v = heap_.PopMin(&key);
    if (settled_count >= request.max_settled ||
        (settled_count >= request.far_after &&
         border.size() - settled_border_.size() <= request.far_left)) {
      stop = relaxed_to = key;
      break;
    }
    state_[v].stamp = reached | 1;
    ++settled_count;
    if ((kind_[v] & kInner) != 0) {
      out->inner.push_back({v, state_[v].g});
      out->inner_yards.push_back(state_[v].yards);
    }
    if ((kind_[v] & kBorder) != 0) {
      settled_border_.push_back(v);
      if (settled_border_.size() == border.size()) {
        relaxed_to = key;
        break;
      }
    }
    if (!heap_.empty()) PrefetchArcsOf(graph, prices, request.reverse, heap_.Top());
    const double g = state_[v].g;
    const float yards = state_[v].yards;
    bool through;
    const bool plain = note(v, g, &through);
    ForArcsOf(graph, request.reverse, v, [&](std::uint32_t arc, std::uint32_t other) {
      relax(g, yards, plain, through, arc, other);
    });
  }
  for (const std::uint32_t v : border) kind_[v] = 0;
  for (const std::uint32_t v : request.inner) kind_[v] = 0;
  Endpoints(request, stop, out);
  out->relaxed_to = relaxed_to;
  SortInner(out);
  // A way through a zone's arc from a node it did not relax costs at least relaxed_to.
  for (ZoneTouch& t : out->touched) {
    t.through = std::min(t.through, relaxed_to);
    touch_of_[t.zone] = 0;
  }
  std::sort(out->touched.begin(), out->touched.end(),
            [](const ZoneTouch& a, const ZoneTouch& b) { return a.zone < b.zone; });
}

void ZoneReachSearch::Endpoints(const Request& request, double stop, ZoneReach* out) {
  const std::span<const std::uint32_t> border = request.border;
  for (const ReachStart& s : request.starts) {
    if (s.seconds < kInfCost) settled_border_.push_back(s.node);
  }
  std::sort(settled_border_.begin(), settled_border_.end());
  settled_border_.erase(std::unique(settled_border_.begin(), settled_border_.end()),
                        settled_border_.end());
  if (stop < kInfCost) {
    std::set_difference(border.begin(), border.end(), settled_border_.begin(),
                        settled_border_.end(), std::back_inserter(out->far));
  }
  std::size_t next_far = 0;
  auto far_below = [&](std::uint32_t end) {  // the far nodes before `end`, by node
    for (; next_far < out->far.size() && out->far[next_far] < end; ++next_far) {
      out->endpoints.push_back({out->far[next_far], stop});
      out->yards.push_back(0.0f);
    }
  };
  for (const std::uint32_t v : settled_border_) {
    far_below(v);
    out->endpoints.push_back({v, state_[v].g});
    out->yards.push_back(state_[v].yards);
  }
  far_below(UINT32_MAX);
}

}  // namespace walk::nav
