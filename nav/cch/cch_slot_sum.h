// A value of the input arcs (yards, say) summed over the way a slot of a customized metric
// stands for, memoized by slot: many ways of one table share their shortcuts, so each is
// unpacked once.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "nav/cch/cch_metric.h"

namespace walk::nav {

// Not thread-safe: one per thread. Keeps pointers to the metric and the values, which must
// outlive it. Its memo is bounded: past kMaxKept sums it starts again.
class CchSlotSum {
 public:
  static constexpr std::size_t kMaxKept = std::size_t{1} << 20;  // about 20 MB

  // `input_values[a]` is input arc a's value.
  CchSlotSum(const CchMetric& metric, std::span<const float> input_values)
      : metric_(&metric), input_values_(input_values) {}

  const CchMetric& metric() const { return *metric_; }

  // A slot (reachable) and its arc's lower rank.
  struct SlotAt {
    std::uint32_t slot;
    std::uint32_t tail;
  };
  // sums[i] = the sum of the input values along slots[i]'s way, for every i, the ways unpacked
  // together.
  void OfEach(std::span<const SlotAt> slots, std::span<double> sums);
  // Slots whose sums are kept.
  std::size_t memo_size() const { return memo_.size(); }

 private:
  // A slot of the ways being unpacked: an input arc or a known sum (no children), or a
  // shortcut whose two halves are `child` and `child + 1`.
  struct Piece {
    SlotAt at;
    std::uint32_t child;
    std::uint32_t entry;  // a shortcut's triangle's down-list entry, where its step names one
    double sum;
  };
  // Unpacks pieces_ level by level: each level's steps are prefetched before any is read, so a
  // shortcut's reads from memory (its step, its triangle's entry, the middle's arcs) overlap
  // with the other shortcuts' of its level rather than wait one after another.
  void Unpack();

  const CchMetric* metric_;
  std::span<const float> input_values_;
  absl::flat_hash_map<std::uint32_t, double> memo_;  // shortcuts' sums, by slot
  std::vector<Piece> pieces_;                        // scratch, by level
};

}  // namespace walk::nav
