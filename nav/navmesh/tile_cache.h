// A navmesh's tiles kept within a byte budget (walkd --navmesh-cache-mb): the tiles beyond it are
// read again from their files when a walk needs them and evicted least recently used, with
// dtNavMesh::addTile and removeTile. docs/navmesh.md ("The tile cache") says why it is built so.
//
// Search threads share one navmesh. A walk holds Share() (a shared lock) while it queries, so
// Detour's const queries run side by side; adding and removing tiles takes the lock exclusively,
// between walks. A walk pins the tiles it needs (Acquire ... Release): a pinned tile is never
// evicted, so a walk that asks for more tiles round after round only ever grows its set, and
// ends. Pinned tiles may exceed the budget for as long as they are pinned.
//
// A tile keeps its Detour index and reference for good (NavMesh::RestoreTile), so polygon
// references, and what is kept by them (NavMeshGround's zones), stay valid across evictions.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "nav/navmesh/navmesh.h"

namespace walk::nav {

class NavMeshTileCache {
 public:
  // Caches the tiles of `navmesh` (which owns this object; all its tiles resident now) within
  // `budget_bytes`, evicting what is beyond it now. `after_add` runs on a tile (Detour index)
  // each time it is added again, under the exclusive lock.
  NavMeshTileCache(NavMesh* navmesh, std::uint64_t budget_bytes,
                   std::function<void(dtNavMesh&, int)> after_add);

  // The shared lock a walk holds while it queries the navmesh.
  std::shared_lock<std::shared_mutex> Share() const {
    return std::shared_lock<std::shared_mutex>(mu_);
  }
  // True when tile `index` is resident (under Share, or between walks).
  bool Resident(int index) const { return resident_[index].load(std::memory_order_relaxed); }

  // Appends to `out` every tile whose cell meets the box x0 .. x1, z0 .. z1 (Detour's axes), at
  // every layer.
  void TilesUnder(float x0, float z0, float x1, float z1, std::vector<int>* out) const;
  // Appends to `out` the tiles beside tile `index` on `side` (Detour's 0 .. 7; 8: the other
  // layers of its own cell) at every layer; for `side` kIncoming, the other tiles holding a
  // two-way off-mesh connection that lands in tile `index` (Detour links its landing back to it).
  void TilesBeside(int index, int side, std::vector<int>* out) const;
  static constexpr int kIncoming = 9;

  // Makes every tile of `wanted` resident and pins it (until Release), reading the missing ones
  // again and then evicting the least recently used unpinned tiles while over the budget. Call
  // without Share held. Errors: a tile's file unreadable or changed (the tiles read so far stay).
  absl::Status Acquire(const std::vector<int>& wanted);
  // Unpins what Acquire pinned, stamping it as used now, and evicts while over the budget. Call
  // without Share held.
  void Release(const std::vector<int>& pinned);

  std::uint64_t budget_bytes() const { return budget_bytes_; }
  std::uint64_t resident_bytes() const { return resident_bytes_.load(); }
  std::uint32_t resident_tiles() const { return resident_tiles_.load(); }
  std::uint64_t tiles_decoded() const { return decoded_.load(); }  // read again, since load
  std::uint64_t tiles_evicted() const { return evicted_.load(); }

 private:
  // Evicts unpinned tiles, least recently used first, until within the budget. Under mu_.
  void Evict();

  NavMesh* navmesh_;
  std::uint64_t budget_bytes_;
  std::function<void(dtNavMesh&, int)> after_add_;
  mutable std::shared_mutex mu_;
  std::unique_ptr<std::atomic<bool>[]> resident_;
  std::unique_ptr<std::atomic<std::uint32_t>[]> pins_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> last_used_;
  std::atomic<std::uint64_t> clock_{1};
  std::map<std::pair<std::int32_t, std::int32_t>, std::vector<int>> by_cell_;  // (x, y) -> tiles
  std::vector<std::vector<int>> incoming_;  // by tile: tiles of two-way connections landing in it
  std::atomic<std::uint64_t> resident_bytes_{0};
  std::atomic<std::uint32_t> resident_tiles_{0};
  std::atomic<std::uint64_t> decoded_{0};
  std::atomic<std::uint64_t> evicted_{0};
};

}  // namespace walk::nav
