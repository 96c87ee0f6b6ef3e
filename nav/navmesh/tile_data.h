// One Detour tile's data as files hold it (dtCreateNavMeshData's layout): the checks that make it
// safe to hand to dtNavMesh::addTile, which trusts every count in the tile's header, and the
// canonical form hashed and written.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "nav/navmesh/navmesh_connection.h"

namespace walk::nav {

// What a checked tile's header says.
struct TileSummary {
  std::int32_t x = 0;
  std::int32_t y = 0;
  std::int32_t layer = 0;
  std::int32_t polygons = 0;           // ground polygons
  std::int32_t off_mesh = 0;           // off-mesh connections
  float bmin[3] = {0.0f, 0.0f, 0.0f};  // the header's bounds, in Detour's axes, yards
  float bmax[3] = {0.0f, 0.0f, 0.0f};
};

// Coordinates inside a tile (its bounds, vertices, detail vertices, off-mesh ends), and the cell
// its position names (NavMesh::AddTile), are at most this far from 0: a walk's range
// (nav/query/place_check.h), where squared distances stay finite floats.
inline constexpr float kMaxTileCoordinate = 1e8f;

// Checks `data` against its own header: Detour's magic and version (a mismatch says both), every
// array inside the bytes there are, every index into them (polygon vertices, neighbours, detail
// meshes, bounding-volume nodes, off-mesh connections) in range, every coordinate finite and
// within kMaxTileCoordinate, room for one link at least, and every ground polygon's detail mesh
// with a triangle on its boundary (what Detour's addTile and queries assume). `what` names the file
// and tile. Errors: INVALID_ARGUMENT saying what is wrong.
absl::Status CheckTileData(std::string_view data, const std::string& what,
                           TileSummary* summary = nullptr);

// A copy of checked tile data with what dtNavMesh::addTile rewrites put back as
// dtCreateNavMeshData left it: the link array and each polygon's first link zeroed, and the ends
// of each off-mesh connection's polygon set from the connection again (Detour snaps them to the
// ground when it links the tile).
std::string CanonicalTileData(std::string_view data);

// A copy of checked tile `data` with `connections` appended as one-way off-mesh connections
// (radius kNavMeshConnectionRadiusYards, area ground and flag walk until priced), as
// dtCreateNavMeshData lays them out: two vertices and a polygon each after the tile's own, room
// for four more links each, and the side of the tile each one lands on. The tile's own polygons,
// detail meshes and bounding-volume tree are unchanged (they hold ground polygons only). Every
// connection should start within the tile's cell: Detour links a start to the tile's own
// polygons only.
std::string AppendOffMeshConnections(std::string_view data,
                                     const std::vector<NavMeshConnection>& connections);

}  // namespace walk::nav
