// Triangle geometry to voxelize: level meshes read from OBJ files, and the demo world's
// generated terrain, buildings and water. y is up (Recast's convention); units are yards.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/grid/surface.h"

namespace walk::nav {

// What a triangle's surfaces are: SurfaceFlag bits (water, building, indoor, forest, ...; steep
// and climb are set by slope when voxelizing), AreaMark bits, and the zone id.
struct TriangleTag {
  std::uint8_t flags = kFlagTerrain;
  std::uint8_t marks = 0;
  std::uint16_t zone = 0;

  bool operator==(const TriangleTag& other) const = default;
};

struct TriangleMesh {
  std::vector<float> vertices;  // x, y, z per vertex
  std::vector<std::uint32_t>
      indices;                    // 3 vertex indices per triangle, counter-clockwise from above
  std::vector<TriangleTag> tags;  // one per triangle

  std::uint32_t vertex_count() const { return static_cast<std::uint32_t>(vertices.size() / 3); }
  std::uint32_t triangle_count() const { return static_cast<std::uint32_t>(tags.size()); }

  std::uint32_t AddVertex(float x, float y, float z);
  void AddTriangle(std::uint32_t a, std::uint32_t b, std::uint32_t c, TriangleTag tag);
  // Adds a quad a-b-c-d (two triangles a-b-c, a-c-d).
  void AddQuad(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d, TriangleTag tag);
  // Bounds of the vertices: min and max per axis. Empty mesh: zeros.
  void Bounds(float min[3], float max[3]) const;
};

// Reads a Wavefront OBJ file: `v` and `f` lines (polygons fanned into triangles; negative and
// `v/vt/vn` indices accepted). Faces after a `g`, `o` or `usemtl` whose name contains "water"
// are tagged water. Errors: NOT_FOUND, INVALID_ARGUMENT naming the line.
absl::StatusOr<TriangleMesh> ReadObj(const std::string& path);

}  // namespace walk::nav
