// Navmesh files (nav/navmesh/): every input is read as a RecastDemo all-tiles file
// (ParseMsetFile), as an mmaps pair (its first 28 bytes a .mmap, ParseMmapFile, the rest an
// .mmtile, AddMmapTile), and as a world folder's navmesh.json note (ParseNavMeshNote). A navmesh
// accepted is handed to Detour as walkd would: its canonical tiles hashed, then nearest
// polygons, a path and its straight path found between tile centres, and a ray cast, so a tile
// the checks (tile_data.h) let through that Detour would read out of bounds is caught here.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "DetourNavMesh.h"
#include "DetourNavMeshQuery.h"
#include "nav/navmesh/mmaps_folder.h"
#include "nav/navmesh/mset_file.h"
#include "nav/navmesh/tile_data.h"
#include "nav/navmesh/world_navmesh.h"
#include "tests/fuzz/fuzz_support.h"

namespace walk::fuzz {
namespace {

// Walks `navmesh` with Detour between the centres of its first and last tiles.
void Walk(const nav::NavMesh& navmesh) {
  std::vector<float> centres;
  navmesh.ForEachTile([&](const nav::NavMeshTileView& view) {
    // What is written back (WriteMsetFile, WriteMmapsFolder) must read back.
    const absl::Status canonical = nav::CheckTileData(view.canonical_data, "canonical tile");
    if (!canonical.ok()) std::fprintf(stderr, "%s\n", std::string(canonical.message()).c_str());
    WALK_FUZZ_CHECK(canonical.ok());
    dtMeshHeader header;
    std::memcpy(&header, view.canonical_data.data(), sizeof header);
    for (int k = 0; k < 3; ++k) centres.push_back((header.bmin[k] + header.bmax[k]) / 2.0f);
  });
  (void)navmesh.content_hash();
  if (centres.empty()) return;
  dtNavMeshQuery query;
  if (dtStatusFailed(query.init(navmesh.detour(), 512))) return;
  const dtQueryFilter filter;
  const float extents[3] = {64.0f, 64.0f, 64.0f};
  const float* a = &centres.front();
  const float* b = &centres[centres.size() - 3];
  dtPolyRef from = 0, to = 0;
  float from_point[3], to_point[3];
  query.findNearestPoly(a, extents, &filter, &from, from_point);
  query.findNearestPoly(b, extents, &filter, &to, to_point);
  if (from == 0 || to == 0) return;
  dtPolyRef path[256];
  int path_count = 0;
  query.findPath(from, to, from_point, to_point, &filter, path, &path_count, 256);
  if (path_count > 0) {
    float straight[3 * 64];
    unsigned char flags[64];
    dtPolyRef refs[64];
    int straight_count = 0;
    query.findStraightPath(from_point, to_point, path, path_count, straight, flags, refs,
                           &straight_count, 64, DT_STRAIGHTPATH_ALL_CROSSINGS);
  }
  float t = 0.0f, normal[3];
  dtPolyRef hits[32];
  int hit_count = 0;
  query.raycast(from, from_point, to_point, &filter, &t, normal, hits, &hit_count, 32);
}

}  // namespace
}  // namespace walk::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace walk;
  const std::string_view bytes = fuzz::AsText(data, size);
  absl::StatusOr<nav::NavMesh> mset = nav::ParseMsetFile(bytes, "fuzz/navmesh.bin");
  WALK_FUZZ_CHECK(fuzz::OkOr(mset.status(), absl::StatusCode::kInvalidArgument));
  if (mset.ok()) fuzz::Walk(*mset);

  constexpr std::size_t kMmapBytes = 28;  // dtNavMeshParams
  if (size >= kMmapBytes) {
    absl::StatusOr<nav::NavMesh> mmaps =
        nav::ParseMmapFile(bytes.substr(0, kMmapBytes), "fuzz/000.mmap");
    WALK_FUZZ_CHECK(fuzz::OkOr(mmaps.status(), absl::StatusCode::kInvalidArgument));
    if (mmaps.ok()) {
      const absl::Status added =
          nav::AddMmapTile(bytes.substr(kMmapBytes), "fuzz/0000000.mmtile", &*mmaps);
      WALK_FUZZ_CHECK(fuzz::OkOr(added, absl::StatusCode::kInvalidArgument));
      if (added.ok()) fuzz::Walk(*mmaps);
    }
  }

  absl::StatusOr<nav::NavMeshNote> note = nav::ParseNavMeshNote(bytes, "fuzz/navmesh.json");
  WALK_FUZZ_CHECK(fuzz::OkOr(note.status(), absl::StatusCode::kInvalidArgument));
  return 0;
}
