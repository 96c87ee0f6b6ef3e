#include "nav/abstract/zone_bound.h"

#include <algorithm>

namespace walk::nav {
namespace {

bool MixHas(const ArcPrices& prices, std::uint32_t arc, std::uint16_t zone) {
  for (const ZoneShare& share : prices.MixOf(arc))
    if (share.zone == zone) return true;
  return false;
}

void SortUnique(std::vector<std::uint32_t>* nodes) {
  std::sort(nodes->begin(), nodes->end());
  nodes->erase(std::unique(nodes->begin(), nodes->end()), nodes->end());
}

}  // namespace

ZoneBorder ZoneBorderOf(const ContinentGraph& graph, const ArcPrices& prices,
                        std::span<const std::uint32_t> zone_arcs, std::uint16_t zone) {
  ZoneBorder border;
  const std::uint32_t n = graph.node_count();
  auto tail_of = [&](std::uint32_t arc) {
    return static_cast<std::uint32_t>(
        std::upper_bound(graph.first_arc.begin(), graph.first_arc.begin() + n + 1, arc) -
        graph.first_arc.begin() - 1);
  };
  auto leaves = [&](std::uint32_t node) {
    for (std::uint32_t a = graph.first_arc[node]; a < graph.first_arc[node + 1]; ++a)
      if (prices.seconds[a] < kInfCost && !MixHas(prices, a, zone)) return true;
    return false;
  };
  std::vector<std::uint32_t>& heads = border.heads;
  for (const std::uint32_t arc : zone_arcs) {
    heads.push_back(graph.arc_head[arc]);
    border.tails.push_back(tail_of(arc));
  }
  SortUnique(&heads);
  SortUnique(&border.tails);
  for (const std::uint32_t w : heads) (leaves(w) ? border.exits : border.inner_heads).push_back(w);
  // A tail is an entry when some arc avoiding the zone reaches it: one pass over every arc.
  std::vector<std::uint8_t> state(n, 0);  // 1: a tail, 2: an entry
  for (const std::uint32_t u : border.tails) state[u] = 1;
  for (std::uint32_t x = 0; x < n; ++x) {
    for (std::uint32_t a = graph.first_arc[x]; a < graph.first_arc[x + 1]; ++a) {
      const std::uint32_t u = graph.arc_head[a];
      if (state[u] == 1 && prices.seconds[a] < kInfCost && !MixHas(prices, a, zone)) state[u] = 2;
    }
  }
  for (const std::uint32_t u : border.tails)
    (state[u] == 2 ? border.entries : border.inner_tails).push_back(u);
  return border;
}

std::vector<ZoneBorder> ZoneBordersOf(const ContinentGraph& graph, const ArcPrices& prices) {
  const std::uint32_t n = graph.node_count();
  std::uint32_t zones = 0;
  for (const ZoneShare& share : prices.mix) zones = std::max<std::uint32_t>(zones, share.zone + 1u);
  std::vector<ZoneBorder> borders(zones);
  // Every zone's tails and heads, the arcs by tail (so each zone's tails come ascending).
  for (std::uint32_t x = 0; x < n; ++x) {
    for (std::uint32_t a = graph.first_arc[x]; a < graph.first_arc[x + 1]; ++a) {
      for (const ZoneShare& share : prices.MixOf(a)) {
        if (share.zone == 0) continue;
        ZoneBorder& border = borders[share.zone];
        if (border.tails.empty() || border.tails.back() != x) border.tails.push_back(x);
        border.heads.push_back(graph.arc_head[a]);
      }
    }
  }
  auto leaves = [&](std::uint32_t node, std::uint16_t zone) {
    for (std::uint32_t a = graph.first_arc[node]; a < graph.first_arc[node + 1]; ++a)
      if (prices.seconds[a] < kInfCost && !MixHas(prices, a, zone)) return true;
    return false;
  };
  // Each node's zones it is a tail of (ascending), and whether an arc avoiding that zone
  // reaches it: one pass over every arc for all zones.
  std::vector<std::uint32_t> first(n + 1, 0);
  for (std::uint16_t z = 0; z < zones; ++z) {
    ZoneBorder& border = borders[z];
    SortUnique(&border.heads);
    for (const std::uint32_t w : border.heads)
      (leaves(w, z) ? border.exits : border.inner_heads).push_back(w);
    for (const std::uint32_t u : border.tails) ++first[u + 1];
  }
  for (std::uint32_t v = 0; v < n; ++v) first[v + 1] += first[v];
  std::vector<std::uint16_t> tail_zone(first[n]);
  std::vector<std::uint8_t> entry(first[n], 0);
  std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
  for (std::uint16_t z = 0; z < zones; ++z)
    for (const std::uint32_t u : borders[z].tails) tail_zone[fill[u]++] = z;
  for (std::uint32_t x = 0; x < n; ++x) {
    for (std::uint32_t a = graph.first_arc[x]; a < graph.first_arc[x + 1]; ++a) {
      const std::uint32_t u = graph.arc_head[a];
      if (first[u] == first[u + 1] || !(prices.seconds[a] < kInfCost)) continue;
      for (std::uint32_t i = first[u]; i < first[u + 1]; ++i)
        if (entry[i] == 0 && !MixHas(prices, a, tail_zone[i])) entry[i] = 1;
    }
  }
  for (std::uint16_t z = 0; z < zones; ++z) {
    ZoneBorder& border = borders[z];
    for (const std::uint32_t u : border.tails) {
      const std::uint32_t i = static_cast<std::uint32_t>(
          std::lower_bound(tail_zone.begin() + first[u], tail_zone.begin() + first[u + 1], z) -
          tail_zone.begin());
      (entry[i] != 0 ? border.entries : border.inner_tails).push_back(u);
    }
  }
  return borders;
}

void ZoneBound::Reset(const Request& request) {
  if (middle_ == nullptr) {
    middle_ = std::make_unique<CchPotential>(*cch_);
    start_ = std::make_unique<CchPotential>(*cch_);
  }
  start_zone_ = request.start;
  goal_zone_ = request.goal;
  goal_zero_ = &request.goal_zero;
  // Middle: the band's metric to the goal leg, or to the goal zone's entries (then band 0).
  seeds_.assign(request.targets.begin(), request.targets.end());
  if (goal_zone_ != nullptr) {
    for (const std::uint32_t u : goal_zone_->entries) {
      const double rest = goal_zero_->ToTargets(u);
      if (rest < kInfCost) seeds_.push_back({u, rest});
    }
  }
  middle_->Reset(request.band, seeds_);
  if (start_zone_ == nullptr) return;
  // Start: band 0 to where a way leaves the start zone's arcs for good, then the rest of it.
  seeds_.clear();
  auto add = [&](std::uint32_t w) {
    double rest = middle_->ToTargets(w);
    if (GoesThroughGoalZone(w)) rest = std::min(rest, goal_zero_->ToTargets(w));
    if (rest < kInfCost) seeds_.push_back({w, rest});
  };
  for (const std::uint32_t w : start_zone_->exits) add(w);
  // A way may also end with its last arc through the zone, at a goal entrance it reaches.
  for (const CchEndpoint& t : request.targets) {
    if (std::binary_search(start_zone_->heads.begin(), start_zone_->heads.end(), t.node))
      add(t.node);
  }
  start_->Reset(request.band_zero, seeds_);
}

double ZoneBound::ToTargets(std::uint32_t node) {
  double bound = middle_->ToTargets(node);
  if (start_zone_ != nullptr) bound = std::min(bound, start_->ToTargets(node));
  if (GoesThroughGoalZone(node)) bound = std::min(bound, goal_zero_->ToTargets(node));
  return bound;
}

}  // namespace walk::nav
