#include "nav/demo/demo_world.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "nav/demo/plan.h"
#include "nav/demo/tile_mesh.h"
#include "nav/grid/grid_builder.h"

namespace walk::nav {

VoxelizeOptions DemoVoxelizeOptions(double column_yards) {
  VoxelizeOptions o;
  o.column_yards = column_yards;
  o.height_step_yards = 0.2;
  o.agent_height_yards = 2.0;
  o.agent_radius_yards = 0.0;
  o.step_yards = 0.6;
  o.jump_yards = 1.5;
  o.max_fall_yards = 10.0;
  o.walk_slope_degrees = 50.0;
  o.steep_slope_degrees = 60.0;
  o.climb_slope_degrees = 85.0;
  o.origin_x = 0.0;
  o.origin_z = 0.0;
  o.filter_ledges = false;
  return o;
}

absl::StatusOr<World> GenerateDemoWorld(const DemoOptions& options, VoxelizeStats* stats) {
  absl::StatusOr<std::unique_ptr<demo::Plan>> plan = demo::Plan::Make(options);
  if (!plan.ok()) return plan.status();
  const demo::Plan& p = **plan;
  VoxelizeOptions voxelize = options.voxelize;
  voxelize.column_yards = options.column_yards;
  voxelize.origin_x = 0.0;
  voxelize.origin_z = 0.0;
  absl::StatusOr<Continent> continent = VoxelizeTiles(
      options.tiles_x, options.tiles_y,
      [&p](std::uint32_t tx, std::uint32_t ty) { return demo::TileMesh(p, tx, ty); }, voxelize, 0,
      stats, [&p](ContinentBuilder& builder) { p.AddLifts(builder); });
  if (!continent.ok()) return continent.status();
  if (absl::Status stop = voxelize.stop.Check("generating the demo world"); !stop.ok()) return stop;
  World world;
  world.column_yards = options.column_yards;
  world.continents.push_back(*std::move(continent));
  world.zones = p.zones();
  AssignContentIds(world);
  return world;
}

absl::StatusOr<TriangleMesh> DemoTileMesh(const DemoOptions& options, std::uint32_t tx,
                                          std::uint32_t ty) {
  absl::StatusOr<std::unique_ptr<demo::Plan>> plan = demo::Plan::Make(options);
  if (!plan.ok()) return plan.status();
  if (tx >= options.tiles_x || ty >= options.tiles_y) {
    return absl::OutOfRangeError(absl::StrCat("tile ", tx, ",", ty, " is outside the ",
                                              options.tiles_x, " x ", options.tiles_y, " world"));
  }
  return demo::TileMesh(**plan, tx, ty);  // the plan is cheap: made afresh each call
}

absl::StatusOr<TriangleMesh> DemoWorldMesh(const DemoOptions& options) {
  absl::StatusOr<std::unique_ptr<demo::Plan>> plan = demo::Plan::Make(options);
  if (!plan.ok()) return plan.status();
  const double tile_yards = kTileColumns * options.column_yards;
  TriangleMesh world;
  for (std::uint32_t ty = 0; ty < options.tiles_y; ++ty) {
    for (std::uint32_t tx = 0; tx < options.tiles_x; ++tx) {
      const TriangleMesh tile = demo::TileMesh(**plan, tx, ty);
      const std::uint32_t base = world.vertex_count();
      world.vertices.insert(world.vertices.end(), tile.vertices.begin(), tile.vertices.end());
      for (std::uint32_t t = 0; t < tile.triangle_count(); ++t) {
        const std::uint32_t* v = &tile.indices[3 * t];
        double cx = 0.0, cz = 0.0;
        for (int k = 0; k < 3; ++k) {
          cx += tile.vertices[3 * v[k]] / 3.0;
          cz += tile.vertices[3 * v[k] + 2] / 3.0;
        }
        if (std::floor(cx / tile_yards) != tx || std::floor(cz / tile_yards) != ty) continue;
        world.AddTriangle(base + v[0], base + v[1], base + v[2], tile.tags[t]);
      }
    }
  }
  return world;
}

absl::StatusOr<DemoLandmarks> FindLandmarks(const DemoOptions& options) {
  absl::StatusOr<std::unique_ptr<demo::Plan>> plan = demo::Plan::Make(options);
  if (!plan.ok()) return plan.status();
  return (*plan)->landmarks();
}

SurfaceId LandmarkSurface(const World& world, const DemoPoint& point) {
  const Continent* c = world.FindContinent(0);
  if (c == nullptr || !c->OnMap(point.x, point.y)) return kInvalidId;
  SurfaceId first = 0, end = 0;
  c->ColumnSurfaces(point.x, point.y, &first, &end);
  SurfaceId best = kInvalidId;
  for (SurfaceId s = first; s < end; ++s) {
    if (best == kInvalidId ||
        std::abs(c->height_yards[s] - point.z) < std::abs(c->height_yards[best] - point.z)) {
      best = s;
    }
  }
  return best;
}

}  // namespace walk::nav
