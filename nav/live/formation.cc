#include "nav/live/formation.h"

#include <cmath>
#include <numbers>

#include "nav/live/taut_path.h"

namespace walk::nav::live {

const char* SlotOutcomeName(SlotOutcome outcome) {
  switch (outcome) {
    case SlotOutcome::kUsed:
      return "used";
    case SlotOutcome::kCentre:
      return "centre";
    case SlotOutcome::kClosed:
      return "closed";
    case SlotOutcome::kCutOff:
      return "cut_off";
    case SlotOutcome::kCrossing:
      return "crossing";
  }
  return "unknown";
}

Cell SlotOffset(const FormationSlot& slot, double facing_degrees) {
  const double a = facing_degrees * std::numbers::pi / 180.0;
  const double c = std::cos(a), s = std::sin(a);
  // The formation's frame turned onto the map's (+y is south, so a positive angle turns
  // clockwise as drawn): forward (1, 0) -> (c, s), right (0, 1) -> (-s, c).
  const double dx = slot.forward * c - slot.right * s;
  const double dy = slot.forward * s + slot.right * c;
  // Rounding noise (cos 90° is 6e-17) must not flip a half.
  auto round = [](double v) {
    return static_cast<std::int32_t>(std::round(std::round(v * 1e9) / 1e9));
  };
  return Cell{round(dx), round(dy)};
}

void PlanFormationAt(const LiveGrid& grid, Cell center, std::span<const FormationSlot> slots,
                     double facing_degrees, Passability passability, FormationPlan* plan,
                     std::uint16_t need) {
  plan->center = center;
  plan->slots.assign(slots.size(), SlotTarget{center, SlotOutcome::kCentre});
  plan->used = 0;
  plan->collapsed = 0;
  const bool on_crossing = grid.InBounds(center) && grid.Portal(grid.Index(center));
  for (std::size_t k = 0; k < slots.size(); ++k) {
    SlotTarget& target = plan->slots[k];
    const Cell offset = SlotOffset(slots[k], facing_degrees);
    const Cell cell{center.x + offset.x, center.y + offset.y};
    if (cell == center) {
      target.outcome = SlotOutcome::kCentre;
    } else if (!grid.Fits(cell, passability, need)) {
      target.outcome = SlotOutcome::kClosed;
    } else if (on_crossing) {
      target.outcome = SlotOutcome::kCrossing;
    } else if (!grid.Reachable(center, cell, passability) ||
               !SegmentClear(grid, center, cell, passability, false, nullptr, need)) {
      target.outcome = SlotOutcome::kCutOff;
    } else if (!SegmentClear(grid, center, cell, passability, /*reject_portals=*/true, nullptr,
                             need) ||
               grid.Portal(grid.Index(cell))) {
      target.outcome = SlotOutcome::kCrossing;
    } else {
      target.outcome = SlotOutcome::kUsed;
      target.cell = cell;
    }
    if (target.collapsed()) {
      ++plan->collapsed;
    } else {
      ++plan->used;
    }
  }
}

}  // namespace walk::nav::live
