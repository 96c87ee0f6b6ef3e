#include "nav/abstract/zone_bound.h"

#include <algorithm>

#include "nav/abstract/band_metrics.h"

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
  auto leaves = [&](std::uint32_t node) {
    for (std::uint32_t a = graph.first_arc[node]; a < graph.first_arc[node + 1]; ++a)
      if (prices.seconds[a] < kInfCost && !MixHas(prices, a, zone)) return true;
    return false;
  };
  std::vector<std::uint32_t>& heads = border.heads;
  for (const std::uint32_t arc : zone_arcs) {
    heads.push_back(graph.arc_head[arc]);
    border.tails.push_back(graph.TailOf(arc));
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

std::vector<ZoneBorder> ZoneBordersOf(const ContinentGraph& graph, const ArcPrices& prices,
                                      const ZoneArcs& zone_arcs) {
  // A head is an exit when fewer of its arcs out go through the zone than it has, a tail an
  // entry when fewer of its arcs in do: counted over the zone's arcs alone, no mix read.
  const std::uint32_t n = graph.node_count();
  const std::uint32_t arc_count = graph.first_arc[n];
  std::vector<std::uint32_t> tail(arc_count);
  std::vector<std::uint32_t> out(n, 0), in(n, 0);
  for (std::uint32_t x = 0; x < n; ++x) {
    for (std::uint32_t a = graph.first_arc[x]; a < graph.first_arc[x + 1]; ++a) {
      tail[a] = x;
      if (prices.seconds[a] < kInfCost) {
        ++out[x];
        ++in[graph.arc_head[a]];
      }
    }
  }
  // By node: its arcs out and in through the zone, and whether it is among the zone's heads
  // and tails yet (the zone's number, so nothing is cleared between zones).
  std::vector<std::uint32_t> zone_out(n, 0), zone_in(n, 0);
  std::vector<std::uint16_t> head_of(n, 0), tail_of(n, 0);
  std::vector<ZoneBorder> borders(zone_arcs.zone_count());
  for (std::uint32_t z = 1; z < borders.size(); ++z) {
    ZoneBorder& border = borders[z];
    const std::span<const std::uint32_t> arcs = zone_arcs.Of(static_cast<std::uint16_t>(z));
    for (std::size_t i = 0; i < arcs.size(); ++i) {
      const std::uint32_t a = arcs[i];
      if (i > 0 && arcs[i - 1] == a) continue;  // a mix naming the zone twice
      const std::uint32_t w = graph.arc_head[a], u = tail[a];
      if (head_of[w] != z) {
        head_of[w] = static_cast<std::uint16_t>(z);
        border.heads.push_back(w);
      }
      if (tail_of[u] != z) {
        tail_of[u] = static_cast<std::uint16_t>(z);
        border.tails.push_back(u);
      }
      if (prices.seconds[a] < kInfCost) {
        ++zone_out[u];
        ++zone_in[w];
      }
    }
    std::sort(border.heads.begin(), border.heads.end());
    std::sort(border.tails.begin(), border.tails.end());
    for (const std::uint32_t w : border.heads)
      (zone_out[w] < out[w] ? border.exits : border.inner_heads).push_back(w);
    for (const std::uint32_t u : border.tails)
      (zone_in[u] < in[u] ? border.entries : border.inner_tails).push_back(u);
    for (const std::uint32_t a : arcs) zone_out[tail[a]] = zone_in[graph.arc_head[a]] = 0;
  }
  return borders;
}

void ZoneBound::Reset(const Request& request) {
  if (middle_ == nullptr) {
    middle_ = std::make_unique<CchPotential>(*cch_);
    start_ = std::make_unique<CchPotential>(*cch_);
  }
  goal_zero_ = &request.goal_zero;
  if (SameGoal(request)) {
    ++kept_goals_;
    if (request.start == start_zone_) {
      ++kept_starts_;
      return;
    }
  } else {
    ResetGoal(request);
  }
  start_zone_ = request.start;
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
  start_floor_ = kInfCost;
  for (const CchEndpoint& seed : seeds_) start_floor_ = std::min(start_floor_, seed.cost);
  start_->Reset(request.band_zero, seeds_);
}

bool ZoneBound::SameGoal(const Request& request) const {
  return request.band_serial != 0 && request.band_serial == band_serial_ &&
         &request.band_zero == band_zero_ && request.goal == goal_zone_ &&
         request.targets == targets_;
}

void ZoneBound::ResetGoal(const Request& request) {
  band_serial_ = request.band_serial;
  band_zero_ = &request.band_zero;
  goal_zone_ = request.goal;
  targets_.assign(request.targets.begin(), request.targets.end());
  // The goal zone's tails marked a byte a node: ToTargets asks of every node it bounds.
  if (goal_tail_.empty()) goal_tail_.assign(cch_->node_count(), 0);
  for (const std::uint32_t u : goal_tails_) goal_tail_[u] = 0;
  goal_tails_.clear();
  if (goal_zone_ != nullptr) goal_tails_.assign(goal_zone_->tails.begin(), goal_zone_->tails.end());
  for (const std::uint32_t u : goal_tails_) goal_tail_[u] = 1;
  // Middle: the band's metric to the goal leg, or to the goal zone's entries (then band 0).
  seeds_.assign(request.targets.begin(), request.targets.end());
  if (goal_zone_ != nullptr) {
    for (const std::uint32_t u : goal_zone_->entries) {
      const double rest = goal_zero_->ToTargets(u);
      if (rest < kInfCost) seeds_.push_back({u, rest});
    }
  }
  middle_->Reset(request.band, seeds_);
}

double ZoneBound::ToTargets(std::uint32_t node) {
  double bound = middle_->ToTargets(node);
  // The start's seconds are at least its cheapest seed's: where the middle's are no more, the
  // start's cannot lower the bound, and go unpriced.
  if (start_zone_ != nullptr && bound > start_floor_)
    bound = std::min(bound, start_->ToTargets(node));
  if (GoesThroughGoalZone(node)) bound = std::min(bound, goal_zero_->ToTargets(node));
  return bound;
}

}  // namespace walk::nav
