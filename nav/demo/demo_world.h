// The demo world: a generated landscape that exercises everything the grid models, built through
// the same path as level meshes (triangles per tile -> VoxelizeTiles (Recast) -> links).
//
// From a seed and a size in tiles it makes, deterministically (same seed and size, same bytes on
// any machine: splitmix64 and value noise, no std:: distributions, no transcendental functions in
// the geometry):
//   - terrain: rolling hills of value noise, crags whose sides are steeper than 50 degrees, and
//     mesas ringed by vertical cliffs (6 to 8.5 yards: walkers go round, or fall down);
//   - rivers, west to east, and lakes on them: water-tagged triangles at the water level;
//   - towns of two factions (hub marks A and B) joined by winding roads (road marks), with
//     bridges where a road crosses water: a deck 3 yards above the water, reached by ramps;
//   - buildings of two or three floors: slabs, walls, a door, straight stairs of 0.4-yard steps,
//     a roof; indoor floors are kFlagBuilding | kFlagIndoor; faction B's main building has a
//     lift from its ground floor to its top floor;
//   - a lift on every mesa, from the cliff's foot to a balcony at the top;
//   - forests (kFlagForest ground, with trees as thin pillars);
//   - zones tiling the map, ids from 1, named, with level ranges spread over 1..60.
// See docs/demo_world.md for the plan and the figures.
//
// Geometry is made one tile at a time from a world plan of small vectors and polylines
// (nav/demo/plan.h, internal), so a 32 x 32-tile world (8192 x 8192 columns) never holds more
// than one tile's triangles.
#pragma once

#include <cstdint>
#include <functional>

#include "absl/status/statusor.h"
#include "nav/grid/grid.h"
#include "nav/grid/ids.h"
#include "nav/import/triangle_mesh.h"
#include "nav/import/voxelizer.h"

namespace walk::nav {

inline constexpr std::uint64_t kDemoWorldDefaultSeed = 20261130;

// The voxelizer settings the demo world is built with: columns `column_yards` wide, heights in
// 0.2-yard steps, a walker 2 yards tall without radius, steps of 0.6, jumps of 1.5, falls of up
// to 10 yards, slopes plain to 50 degrees, steep to 60, climb to 85; origin 0, 0; no ledge filter.
VoxelizeOptions DemoVoxelizeOptions(double column_yards);

struct DemoOptions {
  std::uint64_t seed = kDemoWorldDefaultSeed;
  std::uint32_t tiles_x = 2, tiles_y = 2;  // 1 .. 256 each
  double column_yards = 533.3333 / 256.0;
  // Recast's settings. column_yards and the origin are always taken from above (the plan is laid
  // out on that column grid); the rest may be changed. `voxelize.progress`, when set, is called
  // after each tile; `voxelize.stop` is asked before each tile and while the continent is built.
  VoxelizeOptions voxelize = DemoVoxelizeOptions(533.3333 / 256.0);
};

// Generates the demo world: one continent (id 0) of tiles_x x tiles_y tiles, its zones, and its
// content id. Errors: INVALID_ARGUMENT naming the field (tiles_x, tiles_y, column_yards, or a
// VoxelizeOptions field), and whatever the voxelizer reports (CANCELLED when `voxelize.stop` says
// stop).
absl::StatusOr<World> GenerateDemoWorld(const DemoOptions& options, VoxelizeStats* stats = nullptr);

// The triangles of tile (tx, ty) as GenerateDemoWorld voxelizes them (the tile plus a margin of
// 4 columns). For tests and drawing. Same errors as GenerateDemoWorld, and OUT_OF_RANGE for a
// tile outside the world.
absl::StatusOr<TriangleMesh> DemoTileMesh(const DemoOptions& options, std::uint32_t tx,
                                          std::uint32_t ty);

// A point of the plan: a column and the height one stands at there (the plan's height; the
// voxelized surface lies within a few tenths of a yard of it).
struct DemoPoint {
  std::uint32_t x = 0;  // column, continent-wide
  std::uint32_t y = 0;
  float z = 0.0f;  // yards

  // The column's centre, yards.
  double x_yards(double column_yards) const { return (x + 0.5) * column_yards; }
  double y_yards(double column_yards) const { return (y + 0.5) * column_yards; }
};

// Places worth walking between, from the generator's plan (the same seed and size give the same
// landmarks). Pairs marked "same column" share x, y and differ in height.
struct DemoLandmarks {
  DemoPoint town_a;           // the centre of faction A's first town (hub A ground)
  DemoPoint town_b;           // the centre of faction B's first town (hub B ground)
  DemoPoint bridge_start;     // on the road just before the first bridge's ramp ...
  DemoPoint bridge_end;       // ... and just after its other ramp: the way between is the deck
  DemoPoint bridge_deck;      // on that bridge's deck, over the water ...
  DemoPoint bridge_water;     // ... and the water under it (same column)
  DemoPoint building_ground;  // the ground floor of town A's main building (three floors) ...
  DemoPoint building_upper;   // ... and its top floor (same column), joined by stairs only
  DemoPoint lift_bottom;      // the first mesa's lift: at the cliff's foot ...
  DemoPoint lift_top;         // ... and on the balcony at the top (same column)
  DemoPoint cliff_top;        // on that mesa, a little inside the lift's edge
  DemoPoint cliff_foot;       // outside the mesa on the side away from the lift
  DemoPoint low_zone;         // open ground in the zone of the lowest levels ...
  DemoPoint high_zone;        // ... and in the zone of the highest
  std::uint16_t low_zone_id = 0;
  std::uint16_t high_zone_id = 0;
};

// The triangles of the whole world, each once (a tile's own, without its margin: every
// triangle whose centre lies on the tile's columns), for building a navmesh of the same ground
// as the grid. Same errors as GenerateDemoWorld's argument checks.
absl::StatusOr<TriangleMesh> DemoWorldMesh(const DemoOptions& options);

// The landmarks of the world `options` describes, from its plan alone (no voxelizing).
// Same errors as GenerateDemoWorld's argument checks.
absl::StatusOr<DemoLandmarks> FindLandmarks(const DemoOptions& options);

// The surface of `world`'s continent 0 in `point`'s column nearest its height, or kInvalidId
// when the column holds none (or lies off the map).
SurfaceId LandmarkSurface(const World& world, const DemoPoint& point);

}  // namespace walk::nav
