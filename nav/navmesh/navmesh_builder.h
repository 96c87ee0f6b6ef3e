// Builds a tiled Detour navmesh from triangle geometry with Recast, tile by tile: rasterize,
// filter, compact heightfield, (erode), regions, contours, polygon mesh, detail mesh, then
// dtCreateNavMeshData. Coordinates are the mesh's own (Detour x = our x, Detour z = our y,
// Detour y = height); tile (0, 0) starts at the mesh's lowest x and z corner.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/import/triangle_mesh.h"
#include "nav/navmesh/nav_areas.h"
#include "nav/navmesh/navmesh.h"
#include "nav/navmesh/navmesh_connection.h"

namespace walk::nav {

// Defaults match the grid's agent (VoxelizeOptions): the same cell size, height step, agent
// height, radius, step and walkable slope, so a grid and a navmesh built from one mesh agree on
// where one may stand.
struct NavMeshBuildOptions {
  double cell_yards = 0.5;           // Recast's cs: width of a heightfield cell, yards
  double cell_height_yards = 0.2;    // Recast's ch: height resolution, yards
  double agent_height_yards = 2.0;   // room a walker needs above its feet, yards
  double agent_radius_yards = 0.0;   // walkable area eroded by this much, yards (0: none)
  double step_yards = 0.6;           // largest rise walked as a step (walkableClimb), yards
  double walk_slope_degrees = 50.0;  // steepest walkable slope, degrees
  std::int32_t tile_cells = 64;      // tile side, cells (tiles of tile_cells x cell_yards yards)
  double max_edge_yards = 6.0;       // longest polygon border edge, yards (0: unlimited)
  double max_simplification_cells = 1.3;  // contour may stray this far from the cells, cells
  std::int32_t min_region_cells = 8;      // regions smaller than this side squared are dropped
  std::int32_t merge_region_cells = 20;   // regions under this side squared merge into others
  std::int32_t max_verts_per_poly = 6;    // 3 .. 6 (Detour's DT_VERTS_PER_POLYGON)
  double detail_sample_cells = 6.0;       // detail mesh sample spacing, cells (< 0.9: none)
  double detail_max_error_steps = 1.0;    // detail mesh's largest height error, height steps
  // Off-mesh connections to build in (each in the tile holding its start): the lift rides of
  // the grid beside the navmesh (LiftConnections, world_navmesh.h).
  std::vector<NavMeshConnection> connections;
};

// The builder sets kNavAreaGround / kNavFlagWalk on ground polygons and kNavAreaWater /
// kNavFlagSwim on water (nav_areas.h), and kNavAreaGround / kNavFlagWalk on connections.

struct NavMeshBuildStats {
  std::uint32_t tiles_built = 0;  // tiles with polygons (empty tiles are not stored)
  std::uint32_t tiles_x = 0;
  std::uint32_t tiles_y = 0;
  double seconds = 0.0;  // wall time
};

// Builds the navmesh of `mesh`. Errors: INVALID_ARGUMENT (bad options naming the field, an empty
// or malformed mesh, more tiles than Detour's references hold), INTERNAL (Recast or Detour
// failed, naming the step and tile).
absl::StatusOr<NavMesh> BuildNavMesh(const TriangleMesh& mesh, const NavMeshBuildOptions& options,
                                     NavMeshBuildStats* stats = nullptr);

}  // namespace walk::nav
