#include "nav/live/layers.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "nav/grid/checked_floor.h"

namespace walk::nav::live {
namespace {

// Float noise allowed on a rectangle edge, in cells.
constexpr double kEdgeEpsilon = 1e-9;

std::int32_t ClampTo(double v, std::int32_t lo, std::int32_t hi) {
  if (!(v > lo)) return lo;  // also NaN
  if (v > hi) return hi;
  return static_cast<std::int32_t>(v);
}

}  // namespace

CellRect CellsCovering(const WorldRect& rect, double cell_size, std::int32_t width,
                       std::int32_t height) {
  // Cell i spans (i, i + 1) in cell units; it is covered when that open span overlaps
  // (x0, x1) with positive length: floor(x0) <= i < ceil(x1).
  const double x0 = std::floor(rect.x0 / cell_size + kEdgeEpsilon);
  const double y0 = std::floor(rect.y0 / cell_size + kEdgeEpsilon);
  const double x1 = std::ceil(rect.x1 / cell_size - kEdgeEpsilon);
  const double y1 = std::ceil(rect.y1 / cell_size - kEdgeEpsilon);
  CellRect r{ClampTo(x0, 0, width), ClampTo(y0, 0, height), ClampTo(x1, 0, width),
             ClampTo(y1, 0, height)};
  if (r.empty()) return CellRect{};
  return r;
}

Cell CellContaining(WorldPoint p, double cell_size) {
  return Cell{SaturatingFloor<std::int32_t>(p.x / cell_size),
              SaturatingFloor<std::int32_t>(p.y / cell_size)};
}

absl::Status ValidateWorldRect(const WorldRect& rect, const char* field) {
  if (!std::isfinite(rect.x0) || !std::isfinite(rect.y0) || !std::isfinite(rect.x1) ||
      !std::isfinite(rect.y1)) {
    return absl::InvalidArgumentError(absl::StrCat(field, ": corners must be finite"));
  }
  if (rect.x1 < rect.x0 || rect.y1 < rect.y0) {
    return absl::InvalidArgumentError(absl::StrCat(field, ": needs x0 <= x1 and y0 <= y1"));
  }
  return absl::OkStatus();
}

Layers::Layers(std::int32_t width, std::int32_t height, double cell_size)
    : width_(width),
      height_(height),
      frame_{cell_size, WorldPoint{}},
      terrain_(static_cast<std::size_t>(width) * height, 0),
      resource_(static_cast<std::size_t>(width) * height, 0),
      buckets_x_((width + kBucketCells - 1) / kBucketCells),
      buckets_y_((height + kBucketCells - 1) / kBucketCells),
      footprint_buckets_(static_cast<std::size_t>(buckets_x_) * buckets_y_),
      doorway_buckets_(static_cast<std::size_t>(buckets_x_) * buckets_y_) {}

absl::StatusOr<Layers> Layers::FromMovingAi(const MovingAiMap& map, double cell_size) {
  if (!(cell_size > 0.0) || !std::isfinite(cell_size)) {
    return absl::InvalidArgumentError("cell_size must be positive and finite");
  }
  Layers layers(static_cast<std::int32_t>(map.width), static_cast<std::int32_t>(map.height),
                cell_size);
  for (std::uint32_t y = 0; y < map.height; ++y) {
    for (std::uint32_t x = 0; x < map.width; ++x) {
      const CellIndex i = y * map.width + x;
      std::uint8_t& t = layers.terrain_[i];
      switch (map.At(x, y)) {
        case '.':
        case 'G':
        case 'S':
          break;
        case '@':
        case 'O':
          t = static_cast<std::uint8_t>(CellValue::kBlocked);
          break;
        case 'W':
        case 'R':
          t = static_cast<std::uint8_t>(CellValue::kRiver);
          break;
        case 'M':
          t = static_cast<std::uint8_t>(CellValue::kMountain);
          break;
        case 'T':
          layers.resource_[i] = static_cast<std::uint8_t>(CellValue::kTree);
          break;
        case 'B':
          layers.resource_[i] = static_cast<std::uint8_t>(CellValue::kBoulder);
          break;
        case 'I':
          layers.resource_[i] = static_cast<std::uint8_t>(CellValue::kIronOre);
          break;
        case 'F':
          t = kForestBit;
          break;
        case '=':
          t = kRoadBit;
          break;
        case '+':
          t = static_cast<std::uint8_t>(CellValue::kRiver) | kBridgeBit;
          break;
        case '^':
          t = static_cast<std::uint8_t>(CellValue::kBlocked) | kEntranceBit;
          break;
        default:
          return absl::InvalidArgumentError(absl::StrCat("map row ", y, " column ", x,
                                                         ": unknown cell character '",
                                                         std::string(1, map.At(x, y)), "'"));
      }
    }
  }
  return layers;
}

void Layers::SetTerrain(const CellRect& cells, CellValue base) {
  const CellRect r = Intersect(cells, bounds());
  for (std::int32_t y = r.y0; y < r.y1; ++y) {
    for (std::int32_t x = r.x0; x < r.x1; ++x) {
      std::uint8_t& t = terrain_[Index({x, y})];
      t = static_cast<std::uint8_t>((t & ~kBaseMask) | static_cast<std::uint8_t>(base));
    }
  }
}

void Layers::AddForest(const CellRect& cells) {
  const CellRect r = Intersect(cells, bounds());
  for (std::int32_t y = r.y0; y < r.y1; ++y) {
    for (std::int32_t x = r.x0; x < r.x1; ++x) terrain_[Index({x, y})] |= kForestBit;
  }
}

void Layers::AddRoad(const CellRect& cells) {
  const CellRect r = Intersect(cells, bounds());
  for (std::int32_t y = r.y0; y < r.y1; ++y) {
    for (std::int32_t x = r.x0; x < r.x1; ++x) terrain_[Index({x, y})] |= kRoadBit;
  }
}

void Layers::AddCrossing(const CellRect& cells, CrossingKind kind) {
  const std::uint8_t bit = kind == CrossingKind::kBridge ? kBridgeBit : kEntranceBit;
  const CellRect r = Intersect(cells, bounds());
  for (std::int32_t y = r.y0; y < r.y1; ++y) {
    for (std::int32_t x = r.x0; x < r.x1; ++x) terrain_[Index({x, y})] |= bit;
  }
}

template <typename F>
void Layers::ForEachBucket(const CellRect& cells, F&& f) const {
  const CellRect r = Intersect(cells, bounds());
  if (r.empty()) return;
  for (std::int32_t by = r.y0 / kBucketCells; by <= (r.y1 - 1) / kBucketCells; ++by) {
    for (std::int32_t bx = r.x0 / kBucketCells; bx <= (r.x1 - 1) / kBucketCells; ++bx) {
      f(static_cast<std::size_t>(by) * buckets_x_ + bx);
    }
  }
}

void Layers::IndexFootprint(const Footprint& fp) {
  ForEachBucket(fp.cells, [&](std::size_t b) { footprint_buckets_[b].push_back(fp.id); });
}

void Layers::UnindexFootprint(const Footprint& fp) {
  ForEachBucket(fp.cells, [&](std::size_t b) {
    std::vector<EntityId>& ids = footprint_buckets_[b];
    auto it = std::find(ids.begin(), ids.end(), fp.id);
    if (it != ids.end()) {
      *it = ids.back();
      ids.pop_back();
    }
  });
}

absl::Status Layers::CheckNewRect(const WorldRect& rect, CellRect* cells) const {
  if (absl::Status s = ValidateWorldRect(rect, "rect"); !s.ok()) return s;
  *cells = Covering(rect);
  if (cells->empty()) {
    return absl::InvalidArgumentError("rect: covers no cell of the map");
  }
  return absl::OkStatus();
}

absl::Status Layers::AddBuilding(EntityId id, const WorldRect& rect, CellRect* cells) {
  if (HasEntity(id)) return absl::AlreadyExistsError(absl::StrCat("entity ", id, " exists"));
  CellRect covered;
  if (absl::Status s = CheckNewRect(rect, &covered); !s.ok()) return s;
  Footprint& fp = footprints_[id];
  fp = Footprint{id, rect, covered, CellValue::kBuilding};
  IndexFootprint(fp);
  if (cells != nullptr) *cells = covered;
  return absl::OkStatus();
}

absl::Status Layers::RemoveBuilding(EntityId id, CellRect* cells) {
  auto it = footprints_.find(id);
  if (it == footprints_.end() || gates_.count(id) != 0) {
    return absl::NotFoundError(absl::StrCat("building ", id, " not found"));
  }
  UnindexFootprint(it->second);
  if (cells != nullptr) *cells = it->second.cells;
  footprints_.erase(it);
  return absl::OkStatus();
}

absl::Status Layers::MoveBuilding(EntityId id, const WorldRect& rect, CellRect* vacated,
                                  CellRect* occupied) {
  auto it = footprints_.find(id);
  if (it == footprints_.end() || gates_.count(id) != 0) {
    return absl::NotFoundError(absl::StrCat("building ", id, " not found"));
  }
  CellRect covered;
  if (absl::Status s = CheckNewRect(rect, &covered); !s.ok()) return s;
  UnindexFootprint(it->second);
  if (vacated != nullptr) *vacated = it->second.cells;
  it->second.rect = rect;
  it->second.cells = covered;
  IndexFootprint(it->second);
  if (occupied != nullptr) *occupied = covered;
  return absl::OkStatus();
}

CellRect Layers::GateCells(EntityId owner, const CellRect& own) const {
  auto it = footprints_.find(owner);
  if (it == footprints_.end() || it->second.value != CellValue::kBuilding) return own;
  const CellRect& wall = it->second.cells;
  // The wall line runs along the owner's longer side (x on a tie).
  if (wall.x1 - wall.x0 >= wall.y1 - wall.y0) {
    return CellRect{own.x0, wall.y0, own.x1, wall.y1};
  }
  return CellRect{wall.x0, own.y0, wall.x1, own.y1};
}

absl::Status Layers::AddGate(EntityId id, EntityId owner, const WorldRect& rect, bool open,
                             CellRect* cells) {
  if (HasEntity(id)) return absl::AlreadyExistsError(absl::StrCat("entity ", id, " exists"));
  CellRect own;
  if (absl::Status s = CheckNewRect(rect, &own); !s.ok()) return s;
  const CellRect covered = GateCells(owner, own);
  const std::uint32_t index = static_cast<std::uint32_t>(doorways_.size());
  doorways_.push_back(Doorway{owner, id, covered, rect, open});
  gates_[id] = index;
  ForEachBucket(covered, [&](std::size_t b) { doorway_buckets_[b].push_back(index); });
  if (!open) {
    Footprint& fp = footprints_[id];
    fp = Footprint{id, rect, covered, CellValue::kGate};
    IndexFootprint(fp);
  }
  if (cells != nullptr) *cells = covered;
  return absl::OkStatus();
}

absl::Status Layers::SetGateOpen(EntityId id, bool open, CellRect* cells) {
  auto it = gates_.find(id);
  if (it == gates_.end()) return absl::NotFoundError(absl::StrCat("gate ", id, " not found"));
  Doorway& door = doorways_[it->second];
  if (cells != nullptr) *cells = CellRect{};
  if (door.open == open) return absl::OkStatus();
  door.open = open;
  if (open) {
    auto fp = footprints_.find(id);
    UnindexFootprint(fp->second);
    footprints_.erase(fp);
  } else {
    Footprint& fp = footprints_[id];
    fp = Footprint{id, door.rect, door.cells, CellValue::kGate};
    IndexFootprint(fp);
  }
  if (cells != nullptr) *cells = door.cells;
  return absl::OkStatus();
}

absl::Status Layers::RemoveGate(EntityId id, CellRect* cells) {
  auto it = gates_.find(id);
  if (it == gates_.end()) return absl::NotFoundError(absl::StrCat("gate ", id, " not found"));
  const std::uint32_t index = it->second;
  Doorway& door = doorways_[index];
  if (!door.open) {
    auto fp = footprints_.find(id);
    UnindexFootprint(fp->second);
    footprints_.erase(fp);
  }
  ForEachBucket(door.cells, [&](std::size_t b) {
    std::vector<std::uint32_t>& ids = doorway_buckets_[b];
    auto found = std::find(ids.begin(), ids.end(), index);
    if (found != ids.end()) {
      *found = ids.back();
      ids.pop_back();
    }
  });
  if (cells != nullptr) *cells = door.cells;
  door.open = false;
  door.cells = CellRect{};
  gates_.erase(it);
  return absl::OkStatus();
}

absl::Status Layers::AddGap(EntityId owner, const WorldRect& rect, CellRect* cells) {
  CellRect covered;
  if (absl::Status s = CheckNewRect(rect, &covered); !s.ok()) return s;
  const std::uint32_t index = static_cast<std::uint32_t>(doorways_.size());
  doorways_.push_back(Doorway{owner, 0, covered, rect, true});
  ForEachBucket(covered, [&](std::size_t b) { doorway_buckets_[b].push_back(index); });
  if (cells != nullptr) *cells = covered;
  return absl::OkStatus();
}

const Footprint* Layers::FindFootprint(EntityId id) const {
  auto it = footprints_.find(id);
  return it == footprints_.end() ? nullptr : &it->second;
}

const Doorway* Layers::FindGate(EntityId id) const {
  auto it = gates_.find(id);
  return it == gates_.end() ? nullptr : &doorways_[it->second];
}

void Layers::FootprintsOverlapping(const CellRect& region,
                                   std::vector<const Footprint*>* out) const {
  out->clear();
  std::vector<EntityId> ids;
  ForEachBucket(region, [&](std::size_t b) {
    for (EntityId id : footprint_buckets_[b]) ids.push_back(id);
  });
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  for (EntityId id : ids) {
    const Footprint& fp = footprints_.at(id);
    if (!Intersect(fp.cells, region).empty()) out->push_back(&fp);
  }
}

void Layers::OpenDoorwaysOverlapping(const CellRect& region,
                                     std::vector<const Doorway*>* out) const {
  out->clear();
  std::vector<std::uint32_t> indices;
  ForEachBucket(region, [&](std::size_t b) {
    for (std::uint32_t i : doorway_buckets_[b]) indices.push_back(i);
  });
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  for (std::uint32_t i : indices) {
    const Doorway& door = doorways_[i];
    if (door.open && !Intersect(door.cells, region).empty()) out->push_back(&door);
  }
}

std::size_t Layers::MemoryBytes() const {
  constexpr std::size_t kNode = 2 * sizeof(void*);  // a hash node's next pointer and hash
  std::size_t bytes = terrain_.capacity() + resource_.capacity() +
                      footprints_.size() * (sizeof(Footprint) + sizeof(EntityId) + kNode) +
                      footprints_.bucket_count() * sizeof(void*) +
                      doorways_.capacity() * sizeof(Doorway) +
                      gates_.size() * (sizeof(EntityId) + sizeof(std::uint32_t) + kNode) +
                      gates_.bucket_count() * sizeof(void*);
  for (const auto& bucket : footprint_buckets_) {
    bytes += sizeof(bucket) + bucket.capacity() * sizeof(EntityId);
  }
  for (const auto& bucket : doorway_buckets_) {
    bytes += sizeof(bucket) + bucket.capacity() * sizeof(std::uint32_t);
  }
  return bytes;
}

}  // namespace walk::nav::live
