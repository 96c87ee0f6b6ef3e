#include "nav/navmesh/lift_connections.h"

#include <cmath>
#include <map>
#include <vector>

#include "nav/navmesh/world_navmesh.h"
// Detour is third-party: its headers are included inside nav/navmesh/*.cc only.
#include "DetourNavMesh.h"

namespace walk::nav {
namespace {

bool Near(const float* a, const float* b) {
  return std::abs(a[0] - b[0]) <= kLiftMatchYards && std::abs(a[1] - b[1]) <= kLiftMatchYards &&
         std::abs(a[2] - b[2]) <= kLiftMatchYards;
}

// The off-mesh connections the navmesh holds, as walkd's connections.
std::vector<NavMeshConnection> ConnectionsOf(const dtNavMesh& mesh) {
  std::vector<NavMeshConnection> held;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const dtMeshTile* tile = mesh.getTile(i);
    if (tile == nullptr || tile->header == nullptr) continue;
    for (int k = 0; k < tile->header->offMeshConCount; ++k) {
      NavMeshConnection c;
      for (int a = 0; a < 3; ++a) {
        c.from[a] = tile->offMeshCons[k].pos[a];
        c.to[a] = tile->offMeshCons[k].pos[3 + a];
      }
      held.push_back(c);
    }
  }
  return held;
}

// The Detour index of the tile whose cell holds `p` and whose height range (give or take its
// agent's step) holds p's height; -1 when none does.
int TileHolding(const dtNavMesh& mesh, const NavMeshTiling& tiling, const float* p) {
  const int x = static_cast<int>(std::floor((double{p[0]} - tiling.origin[0]) / tiling.tile_width));
  const int y =
      static_cast<int>(std::floor((double{p[2]} - tiling.origin[2]) / tiling.tile_height));
  const dtMeshTile* tiles[32];
  const int n = mesh.getTilesAt(x, y, tiles, 32);
  for (int k = 0; k < n; ++k) {
    const dtMeshHeader& h = *tiles[k]->header;
    if (p[1] >= h.bmin[1] - h.walkableClimb && p[1] <= h.bmax[1] + h.walkableClimb) {
      return static_cast<int>(mesh.decodePolyIdTile(mesh.getTileRef(tiles[k])));
    }
  }
  return -1;
}

}  // namespace

absl::StatusOr<LiftConnectionCounts> AddMissingLiftConnections(NavMesh& navmesh, const World& world,
                                                               ContinentId continent) {
  LiftConnectionCounts counts;
  const dtNavMesh& mesh = *navmesh.detour();
  const std::vector<NavMeshConnection> held = ConnectionsOf(mesh);
  std::map<int, std::vector<NavMeshConnection>> by_tile;
  for (const NavMeshConnection& ride : LiftConnections(world, continent)) {
    ++counts.rides;
    bool present = false;
    for (const NavMeshConnection& c : held) {
      present = present || (Near(c.from, ride.from) && Near(c.to, ride.to));
    }
    if (present) {
      ++counts.present;
      continue;
    }
    const int tile = TileHolding(mesh, navmesh.tiling(), ride.from);
    if (tile < 0) {
      ++counts.unplaced;
      continue;
    }
    by_tile[tile].push_back(ride);
  }
  for (const auto& [tile, rides] : by_tile) {
    if (absl::Status s = navmesh.AppendConnections(tile, rides); !s.ok()) return s;
    counts.added += static_cast<std::uint32_t>(rides.size());
  }
  return counts;
}

}  // namespace walk::nav
