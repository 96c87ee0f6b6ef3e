#include "nav/live/blocker_change.h"

#include <cmath>
#include <string>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "nav/grid/number_text.h"

namespace walk::nav::live {

BlockerChange BlockerChange::AddBuilding(EntityId id, WorldRect rect) {
  BlockerChange c;
  c.kind = Kind::kAddBuilding;
  c.id = id;
  c.rect = rect;
  return c;
}
BlockerChange BlockerChange::RemoveBuilding(EntityId id) {
  BlockerChange c;
  c.kind = Kind::kRemoveBuilding;
  c.id = id;
  return c;
}
BlockerChange BlockerChange::MoveBuilding(EntityId id, WorldRect rect) {
  BlockerChange c;
  c.kind = Kind::kMoveBuilding;
  c.id = id;
  c.rect = rect;
  return c;
}
BlockerChange BlockerChange::AddGate(EntityId id, EntityId owner, WorldRect rect, bool open) {
  BlockerChange c;
  c.kind = Kind::kAddGate;
  c.id = id;
  c.owner = owner;
  c.rect = rect;
  c.open = open;
  return c;
}
BlockerChange BlockerChange::RemoveGate(EntityId id) {
  BlockerChange c;
  c.kind = Kind::kRemoveGate;
  c.id = id;
  return c;
}
BlockerChange BlockerChange::OpenGate(EntityId id) {
  BlockerChange c;
  c.kind = Kind::kOpenGate;
  c.id = id;
  c.open = true;
  return c;
}
BlockerChange BlockerChange::ShutGate(EntityId id) {
  BlockerChange c;
  c.kind = Kind::kShutGate;
  c.id = id;
  return c;
}
BlockerChange BlockerChange::Harvest(WorldPoint point) {
  BlockerChange c;
  c.kind = Kind::kHarvest;
  c.point = point;
  return c;
}
BlockerChange BlockerChange::PlaceResource(WorldPoint point, CellValue resource) {
  BlockerChange c;
  c.kind = Kind::kPlaceResource;
  c.point = point;
  c.resource = resource;
  return c;
}

absl::Status ValidateBlockerChanges(const Layers& layers, std::span<const BlockerChange> changes) {
  // What each id is after the changes so far: 0 none, 1 building, 2 gate.
  std::unordered_map<EntityId, int> kind;
  auto kind_of = [&](EntityId id) {
    auto it = kind.find(id);
    if (it != kind.end()) return it->second;
    if (layers.FindGate(id) != nullptr) return 2;
    return layers.FindFootprint(id) != nullptr ? 1 : 0;
  };
  std::unordered_map<CellIndex, CellValue> resources;  // after the changes so far
  for (std::size_t k = 0; k < changes.size(); ++k) {
    const BlockerChange& c = changes[k];
    const std::string at = absl::StrCat("changes[", k, "]");
    auto rect_ok = [&]() -> absl::Status {
      if (absl::Status s = ValidateWorldRect(c.rect, "rect"); !s.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(at, ".", s.message()));
      }
      if (layers.Covering(c.rect).empty()) {
        return absl::InvalidArgumentError(absl::StrCat(at, ".rect: covers no cell of the map"));
      }
      return absl::OkStatus();
    };
    auto need = [&](int want, const char* what) -> absl::Status {
      if (kind_of(c.id) == want) return absl::OkStatus();
      return absl::NotFoundError(absl::StrCat(at, ": ", what, " ", c.id, " not found"));
    };
    switch (c.kind) {
      case BlockerChange::Kind::kAddBuilding:
      case BlockerChange::Kind::kAddGate:
        if (kind_of(c.id) != 0) {
          return absl::AlreadyExistsError(absl::StrCat(at, ": entity ", c.id, " exists"));
        }
        if (absl::Status s = rect_ok(); !s.ok()) return s;
        kind[c.id] = c.kind == BlockerChange::Kind::kAddBuilding ? 1 : 2;
        break;
      case BlockerChange::Kind::kRemoveBuilding:
        if (absl::Status s = need(1, "building"); !s.ok()) return s;
        kind[c.id] = 0;
        break;
      case BlockerChange::Kind::kMoveBuilding:
        if (absl::Status s = need(1, "building"); !s.ok()) return s;
        if (absl::Status s = rect_ok(); !s.ok()) return s;
        break;
      case BlockerChange::Kind::kRemoveGate:
        if (absl::Status s = need(2, "gate"); !s.ok()) return s;
        kind[c.id] = 0;
        break;
      case BlockerChange::Kind::kOpenGate:
      case BlockerChange::Kind::kShutGate:
        if (absl::Status s = need(2, "gate"); !s.ok()) return s;
        break;
      case BlockerChange::Kind::kHarvest:
      case BlockerChange::Kind::kPlaceResource: {
        if (!std::isfinite(c.point.x) || !std::isfinite(c.point.y)) {
          return absl::InvalidArgumentError(absl::StrCat(at, ".point: must be finite"));
        }
        const Cell cell = layers.CellHolding(c.point);
        if (!layers.InBounds(cell)) {
          const WorldPoint lo = layers.frame().ToWorld(CellPoint{0, 0});
          const WorldPoint hi =
              layers.frame().ToWorld(CellPoint{double(layers.width()), double(layers.height())});
          return absl::InvalidArgumentError(
              absl::StrCat(at, ".point: (", NumberText(c.point.x), ", ", NumberText(c.point.y),
                           ") lies off the map (x ", NumberText(lo.x), " to ", NumberText(hi.x),
                           ", y ", NumberText(lo.y), " to ", NumberText(hi.y), " world units)"));
        }
        const CellIndex i = layers.Index(cell);
        auto it = resources.find(i);
        const CellValue now = it != resources.end() ? it->second : layers.ResourceAt(i);
        if (c.kind == BlockerChange::Kind::kHarvest) {
          if (!IsResource(now)) {
            return absl::NotFoundError(
                absl::StrCat(at, ": no resource to harvest on cell ", CellText(cell)));
          }
          resources[i] = CellValue::kWalkable;
        } else {
          if (!IsResource(c.resource)) {
            return absl::InvalidArgumentError(
                absl::StrCat(at, ".resource: ", CellValueName(c.resource), " is not a resource"));
          }
          resources[i] = c.resource;
        }
        break;
      }
    }
  }
  return absl::OkStatus();
}

absl::Status ApplyBlockerChange(const BlockerChange& c, Layers* layers,
                                std::vector<CellRect>* dirty) {
  CellRect a, b;
  absl::Status s;
  switch (c.kind) {
    case BlockerChange::Kind::kAddBuilding:
      s = layers->AddBuilding(c.id, c.rect, &a);
      break;
    case BlockerChange::Kind::kRemoveBuilding:
      s = layers->RemoveBuilding(c.id, &a);
      break;
    case BlockerChange::Kind::kMoveBuilding:
      s = layers->MoveBuilding(c.id, c.rect, &a, &b);
      break;
    case BlockerChange::Kind::kAddGate:
      s = layers->AddGate(c.id, c.owner, c.rect, c.open, &a);
      break;
    case BlockerChange::Kind::kRemoveGate:
      s = layers->RemoveGate(c.id, &a);
      break;
    case BlockerChange::Kind::kOpenGate:
      s = layers->SetGateOpen(c.id, true, &a);
      break;
    case BlockerChange::Kind::kShutGate:
      s = layers->SetGateOpen(c.id, false, &a);
      break;
    case BlockerChange::Kind::kHarvest:
    case BlockerChange::Kind::kPlaceResource: {
      const Cell cell = layers->CellHolding(c.point);
      layers->SetResource(layers->Index(cell), c.kind == BlockerChange::Kind::kHarvest
                                                   ? CellValue::kWalkable
                                                   : c.resource);
      a = CellRect{cell.x, cell.y, cell.x + 1, cell.y + 1};
      break;
    }
  }
  dirty->push_back(a);
  dirty->push_back(b);
  return s;
}

}  // namespace walk::nav::live
