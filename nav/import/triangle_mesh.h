// Triangle geometry to voxelize: level meshes read from OBJ files, and the demo world's
// generated terrain, buildings and water. y is up (Recast's convention); units are yards.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
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

// The most an OBJ file may hold (docs/formats.md, "Limits"): a larger file is refused before it
// is read, and a file that names more vertices or triangles, or a coordinate further out, is
// refused at the line that goes past the limit, so reading one never costs more than about
// 1 GiB. A level mesh is far inside all four.
inline constexpr std::uint64_t kMaxObjFileBytes = std::uint64_t{256} << 20;  // 256 MiB
inline constexpr std::uint32_t kMaxObjVertices = std::uint32_t{1} << 24;     // 16,777,216
inline constexpr std::uint32_t kMaxObjTriangles = std::uint32_t{1} << 25;    // 33,554,432
// |x|, |y| and |z| at most this many yards, the range a walk's places may have
// (nav/query/place_check.h): beyond is no level anyone walks.
inline constexpr double kMaxObjCoordinateYards = 1e8;

// Reads a Wavefront OBJ file: `v` and `f` lines (polygons fanned into triangles; negative and
// `v/vt/vn` indices accepted). Faces after a `g`, `o` or `usemtl` whose name contains "water"
// are tagged water. Errors: NOT_FOUND, INVALID_ARGUMENT naming the line (or the file, for one
// larger than kMaxObjFileBytes), DATA_LOSS (a read error).
absl::StatusOr<TriangleMesh> ReadObj(const std::string& path);

// Parses an OBJ file's text as ReadObj does; `path` names it in errors.
absl::StatusOr<TriangleMesh> ParseObj(std::string_view text, const std::string& path);

}  // namespace walk::nav
