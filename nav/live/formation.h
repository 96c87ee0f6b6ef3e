// Formation slot targets: where each unit of a formation is sent when the formation is ordered to
// a point. The grid stays unit-agnostic; a formation only adds target offsets:
//
//   1. the centre is snapped to standable ground for the formation's passability (ResolveToward
//      the formation's position when one is given, else NearestStandable);
//   2. each slot's offset, turned to the formation's facing and rounded to a cell, is used when
//      that cell is standable, lies in the centre's region, and the straight line from the centre
//      to it is clear (the corner-safe segment test) and crosses no bridge deck or hill entrance;
//   3. otherwise the slot collapses to the centre.
//
// A centre on a bridge deck or hill entrance collapses every slot: a crossing is the tight place
// where a formation files through as a column. Packing, overlap and passage width are not solved
// here; tight spaces simplify to centre movement, and each unit then follows its own path.
//
// Because a used slot is joined to the centre by a clear straight line, a path to the centre
// extended by that line's cells is a valid path to the slot (PathGroup relies on it).
//
// With `need` (BodyClass::need: the one-body radius, never the formation's half-width) a slot cell
// must fit the body and its line from the centre must be clear at that radius.
//
// PlanFormation reads the grid only: call it under the world's shared lock.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "nav/live/cell.h"
#include "nav/live/live_grid.h"

namespace walk::nav::live {

// A slot's offset from the formation's centre, in cells, in the formation's own frame: `forward`
// along its facing, `right` to its right-hand side.
struct FormationSlot {
  double forward = 0.0;
  double right = 0.0;
};

// Why a slot ended where it did.
enum class SlotOutcome : std::uint8_t {
  kUsed,      // the offset cell
  kCentre,    // the offset is the centre itself
  kClosed,    // collapsed: the offset cell is off the map or not standable
  kCutOff,    // collapsed: another region, or the straight line from the centre is blocked
  kCrossing,  // collapsed: the centre is on a crossing, or the line crosses one
};
const char* SlotOutcomeName(SlotOutcome outcome);

struct SlotTarget {
  Cell cell;  // where the slot's unit is sent
  SlotOutcome outcome = SlotOutcome::kUsed;
  bool collapsed() const {
    return outcome != SlotOutcome::kUsed && outcome != SlotOutcome::kCentre;
  }
};

struct FormationPlan {
  Cell center;                    // the snapped centre
  std::vector<SlotTarget> slots;  // one per slot, in order
  std::uint32_t used = 0;         // slots at their offset (the centre slot included)
  std::uint32_t collapsed = 0;
  std::uint64_t revision = 0;  // the grid's, set by LiveWorld
};

// The map offset of `slot` for a formation facing `facing_degrees` (clockwise from east, +x; 90
// faces south, +y), rounded to the nearest cell (halves away from zero).
Cell SlotOffset(const FormationSlot& slot, double facing_degrees);

// Plans the targets of `slots` around `center` (already standable for `passability`).
void PlanFormationAt(const LiveGrid& grid, Cell center, std::span<const FormationSlot> slots,
                     double facing_degrees, Passability passability, FormationPlan* plan,
                     std::uint16_t need = 0);

}  // namespace walk::nav::live
