// Many-to-many queries of a CCH, with buckets as in many-to-many contraction hierarchies (Knopp,
// Sanders, Schultes, Schulz, Wagner): each target's side is swept up its elimination-tree
// ancestors once and filed by rank; each source's side is swept once and the buckets of its
// ranks scanned. N x M ways cost N + M sweeps and a scan of the ranks both sides reach, rather
// than N x M queries.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "nav/cch/cch.h"
#include "nav/cch/cch_metric.h"
#include "nav/cch/cch_request.h"
#include "nav/cch/cch_slot_sum.h"
#include "nav/cch/cch_split_query.h"
#include "nav/grid/ids.h"

namespace walk::nav {

// One side's labels: the ranks a sweep of some endpoints' ancestors reached at a finite cost, in
// one direction (Cch::kForward from sources, Cch::kBackward into targets), ascending.
struct CchSide {
  std::uint32_t direction = Cch::kForward;
  std::vector<std::uint32_t> rank;
  std::vector<double> cost;
  // The label each was reached from and the slot of the arc between them; kInvalidId at a
  // label its endpoint's cost set (its node is the hierarchy's node_at(rank)).
  std::vector<std::uint32_t> from;
  std::vector<std::uint32_t> slot;

  std::size_t size() const { return rank.size(); }
  std::uint64_t MemoryBytes() const;
  // The endpoint node a label's way starts from (a source) or ends at (a target).
  std::uint32_t EndpointNode(const Cch& cch, std::uint32_t label) const;
  // The sum of `sum`'s values along the way from label `label` down to its endpoint, kept per
  // label, since a side's ways share their lower labels (one sum a side: every call must pass
  // sums of the same values). Safe to call from several threads at once: each label's sum is
  // added up in one order, so racing threads write the same value.
  double SumTo(std::uint32_t label, CchSlotSum& sum) const;

  // By label: its SumTo, or a negative number until it is asked. Sized by SweepSide.
  mutable std::vector<std::atomic<double>> sums;
};

// Sweeps a table's sides. A side is unpruned (it serves every way of its table), and nearly
// all its arcs (97 % on the 32 x 32 demo world) come in fours whose heads are consecutive ranks:
// with the ancestors' labels in arrays by their place among the ancestors, four such arcs are
// relaxed at once into four consecutive labels (eight where eight are consecutive), on the
// widest lanes the processor has (AVX-512, AVX2). One per thread; keeps 20 bytes of scratch a
// rank, sized on first use.
class CchSideSweep {
 public:
  // Sweeps direction d up the ancestors of `endpoints` (marked with `query`) into `side`: the
  // same labels, costs and arcs as `query`'s unpruned Side, in the same order.
  void Run(CchSplitQuery& query, const CchMetric& metric, std::uint32_t d,
           const std::vector<CchEndpoint>& endpoints, CchSide* side);

 private:
  // By rank, valid at the last sweep's ancestors: the cost, the arc it was reached by, that
  // arc's lower end, and its label in the side (finite costs only).
  std::vector<double> cost_;
  std::vector<std::uint32_t> arc_;
  std::vector<std::uint32_t> from_;
  std::vector<std::uint32_t> label_of_;
};

// Where one source's and one target's sides meet most cheaply.
struct CchMeeting {
  double cost = kInfCost;
  std::uint32_t source_label = kInvalidId;  // in the source's side
  std::uint32_t target_label = kInvalidId;  // in the target's side
  bool found() const { return source_label != kInvalidId; }
};

// The targets' sides filed by rank. Immutable once built; Scan is thread-safe.
class CchBuckets {
 public:
  // `targets[j]` is target j's side, swept backward; null for a target with none. The sides
  // must outlive the buckets.
  CchBuckets(const Cch& cch, const std::vector<const CchSide*>& targets);

  std::size_t target_count() const { return targets_.size(); }
  const CchSide* target(std::size_t j) const { return targets_[j]; }
  // For every target j, the cheapest meeting of `source` (swept forward) and target j's side,
  // the lowest rank among equals (as CchSplitQuery meets), into (*row)[j].
  void Scan(const CchSide& source, std::vector<CchMeeting>* row) const;
  std::uint64_t MemoryBytes() const;

 private:
  struct Entry {
    std::uint32_t target;
    std::uint32_t label;
    double cost;
  };
  std::vector<const CchSide*> targets_;
  std::vector<std::uint32_t> first_;  // by rank: its first entry; rank count + 1
  std::vector<Entry> entries_;        // by rank
};

}  // namespace walk::nav
