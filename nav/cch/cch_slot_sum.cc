#include "nav/cch/cch_slot_sum.h"

#include <cassert>

namespace walk::nav {

double CchSlotSum::Of(std::uint32_t slot) {
  const std::uint32_t via = metric_->via(slot);
  assert(via != kInvalidId);
  if ((via & CchMetric::kViaMiddle) == 0) return input_values_[via];
  if (auto it = memo_.find(slot); it != memo_.end()) return it->second;
  // Through middle rank m, as CchPathUnpacker unpacks it: m's arc up to the slot's lower end,
  // and after it among m's arcs (heads ascending) its arc up to the upper end.
  const std::uint32_t* const head = metric_->cch().head().data();
  const std::uint32_t arc = slot >> 1;
  const std::uint32_t to_lower = via & ~CchMetric::kViaMiddle;
  std::uint32_t to_upper = to_lower + 1;
  while (head[to_upper] != head[arc]) ++to_upper;
  const bool forward = (slot & 1) == Cch::kForward;
  // lower -> m -> upper forward; upper -> m -> lower backward.
  const double sum = forward ? Of(2 * to_lower + Cch::kBackward) + Of(2 * to_upper + Cch::kForward)
                             : Of(2 * to_upper + Cch::kBackward) + Of(2 * to_lower + Cch::kForward);
  if (memo_.size() >= kMaxKept) memo_.clear();
  memo_.emplace(slot, sum);
  return sum;
}

}  // namespace walk::nav
