#include "nav/abstract/zone_reach.h"

#include <algorithm>

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

bool ZoneReach::Touched(std::uint16_t zone) const {
  return std::binary_search(touched.begin(), touched.end(), zone);
}

void ZoneReachSearch::Run(const Request& request, ZoneReach* out) {
  const ContinentGraph& graph = request.graph;
  const ArcPrices& prices = request.prices;
  const std::uint32_t n = graph.node_count();
  if (stamp_.size() < n) {
    stamp_.assign(n, 0);
    settled_.resize(n);
    g_.resize(n);
    yards_.resize(n);
    zone_seen_.assign(65536, 0);
    generation_ = 0;
  }
  if (++generation_ == 0) {
    std::fill(stamp_.begin(), stamp_.end(), 0);
    generation_ = 1;
  }
  heap_.Reset(n);
  out->endpoints.clear();
  out->yards.clear();
  out->touched.clear();
  out->radius = kInfCost;
  settled_count_ = 0;
  settled_border_.clear();
  auto reach = [&](std::uint32_t v, double g, float yards) {
    if (stamp_[v] != generation_) {
      stamp_[v] = generation_;
      settled_[v] = 0;
      g_[v] = g;
      yards_[v] = yards;
      heap_.Push(v, g);
    } else if (!settled_[v] && g < g_[v]) {
      g_[v] = g;
      yards_[v] = yards;
      heap_.Decrease(v, g);
    }
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
    reach(other, g_[v] + prices.DangerSecondsOf(arc, request.band, request.zone, 0),
          yards_[v] + prices.yards[arc]);
  };
  while (!heap_.empty()) {
    double key;
    const std::uint32_t v = heap_.PopMin(&key);
    if (settled_count_ >= request.max_settled) {
      out->radius = key;  // every node not settled costs at least this
      break;
    }
    settled_[v] = 1;
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
        relax(v, r.in_arc[i], r.in_tail[i]);
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
    out->endpoints.push_back({v, g_[v]});
    out->yards.push_back(yards_[v]);
  }
  for (const std::uint16_t zone : out->touched) zone_seen_[zone] = 0;
  std::sort(out->touched.begin(), out->touched.end());
}

}  // namespace walk::nav
