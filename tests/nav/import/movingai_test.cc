#include "nav/import/movingai.h"

#include <filesystem>
#include <fstream>

#include "gtest/gtest.h"
#include "nav/cost/metric.h"
#include "nav/search/fine_grid_astar.h"
#include "tests/nav/ascii_grid.h"

namespace walk::nav {
namespace {

std::string WriteTemp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / (name + std::to_string(::getpid()));
  std::ofstream(path) << text;
  return path.string();
}

TEST(MovingAiTest, ParsesHeaderInEitherOrderAndTerrainClasses) {
  auto map = ParseMovingAiMap("type octile\nwidth 4\nheight 2\nmap\n.GST\nW@O.\n");
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_EQ(map->width, 4u);
  EXPECT_EQ(map->height, 2u);
  auto world = WorldFromMovingAi(*map);
  ASSERT_TRUE(world.ok());
  const Continent& c = world->continents[0];
  EXPECT_EQ(c.surface_count(), 5u);                    // . G S W .
  EXPECT_EQ(testing::SurfaceAt(c, 3, 0), kInvalidId);  // T: no surface
  EXPECT_NE(c.flags[testing::SurfaceAt(c, 0, 1)] & kFlagWater, 0);
}

TEST(MovingAiTest, RejectsMalformedMapsNamingTheLine) {
  auto short_row = ParseMovingAiMap("type octile\nheight 2\nwidth 3\nmap\n...\n..\n");
  EXPECT_EQ(short_row.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(short_row.status().message().find("line 6"), std::string::npos);
  EXPECT_FALSE(ParseMovingAiMap("type octile\nheight 2\nmap\n..\n..\n").ok());
  EXPECT_FALSE(ParseMovingAiMap("type octile\nheight 1\nwidth 2\nmap\n").ok());
  EXPECT_FALSE(ParseMovingAiMap("bogus 3\n").ok());
}

TEST(MovingAiTest, ReadsBothScenarioVersions) {
  const std::string v1 =
      WriteTemp("v1.scen", "version 1\n0\tmaps/x.map\t4\t2\t0\t0\t3\t1\t3.41421356\n");
  const std::string v10 =
      WriteTemp("v10.scen", "version\t1.0\n7\tmaps/y.map\t512\t512\t1\t2\t3\t4\t2.83\n");
  auto a = ReadScenarios(v1);
  auto b = ReadScenarios(v10);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(a->version, "1");
  EXPECT_EQ(b->version, "1.0");
  ASSERT_EQ(a->scenarios.size(), 1u);
  EXPECT_EQ(a->scenarios[0].goal_x, 3u);
  EXPECT_DOUBLE_EQ(a->scenarios[0].optimal_length, 3.41421356);
  EXPECT_EQ(b->scenarios[0].bucket, 7u);
  EXPECT_DOUBLE_EQ(b->Tolerance(100.0), 0.006);
  EXPECT_DOUBLE_EQ(a->Tolerance(100.0), 0.1);
  const std::string bad = WriteTemp("bad.scen", "version 1\n0\tmaps/x.map\t4\n");
  auto c = ReadScenarios(bad);
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(c.status().message().find(":2:"), std::string::npos);
  for (const auto& p : {v1, v10, bad}) std::filesystem::remove(p);
}

// The oracle: a sample of real maps, one or two per set, every scenario must match.
// The prober's map: a 65535 x 65535 header, which once aborted allocating 4 GiB before reading
// a row. Refused from the header, naming the extent and the limit, before anything is allocated.
TEST(MovingAiTest, RefusesAMapLargerThanTheLimitFromItsHeader) {
  auto huge = ParseMovingAiMap("type octile\nheight 65535\nwidth 65535\nmap\n..........\n");
  ASSERT_EQ(huge.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(huge.status().message().find("65535 x 65535"), std::string::npos) << huge.status();
  EXPECT_NE(huge.status().message().find("16777216"), std::string::npos) << huge.status();
  // One cell past the limit, and a side past 65535, are refused; a long thin map is not.
  EXPECT_FALSE(ParseMovingAiMap("type octile\nheight 4097\nwidth 4096\nmap\n").ok());
  EXPECT_FALSE(ParseMovingAiMap("type octile\nheight 1\nwidth 65536\nmap\n").ok());
  const std::string row(65535, '.');
  auto thin = ParseMovingAiMap("type octile\nheight 2\nwidth 65535\nmap\n" + row + "\n" + row);
  ASSERT_TRUE(thin.ok()) << thin.status();
  EXPECT_EQ(thin->cells.size(), 2u * 65535u);
}

TEST(MovingAiTest, RefusesFilesLargerThanTheLimitUnread) {
  const auto path = std::filesystem::temp_directory_path() / ("big" + std::to_string(::getpid()));
  {
    std::ofstream out(path);
    out << "type octile\nheight 1\nwidth 1\nmap\n.\n";
    std::filesystem::resize_file(path, kMaxMovingAiFileBytes + 1);  // sparse: no disk used
  }
  auto map = ReadMovingAiMap(path.string());
  EXPECT_EQ(map.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(map.status().message().find("bytes"), std::string::npos) << map.status();
  EXPECT_EQ(ReadScenarios(path.string()).status().code(), absl::StatusCode::kInvalidArgument);
  std::filesystem::remove(path);
}

TEST(MovingAiTest, RefusesScenariosOffTheirMapOrWithoutALength) {
  auto off = ParseScenarios("version 1\n0 a.map 8 6 8 1 1 1 1.0\n", "a.scen");
  ASSERT_EQ(off.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(off.status().message().find("a.scen:2:"), std::string::npos) << off.status();
  EXPECT_FALSE(ParseScenarios("version 1\n0 a.map 8 6 1 1 1 1 nan\n", "a.scen").ok());
  EXPECT_FALSE(ParseScenarios("version 1\n0 a.map 8 6 1 1 1 1 -2\n", "a.scen").ok());
  EXPECT_FALSE(ParseScenarios("version 1\n0 a.map 65535 65535 1 1 1 1 2\n", "a.scen").ok());
  // A line of thousands of words is no scenario (nor a header): refused before they are split.
  std::string words;
  for (int i = 0; i < 3000; ++i) words += "0 ";
  EXPECT_FALSE(ParseScenarios("version 1\n" + words + "\n", "a.scen").ok());
  EXPECT_FALSE(ParseMovingAiMap("type " + words + "\nheight 1\nwidth 1\nmap\n.\n").ok());
  EXPECT_TRUE(ParseScenarios("version 1\n0 a.map 8 6 7 5 0 0 8.07106781\n", "a.scen").ok());
}

class MovingAiOracleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(MovingAiOracleTest, EveryScenarioMatchesItsOptimalLength) {
  const std::string base = testing::SharedDataDir() + "/movingai/" + GetParam();
  if (!std::filesystem::exists(base)) {
    GTEST_SKIP() << base << " is absent (set WALKD_SHARED_DATA to the shared data folder)";
  }
  auto map = ReadMovingAiMap(base);
  ASSERT_TRUE(map.ok()) << map.status();
  auto scenarios = ReadScenarios(base + ".scen");
  ASSERT_TRUE(scenarios.ok()) << scenarios.status();
  auto world = WorldFromMovingAi(*map);
  ASSERT_TRUE(world.ok());
  const Continent& c = world->continents[0];
  const Metric shortest(*world, *FindProfile("shortest"), 0);
  FineGridAStar astar;
  std::size_t matched = 0;
  for (const Scenario& s : scenarios->scenarios) {
    ASSERT_EQ(s.map_width, map->width);
    const SurfaceId from = testing::SurfaceAt(c, s.start_x, s.start_y);
    const SurfaceId to = testing::SurfaceAt(c, s.goal_x, s.goal_y);
    const SearchResult r = astar.FindWalk(c, 1.0, shortest, from, to);
    if (s.optimal_length == 0.0 && from != to) {  // the benchmark's mark for "no path"
      EXPECT_FALSE(r.found) << s.start_x << "," << s.start_y << " -> " << s.goal_x << ","
                            << s.goal_y;
      ++matched;
      continue;
    }
    ASSERT_TRUE(r.found) << s.start_x << "," << s.start_y << " -> " << s.goal_x << "," << s.goal_y;
    EXPECT_NEAR(r.yards, s.optimal_length, scenarios->Tolerance(s.optimal_length))
        << s.start_x << "," << s.start_y << " -> " << s.goal_x << "," << s.goal_y;
    ++matched;
  }
  EXPECT_EQ(matched, scenarios->scenarios.size());
  EXPECT_GT(matched, 0u);
}

INSTANTIATE_TEST_SUITE_P(Sample, MovingAiOracleTest,
                         ::testing::Values("dao/arena.map", "dao/den001d.map", "dao/rmtst.map",
                                           "dao/lak250d.map", "bg512/AR0011SR.map",
                                           "rooms/8room_000.map", "random/random512-10-0.map"),
                         testing::FileParamName());

}  // namespace
}  // namespace walk::nav
