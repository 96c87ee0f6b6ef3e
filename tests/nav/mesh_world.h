// A shared-data OBJ mesh voxelized into a one-continent world, as `walkgrid build-mesh` does
// with default options (tests that walk on real level geometry).
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "nav/grid/grid.h"
#include "nav/import/triangle_mesh.h"
#include "nav/import/voxelizer.h"

namespace walk::nav::testing {

inline absl::StatusOr<World> MeshWorld(const std::string& path) {
  absl::StatusOr<TriangleMesh> mesh = ReadObj(path);
  if (!mesh.ok()) return mesh.status();
  VoxelizeOptions options;
  std::int64_t origin_column_x = 0, origin_column_y = 0;
  PlaceOriginAtMeshCorner(*mesh, &options, &origin_column_x, &origin_column_y);
  std::uint32_t width, height;
  MeshExtent(*mesh, options, &width, &height);
  absl::StatusOr<Continent> continent = VoxelizeMesh(*mesh, options, 0, width, height);
  if (!continent.ok()) return continent.status();
  World world;
  world.column_yards = options.column_yards;
  continent->origin_column_x = origin_column_x;
  continent->origin_column_y = origin_column_y;
  world.continents.push_back(*std::move(continent));
  AssignContentIds(world);
  return world;
}

}  // namespace walk::nav::testing
