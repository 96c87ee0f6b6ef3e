#include "nav/cch/cch_potential.h"

#include <algorithm>
#include <cassert>

#include "nav/cch/cch_rank_relax.h"

namespace walk::nav {

CchPotential::CchPotential(const Cch& cch)
    : cch_(&cch),
      down_(cch.node_count(), kInfCost),
      down_stamp_(cch.node_count(), 0),
      up_(cch.node_count(), kInfCost),
      up_stamp_(cch.node_count(), 0),
      arc_(cch.node_count()),
      marks_(cch.node_count()) {}

void CchPotential::Reset(const CchMetric& metric, const std::vector<CchEndpoint>& targets) {
  assert(&metric.cch() == cch_);
  metric_ = &metric;
  priced_ = 0;
  targets_.assign(targets.begin(), targets.end());
  if (++generation_ == 0) {  // wrapped: the only time the stamps are cleared
    std::fill(down_stamp_.begin(), down_stamp_.end(), 0);
    std::fill(up_stamp_.begin(), up_stamp_.end(), 0);
    generation_ = 1;
  }
  // Every elimination-tree ancestor of a target, up to the first one already marked.
  for (const CchEndpoint& t : targets) {
    assert(t.node < cch_->node_count());
    if (!(t.cost < kInfCost)) continue;
    for (std::uint32_t r = cch_->rank(t.node); r != kInvalidId && down_stamp_[r] != generation_;
         r = cch_->parent(r)) {
      down_stamp_[r] = generation_;
      down_[r] = kInfCost;
      marks_.Mark(r);
    }
  }
  for (const CchEndpoint& t : targets) {
    if (!(t.cost < kInfCost)) continue;
    const std::uint32_t r = cch_->rank(t.node);
    down_[r] = std::min(down_[r], t.cost);
  }
  // Upward in rank order: a rank's cost is final before its arcs are relaxed. The backward
  // weight of an arc is its upper end's way down to its lower end.
  marks_.Collect(&ranks_);
  for (const std::uint32_t r : ranks_) {
    const double cost = down_[r];
    if (!(cost < kInfCost)) continue;
    // Every head is an ancestor of r: marked, so it has a label.
    metric.WithArcWeights(cch_->first_out()[r], [&](auto /*up*/, auto down) {
      RelaxRankArcs(*cch_, r, cost, down, {down_.data(), arc_.data(), nullptr});
    });
  }
}

bool CchPotential::ResetUnlessSame(const CchMetric& metric,
                                   const std::vector<CchEndpoint>& targets) {
  if (metric_ == &metric && targets == targets_) return true;
  Reset(metric, targets);
  return false;
}

double CchPotential::ToTargets(std::uint32_t node) {
  assert(metric_ != nullptr);
  std::uint32_t r = cch_->rank(node);
  if (up_stamp_[r] == generation_) return up_[r];
  // The chain of ancestors not priced yet, then priced from the top down: an arc's head is an
  // ancestor of its tail, so it is priced first (in the chain, or above it, already).
  ranks_.clear();
  for (; r != kInvalidId && up_stamp_[r] != generation_; r = cch_->parent(r)) ranks_.push_back(r);
  for (auto it = ranks_.rbegin(); it != ranks_.rend(); ++it) {
    const std::uint32_t rank = *it;
    const double down = down_stamp_[rank] == generation_ ? down_[rank] : kInfCost;
    metric_->WithArcWeights(cch_->first_out()[rank], [&](auto up, auto /*down*/) {
      up_[rank] = std::min(down, LeastOverRankArcs(*cch_, rank, up, up_.data()));
    });
    up_stamp_[rank] = generation_;
  }
  priced_ += ranks_.size();
  return up_[cch_->rank(node)];
}

}  // namespace walk::nav
