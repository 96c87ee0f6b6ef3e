#include "nav/abstract/exempt_potential.h"

#include <algorithm>

#include "nav/cost/zone_mix.h"

namespace walk::nav {
namespace {

bool InMix(std::span<const ZoneShare> mix, std::uint16_t zone) {
  for (const ZoneShare& share : mix) {
    if (share.zone == zone) return true;
  }
  return false;
}

// Pairs (zone << 32 | item) sorted and made unique, as a CSR by zone.
void ToCsr(std::vector<std::uint64_t> pairs, std::uint32_t zones, std::vector<std::uint32_t>* first,
           std::vector<std::uint32_t>* items) {
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  first->assign(zones + 1, 0);
  items->resize(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    ++(*first)[(pairs[i] >> 32) + 1];
    (*items)[i] = static_cast<std::uint32_t>(pairs[i]);
  }
  for (std::uint32_t z = 0; z < zones; ++z) (*first)[z + 1] += (*first)[z];
}

std::span<const std::uint32_t> Row(const std::vector<std::uint32_t>& first,
                                   const std::vector<std::uint32_t>& items, std::uint16_t zone) {
  if (zone + 1u >= first.size()) return {};
  return {items.data() + first[zone], items.data() + first[zone + 1]};
}

}  // namespace

ZoneBorders::ZoneBorders(const ContinentGraph& graph, const ArcPrices& prices) {
  const std::uint32_t n = graph.node_count();
  std::uint32_t zones = 0;
  for (const ZoneShare& share : prices.mix) zones = std::max<std::uint32_t>(zones, share.zone + 1u);
  // Per node, the zones of its arcs out and how many of them each zone is in.
  std::vector<std::uint32_t> out_first(n + 1, 0);
  std::vector<std::uint16_t> out_zone;
  std::vector<std::uint32_t> out_count;
  for (std::uint32_t v = 0; v < n; ++v) {
    const std::size_t begin = out_zone.size();
    for (std::uint32_t a = graph.first_arc[v]; a < graph.first_arc[v + 1]; ++a) {
      for (const ZoneShare& share : prices.MixOf(a)) {
        auto it = std::find(out_zone.begin() + begin, out_zone.end(), share.zone);
        if (it == out_zone.end()) {
          out_zone.push_back(share.zone);
          out_count.push_back(1);
        } else {
          ++out_count[it - out_zone.begin()];
        }
      }
    }
    out_first[v + 1] = static_cast<std::uint32_t>(out_zone.size());
  }
  std::vector<std::uint64_t> entries, exits;
  for (std::uint32_t t = 0; t < n; ++t) {
    for (std::uint32_t a = graph.first_arc[t]; a < graph.first_arc[t + 1]; ++a) {
      const std::uint32_t h = graph.arc_head[a];
      const std::uint32_t h_arcs = graph.first_arc[h + 1] - graph.first_arc[h];
      const std::span<const ZoneShare> mix = prices.MixOf(a);
      for (std::uint32_t k = out_first[h]; k < out_first[h + 1]; ++k) {
        // An arc without the zone into a node with an arc of it out: an entry.
        if (!InMix(mix, out_zone[k])) entries.push_back(std::uint64_t{out_zone[k]} << 32 | h);
      }
      for (const ZoneShare& share : mix) {
        // An arc of the zone into a node with an arc without it out: an exit.
        std::uint32_t in_zone = 0;
        for (std::uint32_t k = out_first[h]; k < out_first[h + 1]; ++k) {
          if (out_zone[k] == share.zone) in_zone = out_count[k];
        }
        if (in_zone < h_arcs) exits.push_back(std::uint64_t{share.zone} << 32 | a);
      }
    }
  }
  ToCsr(std::move(entries), zones, &entry_first_, &entries_);
  ToCsr(std::move(exits), zones, &exit_first_, &exits_);
}

std::span<const std::uint32_t> ZoneBorders::Entries(std::uint16_t zone) const {
  return Row(entry_first_, entries_, zone);
}

std::span<const std::uint32_t> ZoneBorders::Exits(std::uint16_t zone) const {
  return Row(exit_first_, exits_, zone);
}

std::uint64_t ZoneBorders::MemoryBytes() const {
  return (entry_first_.capacity() + entries_.capacity() + exit_first_.capacity() +
          exits_.capacity()) *
         sizeof(std::uint32_t);
}

bool ExemptPotential::HasArcOf(std::uint32_t node, std::uint16_t zone) const {
  for (std::uint32_t a = graph_->first_arc[node]; a < graph_->first_arc[node + 1]; ++a) {
    if (InMix(prices_->MixOf(a), zone)) return true;
  }
  return false;
}

bool ExemptPotential::OnlyArcsOf(std::uint32_t node, std::uint16_t zone) const {
  for (std::uint32_t a = graph_->first_arc[node]; a < graph_->first_arc[node + 1]; ++a) {
    if (!InMix(prices_->MixOf(a), zone)) return false;
  }
  return true;
}

double ExemptPotential::ToGoalZone(std::uint32_t node) {
  if (goal_zone_ != 0 && HasArcOf(node, goal_zone_)) return zero_.ToTargets(node);
  return band_.ToTargets(node);
}

void ExemptPotential::Reset(const Walk& walk) {
  graph_ = &walk.graph;
  prices_ = &walk.prices;
  goal_zone_ = walk.goal_zone;
  // One zone at both ends: its arcs are all "first goal-zone arcs" (the first two lines).
  start_zone_ = walk.start_zone != walk.goal_zone ? walk.start_zone : 0;
  // band(v, T) and band(v, w) + zero(w, T) over the goal zone's entries w.
  scratch_ = walk.targets;
  if (goal_zone_ != 0) {
    for (const std::uint32_t w : walk.borders.Entries(goal_zone_)) {
      const double rest = zero_.ToTargets(w);
      if (rest < kInfCost) scratch_.push_back({w, rest});
    }
  }
  band_.Reset(walk.band_metric, scratch_);
  back_set_ = start_zone_ != 0;
  if (!back_set_) return;
  // zero(v, u) + exempt(a) + the rest from u' over the start zone's exits a = (u, u'), the last
  // start-zone arc of a way (after it, the rest is bounded as from any node), and zero(v, t) +
  // t's seconds over the targets t every arc of which is in the start zone (a way may end there
  // after its last start-zone arc).
  scratch_.clear();
  for (const std::uint32_t a : walk.borders.Exits(start_zone_)) {
    const double seconds = walk.prices.seconds[a];
    if (!(seconds < kInfCost)) continue;
    const double rest = ToGoalZone(walk.graph.arc_head[a]);
    if (!(rest < kInfCost)) continue;
    const std::uint32_t u = static_cast<std::uint32_t>(
        std::upper_bound(walk.graph.first_arc.begin(), walk.graph.first_arc.end(), a) -
        walk.graph.first_arc.begin() - 1);
    scratch_.push_back(
        {u, DangerSeconds(seconds, walk.prices.MixOf(a), walk.band, walk.exempt_a, walk.exempt_b) +
                rest});
  }
  for (const CchEndpoint& t : walk.targets) {
    if (OnlyArcsOf(t.node, start_zone_)) scratch_.push_back(t);
  }
  back_.Reset(walk.zero_metric, scratch_);
}

double ExemptPotential::ToTargets(std::uint32_t node) {
  const double zero = zero_.ToTargets(node);
  if (!(zero < kInfCost)) return kInfCost;
  double bound = ToGoalZone(node);
  if (back_set_) bound = std::min(bound, back_.ToTargets(node));
  return std::max(zero, bound);
}

}  // namespace walk::nav
