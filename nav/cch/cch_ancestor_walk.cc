#include "nav/cch/cch_ancestor_walk.h"

#include <algorithm>
#include <cassert>

namespace walk::nav {

CchAncestorWalk::CchAncestorWalk(const Cch& cch) : cch_(&cch), unpacker_(cch) {
  for (std::uint32_t d = 0; d < 2; ++d) {
    cost_[d].assign(cch.node_count(), kInfCost);
    pred_arc_[d].assign(cch.node_count(), kInvalidId);
  }
  stamp_.assign(cch.node_count(), {0, 0});
}

void CchAncestorWalk::NextGeneration() {
  if (++generation_ != 0) return;
  // Wrapped: the only time the stamps are cleared.
  std::fill(stamp_.begin(), stamp_.end(), std::array<std::uint32_t, 2>{0, 0});
  generation_ = 1;
}

void CchAncestorWalk::StartShared(std::uint32_t d, const std::vector<CchEndpoint>& endpoints,
                                  CchRankMarks& marks) {
  endpoint_at_[d].clear();
  for (const CchEndpoint& endpoint : endpoints) {
    assert(endpoint.node < cch_->node_count());
    if (!(endpoint.cost < kInfCost)) continue;
    // Up to the first ancestor already visited: the rest of the way is visited too.
    for (std::uint32_t r = cch_->rank(endpoint.node);
         r != kInvalidId && stamp_[r][d] != generation_; r = cch_->parent(r)) {
      if (stamp_[r][d ^ 1] != generation_) {  // new to both directions
        cost_[0][r] = cost_[1][r] = kInfCost;
        pred_arc_[0][r] = pred_arc_[1][r] = kInvalidId;
        marks.Mark(r);
      }
      stamp_[r][d] = generation_;
    }
  }
  SetEndpointCosts(d, endpoints);
}

void CchAncestorWalk::StartAlone(std::uint32_t d, const std::vector<CchEndpoint>& endpoints,
                                 CchRankMarks& marks) {
  // Only d's stamps and d's half of the labels: the other direction may start at the same time.
  const std::uint32_t generation = generation_;
  double* const cost = cost_[d].data();
  std::uint32_t* const pred_arc = pred_arc_[d].data();
  endpoint_at_[d].clear();
  for (const CchEndpoint& endpoint : endpoints) {
    assert(endpoint.node < cch_->node_count());
    if (!(endpoint.cost < kInfCost)) continue;
    for (std::uint32_t r = cch_->rank(endpoint.node); r != kInvalidId && stamp_[r][d] != generation;
         r = cch_->parent(r)) {
      stamp_[r][d] = generation;
      cost[r] = kInfCost;
      pred_arc[r] = kInvalidId;
      marks.Mark(r);
    }
  }
  SetEndpointCosts(d, endpoints);
}

void CchAncestorWalk::SetEndpointCosts(std::uint32_t d, const std::vector<CchEndpoint>& endpoints) {
  for (std::uint32_t i = 0; i < endpoints.size(); ++i) {
    if (!(endpoints[i].cost < kInfCost)) continue;
    const std::uint32_t r = cch_->rank(endpoints[i].node);
    if (!(endpoints[i].cost < cost_[d][r])) continue;  // an earlier endpoint as cheap wins
    if (cost_[d][r] == kInfCost) {
      endpoint_at_[d].push_back({r, i});
    } else {
      for (auto& at : endpoint_at_[d]) {
        if (at.first == r) at.second = i;
      }
    }
    cost_[d][r] = endpoints[i].cost;
  }
}

CchResult CchAncestorWalk::Conclude(const CchMetric& metric, std::uint32_t meet, double cost,
                                    std::vector<std::uint32_t>* arc_path, CchRunBoth both,
                                    const CchMetricPatch* patch) {
  auto step = [&](std::uint32_t d, std::uint32_t r) {
    const std::uint32_t arc = pred_arc_[d][r];
    return std::pair<std::uint32_t, std::uint32_t>{
        arc == kInvalidId ? kInvalidId : cch_->TailOf(arc), arc};
  };
  auto endpoint = [&](std::uint32_t d, std::uint32_t r) {
    for (const auto& at : endpoint_at_[d]) {
      if (at.first == r) return at.second;
    }
    assert(false);
    return kInvalidId;
  };
  return unpacker_.Conclude(metric, meet, cost, step, endpoint, arc_path, both, patch);
}

}  // namespace walk::nav
