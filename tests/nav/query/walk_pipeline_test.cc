#include "nav/query/walk_pipeline.h"

#include <cmath>
#include <limits>

#include "gtest/gtest.h"
#include "nav/grid/grid_builder.h"
#include "tests/nav/ascii_grid.h"

namespace walk::nav {
namespace {

using testing::At;

class AnswerWalkTest : public ::testing::Test {
 protected:
  const World world_ = testing::AsciiWorld({
      "....@...",
      "....@...",
      "....@...",
  });
  const Metric shortest_{world_, *FindProfile("shortest"), 0};
  FineGridAStar walker_;
};

TEST_F(AnswerWalkTest, APlainStraightLineAnswersWithoutASearch) {
  auto answer = AnswerWalk(world_, shortest_, At(0, 0), At(3, 2), walker_);
  ASSERT_TRUE(answer.ok()) << answer.status();
  EXPECT_EQ(answer->status, WalkStatus::kOk);
  EXPECT_EQ(answer->method, Method::kStraightLine);
  EXPECT_EQ(answer->stats.nodes_expanded, 0u);
  // The same as the search finds.
  WalkOptions no_line;
  no_line.try_straight_line = false;
  auto searched = AnswerWalk(world_, shortest_, At(0, 0), At(3, 2), walker_, no_line);
  ASSERT_TRUE(searched.ok());
  EXPECT_EQ(searched->method, Method::kFineGrid);
  EXPECT_DOUBLE_EQ(searched->seconds, answer->seconds);
  EXPECT_DOUBLE_EQ(searched->yards, answer->yards);
}

TEST(AnswerWalkBlockedTest, SearchesTheFineGridWhenTheLineIsBlocked) {
  const World world = testing::AsciiWorld({"....", ".@@.", "...."});
  const Metric shortest(world, *FindProfile("shortest"), 0);
  FineGridAStar astar;
  auto answer = AnswerWalk(world, shortest, At(0, 1), At(3, 1), astar);
  ASSERT_TRUE(answer.ok());
  EXPECT_EQ(answer->method, Method::kFineGrid);
  EXPECT_DOUBLE_EQ(answer->yards, 5.0);
}

TEST_F(AnswerWalkTest, MeasuresYardsAndSeconds) {
  auto answer = AnswerWalk(world_, shortest_, At(0, 0), At(3, 2), walker_);
  ASSERT_TRUE(answer.ok()) << answer.status();
  EXPECT_NEAR(answer->yards, 1 + 2 * std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(answer->seconds, answer->yards / 7.0, 1e-12);
  ASSERT_TRUE(answer->from_end.has_value());
  EXPECT_EQ(answer->to_end->column_x, 3u);
  // Zone cells: all 4.83 yards in cell 0,0 of zone 0.
  ASSERT_EQ(answer->zone_cells.size(), 1u);
  EXPECT_NEAR(answer->zone_cells[0].yards, answer->yards, 1e-12);
}

TEST_F(AnswerWalkTest, DifferentRegionsAnswerNoWalkWithoutASearch) {
  auto answer = AnswerWalk(world_, shortest_, At(0, 0), At(6, 1), walker_);
  ASSERT_TRUE(answer.ok());
  EXPECT_EQ(answer->status, WalkStatus::kNoWalk);
  EXPECT_EQ(answer->method, Method::kRegions);
  EXPECT_EQ(answer->stats.nodes_expanded, 0u);
}

TEST_F(AnswerWalkTest, EndsOffTheMapOrOnNoSurfaceGetTheirOwnStatus) {
  auto wall = AnswerWalk(world_, shortest_, At(0, 0), At(4, 1), walker_);
  ASSERT_TRUE(wall.ok());
  EXPECT_EQ(wall->status, WalkStatus::kNoSurface);
  auto off = AnswerWalk(world_, shortest_, At(100, 0), At(1, 1), walker_);
  ASSERT_TRUE(off.ok());
  EXPECT_EQ(off->status, WalkStatus::kOffMap);
  // A finite coordinate outside the extent is off the map, not a bad argument.
  auto west = AnswerWalk(world_, shortest_, At(-1, 0), At(1, 1), walker_);
  ASSERT_TRUE(west.ok()) << west.status();
  EXPECT_EQ(west->status, WalkStatus::kOffMap);
  auto same = AnswerWalk(world_, shortest_, At(1, 1), At(1, 1), walker_);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->status, WalkStatus::kOk);
  EXPECT_EQ(same->yards, 0.0);
  EXPECT_EQ(same->method, Method::kTrivial);
}

// Places the caller snapped already (a table snaps each place once for its cells) are the walk's
// ends: the same answer as snapping the places, and a given snap, not the place's own, is where
// the walk starts.
TEST_F(AnswerWalkTest, PlacesSnappedByTheCallerAreTheWalksEnds) {
  const Continent& c = world_.continents.at(0);
  const WorldFrame frame = world_.FrameOf(c);
  const Snap from = SnapPlace(c, frame, At(0, 0)), to = SnapPlace(c, frame, At(3, 2));
  WalkOptions given;
  given.snaps.on = &c;
  given.snaps.from = &from;
  given.snaps.to = &to;
  auto snapped = AnswerWalk(world_, shortest_, At(0, 0), At(3, 2), walker_);
  auto answer = AnswerWalk(world_, shortest_, At(0, 0), At(3, 2), walker_, given);
  ASSERT_TRUE(snapped.ok() && answer.ok());
  EXPECT_EQ(answer->seconds, snapped->seconds);
  EXPECT_EQ(answer->from_end->surface, snapped->from_end->surface);
  EXPECT_EQ(answer->to_end->surface, snapped->to_end->surface);
  const Snap elsewhere = SnapPlace(c, frame, At(2, 0));
  given.snaps.from = &elsewhere;
  auto moved = AnswerWalk(world_, shortest_, At(0, 0), At(3, 2), walker_, given);
  ASSERT_TRUE(moved.ok());
  EXPECT_EQ(moved->from_end->column_x, 2u);
  EXPECT_LT(moved->yards, snapped->yards);
  // A snap that found no surface is the walk's status, as snapping the place would say.
  const Snap wall = SnapPlace(c, frame, At(4, 1));
  given.snaps.from = &wall;
  auto refused = AnswerWalk(world_, shortest_, At(0, 0), At(3, 2), walker_, given);
  ASSERT_TRUE(refused.ok());
  EXPECT_EQ(refused->status, WalkStatus::kNoSurface);
  // Snaps made on another continent (a world loaded again) are not taken: the places are
  // snapped here.
  const World again = testing::AsciiWorld({"....@...", "....@...", "....@..."});
  given.snaps.on = &again.continents.at(0);
  auto reloaded = AnswerWalk(world_, shortest_, At(0, 0), At(3, 2), walker_, given);
  ASSERT_TRUE(reloaded.ok());
  EXPECT_EQ(reloaded->status, WalkStatus::kOk);
  EXPECT_EQ(reloaded->seconds, snapped->seconds);
}

TEST_F(AnswerWalkTest, BadCoordinatesAreInvalidArgumentsNamingTheField) {
  struct Case {
    Place from, to;
    std::string field;
  };
  Place nan_x = At(0, 0);
  nan_x.x_yards = std::numeric_limits<double>::quiet_NaN();
  Place inf_y = At(0, 0);
  inf_y.y_yards = std::numeric_limits<double>::infinity();
  Place huge = At(0, 0);
  huge.y_yards = 1e12;
  Place bad_z = At(0, 0);
  bad_z.z_yards = std::numeric_limits<double>::infinity();
  for (const Case& c : {Case{nan_x, At(1, 1), "from.x_yards"}, Case{At(1, 1), inf_y, "to.y_yards"},
                        Case{At(1, 1), huge, "to.y_yards"}, Case{At(1, 1), bad_z, "to.z_yards"}}) {
    auto answer = AnswerWalk(world_, shortest_, c.from, c.to, walker_);
    EXPECT_EQ(answer.status().code(), absl::StatusCode::kInvalidArgument) << c.field;
    EXPECT_EQ(answer.status().message().substr(0, c.field.size()), c.field) << answer.status();
  }
  // The refused value prints exactly, never rounded (1e+08) to look like the limit.
  Place beyond = At(0, 0);
  beyond.x_yards = 100000000.5;
  auto exact = AnswerWalk(world_, shortest_, beyond, At(1, 1), walker_);
  EXPECT_EQ(exact.status().message(),
            "from.x_yards: 100000000.5 is out of range [-1e8, 1e8] yards");
  Place other = At(1, 1);
  other.continent = 3;
  auto crossing = AnswerWalk(world_, shortest_, At(0, 0), other, walker_);
  EXPECT_EQ(crossing.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(crossing.status().message().find("to.continent"), std::string::npos);
  Place both = At(0, 0);
  both.continent = 3;
  auto missing = AnswerWalk(world_, shortest_, both, other, walker_);
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("from.continent"), std::string::npos);
}

// A 40 x 40 field (1,600 surfaces: a large region) and, 3 yards off its edge, a closed 2 x 2
// pocket. A walk into the pocket is settled onto the field; a walk inside it is not.
TEST(AnswerWalkSettleTest, APlaceInAPocketIsSettledOntoTheLargeRegionNearby) {
  std::vector<std::string> rows(40, std::string(40, '.') + "@@@@@@@");
  rows[10] = std::string(40, '.') + "@@@..@@";
  rows[11] = std::string(40, '.') + "@@@..@@";
  const World world = testing::AsciiWorld(rows);
  const Metric shortest(world, *FindProfile("shortest"), 0);
  FineGridAStar astar;
  auto answer = AnswerWalk(world, shortest, At(5, 5), At(43, 10), astar);
  ASSERT_TRUE(answer.ok());
  EXPECT_EQ(answer->status, WalkStatus::kOk);
  ASSERT_TRUE(answer->to_end.has_value());
  EXPECT_TRUE(answer->to_end->settled);
  EXPECT_EQ(answer->to_end->column_x, 39u);  // the field's edge, 4 columns west
  EXPECT_NEAR(answer->to_end->settle_yards, 4.0, 1e-9);
  EXPECT_FALSE(answer->from_end->settled);
  auto inside = AnswerWalk(world, shortest, At(43, 10), At(44, 11), astar);
  ASSERT_TRUE(inside.ok());
  EXPECT_FALSE(inside->to_end->settled);
  EXPECT_FALSE(inside->from_end->settled);
  SettleOptions tight;
  tight.radius_yards = 2.0;  // nothing large within 2 yards: stays, and has no walk
  WalkOptions options;
  options.settle = tight;
  auto unsettled = AnswerWalk(world, shortest, At(5, 5), At(43, 10), astar, options);
  ASSERT_TRUE(unsettled.ok());
  EXPECT_EQ(unsettled->status, WalkStatus::kNoWalk);
}

TEST(AnswerWalkRetryTest, NoWalkAtThePlacesHeightsIsAskedAgainAtTheUsualFloors) {
  // Column 1 holds ground (0) and an unreachable platform (5) with no way up. Asked at z = 5,
  // the goal snaps to the platform: no walk; asked again at the usual floor (the top surface,
  // the platform) would not help, so use an indoor floor: the usual floor is the lowest indoor.
  ContinentBuilder builder(0, 3, 1);
  SurfaceSpec ground, platform;
  ground.flags = kFlagIndoor | kFlagBuilding;
  ground.headroom_yards = 4.0f;
  platform.height_yards = 5.0f;
  for (std::uint32_t x = 0; x < 3; ++x) builder.AddSurface(x, 0, ground);
  builder.AddSurface(2, 0, platform);
  auto built = builder.Build(LinkRules{});
  ASSERT_TRUE(built.ok()) << built.status();
  World world;
  world.continents.push_back(*std::move(built));
  AssignContentIds(world);
  const Metric shortest(world, *FindProfile("shortest"), 0);
  FineGridAStar astar;
  Place to = At(2, 0);
  to.z_yards = 5.0;
  auto answer = AnswerWalk(world, shortest, At(0, 0), to, astar);
  ASSERT_TRUE(answer.ok());
  EXPECT_EQ(answer->status, WalkStatus::kOk);
  EXPECT_TRUE(answer->retried);
  EXPECT_EQ(answer->to_end->level, 0);
  EXPECT_DOUBLE_EQ(answer->yards, 2.0);
}

}  // namespace
}  // namespace walk::nav
