#include <cmath>
#include <limits>

#include "gtest/gtest.h"
#include "nav/answer_walk.h"
#include "nav/default_world.h"
#include "tests/nav/ascii_grid.h"

namespace walk::nav {
namespace {

// Places at the middle of a column, in yards (one yard per column in these worlds).
Place At(double x, double y) {
  Place p;
  p.x_yards = x + 0.5;
  p.y_yards = y + 0.5;
  return p;
}

class AnswerWalkTest : public ::testing::Test {
 protected:
  const World world_ = testing::AsciiWorld({
      "....@...",
      "....@...",
      "....@...",
  });
  const Profile& shortest_ = *FindProfile("shortest");
  Walker walker_;
};

TEST_F(AnswerWalkTest, FindsAWalkOnTheFineGrid) {
  auto answer = AnswerWalk(world_, shortest_, At(0, 0), At(3, 2), walker_);
  ASSERT_TRUE(answer.ok()) << answer.status();
  EXPECT_EQ(answer->status, WalkStatus::kOk);
  EXPECT_EQ(answer->method, Method::kFineGrid);
  EXPECT_NEAR(answer->yards, 1 + 2 * std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(answer->seconds, answer->yards / 7.0, 1e-12);
  ASSERT_TRUE(answer->from_end.has_value());
  EXPECT_EQ(answer->to_end->column_x, 3u);
  EXPECT_GT(answer->stats.nodes_expanded, 0u);
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
  auto same = AnswerWalk(world_, shortest_, At(1, 1), At(1, 1), walker_);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->status, WalkStatus::kOk);
  EXPECT_EQ(same->yards, 0.0);
  EXPECT_EQ(same->method, Method::kTrivial);
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
  Place negative = At(0, 0);
  negative.x_yards = -1;
  Place huge = At(0, 0);
  huge.y_yards = 1e12;
  Place bad_z = At(0, 0);
  bad_z.z_yards = std::numeric_limits<double>::infinity();
  for (const Case& c : {Case{nan_x, At(1, 1), "from.x_yards"}, Case{At(1, 1), inf_y, "to.y_yards"},
                        Case{negative, At(1, 1), "from.x_yards"}, Case{At(1, 1), huge, "to.y_yards"},
                        Case{At(1, 1), bad_z, "to.z_yards"}}) {
    auto answer = AnswerWalk(world_, shortest_, c.from, c.to, walker_);
    EXPECT_EQ(answer.status().code(), absl::StatusCode::kInvalidArgument) << c.field;
    EXPECT_EQ(answer.status().message().substr(0, c.field.size()), c.field) << answer.status();
  }
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

TEST(DefaultWorldTest, IsDeterministicAndMultiFloor) {
  auto a = GenerateDefaultWorld(kDefaultWorldSeed);
  auto b = GenerateDefaultWorld(kDefaultWorldSeed);
  auto other = GenerateDefaultWorld(kDefaultWorldSeed + 1);
  ASSERT_TRUE(a.ok() && b.ok() && other.ok());
  EXPECT_EQ(a->content_id, b->content_id);
  EXPECT_NE(a->content_id, other->content_id);
  const Continent& c = a->continents[0];
  EXPECT_EQ(c.MaxFloors(), 2u);  // the bridge: a deck over the river bed
  // Most ground is one region; the river bed and the deck are both walkable.
  std::uint32_t largest = 0;
  for (std::uint32_t size : c.region_size) largest = std::max(largest, size);
  EXPECT_GT(largest, c.surface_count() / 2);
}

TEST(DefaultWorldTest, TheBridgeDeckAndTheRiverBedAreBothReachable) {
  auto world = GenerateDefaultWorld(kDefaultWorldSeed);
  ASSERT_TRUE(world.ok());
  const Continent& c = world->continents[0];
  // Find a column with two surfaces: the deck over the river.
  for (SurfaceId s = 0; s + 1 < c.surface_count(); ++s) {
    if (c.column_x[s] != c.column_x[s + 1] || c.column_y[s] != c.column_y[s + 1]) continue;
    Walker walker;
    Place on_deck, in_river;
    on_deck.x_yards = in_river.x_yards = (c.column_x[s] + 0.5) * world->column_yards;
    on_deck.y_yards = in_river.y_yards = (c.column_y[s] + 0.5) * world->column_yards;
    on_deck.z_yards = c.height_yards[s + 1];
    in_river.z_yards = c.height_yards[s];
    Place field;
    field.x_yards = field.y_yards = 5 * world->column_yards;
    const Profile& shortest = *FindProfile("shortest");
    auto to_deck = AnswerWalk(*world, shortest, field, on_deck, walker);
    auto to_river = AnswerWalk(*world, shortest, field, in_river, walker);
    ASSERT_TRUE(to_deck.ok() && to_river.ok());
    EXPECT_EQ(to_deck->status, WalkStatus::kOk);
    EXPECT_EQ(to_river->status, WalkStatus::kOk);
    EXPECT_EQ(to_deck->to_end->level, 1);
    EXPECT_EQ(to_river->to_end->level, 0);
    return;
  }
  FAIL() << "the default world has no bridge";
}

}  // namespace
}  // namespace walk::nav
