// A loaded Detour navmesh, owned: the tiles of a RecastDemo all-tiles file, an mmaps folder or a
// build, added to one dtNavMesh. Detour's headers stay out of this one (it is included widely):
// callers that query include DetourNavMesh.h themselves and use detour().
//
// Axes: Detour x is our x, Detour z our y, Detour y the height, as in the meshes navmeshes are
// built from (nav/import/voxelizer.h); coordinates are the mesh's own, in yards.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nav/navmesh/navmesh_connection.h"

class dtNavMesh;

namespace walk::nav {

class NavMeshTileCache;

// dtNavMeshParams, field for field (28 bytes as files hold it): where tile (0, 0) starts and how
// large tiles are, in Detour's axes and yards, and the ceilings Detour's references are cut for.
struct NavMeshTiling {
  float origin[3] = {0.0f, 0.0f, 0.0f};  // Detour x, y (height), z of tile (0, 0)'s corner
  float tile_width = 0.0f;               // along Detour x, yards (> 0)
  float tile_height = 0.0f;              // along Detour z, yards (> 0)
  std::int32_t max_tiles = 0;            // tiles the navmesh can hold, 1 .. kMaxNavMeshTiles
  std::int32_t max_polys = 0;            // polygons a tile can hold (>= 1)
};
static_assert(sizeof(NavMeshTiling) == 28, "NavMeshTiling mirrors dtNavMeshParams");

// The most tiles a navmesh may declare: dtNavMesh::init allocates a slot per tile up front, so a
// hostile count must not allocate gigabytes. Shipped mmaps declare 4096 (64 x 64).
inline constexpr std::int32_t kMaxNavMeshTiles = 1 << 18;

// One tile as the navmesh holds it: position, Detour's reference, and its data with the fields
// Detour rewrites when it links a tile (the link array, each polygon's first link) zeroed, so the
// bytes are the same however the file that held them was written.
struct NavMeshTileView {
  std::int32_t x = 0;
  std::int32_t y = 0;
  std::int32_t layer = 0;
  std::uint64_t ref = 0;  // dtTileRef (32 bits in the Detour we link)
  std::string_view canonical_data;
};

// Where a tile's Detour data lies in the file it was read from, so that a tile evicted from a
// tile cache can be read again: `size` bytes at `offset` of `path`. An empty path: nowhere (a
// built navmesh's tiles), and the tile is never evicted.
struct NavMeshTileOrigin {
  std::string path;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
};

class NavMesh {
 public:
  // Makes an empty navmesh cut as `tiling`. `what` names the source in errors (a file).
  // Errors: INVALID_ARGUMENT (a tiling Detour cannot hold, naming the field), INTERNAL.
  static absl::StatusOr<NavMesh> Create(const NavMeshTiling& tiling, const std::string& what);

  NavMesh(NavMesh&&) noexcept;
  NavMesh& operator=(NavMesh&&) noexcept;
  ~NavMesh();

  // Checks a tile's Detour data (magic, version, every count against the bytes there are) and its
  // position (the cell it names, origin + position x tile size, within a walk's reach, and the
  // tile's bounds in that cell, give or take half a tile) and adds it, taking the bytes. `what`
  // names the file and tile in errors. Errors: INVALID_ARGUMENT (bad magic, a Detour version
  // other than ours saying both, truncated data, a position out of reach or away from the tile's
  // bounds, saying both, a tile already present, a tile Detour refuses).
  // The tile takes the next Detour tile index (0, 1, ... in the order tiles are added) and keeps
  // it for good, also when a tile cache evicts it and adds it again; `origin` says where it can
  // be read again.
  absl::Status AddTile(std::string data, const std::string& what,
                       const NavMeshTileOrigin& origin = {});

  // Appends `connections` to the tile of Detour index `index` as off-mesh connections
  // (AppendOffMeshConnections, tile_data.h) and adds it again at its reference; a tile read again
  // later gets them too. Call before any query runs. Errors: INVALID_ARGUMENT (no such tile,
  // more polygons than the navmesh holds a tile, Detour refuses the grown tile).
  absl::Status AppendConnections(int index, const std::vector<NavMeshConnection>& connections);

  // What the navmesh holds.
  std::uint32_t tile_count() const;
  std::uint64_t polygon_count() const;   // ground polygons, off-mesh connections not counted
  std::uint64_t off_mesh_count() const;  // off-mesh connections
  const NavMeshTiling& tiling() const;
  // A stable hash (nav/grid/content_hash.h) of the tiling and of every tile's canonical bytes and
  // position, in tile order: the same navmesh read from either format, or built, hashes the same.
  std::uint64_t content_hash() const;

  // Calls `visit` for every resident tile (every tile without a tile cache), ordered by (y, x,
  // layer). The view lives during the call only.
  void ForEachTile(const std::function<void(const NavMeshTileView&)>& visit) const;

  // Detour's navmesh, for queries (dtNavMeshQuery::init). Never null; owned by this object.
  const dtNavMesh* detour() const;
  // The same, to write polygons' areas and flags (NavMeshGround) before any query runs.
  dtNavMesh* mutable_detour();

  // The tiles as added, by Detour tile index: position, size and origin. Stays the same whether
  // a tile is resident or not.
  struct TileRecord {
    std::int32_t x = 0, y = 0, layer = 0;
    std::uint64_t ref = 0;    // dtTileRef when it was first added (restored on every re-add)
    std::uint64_t bytes = 0;  // its Detour data's size, connections appended
    NavMeshTileOrigin origin;
    std::vector<NavMeshConnection> appended;  // off-mesh connections added at load
  };
  const std::vector<TileRecord>& tile_records() const;

  // Keeps at most `budget_bytes` of tile data resident from now on (NavMeshTileCache): the
  // tiles beyond it are removed, and read again from their origin when a walk needs them, after
  // which `after_add` runs on them (the polygons' pricing classes written again). Tiles without
  // an origin always stay. Call once, before any query runs; the cache keeps this object's
  // address, so it must not move afterwards (hold it in a unique_ptr or an object that stays).
  void EnableTileCache(std::uint64_t budget_bytes, std::function<void(dtNavMesh&, int)> after_add);
  // The tile cache, or null when every tile stays resident. Thread-safe.
  NavMeshTileCache* tile_cache() const;
  // A number no other navmesh of this process has had, kept through moves: what a thread's
  // walker knows the navmesh it is bound to by (a navmesh freed with a reloaded world may be
  // followed by another at the same address).
  std::uint64_t serial() const;

  // For NavMeshTileCache: tile `index`'s data read again from its origin, checked, its
  // connections appended. Errors: DATA_LOSS (the file gone or changed since it was read) or
  // INVALID_ARGUMENT (the tile damaged), naming the file.
  absl::StatusOr<std::string> ReadTileAgain(int index) const;
  // For NavMeshTileCache: adds tile `index` again from `data`, at its first reference; removes
  // it. Neither may run while a query does.
  absl::Status RestoreTile(int index, std::string data);
  void RemoveTile(int index);

 private:
  struct Impl;
  explicit NavMesh(std::unique_ptr<Impl> impl);
  absl::Status RestoreTile(int index, std::string data, std::uint64_t ref);
  std::unique_ptr<Impl> impl_;
};

}  // namespace walk::nav
