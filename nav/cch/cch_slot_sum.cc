#include "nav/cch/cch_slot_sum.h"

#include <cassert>

namespace walk::nav {

double CchSlotSum::Of(std::uint32_t slot, std::uint32_t tail) {
  // An input arc's value is read at once; a shortcut's from the memo before its step, as a
  // step naming a block of triangles is a search.
  const std::uint32_t input = metric_->InputOf(slot, tail);
  if (input != kInvalidId) return input_values_[input];
  if (auto it = memo_.find(slot); it != memo_.end()) return it->second;
  const CchStep step = metric_->StepOf(slot, tail);
  assert(step.to_lower != kInvalidId);
  // Through middle rank m, as UnpackSlot unpacks it. The second half's step is fetched while
  // the first is summed.
  const std::uint32_t to_lower = step.to_lower, m = step.middle, to_upper = step.to_upper;
  const bool forward = (slot & 1) == Cch::kForward;
  __builtin_prefetch(
      metric_->step_address(forward ? 2 * to_upper + Cch::kForward : 2 * to_lower + Cch::kForward));
  // lower -> m -> upper forward; upper -> m -> lower backward.
  const double sum =
      forward ? Of(2 * to_lower + Cch::kBackward, m) + Of(2 * to_upper + Cch::kForward, m)
              : Of(2 * to_upper + Cch::kBackward, m) + Of(2 * to_lower + Cch::kForward, m);
  if (memo_.size() >= kMaxKept) memo_.clear();
  memo_.emplace(slot, sum);
  return sum;
}

}  // namespace walk::nav
