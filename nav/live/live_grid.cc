#include "nav/live/live_grid.h"

#include <algorithm>

namespace walk::nav::live {
namespace {

// Terrain and forest give way to a crossing; nothing else does.
bool CrossingReopens(CellValue v) {
  return v == CellValue::kBlocked || v == CellValue::kMountain || v == CellValue::kRiver ||
         v == CellValue::kForest;
}

std::uint8_t OpenFlags(CellValue v) {
  return (IsPassable(v, Passability::kLight) ? kLightOpen : 0) |
         (IsPassable(v, Passability::kHeavy) ? kHeavyOpen : 0);
}

}  // namespace

LiveGrid::LiveGrid(const Layers& layers)
    : width_(layers.width()),
      height_(layers.height()),
      values_(layers.cell_count(), CellValue::kWalkable),
      flags_(layers.cell_count(), 0) {
  for (Regions& r : regions_) r.Resize(width_, height_);
  clearance_.Resize(width_, height_);
  RebuildAll(layers);
}

void LiveGrid::ComposeRegion(const Layers& layers, const CellRect& r) {
  const std::int32_t rw = r.x1 - r.x0;
  const std::size_t n = static_cast<std::size_t>(r.area());
  if (cover_count_.size() < n) {
    cover_count_.resize(n);
    cover_id_.resize(n);
    cover_kind_.resize(n);
  }
  std::fill_n(cover_count_.begin(), n, 0);
  std::fill_n(cover_kind_.begin(), n, 0);
  auto local = [&](std::int32_t x, std::int32_t y) {
    return static_cast<std::size_t>(y - r.y0) * rw + (x - r.x0);
  };

  // Footprints over the region (from the spatial buckets).
  layers.FootprintsOverlapping(r, &footprints_);
  for (const Footprint* fp : footprints_) {
    const CellRect c = Intersect(fp->cells, r);
    const std::uint8_t kind = fp->value == CellValue::kGate ? 2 : 1;
    for (std::int32_t y = c.y0; y < c.y1; ++y) {
      for (std::int32_t x = c.x0; x < c.x1; ++x) {
        const std::size_t l = local(x, y);
        ++cover_count_[l];
        cover_id_[l] = fp->id;
        cover_kind_[l] |= kind;
      }
    }
  }

  // Terrain, resources, buildings, forest and crossings in one pass; doorways patch after.
  for (std::int32_t y = r.y0; y < r.y1; ++y) {
    for (std::int32_t x = r.x0; x < r.x1; ++x) {
      const CellIndex i = Index({x, y});
      const std::size_t l = local(x, y);
      const CellValue resource = layers.ResourceAt(i);
      CellValue v = resource != CellValue::kWalkable ? resource : layers.TerrainAt(i);
      if (cover_count_[l] != 0) {
        v = (cover_kind_[l] & 2) ? CellValue::kGate : CellValue::kBuilding;  // name the gate
      } else if (v == CellValue::kWalkable && layers.ForestAt(i) && !layers.RoadAt(i)) {
        v = CellValue::kForest;
      }
      const bool crossing = layers.CrossingAt(i);
      if (crossing && CrossingReopens(v)) v = CellValue::kWalkable;
      values_[i] = v;
      flags_[i] = static_cast<std::uint8_t>((flags_[i] & (kLightNear | kHeavyNear)) | OpenFlags(v) |
                                            (crossing ? kPortal : 0));
    }
  }

  // Doorways reopen their owner's structure and nothing else.
  layers.OpenDoorwaysOverlapping(r, &doorways_);
  for (const Doorway* door : doorways_) {
    const CellRect c = Intersect(door->cells, r);
    for (std::int32_t y = c.y0; y < c.y1; ++y) {
      for (std::int32_t x = c.x0; x < c.x1; ++x) {
        const std::size_t l = local(x, y);
        if (cover_count_[l] != 1 || cover_id_[l] != door->owner) continue;
        const CellIndex i = Index({x, y});
        const CellValue resource = layers.ResourceAt(i);
        CellValue v = resource != CellValue::kWalkable ? resource : layers.TerrainAt(i);
        if (layers.CrossingAt(i) && CrossingReopens(v)) v = CellValue::kWalkable;
        values_[i] = v;
        flags_[i] =
            static_cast<std::uint8_t>((flags_[i] & ~(kLightOpen | kHeavyOpen)) | OpenFlags(v));
      }
    }
  }
}

void LiveGrid::UpdateNear(const CellRect& rect) {
  const CellRect r = Intersect(rect, CellRect{0, 0, width_, height_});
  if (r.empty()) return;
  // Row by row with rolling buffers, so the inner loops are straight-line and vectorize:
  // closed[k] holds the closed bits (~open, 2 bits) of column r.x0 - 1 + k (0 off the map), and
  // across[k] the OR of closed[k .. k + 2]: what a cell sees in the rows above and below it.
  const std::int32_t w = width_;
  const std::size_t n = static_cast<std::size_t>(r.x1 - r.x0);
  near_scratch_.resize(6 * (n + 2));
  std::uint8_t* closed[3];
  std::uint8_t* across[3];
  for (int k = 0; k < 3; ++k) {
    closed[k] = near_scratch_.data() + (2 * k) * (n + 2);
    across[k] = near_scratch_.data() + (2 * k + 1) * (n + 2);
  }
  constexpr std::uint8_t kOpenBits = kLightOpen | kHeavyOpen;
  auto load = [&](std::int32_t y, std::uint8_t* c, std::uint8_t* a) {
    if (y < 0 || y >= height_) {
      std::fill_n(c, n + 2, 0);
      std::fill_n(a, n, 0);
      return;
    }
    const std::uint8_t* row = flags_.data() + static_cast<std::size_t>(y) * w;
    c[0] = r.x0 > 0 ? static_cast<std::uint8_t>(~row[r.x0 - 1] & kOpenBits) : 0;
    for (std::size_t k = 0; k < n; ++k)
      c[k + 1] = static_cast<std::uint8_t>(~row[r.x0 + k] & kOpenBits);
    c[n + 1] = r.x1 < w ? static_cast<std::uint8_t>(~row[r.x1] & kOpenBits) : 0;
    for (std::size_t k = 0; k < n; ++k) a[k] = c[k] | c[k + 1] | c[k + 2];
  };
  load(r.y0 - 1, closed[0], across[0]);
  load(r.y0, closed[1], across[1]);
  for (std::int32_t y = r.y0; y < r.y1; ++y) {
    load(y + 1, closed[2], across[2]);
    std::uint8_t* row = flags_.data() + static_cast<std::size_t>(y) * w + r.x0;
    const std::uint8_t* c = closed[1];
    for (std::size_t k = 0; k < n; ++k) {
      const std::uint8_t near = across[0][k] | across[2][k] | c[k] | c[k + 2];
      // kLightNear and kHeavyNear are the open bits shifted up by two.
      row[k] = static_cast<std::uint8_t>((row[k] & ~(kLightNear | kHeavyNear)) | (near << 2));
    }
    std::rotate(closed, closed + 1, closed + 3);
    std::rotate(across, across + 1, across + 3);
  }
}

RebuildStats LiveGrid::RebuildAll(const Layers& layers) {
  RebuildStats stats;
  const CellRect all{0, 0, width_, height_};
  ComposeRegion(layers, all);
  UpdateNear(all);
  clearance_.ComputeAll(flags_.data());
  for (int p = 0; p < kPassabilityCount; ++p) {
    regions_[p].LabelAll(flags_.data(), OpenBit(static_cast<Passability>(p)));
    stats.region_cells += regions_[p].last_stats().cells_visited;
  }
  stats.cells_rebuilt = static_cast<std::uint64_t>(all.area());
  stats.rects = 1;
  stats.full = true;
  ++revision_;
  return stats;
}

std::vector<CellRect> LiveGrid::MergeRects(std::vector<CellRect> rects) {
  rects.erase(
      std::remove_if(rects.begin(), rects.end(), [](const CellRect& r) { return r.empty(); }),
      rects.end());
  bool merged = true;
  while (merged) {
    merged = false;
    for (std::size_t a = 0; a < rects.size() && !merged; ++a) {
      for (std::size_t b = a + 1; b < rects.size(); ++b) {
        if (Intersect(Expand(rects[a], 1), rects[b]).empty()) continue;
        rects[a] = BoundingUnion(rects[a], rects[b]);
        rects[b] = rects.back();
        rects.pop_back();
        merged = true;
        break;
      }
    }
  }
  return rects;
}

RebuildStats LiveGrid::RebuildDirty(const Layers& layers, std::vector<CellRect> dirty,
                                    double full_fraction) {
  const CellRect all{0, 0, width_, height_};
  for (CellRect& r : dirty) r = Intersect(r, all);
  std::vector<CellRect> rects = MergeRects(std::move(dirty));
  std::uint64_t area = 0;
  for (const CellRect& r : rects) area += static_cast<std::uint64_t>(r.area());
  if (static_cast<double>(area) > full_fraction * static_cast<double>(all.area())) {
    return RebuildAll(layers);
  }
  RebuildStats stats;
  // One rectangle at a time: before each, the labels match the grid everywhere outside it.
  for (const CellRect& r : rects) {
    ComposeRegion(layers, r);
    UpdateNear(Expand(r, 1));
    clearance_.Update(flags_.data(), r);
    for (int p = 0; p < kPassabilityCount; ++p) {
      regions_[p].Update(flags_.data(), OpenBit(static_cast<Passability>(p)), r);
      stats.region_cells += regions_[p].last_stats().cells_visited;
      stats.region_global_floods += regions_[p].last_stats().global_floods;
    }
    stats.cells_rebuilt += static_cast<std::uint64_t>(r.area());
    ++stats.rects;
  }
  ++revision_;
  return stats;
}

std::size_t LiveGrid::MemoryBytes() const {
  std::size_t bytes = values_.capacity() * sizeof(CellValue) + flags_.capacity() +
                      cover_count_.capacity() * sizeof(std::uint16_t) +
                      cover_id_.capacity() * sizeof(EntityId) + cover_kind_.capacity() +
                      near_scratch_.capacity() + footprints_.capacity() * sizeof(void*) +
                      doorways_.capacity() * sizeof(void*);
  for (const Regions& r : regions_) bytes += r.MemoryBytes();
  return bytes + clearance_.MemoryBytes();
}

}  // namespace walk::nav::live
