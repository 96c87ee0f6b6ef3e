#include "nav/abstract/zone_reach.h"

#include <algorithm>
#include <functional>

namespace walk::nav {

ReverseArcs ReverseArcs::Of(const ContinentGraph& graph) {
  const std::uint32_t n = graph.node_count();
  ReverseArcs reverse;
  reverse.first_in.assign(n + 1, 0);
  for (const std::uint32_t head : graph.arc_head) ++reverse.first_in[head + 1];
  for (std::uint32_t v = 0; v < n; ++v) reverse.first_in[v + 1] += reverse.first_in[v];
  reverse.in_arc.resize(graph.arc_count());
  std::vector<std::uint32_t> next(reverse.first_in.begin(), reverse.first_in.end() - 1);
  for (std::uint32_t tail = 0; tail < n; ++tail) {
    for (std::uint32_t a = graph.first_arc[tail]; a < graph.first_arc[tail + 1]; ++a) {
      reverse.in_arc[next[graph.arc_head[a]]++] = a;
    }
  }
  return reverse;
}

namespace {

// Marks in *seen every node reached from `seed` over arcs `prices` can take (backward: the nodes
// reaching it); returns how many.
std::uint32_t Flood(const ContinentGraph& graph, const ArcPrices& prices,
                    const ReverseArcs* reverse, std::uint32_t seed, std::vector<bool>* seen) {
  const std::uint32_t n = graph.node_count();
  seen->assign(n, false);
  std::vector<std::uint32_t> stack{seed};
  (*seen)[seed] = true;
  std::uint32_t count = 1;
  auto visit = [&](std::uint32_t arc, std::uint32_t other) {
    if (prices.seconds[arc] < kInfCost && !(*seen)[other]) {
      (*seen)[other] = true;
      ++count;
      stack.push_back(other);
    }
  };
  while (!stack.empty()) {
    const std::uint32_t v = stack.back();
    stack.pop_back();
    if (reverse == nullptr) {
      for (std::uint32_t a = graph.first_arc[v]; a < graph.first_arc[v + 1]; ++a)
        visit(a, graph.arc_head[a]);
    } else {
      for (std::uint32_t i = reverse->first_in[v]; i < reverse->first_in[v + 1]; ++i) {
        const std::uint32_t a = reverse->in_arc[i];
        visit(a, static_cast<std::uint32_t>(
                     std::upper_bound(graph.first_arc.begin(), graph.first_arc.end(), a) -
                     graph.first_arc.begin() - 1));
      }
    }
  }
  return count;
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

bool SidesMeetExactly(const PlaceSide& from, const PlaceSide& to, double seconds) {
  auto has = [](const std::vector<std::uint16_t>& zones, std::uint16_t zone) {
    return std::binary_search(zones.begin(), zones.end(), zone);
  };
  if (!from.reached && !to.reached) return true;
  if (!(seconds <= from.radius) || !(seconds <= to.radius)) return false;
  if (from.zone == to.zone) return true;  // one zone exempt, as each reach has it
  if (to.reached && has(from.leg_zones, to.zone)) return false;
  if (from.reached && has(to.leg_zones, from.zone)) return false;
  return !(from.reached && to.reached && has(from.touched, to.zone) && has(to.touched, from.zone));
}

bool ZoneReach::Touched(std::uint16_t zone) const {
  return std::binary_search(touched.begin(), touched.end(), zone);
}

void ZoneReachSearch::Run(const Request& request, ZoneReach* out) {
  const ContinentGraph& graph = request.graph;
  const ArcPrices& prices = request.prices;
  const std::uint32_t n = graph.node_count();
  if (zone_seen_.empty()) zone_seen_.assign(65536, 0);
  state_.clear();
  heap_.clear();
  out->endpoints.clear();
  out->yards.clear();
  out->touched.clear();
  out->radius = kInfCost;
  settled_count_ = 0;
  settled_border_.clear();
  const auto later = std::greater<std::pair<double, std::uint32_t>>();
  auto reach = [&](std::uint32_t v, double g, float yards) {
    State& state = state_[v];
    if (state.settled || !(g < state.g)) return;
    state.g = g;
    state.yards = yards;
    heap_.push_back({g, v});
    std::push_heap(heap_.begin(), heap_.end(), later);
  };
  for (const ReachStart& s : request.starts) {
    if (s.seconds < kInfCost) reach(s.node, s.seconds, s.yards);
  }
  const std::span<const std::uint32_t> border = request.border;
  // Prices an arc taken from settled node v to `other` and notes its zones.
  auto relax = [&](std::uint32_t v, std::uint32_t arc, std::uint32_t other) {
    const double base = prices.seconds[arc];
    if (!(base < kInfCost)) return;
    for (const ZoneShare& share : prices.MixOf(arc)) {
      if (!zone_seen_[share.zone]) {
        zone_seen_[share.zone] = 1;
        out->touched.push_back(share.zone);
      }
    }
    const State& from = state_[v];
    reach(other, from.g + prices.DangerSecondsOf(arc, request.band, request.zone, 0),
          from.yards + prices.yards[arc]);
  };
  // An arc's tail: the node whose arc range holds it.
  auto tail_of = [&](std::uint32_t arc) {
    return static_cast<std::uint32_t>(
        std::upper_bound(graph.first_arc.begin(), graph.first_arc.begin() + n + 1, arc) -
        graph.first_arc.begin() - 1);
  };
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const auto [key, v] = heap_.back();
    heap_.pop_back();
    State& state = state_[v];
    if (state.settled || key > state.g) continue;  // stale
    if (settled_count_ >= request.max_settled) {
      out->radius = key;  // every node not settled costs at least this
      break;
    }
    state.settled = true;
    ++settled_count_;
    if (std::binary_search(border.begin(), border.end(), v)) {
      settled_border_.push_back(v);
      if (settled_border_.size() == border.size()) break;
    }
    if (request.reverse == nullptr) {
      for (std::uint32_t a = graph.first_arc[v]; a < graph.first_arc[v + 1]; ++a)
        relax(v, a, graph.arc_head[a]);
    } else {
      const ReverseArcs& r = *request.reverse;
      for (std::uint32_t i = r.first_in[v]; i < r.first_in[v + 1]; ++i)
        relax(v, r.in_arc[i], tail_of(r.in_arc[i]));
    }
  }
  // The settled border nodes and the starts (settled or not, at their least seconds so far).
  for (const ReachStart& s : request.starts) {
    if (s.seconds < kInfCost) settled_border_.push_back(s.node);
  }
  std::sort(settled_border_.begin(), settled_border_.end());
  settled_border_.erase(std::unique(settled_border_.begin(), settled_border_.end()),
                        settled_border_.end());
  for (const std::uint32_t v : settled_border_) {
    const State& state = state_[v];
    out->endpoints.push_back({v, state.g});
    out->yards.push_back(state.yards);
  }
  for (const std::uint16_t zone : out->touched) zone_seen_[zone] = 0;
  std::sort(out->touched.begin(), out->touched.end());
}

}  // namespace walk::nav
