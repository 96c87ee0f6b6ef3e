#include "nav/cch/cch_path_unpacker.h"

#include <cassert>

namespace walk::nav {

void CchPathUnpacker::Unpack(const CchMetric& metric, const CchMetricPatch* patch,
                             std::uint32_t arc, std::uint32_t direction,
                             std::vector<Pending>* stack,
                             std::vector<std::uint32_t>* arc_path) const {
  const std::uint32_t* const head = cch_->head().data();
  std::vector<Pending>& pending = *stack;
  pending.clear();
  pending.push_back({arc, direction});
  while (!pending.empty()) {
    const Pending p = pending.back();
    pending.pop_back();
    const std::uint32_t slot = 2 * p.arc + p.direction;
    const std::uint32_t via = patch == nullptr ? metric.via(slot) : patch->via(metric, slot);
    assert(via != kInvalidId);
    if ((via & CchMetric::kViaMiddle) == 0) {
      arc_path->push_back(via);
      continue;
    }
    // Through middle rank m below both ends: its arc up to the lower end, and after it among
    // m's arcs (heads ascending) its arc up to the upper end. Pushed last goes first.
    const std::uint32_t to_lower = via & ~CchMetric::kViaMiddle;
    std::uint32_t to_upper = to_lower + 1;
    while (head[to_upper] != head[p.arc]) ++to_upper;
    if (p.direction == Cch::kForward) {  // lower -> m -> upper
      pending.push_back({to_upper, Cch::kForward});
      pending.push_back({to_lower, Cch::kBackward});
    } else {  // upper -> m -> lower
      pending.push_back({to_lower, Cch::kForward});
      pending.push_back({to_upper, Cch::kBackward});
    }
    // Both halves' steps are read soon, at random places in the metric: fetch them now.
    for (const Pending* q : {&pending.end()[-1], &pending.end()[-2]}) {
      __builtin_prefetch(metric.via_address(2 * q->arc + q->direction));
    }
  }
}

}  // namespace walk::nav
