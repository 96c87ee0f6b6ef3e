// The whole walk pipeline against a plain Dijkstra on real level meshes, voxelized with Recast:
// a sample of meshes and profiles here; bench/oracle_all.py covers every mesh.
#include <filesystem>

#include "gtest/gtest.h"
#include "nav/demo_world.h"
#include "nav/oracle_check.h"
#include "nav/voxelizer.h"
#include "tests/nav/ascii_grid.h"

namespace walk::nav {
namespace {

class MeshOracleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(MeshOracleTest, SecondsEqualAPlainDijkstraOnRandomPairs) {
  const std::string path = testing::SharedDataDir() + "/meshes/" + GetParam();
  if (!std::filesystem::exists(path)) {
    GTEST_SKIP() << path << " is absent (set WALKD_SHARED_DATA to the shared data folder)";
  }
  auto mesh = ReadObj(path);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  VoxelizeOptions options;
  float min[3], max[3];
  mesh->Bounds(min, max);
  options.origin_x = min[0];
  options.origin_z = min[2];
  std::uint32_t width, height;
  MeshExtent(*mesh, options, &width, &height);
  auto continent = VoxelizeMesh(*mesh, options, 0, width, height);
  ASSERT_TRUE(continent.ok()) << continent.status();
  World world;
  world.column_yards = options.column_yards;
  world.continents.push_back(*std::move(continent));
  world.content_id = ComputeContentId(world);
  for (const auto& [profile, band] : {std::pair{"shortest", 0u}, std::pair{"neutral", 0u},
                                      std::pair{"faction-a-heavy", 20u}}) {
    const Metric metric(world, *FindProfile(profile), band);
    const OracleReport report = OracleCheck(world, metric, 60, 7);
    EXPECT_EQ(report.disagree, 0u) << profile << ": " << (report.problems.empty() ? "" : report.problems[0]);
    EXPECT_GT(report.walks, 20u) << profile;  // the comparison must have compared walks
    EXPECT_LE(report.worst_relative_difference, 1e-6);
  }
}

// The demo world: towns, roads, water, steep and climb ground, forest, lifts, zones and danger.
TEST(DemoOracleTest, SecondsEqualAPlainDijkstraOnRandomPairsInEveryProfileAndBand) {
  DemoOptions options;
  options.seed = 3;
  auto world = GenerateDemoWorld(options);
  ASSERT_TRUE(world.ok()) << world.status();
  for (const auto& [profile, band] : {std::pair{"shortest", 0u}, std::pair{"neutral", 0u},
                                      std::pair{"faction-a", 10u}, std::pair{"faction-b-heavy", 30u},
                                      std::pair{"faction-b", 50u}}) {
    const Metric metric(*world, *FindProfile(profile), band);
    const OracleReport report = OracleCheck(*world, metric, 25, 11);
    EXPECT_EQ(report.disagree, 0u) << profile << ": " << (report.problems.empty() ? "" : report.problems[0]);
    EXPECT_GT(report.walks, 15u) << profile;
  }
}

INSTANTIATE_TEST_SUITE_P(Sample, MeshOracleTest,
                         ::testing::Values("dungeon.obj", "Neogen3.obj", "undulating.obj",
                                           "cs_assault.obj", "Library.obj"),
                         testing::FileParamName());

}  // namespace
}  // namespace walk::nav
