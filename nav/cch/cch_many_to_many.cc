#include "nav/cch/cch_many_to_many.h"

#include <algorithm>
#include <atomic>
#include <cassert>

#include "nav/cch/cch_rank_relax.h"

namespace walk::nav {

std::uint64_t CchSide::MemoryBytes() const {
  return sizeof(CchSide) + rank.capacity() * sizeof(std::uint32_t) +
         cost.capacity() * sizeof(double) + from.capacity() * sizeof(std::uint32_t) +
         slot.capacity() * sizeof(std::uint32_t) + sums.capacity() * sizeof(std::atomic<double>);
}

std::uint32_t CchSide::EndpointNode(const Cch& cch, std::uint32_t label) const {
  while (from[label] != kInvalidId) label = from[label];
  return cch.node_at(rank[label]);
}

double CchSide::SumTo(std::uint32_t label, CchSlotSum& sum) const {
  if (from[label] == kInvalidId) return 0.0;
  if (const double known = sums[label].load(std::memory_order_relaxed); known >= 0.0) return known;
  // The labels down to the first whose sum is known (or the endpoint, 0), their arcs unpacked
  // together; then summed from there up, each label's sum its lower label's plus its arc's.
  thread_local std::vector<std::uint32_t> chain;
  thread_local std::vector<CchSlotSum::SlotAt> arcs;
  thread_local std::vector<double> arc_sums;
  chain.clear();
  arcs.clear();
  double total = 0.0;
  for (std::uint32_t l = label; from[l] != kInvalidId; l = from[l]) {
    const double known = sums[l].load(std::memory_order_relaxed);
    if (known >= 0.0) {
      total = known;
      break;
    }
    chain.push_back(l);
    arcs.push_back({slot[l], rank[from[l]]});
  }
  arc_sums.resize(arcs.size());
  sum.OfEach(arcs, arc_sums);
  for (std::size_t i = chain.size(); i-- > 0;) {
    total += arc_sums[i];
    sums[chain[i]].store(total, std::memory_order_relaxed);
  }
  return total;
}

void CchSideSweep::Run(CchSplitQuery& query, const CchMetric& metric, std::uint32_t d,
                       const std::vector<CchEndpoint>& endpoints, CchSide* side) {
  query.Begin(metric);
  query.MarkSide(d, endpoints);
  const Cch& cch = metric.cch();
  const std::vector<std::uint32_t>& ancestors = query.visited(d);
  if (cost_.size() < cch.node_count()) {
    cost_.resize(cch.node_count());
    arc_.resize(cch.node_count());
    from_.resize(cch.node_count());
    label_of_.resize(cch.node_count());
  }
  for (const std::uint32_t r : ancestors) {
    cost_[r] = query.walk().cost(d, r);  // the endpoints' costs, else +inf
    arc_[r] = kInvalidId;
  }
  for (const std::uint32_t r : ancestors) {
    const double cost = cost_[r];  // final: every lower ancestor has been relaxed
    if (!(cost < kInfCost)) continue;
    metric.WithArcWeights(cch.first_out()[r], [&](auto up, auto down) {
      // Every head is an ancestor of r, so it has a label.
      RelaxRankArcs(cch, r, cost, d == Cch::kForward ? up : down,
                    {cost_.data(), arc_.data(), from_.data()});
    });
  }
  side->direction = d;
  side->rank.clear();
  side->cost.clear();
  side->from.clear();
  side->slot.clear();
  for (const std::uint32_t r : ancestors) {
    if (!(cost_[r] < kInfCost)) continue;
    label_of_[r] = static_cast<std::uint32_t>(side->rank.size());
    const bool endpoint = arc_[r] == kInvalidId;
    side->rank.push_back(r);
    side->cost.push_back(cost_[r]);
    // The arc's lower end was reached before (ranks ascend), so it has its label.
    side->from.push_back(endpoint ? kInvalidId : label_of_[from_[r]]);
    side->slot.push_back(endpoint ? kInvalidId : 2 * arc_[r] + d);
  }
  side->sums = std::vector<std::atomic<double>>(side->size());
  for (std::atomic<double>& s : side->sums) s.store(-1.0, std::memory_order_relaxed);
}

CchBuckets::CchBuckets(const Cch& cch, const std::vector<const CchSide*>& targets)
    : targets_(targets), first_(cch.node_count() + 1, 0) {
  // Counted, then filed (a counting sort by rank).
  for (const CchSide* side : targets_) {
    if (side == nullptr) continue;
    for (const std::uint32_t r : side->rank) ++first_[r + 1];
  }
  for (std::size_t r = 1; r < first_.size(); ++r) first_[r] += first_[r - 1];
  entries_.resize(first_.back());
  std::vector<std::uint32_t> next(first_.begin(), first_.end() - 1);
  for (std::uint32_t j = 0; j < targets_.size(); ++j) {
    const CchSide* side = targets_[j];
    if (side == nullptr) continue;
    for (std::uint32_t i = 0; i < side->size(); ++i) {
      entries_[next[side->rank[i]]++] = {j, i, side->cost[i]};
    }
  }
}

void CchBuckets::Scan(const CchSide& source, std::vector<CchMeeting>* row) const {
  row->assign(targets_.size(), CchMeeting());
  CchMeeting* const meeting = row->data();
  const Entry* const entries = entries_.data();
  for (std::uint32_t i = 0; i < source.size(); ++i) {
    const std::uint32_t r = source.rank[i];
    const double cost = source.cost[i];
    const std::uint32_t end = first_[r + 1];
    for (std::uint32_t e = first_[r]; e < end; ++e) {
      const Entry& entry = entries[e];
      CchMeeting& m = meeting[entry.target];
      const double way = cost + entry.cost;
      if (way < m.cost) m = {way, i, entry.label};
    }
  }
}

std::uint64_t CchBuckets::MemoryBytes() const {
  return sizeof(CchBuckets) + targets_.capacity() * sizeof(const CchSide*) +
         first_.capacity() * sizeof(std::uint32_t) + entries_.capacity() * sizeof(Entry);
}

}  // namespace walk::nav
