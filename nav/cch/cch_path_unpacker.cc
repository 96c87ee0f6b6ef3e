#include "nav/cch/cch_path_unpacker.h"

#include <cassert>

namespace walk::nav {

void UnpackSlot(const CchMetric& metric, const CchMetricPatch* patch, CchPendingSlot top,
                std::vector<CchPendingSlot>* stack, std::vector<std::uint32_t>* arc_path) {
  std::vector<CchPendingSlot>& pending = *stack;
  pending.clear();
  pending.push_back(top);
  while (!pending.empty()) {
    const CchPendingSlot p = pending.back();
    pending.pop_back();
    const std::uint32_t slot = 2 * p.arc + p.direction;
    const CchStep step =
        patch == nullptr ? metric.StepOf(slot, p.tail) : patch->StepOf(metric, slot, p.tail);
    if (step.input != kInvalidId) {
      arc_path->push_back(step.input);
      continue;
    }
    assert(step.to_lower != kInvalidId);
    // Through middle rank m below both ends. Pushed last goes first.
    const std::uint32_t to_lower = step.to_lower, m = step.middle, to_upper = step.to_upper;
    if (p.direction == Cch::kForward) {  // lower -> m -> upper
      pending.push_back({to_upper, Cch::kForward, m});
      pending.push_back({to_lower, Cch::kBackward, m});
    } else {  // upper -> m -> lower
      pending.push_back({to_lower, Cch::kForward, m});
      pending.push_back({to_upper, Cch::kBackward, m});
    }
    // Both halves' steps are read soon, at random places in the metric: fetch them now.
    for (const CchPendingSlot* q : {&pending.end()[-1], &pending.end()[-2]}) {
      __builtin_prefetch(metric.step_address(2 * q->arc + q->direction));
    }
  }
}

}  // namespace walk::nav
