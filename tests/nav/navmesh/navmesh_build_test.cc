// A navmesh built from a shared level mesh: written in both formats and read back with the same
// tiles and polygons, and Detour finds a polygon under the places the grid built from the same
// mesh says one can stand on (Detour x = our x, Detour z = our y, Detour y = height).
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "DetourNavMesh.h"
#include "DetourNavMeshQuery.h"
#include "gtest/gtest.h"
#include "nav/navmesh/mmaps_folder.h"
#include "nav/navmesh/mset_file.h"
#include "nav/navmesh/navmesh_builder.h"
#include "tests/nav/ascii_grid.h"
#include "tests/nav/mesh_world.h"

namespace walk::nav {
namespace {

namespace fs = std::filesystem;

const char kMesh[] = "meshes/dungeon.obj";

// A surface the navmesh must cover too: plain ground, room for the agent, walk links all round
// (so no ledge, no rim that Recast's filters drop).
bool Interior(const Continent& c, SurfaceId s) {
  if (c.flags[s] & (kFlagSteep | kFlagClimb | kFlagWater | kFlagBlocked)) return false;
  if (c.headroom_yards[s] < 2.0f) return false;
  for (int d = 0; d < kDirectionCount; ++d) {
    const Link link = c.links[s][d];
    if (!HasLink(link) || LinkKindOf(link) != LinkKind::kWalk) return false;
  }
  return true;
}

TEST(NavMeshBuildTest, SharedMeshInBothFormatsAndOnTheGridsGround) {
  const std::string path = testing::SharedDataDir() + "/" + kMesh;
  if (!fs::exists(path)) GTEST_SKIP() << path << " is absent (set WALKD_SHARED_DATA)";
  absl::StatusOr<TriangleMesh> mesh = ReadObj(path);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  NavMeshBuildStats stats;
  absl::StatusOr<NavMesh> built = BuildNavMesh(*mesh, NavMeshBuildOptions{}, &stats);
  ASSERT_TRUE(built.ok()) << built.status();
  ASSERT_GT(built->tile_count(), 1u) << "a tiled build";
  EXPECT_EQ(built->tile_count(), stats.tiles_built);

  const fs::path dir =
      fs::temp_directory_path() / ("navmesh_build_test." + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  ASSERT_TRUE(WriteMsetFile(*built, (dir / "navmesh.bin").string()).ok());
  ASSERT_TRUE(WriteMmapsFolder(*built, (dir / "mmaps").string()).ok());
  absl::StatusOr<NavMesh> mset = ReadMsetFile((dir / "navmesh.bin").string());
  absl::StatusOr<NavMesh> mmaps = ReadMmapsFolder((dir / "mmaps").string());
  fs::remove_all(dir);
  ASSERT_TRUE(mset.ok()) << mset.status();
  ASSERT_TRUE(mmaps.ok()) << mmaps.status();
  for (const NavMesh* read : {&*mset, &*mmaps}) {
    EXPECT_EQ(read->tile_count(), built->tile_count());
    EXPECT_EQ(read->polygon_count(), built->polygon_count());
    EXPECT_EQ(read->content_hash(), built->content_hash());
  }

  absl::StatusOr<World> world = testing::MeshWorld(path);
  ASSERT_TRUE(world.ok()) << world.status();
  const Continent& c = world->continents[0];
  const WorldFrame frame = world->FrameOf(world->continents[0]);
  dtNavMeshQuery query;
  ASSERT_TRUE(dtStatusSucceed(query.init(mmaps->detour(), 2048)));
  const dtQueryFilter filter;
  const float extents[3] = {0.5f, 1.0f, 0.5f};  // yards: half a column across, a yard up/down
  int asked = 0, found = 0;
  for (std::uint32_t y = 0; y < c.height_columns; y += 7) {
    for (std::uint32_t x = 0; x < c.width_columns; x += 7) {
      SurfaceId first, end;
      c.ColumnSurfaces(x, y, &first, &end);
      for (SurfaceId s = first; s < end; ++s) {
        if (!Interior(c, s)) continue;
        const float place[3] = {float(frame.CentreX(x)), c.height_yards[s],
                                float(frame.CentreY(y))};
        dtPolyRef ref = 0;
        float nearest[3];
        ++asked;
        if (dtStatusSucceed(query.findNearestPoly(place, extents, &filter, &ref, nearest)) &&
            ref != 0) {
          ++found;
          EXPECT_LT(std::hypot(nearest[0] - place[0], nearest[2] - place[2]), 0.75f)
              << "at " << place[0] << "," << place[2];
        }
      }
    }
  }
  ASSERT_GT(asked, 50) << "too few interior surfaces sampled";
  // Recast drops regions under min_region_cells squared that the grid keeps: nearly all, not all.
  EXPECT_GE(found, asked * 9 / 10) << found << " of " << asked << " places on the navmesh";
}

}  // namespace
}  // namespace walk::nav
