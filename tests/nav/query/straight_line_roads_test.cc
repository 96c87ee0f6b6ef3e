// The straight line answers for terrain profiles on a world with roads, wherever no road is near
// enough to make a cheaper walk possible, and each answer it gives is the fine-grid walk's cost.
#include <random>

#include "gtest/gtest.h"
#include "nav/grid/grid_builder.h"
#include "nav/grid/road_distance.h"
#include "nav/query/walk_pipeline.h"
#include "tests/nav/ascii_grid.h"

namespace walk::nav {
namespace {

// 200 x 200 yards of open ground with a road along row 150 and a few walls.
World RoadWorld() {
  std::vector<std::string> rows(200, std::string(200, '.'));
  for (int y = 20; y < 90; ++y) rows[y][100] = '@';
  for (int x = 30; x < 70; ++x) rows[120][x] = '@';
  World world = testing::AsciiWorld(rows);
  Continent& c = world.continents[0];
  for (SurfaceId s = 0; s < c.surface_count(); ++s) {
    if (c.column_y[s] == 150) c.marks[s] |= kMarkRoad;
  }
  FinishContinent(c);
  AssignContentIds(world);
  return world;
}

TEST(RoadDistanceTest, ABoundNeverAboveTheTrueDistanceToARoad) {
  const World world = RoadWorld();
  const Continent& c = world.continents[0];
  for (std::uint32_t y = 0; y < 200; y += 7) {
    for (std::uint32_t x = 0; x < 200; x += 5) {
      const std::uint32_t truth = y > 150 ? y - 150 : 150 - y;
      EXPECT_LE(ColumnsToRoadAtLeast(c, x, y), truth) << x << "," << y;
    }
  }
  EXPECT_EQ(ColumnsToRoadAtLeast(c, 10, 150), 0u);
  EXPECT_GT(ColumnsToRoadAtLeast(c, 10, 10), 100u);
}

TEST(StraightLineRoadsTest, TheLineAnswersFarFromRoadsAndCostsWhatTheSearchFinds) {
  const World world = RoadWorld();
  const Metric metric(world, *FindProfile("neutral"), 0);
  ASSERT_LT(metric.min_seconds_per_column(), metric.seconds_per_column());  // roads are cheaper
  FineGridAStar astar;
  WalkOptions searched;
  searched.try_straight_line = false;
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> coordinate(0.0, 200.0);
  int lines = 0;
  for (int i = 0; i < 400; ++i) {
    Place a, b;
    a.x_yards = coordinate(random);
    a.y_yards = coordinate(random);
    b.x_yards = coordinate(random);
    b.y_yards = coordinate(random);
    absl::StatusOr<WalkAnswer> answer = AnswerWalk(world, metric, a, b, astar);
    ASSERT_TRUE(answer.ok()) << answer.status();
    if (answer->method != Method::kStraightLine) continue;
    ++lines;
    absl::StatusOr<WalkAnswer> best = AnswerWalk(world, metric, a, b, astar, searched);
    ASSERT_TRUE(best.ok()) << best.status();
    ASSERT_EQ(best->status, WalkStatus::kOk);
    // Exact within the line's 0.2 % slack.
    EXPECT_LE(answer->seconds, best->seconds * 1.002)
        << a.x_yards << "," << a.y_yards << " -> " << b.x_yards << "," << b.y_yards;
    EXPECT_GE(answer->seconds, best->seconds * (1.0 - 1e-12));
  }
  EXPECT_GT(lines, 20);
}

}  // namespace
}  // namespace walk::nav
