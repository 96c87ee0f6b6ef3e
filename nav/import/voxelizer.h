// Turns triangle geometry into the grid model with Recast's rasterizer: rasterize the triangles
// into a heightfield, filter the spans (low-hanging obstacles, low headroom; ledges on request),
// build the compact heightfield, optionally erode by the agent's radius; then every walkable span
// of a cell becomes a surface of that column, and links are derived from the geometry (LinkRules).
//
// Axes: mesh x -> column x, mesh z -> column y, mesh y -> height. The origin (column 0, 0) is at
// `origin_x`, `origin_z`.
#pragma once

#include <cstdint>
#include <functional>

#include "absl/status/statusor.h"
#include "nav/grid/build_stop.h"
#include "nav/grid/grid.h"
#include "nav/grid/grid_builder.h"
#include "nav/import/triangle_mesh.h"

namespace walk::nav {

struct VoxelizeOptions {
  double column_yards = 0.5;          // column width (Recast's cs), yards, 0.001 to 1000
  double height_step_yards = 0.2;     // height resolution (Recast's ch), yards
  double agent_height_yards = 2.0;    // room a walker needs above its feet, yards
  double agent_radius_yards = 0.0;    // erode walkable area by this much, yards (0: no erosion)
  double step_yards = 0.6;            // largest rise walked as a step (Recast's walkableClimb)
  double jump_yards = 1.5;            // largest rise taken as a jump
  double max_fall_yards = 10.0;       // largest drop taken as a one-way fall
  double walk_slope_degrees = 50.0;   // steeper than this: steep
  double steep_slope_degrees = 60.0;  // steeper than this: climb
  double climb_slope_degrees = 85.0;  // steeper than this: not standable at all
  double origin_x = 0.0;              // the mesh x of column 0, yards
  double origin_z = 0.0;              // the mesh z of column 0 (row 0), yards
  // Recast's ledge filter (rcFilterLedgeSpans with walkableClimb = step_yards): drops every
  // surface beside a drop higher than a step, beside a column with nothing in it (the rim of a
  // floor over the void, a maze floor's edge) and on slopes rising more than a step per column.
  // Off by default: the grid keeps those surfaces and links such drops as one-way falls and such
  // slopes as steep or climb links. On for parity with a Recast navmesh built from the same mesh.
  bool filter_ledges = false;
  // VoxelizeMesh rasterizes the whole extent in one heightfield when it is at most this many
  // columns along both sides, tile by tile (256 x 256 columns) beyond.
  std::uint32_t whole_mesh_max_columns = 2048;
  // When set, called after each heightfield (a tile, or the whole mesh) with how many are done
  // and how many there are; from the calling thread. For progress counters.
  std::function<void(std::uint32_t done, std::uint32_t total)> progress;
  // Asked between the steps of each heightfield and while the continent is built: once it says
  // stop, the voxelizing returns CANCELLED (walkd stopping while it generates its default world).
  BuildStop stop;
};

struct VoxelizeStats {
  std::uint64_t triangles = 0;
  std::uint64_t spans = 0;         // walkable spans kept (= surfaces placed)
  double seconds = 0.0;            // wall time
  std::uint64_t heightfields = 0;  // heightfields rasterized: 1 for a whole mesh, else tiles
  // Surfaces dropped because their column held more than 31 (kMaxFloors): the lowest ones go,
  // the 31 highest stay.
  std::uint64_t dropped_surfaces = 0;
};

// The largest extent VoxelizeMesh builds, columns along each side: a continent's most (256 tiles
// of 256 columns, what its columns' 16-bit coordinates and the grid file hold).
inline constexpr std::uint32_t kMaxVoxelizeColumns = 256 * kTileColumns;  // 65,536

// Voxelizes a whole mesh into continent `id`, extent `width_columns` x `height_columns`.
// `builder_hook`, when set, runs on the builder before links are derived (to add lifts).
// A column with more than 31 walkable spans keeps its 31 highest (stats->dropped_surfaces counts
// the others). A whole mesh too much for one heightfield (more than 62 distinct (tag, slope
// class) pairs, or more spans than Recast indexes) is redone tile by tile. Errors:
// INVALID_ARGUMENT (bad options naming the field; an empty or malformed mesh; a zero extent, or
// one wider or longer than kMaxVoxelizeColumns, saying both and the mesh's yards; more
// than 62 distinct (tag, slope class) pairs in one tile, or more height than Recast's 8191 height
// steps hold, naming the tile), INTERNAL (Recast failed), CANCELLED (`options.stop`).
absl::StatusOr<Continent> VoxelizeMesh(
    const TriangleMesh& mesh, const VoxelizeOptions& options, ContinentId id,
    std::uint32_t width_columns, std::uint32_t height_columns, VoxelizeStats* stats = nullptr,
    const std::function<void(ContinentBuilder&)>& builder_hook = {});

// Puts the options' origin at the mesh's lowest x and z corner, rounded down to a whole column
// of the mesh's own frame (so frame column k covers [k, k + 1) x column_yards), and returns that
// column: the world's origin_column_x and origin_column_y (nav/grid/world_frame.h).
void PlaceOriginAtMeshCorner(const TriangleMesh& mesh, VoxelizeOptions* options,
                             std::int64_t* origin_column_x, std::int64_t* origin_column_y);

// The extent in columns that covers `mesh` from the options' origin (4,294,967,295 at most, for
// VoxelizeMesh to refuse naming it).
void MeshExtent(const TriangleMesh& mesh, const VoxelizeOptions& options,
                std::uint32_t* width_columns, std::uint32_t* height_columns);

// Voxelizes tile by tile, for worlds too large to hold as one mesh: `tile_mesh(tx, ty)` returns
// the triangles covering tile (tx, ty) (256 x 256 columns, plus whatever margin it likes: only
// columns inside the tile are kept). The extent is tiles_x * 256 x tiles_y * 256 columns; an
// empty tile mesh leaves the tile empty. Same errors as VoxelizeMesh.
absl::StatusOr<Continent> VoxelizeTiles(
    std::uint32_t tiles_x, std::uint32_t tiles_y,
    const std::function<TriangleMesh(std::uint32_t tx, std::uint32_t ty)>& tile_mesh,
    const VoxelizeOptions& options, ContinentId id, VoxelizeStats* stats = nullptr,
    const std::function<void(ContinentBuilder&)>& builder_hook = {});

}  // namespace walk::nav
