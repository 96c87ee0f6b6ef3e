// The whole walk pipeline against a plain Dijkstra on real level meshes, voxelized with Recast:
// a sample of meshes and profiles here; bench/oracle_all.py covers every mesh.
#include <filesystem>

#include "gtest/gtest.h"
#include "nav/check/oracle_check.h"
#include "nav/demo/demo_world.h"
#include "nav/import/voxelizer.h"
#include "tests/nav/ascii_grid.h"
#include "tests/nav/mesh_world.h"

namespace walk::nav {
namespace {

class MeshOracleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(MeshOracleTest, SecondsEqualAPlainDijkstraOnRandomPairs) {
  const std::string path = testing::SharedDataDir() + "/meshes/" + GetParam();
  if (!std::filesystem::exists(path)) {
    GTEST_SKIP() << path << " is absent (set WALKD_SHARED_DATA to the shared data folder)";
  }
  auto loaded = testing::MeshWorld(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const World& world = *loaded;
  for (const auto& [profile, band] :
       {std::pair{"shortest", 0u}, std::pair{"neutral", 0u}, std::pair{"faction-a-heavy", 20u}}) {
    const Metric metric(world, *FindProfile(profile), band);
    const OracleReport report = OracleCheck(world, metric, 60, 7);
    EXPECT_EQ(report.disagree, 0u)
        << profile << ": " << (report.problems.empty() ? "" : report.problems[0]);
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
  for (const auto& [profile, band] :
       {std::pair{"shortest", 0u}, std::pair{"neutral", 0u}, std::pair{"faction-a", 10u},
        std::pair{"faction-b-heavy", 30u}, std::pair{"faction-b", 50u}}) {
    const Metric metric(*world, *FindProfile(profile), band);
    const OracleReport report = OracleCheck(*world, metric, 25, 11);
    EXPECT_EQ(report.disagree, 0u)
        << profile << ": " << (report.problems.empty() ? "" : report.problems[0]);
    EXPECT_GT(report.walks, 15u) << profile;
  }
}

INSTANTIATE_TEST_SUITE_P(Sample, MeshOracleTest,
                         ::testing::Values("dungeon.obj", "Neogen3.obj", "undulating.obj",
                                           "cs_assault.obj", "Library.obj"),
                         testing::FileParamName());

}  // namespace
}  // namespace walk::nav
