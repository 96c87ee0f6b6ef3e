#include "nav/navmesh/tile_cache.h"

#include <algorithm>
#include <cmath>
#include <string>

// Detour is third-party: its headers are included inside nav/navmesh/*.cc only.
#include "DetourNavMesh.h"

namespace walk::nav {

NavMeshTileCache::NavMeshTileCache(NavMesh* navmesh, std::uint64_t budget_bytes,
                                   std::function<void(dtNavMesh&, int)> after_add)
    : navmesh_(navmesh), budget_bytes_(budget_bytes), after_add_(std::move(after_add)) {
  const std::vector<NavMesh::TileRecord>& records = navmesh_->tile_records();
  const std::size_t n = records.size();
  resident_ = std::make_unique<std::atomic<bool>[]>(n);
  pins_ = std::make_unique<std::atomic<std::uint32_t>[]>(n);
  last_used_ = std::make_unique<std::atomic<std::uint64_t>[]>(n);
  for (std::size_t i = 0; i < n; ++i) {
    resident_[i] = true;
    pins_[i] = 0;
    last_used_[i] = 0;
    resident_bytes_ += records[i].bytes;
    ++resident_tiles_;
    by_cell_[{records[i].x, records[i].y}].push_back(static_cast<int>(i));
  }
  // Two-way connections between tiles, read while every tile is resident.
  incoming_.resize(n);
  const dtNavMesh& mesh = *navmesh_->detour();
  std::vector<int> landing;
  for (std::size_t i = 0; i < n; ++i) {
    const dtMeshTile* tile = mesh.getTileByRef(static_cast<dtTileRef>(records[i].ref));
    if (tile == nullptr || tile->header == nullptr) continue;
    for (int k = 0; k < tile->header->offMeshConCount; ++k) {
      const dtOffMeshConnection& con = tile->offMeshCons[k];
      if ((con.flags & DT_OFFMESH_CON_BIDIR) == 0) continue;
      landing.clear();
      TilesBeside(static_cast<int>(i), con.side < 8 ? con.side : 8, &landing);
      for (int other : landing) incoming_[other].push_back(static_cast<int>(i));
    }
  }
  for (std::vector<int>& tiles : incoming_) {
    std::sort(tiles.begin(), tiles.end());
    tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
  }
  std::unique_lock<std::shared_mutex> lock(mu_);
  Evict();
}

void NavMeshTileCache::TilesUnder(float x0, float z0, float x1, float z1,
                                  std::vector<int>* out) const {
  const NavMeshTiling& t = navmesh_->tiling();
  auto cell = [](float v, float origin, float size) {
    return static_cast<std::int32_t>(std::floor((double{v} - origin) / size));
  };
  const std::int32_t cx0 = cell(x0, t.origin[0], t.tile_width);
  const std::int32_t cx1 = cell(x1, t.origin[0], t.tile_width);
  const std::int32_t cy0 = cell(z0, t.origin[2], t.tile_height);
  const std::int32_t cy1 = cell(z1, t.origin[2], t.tile_height);
  for (std::int32_t y = cy0; y <= cy1; ++y) {
    for (std::int32_t x = cx0; x <= cx1; ++x) {
      const auto it = by_cell_.find({x, y});
      if (it != by_cell_.end()) out->insert(out->end(), it->second.begin(), it->second.end());
    }
  }
}

void NavMeshTileCache::TilesBeside(int index, int side, std::vector<int>* out) const {
  // Detour's sides: 0 is +x, counting anticlockwise (dtNavMesh::getNeighbourTilesAt).
  static constexpr int kDx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
  static constexpr int kDy[8] = {0, 1, 1, 1, 0, -1, -1, -1};
  if (side == kIncoming) {
    out->insert(out->end(), incoming_[index].begin(), incoming_[index].end());
    return;
  }
  const NavMesh::TileRecord& r = navmesh_->tile_records()[index];
  const bool beside = side >= 0 && side < 8;
  const auto it = by_cell_.find({r.x + (beside ? kDx[side] : 0), r.y + (beside ? kDy[side] : 0)});
  if (it == by_cell_.end()) return;
  for (int other : it->second) {
    if (other != index) out->push_back(other);
  }
}

absl::Status NavMeshTileCache::Acquire(const std::vector<int>& wanted) {
  std::vector<int> missing;
  {
    // Pins are taken under the shared lock: eviction, which reads them, holds it exclusively.
    std::shared_lock<std::shared_mutex> lock(mu_);
    for (int index : wanted) {
      pins_[index].fetch_add(1);
      if (!Resident(index)) missing.push_back(index);
    }
  }
  if (missing.empty()) return absl::OkStatus();
  // Files are read before the exclusive lock: walks go on meanwhile.
  absl::Status status;
  std::vector<std::pair<int, std::string>> read;
  for (int index : missing) {
    absl::StatusOr<std::string> data = navmesh_->ReadTileAgain(index);
    if (!data.ok()) {
      status = data.status();
      continue;
    }
    read.emplace_back(index, *std::move(data));
  }
  std::unique_lock<std::shared_mutex> lock(mu_);
  for (auto& [index, data] : read) {
    if (Resident(index)) continue;  // another walk added it meanwhile
    const std::uint64_t bytes = data.size();
    if (absl::Status s = navmesh_->RestoreTile(index, std::move(data)); !s.ok()) {
      status = s;
      continue;
    }
    after_add_(*navmesh_->mutable_detour(), index);
    resident_[index] = true;
    resident_bytes_ += bytes;
    ++resident_tiles_;
    ++decoded_;
  }
  Evict();
  return status;
}

void NavMeshTileCache::Release(const std::vector<int>& pinned) {
  const std::uint64_t now = clock_.fetch_add(1);
  for (int index : pinned) {
    last_used_[index].store(now, std::memory_order_relaxed);
    pins_[index].fetch_sub(1);
  }
  // A walk that needed more than the budget leaves the cache over it: back within it now.
  if (resident_bytes_ > budget_bytes_) {
    std::unique_lock<std::shared_mutex> lock(mu_);
    Evict();
  }
}

void NavMeshTileCache::Evict() {
  if (resident_bytes_ <= budget_bytes_) return;
  const std::vector<NavMesh::TileRecord>& records = navmesh_->tile_records();
  std::vector<std::pair<std::uint64_t, int>> candidates;  // (last used, index)
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (resident_[i] && pins_[i] == 0 && !records[i].origin.path.empty()) {
      candidates.emplace_back(last_used_[i].load(), static_cast<int>(i));
    }
  }
  std::sort(candidates.begin(), candidates.end());
  for (const auto& [used, index] : candidates) {
    if (resident_bytes_ <= budget_bytes_) break;
    navmesh_->RemoveTile(index);
    resident_[index] = false;
    resident_bytes_ -= records[index].bytes;
    --resident_tiles_;
    ++evicted_;
  }
}

}  // namespace walk::nav
