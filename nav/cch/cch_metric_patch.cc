#include "nav/cch/cch_metric_patch.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <numeric>
#include <queue>

#include "absl/container/flat_hash_map.h"
#include "nav/cch/uninitialized_vector.h"

namespace walk::nav {

// Makes one patch: the ranks touched so far, each a copy of its arcs from the base, in the order
// they were first touched; the ranks with lowered arcs not yet pushed up, in a min-heap.
class CchPatchBuilder {
 public:
  explicit CchPatchBuilder(const CchMetric& base) : base_(base), cch_(base.cch()) {}

  // Lowers slot 2 * arc + d of arc `arc` (lower rank `r`) to `weight` by `via`, where cheaper.
  void Offer(std::uint32_t r, std::uint32_t arc, std::uint32_t d, double weight,
             std::uint32_t via) {
    Lower(At(r), arc, d, weight, via);
  }

  // Pushes every lowered arc up its triangles, rank by rank, lowest first: a rank's arcs are
  // lowered only from ranks below it, so each is final when its rank is taken.
  void PushUp() {
    while (!heap_.empty()) {
      const std::uint32_t v = heap_.top();
      heap_.pop();
      const std::uint32_t at = rank_at_.at(v);
      const std::uint32_t begin = cch_.first_out()[v], end = cch_.first_out()[v + 1];
      for (std::uint32_t x = begin; x < end; ++x) {
        if (lowered_[patch_.first_[at] + (x - begin)]) PushArc(at, begin, end, x);
      }
    }
  }

  // The patch, its ranks sorted.
  CchMetricPatch Finish() {
    const std::uint32_t n = static_cast<std::uint32_t>(patch_.rank_.size());
    std::vector<std::uint32_t> by_rank(n);
    std::iota(by_rank.begin(), by_rank.end(), 0u);
    std::sort(by_rank.begin(), by_rank.end(),
              [&](std::uint32_t i, std::uint32_t j) { return patch_.rank_[i] < patch_.rank_[j]; });
    CchMetricPatch sorted;
    sorted.first_.push_back(0);
    for (const std::uint32_t i : by_rank) {
      sorted.rank_.push_back(patch_.rank_[i]);
      sorted.first_arc_.push_back(patch_.first_arc_[i]);
      const std::uint32_t b = patch_.first_[i], e = patch_.first_[i + 1];
      for (std::uint32_t d = 0; d < 2; ++d) {
        sorted.weight_[d].insert(sorted.weight_[d].end(), patch_.weight_[d].begin() + b,
                                 patch_.weight_[d].begin() + e);
        sorted.via_[d].insert(sorted.via_[d].end(), patch_.via_[d].begin() + b,
                              patch_.via_[d].begin() + e);
      }
      sorted.first_.push_back(static_cast<std::uint32_t>(sorted.weight_[0].size()));
    }
    return sorted;
  }

 private:
  // Arc x = (v, a) of rank v (the patch's `at`-th, arcs [begin, end)) in every triangle
  // {v, a, b} it is a lower side of: with every other arc y = (v, b) of v, it bounds the arc
  // between a and b through v. A pair of two lowered arcs is pushed once, by the lower.
  void PushArc(std::uint32_t at, std::uint32_t begin, std::uint32_t end, std::uint32_t x) {
    const std::uint32_t* const head = cch_.head().data();
    const std::uint32_t base = patch_.first_[at] - begin;  // + arc: its place in the patch
    auto up = [&](std::uint32_t y) { return patch_.weight_[Cch::kForward][base + y]; };
    auto down = [&](std::uint32_t y) { return patch_.weight_[Cch::kBackward][base + y]; };
    const std::uint32_t a = head[x];
    if (x + 1 < end) {
      // The arcs of v above a: arc (a, b) among a's arcs, found in one pass (heads ascending,
      // and v's above a are a's too).
      const std::uint32_t at_a = At(a);
      std::uint32_t z = cch_.first_out()[a];
      for (std::uint32_t y = x + 1; y < end; ++y) {
        while (head[z] != head[y]) ++z;
        Lower(at_a, z, Cch::kForward, down(x) + up(y), CchMetric::kViaMiddle | x);
        Lower(at_a, z, Cch::kBackward, down(y) + up(x), CchMetric::kViaMiddle | x);
      }
    }
    for (std::uint32_t y = begin; y < x; ++y) {  // the arcs of v below a: arc (b, a)
      if (lowered_[base + y]) continue;
      const std::uint32_t b = head[y];
      const std::uint32_t z = cch_.FindArc(b, a);
      assert(z != kInvalidId);
      const std::uint32_t at_b = At(b);
      Lower(at_b, z, Cch::kForward, down(y) + up(x), CchMetric::kViaMiddle | y);
      Lower(at_b, z, Cch::kBackward, down(x) + up(y), CchMetric::kViaMiddle | y);
    }
  }

  // Lowers slot 2 * arc + d of the patch's `at`-th rank to `weight` by `via`, where cheaper.
  void Lower(std::uint32_t at, std::uint32_t arc, std::uint32_t d, double weight,
             std::uint32_t via) {
    const std::uint32_t k = patch_.first_[at] + (arc - patch_.first_arc_[at]);
    if (!(weight < patch_.weight_[d][k])) return;
    patch_.weight_[d][k] = weight;
    patch_.via_[d][k] = via;
    lowered_[k] = 1;
    if (!queued_[at]) {
      queued_[at] = 1;
      heap_.push(patch_.rank_[at]);
    }
  }

  // The index of rank r in the patch, its arcs copied from the base on first touch.
  std::uint32_t At(std::uint32_t r) {
    auto [it, added] = rank_at_.try_emplace(r, static_cast<std::uint32_t>(patch_.rank_.size()));
    if (!added) return it->second;
    const std::uint32_t begin = cch_.first_out()[r], end = cch_.first_out()[r + 1];
    patch_.rank_.push_back(r);
    patch_.first_arc_.push_back(begin);
    if (patch_.first_.empty()) patch_.first_.push_back(0);
    for (std::uint32_t d = 0; d < 2; ++d) {
      const CchWeights weights = base_.weights(d);
      for (std::uint32_t x = begin; x < end; ++x) patch_.weight_[d].push_back(weights[x]);
      for (std::uint32_t x = begin; x < end; ++x) {
        const CchStep step = base_.StepOf(2 * x + d, r);
        patch_.via_[d].push_back(step.input != kInvalidId ? step.input
                                 : step.to_lower != kInvalidId
                                     ? CchMetric::kViaMiddle | step.to_lower
                                     : kInvalidId);
      }
    }
    patch_.first_.push_back(static_cast<std::uint32_t>(patch_.weight_[0].size()));
    lowered_.resize(patch_.weight_[0].size(), 0);
    queued_.push_back(0);
    return it->second;
  }

  const CchMetric& base_;
  const Cch& cch_;
  CchMetricPatch patch_;                                       // ranks in the order touched
  absl::flat_hash_map<std::uint32_t, std::uint32_t> rank_at_;  // rank -> index in patch_
  std::vector<std::uint8_t> lowered_;                          // by arc in patch_: lowered here
  std::vector<std::uint8_t> queued_;                           // by index: in heap_
  std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<>> heap_;
};

CchMetricPatch CchMetricPatch::Lower(const CchMetric& base, std::span<const Lowered> lowered) {
  assert(!base.perfect());  // a perfect metric's kept arcs would be stale
  const Cch& cch = base.cch();
  CchPatchBuilder builder(base);
  for (const Lowered& l : lowered) {
    const std::uint32_t slot = cch.input_slot(l.arc);
    if (slot == kInvalidId || !(l.weight < base.weight(slot))) continue;
    const std::uint32_t arc = slot >> 1;
    builder.Offer(cch.TailOf(arc), arc, slot & 1, l.weight, l.arc);
  }
  builder.PushUp();
  return builder.Finish();
}

std::uint32_t CchMetricPatch::Find(std::uint32_t r, std::uint32_t from) const {
  const auto it = std::lower_bound(rank_.begin() + from, rank_.end(), r);
  return it != rank_.end() && *it == r ? static_cast<std::uint32_t>(it - rank_.begin())
                                       : kInvalidId;
}

std::uint32_t CchMetricPatch::IndexOfArc(std::uint32_t arc) const {
  const auto it = std::upper_bound(first_arc_.begin(), first_arc_.end(), arc);
  if (it == first_arc_.begin()) return kInvalidId;
  const std::uint32_t i = static_cast<std::uint32_t>(it - first_arc_.begin()) - 1;
  return arc - first_arc_[i] < first_[i + 1] - first_[i] ? i : kInvalidId;
}

double CchMetricPatch::weight(const CchMetric& base, std::uint32_t slot) const {
  const std::uint32_t i = IndexOfArc(slot >> 1);
  if (i == kInvalidId) return base.weight(slot);
  return weight_[slot & 1][first_[i] + (slot >> 1) - first_arc_[i]];
}

CchStep CchMetricPatch::StepOf(const CchMetric& base, std::uint32_t slot,
                               std::uint32_t tail) const {
  const std::uint32_t i = IndexOfArc(slot >> 1);
  if (i == kInvalidId) return base.StepOf(slot, tail);
  const std::uint32_t via = via_[slot & 1][first_[i] + (slot >> 1) - first_arc_[i]];
  CchStep step;
  if (via == kInvalidId) return step;
  if ((via & CchMetric::kViaMiddle) == 0) {
    step.input = via;
  } else {
    const Cch& cch = base.cch();
    step.to_lower = via & ~CchMetric::kViaMiddle;
    step.middle = cch.TailOf(step.to_lower);
    step.to_upper = cch.ArcAfter(step.to_lower, step.middle, cch.head()[slot >> 1]);
  }
  return step;
}

std::uint64_t CchMetricPatch::MemoryBytes() const {
  return sizeof(*this) + CapacityBytes(rank_) + CapacityBytes(first_arc_) + CapacityBytes(first_) +
         CapacityBytes(weight_[0]) + CapacityBytes(weight_[1]) + CapacityBytes(via_[0]) +
         CapacityBytes(via_[1]);
}

}  // namespace walk::nav
