// One blocker change to a live world (a building finished, a gate shut, a tree felled), its
// named constructors, and the two halves of applying a batch of them: every change checked
// against the layers as the earlier changes of the batch leave them (so a batch applies all or
// nothing), then each applied, naming the cells it vacated and occupied.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "nav/live/cell.h"
#include "nav/live/layers.h"

namespace walk::nav::live {

// One blocker change. Build them with the named constructors.
struct BlockerChange {
  enum class Kind : std::uint8_t {
    kAddBuilding,     // id, rect: construction finished, the footprint becomes solid
    kRemoveBuilding,  // id: destroyed or removed
    kMoveBuilding,    // id, rect: the footprint moved or changed
    kAddGate,         // id, owner, rect, open
    kRemoveGate,      // id
    kOpenGate,        // id
    kShutGate,        // id
    kHarvest,         // point: the resource on the cell holding it is gone
    kPlaceResource,   // point, resource: a resource appears on the cell holding it
  };
  Kind kind = Kind::kAddBuilding;
  EntityId id = 0;
  EntityId owner = 0;
  WorldRect rect;
  WorldPoint point;
  CellValue resource = CellValue::kTree;
  bool open = false;

  static BlockerChange AddBuilding(EntityId id, WorldRect rect);
  static BlockerChange RemoveBuilding(EntityId id);
  static BlockerChange MoveBuilding(EntityId id, WorldRect rect);
  static BlockerChange AddGate(EntityId id, EntityId owner, WorldRect rect, bool open);
  static BlockerChange RemoveGate(EntityId id);
  static BlockerChange OpenGate(EntityId id);
  static BlockerChange ShutGate(EntityId id);
  static BlockerChange Harvest(WorldPoint point);
  static BlockerChange PlaceResource(WorldPoint point, CellValue resource);
};

// Checks `changes` in order against `layers` as the changes before each leave it. Errors (the
// first found): INVALID_ARGUMENT (bad rectangle, point off the map, not a resource), NOT_FOUND
// (unknown building or gate, no resource to harvest), ALREADY_EXISTS (id in use); each names the
// index of the change ("changes[2]: ...").
absl::Status ValidateBlockerChanges(const Layers& layers, std::span<const BlockerChange> changes);

// Applies one change to `layers` and appends the cell rectangles it vacated and occupied to
// `dirty` (empty rectangles included). Errors as Layers' own (none after a validation).
absl::Status ApplyBlockerChange(const BlockerChange& change, Layers* layers,
                                std::vector<CellRect>* dirty);

}  // namespace walk::nav::live
