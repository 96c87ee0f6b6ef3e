// The inputs a live grid is composed from, one layer each: terrain, harvestable resources,
// building footprints, doorways and map crossings; and the one rasterization rule every rectangle
// goes through (CellsCovering).
//
// Layers hold what the game says exists; they do not hold composed cell values (LiveGrid does).
// The composition order and its two precedence rules are LiveGrid's (nav/live/live_grid.h).
//
// Thread safety: a Layers is a plain value. LiveWorld reads it under its shared lock and writes it
// under its exclusive lock.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nav/import/movingai.h"
#include "nav/live/cell.h"
#include "nav/live/world_frame.h"

namespace walk::nav::live {

// The single rasterization rule: the cells a world-unit rectangle covers with area, not the cells
// it merely touches. An edge lying exactly on a cell boundary does not claim the cell beyond it, so
// a 2 × 2 footprint whose edges sit on boundaries is two cells wide, not three. Edges within 1e-9
// cell of a boundary count as on it (float noise). The result is clipped to the width × height map
// and is empty for a rectangle of no area.
CellRect CellsCovering(const WorldRect& rect, double cell_size, std::int32_t width,
                       std::int32_t height);
// The cell holding world point `p` (a point on a boundary belongs to the cell after it). The cell
// may lie outside the map.
Cell CellContaining(WorldPoint p, double cell_size);
// INVALID_ARGUMENT (naming `field`) unless the rectangle's corners are finite and x0 <= x1, y0 <=
// y1.
absl::Status ValidateWorldRect(const WorldRect& rect, const char* field);

// Map crossings: cells a bridge deck or hill entrance forces open over blocking terrain.
enum class CrossingKind : std::uint8_t { kBridge, kHillEntrance };

// A solid footprint: a building, a wall segment, or a shut gate's own blocker.
struct Footprint {
  EntityId id = 0;
  WorldRect rect;                          // as the game placed it, world units
  CellRect cells;                          // CellsCovering(rect)
  CellValue value = CellValue::kBuilding;  // kBuilding, or kGate for a shut gate
};

// A passage through a structure: an open gate, or a gap a wall network leaves. It reopens cells
// blocked by its owner's footprint and by nothing else.
struct Doorway {
  EntityId owner = 0;  // the structure it belongs to
  EntityId gate = 0;   // the gate it belongs to; 0 for a permanent gap
  CellRect cells;      // CellsCovering of its rectangle
  WorldRect rect;
  bool open = true;  // a shut gate's doorway is closed (and its footprint blocks)
};

class Layers {
 public:
  // A width × height map of plain ground, cells `cell_size` world units wide (> 0).
  Layers(std::int32_t width, std::int32_t height, double cell_size);

  // The terrain and resources of a map in MovingAI form (nav/import/movingai.h). Characters:
  //   '.' 'G' 'S' ground        '@' 'O' blocked         'W' 'R' river      'M' mountain
  //   'T' tree                  'B' boulder             'I' iron ore       (on ground)
  //   'F' forest floor          '=' road (never forest) '+' river under a bridge deck
  //   '^' blocked slope under a hill entrance
  // Errors: INVALID_ARGUMENT naming the row and column of an unknown character.
  static absl::StatusOr<Layers> FromMovingAi(const MovingAiMap& map, double cell_size = 1.0);

  std::int32_t width() const { return width_; }
  std::int32_t height() const { return height_; }
  double cell_size() const { return frame_.cell_size; }
  // Where the map lies in world units (cell size and origin).
  const WorldFrame& frame() const { return frame_; }
  std::uint32_t cell_count() const { return static_cast<std::uint32_t>(terrain_.size()); }
  CellRect bounds() const { return CellRect{0, 0, width_, height_}; }
  bool InBounds(Cell c) const { return c.x >= 0 && c.y >= 0 && c.x < width_ && c.y < height_; }
  CellIndex Index(Cell c) const { return static_cast<CellIndex>(c.y) * width_ + c.x; }
  Cell CellOf(CellIndex i) const {
    return Cell{static_cast<std::int32_t>(i % width_), static_cast<std::int32_t>(i / width_)};
  }
  // CellsCovering with this map's cell size and bounds.
  CellRect Covering(const WorldRect& rect) const {
    return CellsCovering(frame_.FromOrigin(rect), frame_.cell_size, width_, height_);
  }
  // The cell holding a world point (may lie off the map).
  Cell CellHolding(WorldPoint p) const { return frame_.CellHolding(p); }
  // Changes the cell size or the origin. Only before any rectangle has been placed (the layer
  // file's first lines, or a world being created).
  void set_cell_size(double cell_size) { frame_.cell_size = cell_size; }
  void set_origin(WorldPoint origin) { frame_.origin = origin; }

  // --- Terrain: static. Changing it after the grid is built needs a full rebuild. ---

  // Sets the terrain of `cells` to `base`: kWalkable, kBlocked, kMountain or kRiver.
  void SetTerrain(const CellRect& cells, CellValue base);
  // Marks `cells` as forest floor (claims only cells that end up Walkable, never roads).
  void AddForest(const CellRect& cells);
  // Marks `cells` as road: forest never claims a road.
  void AddRoad(const CellRect& cells);
  // Marks `cells` as a bridge deck or hill entrance (a portal for taut paths).
  void AddCrossing(const CellRect& cells, CrossingKind kind);

  CellValue TerrainAt(CellIndex i) const { return static_cast<CellValue>(terrain_[i] & kBaseMask); }
  bool ForestAt(CellIndex i) const { return (terrain_[i] & kForestBit) != 0; }
  bool RoadAt(CellIndex i) const { return (terrain_[i] & kRoadBit) != 0; }
  bool CrossingAt(CellIndex i) const { return (terrain_[i] & kCrossingBits) != 0; }
  bool BridgeAt(CellIndex i) const { return (terrain_[i] & kBridgeBit) != 0; }

  // --- Resources: one per cell, indexed by cell. ---

  // The resource on cell `i` (kTree, kBoulder, kIronOre) or kWalkable for none.
  CellValue ResourceAt(CellIndex i) const { return static_cast<CellValue>(resource_[i]); }
  // Places (IsResource(value)) or clears (kWalkable) the resource of cell `i`.
  void SetResource(CellIndex i, CellValue value) {
    resource_[i] = static_cast<std::uint8_t>(value);
  }

  // --- Footprints and doorways: dynamic. Each call says which cells it touched. ---

  // Adds a building footprint. Errors: INVALID_ARGUMENT for a bad rectangle or one covering no
  // cell; ALREADY_EXISTS when `id` names a building or gate. `*cells` receives the covered cells.
  absl::Status AddBuilding(EntityId id, const WorldRect& rect, CellRect* cells);
  // Removes a building. Errors: NOT_FOUND. `*cells` receives the cells it vacated.
  absl::Status RemoveBuilding(EntityId id, CellRect* cells);
  // Moves (or resizes) a building. Errors: as AddBuilding and RemoveBuilding. `*vacated` and
  // `*occupied` receive the old and new cells.
  absl::Status MoveBuilding(EntityId id, const WorldRect& rect, CellRect* vacated,
                            CellRect* occupied);
  // Adds a gate `id` in structure `owner`'s footprint. Open, it reopens `owner`'s cells under it;
  // shut, it is a footprint of its own (kGate). Both cover GateCells. Errors: as AddBuilding.
  absl::Status AddGate(EntityId id, EntityId owner, const WorldRect& rect, bool open,
                       CellRect* cells);
  // Opens or shuts gate `id` (no change when already so). Errors: NOT_FOUND.
  absl::Status SetGateOpen(EntityId id, bool open, CellRect* cells);
  // Removes gate `id` entirely. Errors: NOT_FOUND.
  absl::Status RemoveGate(EntityId id, CellRect* cells);
  // Adds a permanent gap in structure `owner` (a wall network's opening). Errors: INVALID_ARGUMENT.
  absl::Status AddGap(EntityId owner, const WorldRect& rect, CellRect* cells);

  // The cells a gate in `owner` covers, open or shut, given the cells its own rectangle covers:
  // along the wall line the gate's cells (whole cells, so no strip beside a shut gate stays
  // open), across it the owner's own thickness (a rectangle deeper than the wall would block the
  // ground in front of it; a thinner one would leave part of the wall shut when the gate opens).
  // The wall line runs along the owner's longer side. Without a building named `owner`: `own`.
  // Fixed when the gate is placed.
  CellRect GateCells(EntityId owner, const CellRect& own) const;

  const Footprint* FindFootprint(EntityId id) const;
  // The doorway of gate `id`, or null.
  const Doorway* FindGate(EntityId id) const;
  bool HasEntity(EntityId id) const { return footprints_.count(id) != 0 || gates_.count(id) != 0; }
  std::size_t footprint_count() const { return footprints_.size(); }
  // Bytes held: the per-cell layers, footprints, doorways and their buckets (node overheads
  // estimated).
  std::size_t MemoryBytes() const;

  // The footprints whose cells intersect `region`, each once, in id order (from the spatial
  // buckets, not a scan of every footprint). `out` is cleared first.
  void FootprintsOverlapping(const CellRect& region, std::vector<const Footprint*>* out) const;
  // The open doorways whose cells intersect `region`, each once. `out` is cleared first.
  void OpenDoorwaysOverlapping(const CellRect& region, std::vector<const Doorway*>* out) const;

 private:
  static constexpr std::uint8_t kBaseMask = 0x07;
  static constexpr std::uint8_t kForestBit = 0x08;
  static constexpr std::uint8_t kRoadBit = 0x10;
  static constexpr std::uint8_t kBridgeBit = 0x20;
  static constexpr std::uint8_t kEntranceBit = 0x40;
  static constexpr std::uint8_t kCrossingBits = kBridgeBit | kEntranceBit;
  // Footprints and doorways are bucketed by 16 × 16 cells.
  static constexpr std::int32_t kBucketCells = 16;

  absl::Status CheckNewRect(const WorldRect& rect, CellRect* cells) const;
  template <typename F>
  void ForEachBucket(const CellRect& cells, F&& f) const;
  void IndexFootprint(const Footprint& fp);
  void UnindexFootprint(const Footprint& fp);

  std::int32_t width_ = 0;
  std::int32_t height_ = 0;
  WorldFrame frame_;
  std::vector<std::uint8_t> terrain_;   // base value | forest | road | bridge | entrance, per cell
  std::vector<std::uint8_t> resource_;  // CellValue per cell (kWalkable: none)
  std::unordered_map<EntityId, Footprint> footprints_;  // node-based: pointers stay valid
  std::vector<Doorway> doorways_;                       // gates' and gaps'; never erased
  std::unordered_map<EntityId, std::uint32_t> gates_;   // gate id -> index in doorways_
  std::int32_t buckets_x_ = 0;
  std::int32_t buckets_y_ = 0;
  std::vector<std::vector<EntityId>> footprint_buckets_;
  std::vector<std::vector<std::uint32_t>> doorway_buckets_;  // indices into doorways_
};

}  // namespace walk::nav::live
