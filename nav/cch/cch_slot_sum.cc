#include "nav/cch/cch_slot_sum.h"

#include <cassert>

namespace walk::nav {

double CchSlotSum::Of(std::uint32_t slot, std::uint32_t tail) {
  // The memo first: a step past a byte's triangles is a search.
  if (auto it = memo_.find(slot); it != memo_.end()) return it->second;
  const CchStep step = metric_->StepOf(slot, tail);
  if (step.input != kInvalidId) return input_values_[step.input];
  assert(step.to_lower != kInvalidId);
  // Through middle rank m, as UnpackSlot unpacks it: m's arc up to the slot's lower end, and
  // after it among m's arcs (heads ascending) its arc up to the upper end.
  const std::uint32_t* const head = metric_->cch().head().data();
  const std::uint32_t arc = slot >> 1, to_lower = step.to_lower, m = step.middle;
  std::uint32_t to_upper = to_lower + 1;
  while (head[to_upper] != head[arc]) ++to_upper;
  const bool forward = (slot & 1) == Cch::kForward;
  // lower -> m -> upper forward; upper -> m -> lower backward.
  const double sum =
      forward ? Of(2 * to_lower + Cch::kBackward, m) + Of(2 * to_upper + Cch::kForward, m)
              : Of(2 * to_upper + Cch::kBackward, m) + Of(2 * to_lower + Cch::kForward, m);
  if (memo_.size() >= kMaxKept) memo_.clear();
  memo_.emplace(slot, sum);
  return sum;
}

}  // namespace walk::nav
