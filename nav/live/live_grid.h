// The composed live grid: one CellValue per cell, the per-passability flags searches read, the
// regions, and the revision that keys everything computed from them.
//
// Composition order (the whole ruling; a later layer may overrule the ones before it):
//   1. every cell Walkable;
//   2. terrain (Blocked, Mountain, River);
//   3. harvestable resources (Tree, Boulder, IronOre);
//   4. building footprints (Building; a cell under a shut gate's own footprint is Gate, so a
//      cursor can tell a gate from the wall it sits in);
//   5. forest: claims cells still Walkable that are not road;
//   6. doorways (open gates, wall gaps): a doorway reopens a cell only when every footprint on it
//      is its owner's — a gate never punches through the wall segment beside it, and any other
//      footprint on the cell wins. A reopened cell shows what lies under the structure (terrain
//      or resource); forest does not claim it, a passage is a lane like a road;
//   7. map crossings (bridge decks, hill entrances): reopen cells blocked by terrain or forest,
//      never a resource, a building or a shut gate standing on them.
// ComposeRegion is the only place a cell is composed; a full rebuild is ComposeRegion over the
// whole map, so a full rebuild and any sum of regional rebuilds give the same grid.
// The clearance map (clearance.h) is computed whole by RebuildAll and, by RebuildDirty, over each
// dirty rectangle grown by kClearanceReach only.
//
// Thread safety: const members may be called concurrently; Rebuild* need exclusive access
// (LiveWorld holds its shared_mutex exclusively around them).
#pragma once

#include <cstdint>
#include <vector>

#include "nav/live/cell.h"
#include "nav/live/clearance.h"
#include "nav/live/layers.h"
#include "nav/live/regions.h"

namespace walk::nav::live {

// Per-cell flag bits (LiveGrid::flags()).
inline constexpr std::uint8_t kLightOpen = 0x01;  // a light unit may stand here
inline constexpr std::uint8_t kHeavyOpen = 0x02;  // a heavy unit may stand here
inline constexpr std::uint8_t kLightNear = 0x04;  // one of the 8 neighbours is closed to light
inline constexpr std::uint8_t kHeavyNear = 0x08;  // one of the 8 neighbours is closed to heavy
inline constexpr std::uint8_t kPortal = 0x10;     // a bridge deck or hill entrance cell
static_assert(kLightNear == kLightOpen << 2 && kHeavyNear == kHeavyOpen << 2,
              "LiveGrid::UpdateNear shifts open bits into near bits");
static_assert(kLightOpen == 0x01 && kHeavyOpen == 0x02, "Clearance::Update reads these bits");

constexpr std::uint8_t OpenBit(Passability p) {
  return p == Passability::kLight ? kLightOpen : kHeavyOpen;
}
constexpr std::uint8_t NearBit(Passability p) {
  return p == Passability::kLight ? kLightNear : kHeavyNear;
}

// What one rebuild did.
struct RebuildStats {
  std::uint64_t cells_rebuilt = 0;  // cells composed (sum of the merged dirty rectangles)
  std::uint32_t rects = 0;          // merged dirty rectangles composed
  bool full = false;                // the whole map was composed
  std::uint64_t region_cells = 0;   // cells the region updates touched (both passabilities)
  std::uint32_t region_global_floods = 0;
};

class LiveGrid {
 public:
  // Composes the whole map of `layers` and labels its regions; revision 1.
  explicit LiveGrid(const Layers& layers);

  // Recomposes every cell and relabels all regions from scratch (map load, terrain change,
  // explicit invalidation). Increments the revision.
  RebuildStats RebuildAll(const Layers& layers);
  // Recomposes only `dirty` (cell rectangles; clipped, merged first) and updates the regions
  // there. Falls back to RebuildAll when the merged area exceeds `full_fraction` of the map.
  // Increments the revision (also for an empty list: something the caller keyed may have changed).
  RebuildStats RebuildDirty(const Layers& layers, std::vector<CellRect> dirty,
                            double full_fraction = 0.25);

  // Merges rectangles that overlap or share an edge or corner into their bounding box until no
  // two do; drops empty ones. Order of the result: unspecified.
  static std::vector<CellRect> MergeRects(std::vector<CellRect> rects);

  std::uint64_t revision() const { return revision_; }
  std::int32_t width() const { return width_; }
  std::int32_t height() const { return height_; }
  std::uint32_t cell_count() const { return static_cast<std::uint32_t>(values_.size()); }
  bool InBounds(Cell c) const { return c.x >= 0 && c.y >= 0 && c.x < width_ && c.y < height_; }
  CellIndex Index(Cell c) const { return static_cast<CellIndex>(c.y) * width_ + c.x; }
  Cell CellOf(CellIndex i) const {
    return Cell{static_cast<std::int32_t>(i % width_), static_cast<std::int32_t>(i / width_)};
  }

  CellValue value(CellIndex i) const { return values_[i]; }
  CellValue value(Cell c) const { return values_[Index(c)]; }
  const std::uint8_t* flags() const { return flags_.data(); }
  bool Open(CellIndex i, Passability p) const { return (flags_[i] & OpenBit(p)) != 0; }
  bool Open(Cell c, Passability p) const { return InBounds(c) && Open(Index(c), p); }
  // True when a body needing clearance `need` (BodyClass::need) fits on cell `c`: on the map,
  // open, and clear enough. need 0 is Open.
  bool Fits(Cell c, Passability p, std::uint16_t need) const {
    return Open(c, p) && clearance_.At(Index(c), p) >= need;
  }
  bool Fits(CellIndex i, Passability p, std::uint16_t need) const {
    return Open(i, p) && clearance_.At(i, p) >= need;
  }
  // Every cell's clearance per passability (clearance.h), kept with the grid.
  const Clearance& clearance() const { return clearance_; }
  bool Portal(CellIndex i) const { return (flags_[i] & kPortal) != 0; }
  const std::vector<CellValue>& values() const { return values_; }
  const std::vector<std::uint8_t>& flag_vector() const { return flags_; }
  // Bytes held: cells, flags, both passabilities' regions and clearances, and the scratch.
  std::size_t MemoryBytes() const;
  // Later revisions count on from `revision` (a reset world's grid keeps its numbers rising, so
  // nothing keyed by an answer from before the reset matches one after it).
  void ContinueAfter(std::uint64_t revision) {
    if (revision >= revision_) revision_ = revision + 1;
  }

  const Regions& regions(Passability p) const { return regions_[static_cast<int>(p)]; }
  RegionId RegionOf(Cell c, Passability p) const { return regions(p).RegionOf(Index(c)); }
  bool Reachable(Cell a, Cell b, Passability p) const {
    return regions(p).Reachable(Index(a), Index(b));
  }

 private:
  // Composes values, open and portal flags of `r` (inside the map) from the layers.
  void ComposeRegion(const Layers& layers, const CellRect& r);
  // Recomputes the near bits of `r` (clipped) from the open bits.
  void UpdateNear(const CellRect& r);

  std::int32_t width_ = 0;
  std::int32_t height_ = 0;
  std::uint64_t revision_ = 0;
  std::vector<CellValue> values_;
  std::vector<std::uint8_t> flags_;
  Regions regions_[kPassabilityCount];
  Clearance clearance_;

  // Composition scratch, per cell of the region being composed; grown to the whole map by the
  // first full rebuild and kept (7 bytes a cell), so a full rebuild allocates nothing.
  std::vector<std::uint16_t> cover_count_;  // footprints covering the cell
  std::vector<EntityId> cover_id_;          // the last of them (the only one when count == 1)
  std::vector<std::uint8_t> cover_kind_;    // bit 0: a building, bit 1: a shut gate
  std::vector<std::uint8_t> near_scratch_;  // UpdateNear's rolling rows
  std::vector<const Footprint*> footprints_;
  std::vector<const Doorway*> doorways_;
};

}  // namespace walk::nav::live
