// OBJ meshes: ParseObj (nav/import/triangle_mesh.h), then what walkgrid build-mesh does with a
// mesh it read: the origin, the extent, and VoxelizeMesh (nav/import/voxelizer.h). Meshes up to
// 96 x 96 columns are voxelized, whole and tile by tile; larger ones only when their extent is
// beyond kMaxVoxelizeColumns, where VoxelizeMesh must refuse them before allocating anything.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "nav/import/triangle_mesh.h"
#include "nav/import/voxelizer.h"
#include "tests/fuzz/fuzz_support.h"

namespace walk::fuzz {
namespace {

// What ParseObj promises of a mesh it accepts.
void CheckMesh(const nav::TriangleMesh& mesh) {
  WALK_FUZZ_CHECK(mesh.vertices.size() % 3 == 0);
  WALK_FUZZ_CHECK(mesh.indices.size() == 3 * mesh.tags.size());
  WALK_FUZZ_CHECK(mesh.vertex_count() <= nav::kMaxObjVertices);
  WALK_FUZZ_CHECK(mesh.triangle_count() <= nav::kMaxObjTriangles);
  for (std::uint32_t index : mesh.indices) WALK_FUZZ_CHECK(index < mesh.vertex_count());
  for (float v : mesh.vertices) {
    WALK_FUZZ_CHECK(std::isfinite(v) && std::abs(v) <= nav::kMaxObjCoordinateYards);
  }
}

}  // namespace
}  // namespace walk::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace walk;
  absl::StatusOr<nav::TriangleMesh> mesh = nav::ParseObj(fuzz::AsText(data, size), "fuzz.obj");
  if (!mesh.ok()) {
    WALK_FUZZ_CHECK(mesh.status().code() == absl::StatusCode::kInvalidArgument);
    return 0;
  }
  fuzz::CheckMesh(*mesh);
  nav::VoxelizeOptions options;
  // Columns of 0.5, 0.25 or 1 yard, and whole or tile by tile, as the size says.
  options.column_yards = size % 3 == 0 ? 0.5 : size % 3 == 1 ? 0.25 : 1.0;
  options.whole_mesh_max_columns = size % 2 == 0 ? 2048 : 16;
  std::int64_t origin_x = 0, origin_y = 0;
  nav::PlaceOriginAtMeshCorner(*mesh, &options, &origin_x, &origin_y);
  std::uint32_t width = 0, height = 0;
  nav::MeshExtent(*mesh, options, &width, &height);
  const bool small = width <= 96 && height <= 96;
  const bool absurd = width > nav::kMaxVoxelizeColumns || height > nav::kMaxVoxelizeColumns;
  if (!small && !absurd) return 0;  // a sound extent too large to voxelize quickly
  nav::VoxelizeStats stats;
  absl::StatusOr<nav::Continent> continent =
      nav::VoxelizeMesh(*mesh, options, /*id=*/0, width, height, &stats);
  WALK_FUZZ_CHECK(fuzz::OkOr(continent.status(), absl::StatusCode::kInvalidArgument));
  if (absurd) WALK_FUZZ_CHECK(!continent.ok());
  if (continent.ok()) {
    WALK_FUZZ_CHECK(continent->width_columns == width && continent->height_columns == height);
    WALK_FUZZ_CHECK(continent->surface_count() == stats.spans);
  }
  return 0;
}
