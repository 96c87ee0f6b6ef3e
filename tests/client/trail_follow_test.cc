// The trail tools' pieces in-process: reading recorded walks, and following them through links
// (client/trail_input.h, client/trail_follow.h), on the bridge world of bridge_world.h.
#include "client/trail_follow.h"

#include <sstream>

#include "client/trail_input.h"
#include "gtest/gtest.h"
#include "tests/client/bridge_world.h"

namespace walk::client {
namespace {

using testing::BridgeWorld;
using testing::CentreX;
using testing::CentreY;

TrailPosition At(std::int64_t gx, std::int64_t gy, std::string walk = "null") {
  TrailPosition p;
  p.x_yards = CentreX(gx);
  p.y_yards = CentreY(gy);
  p.walk = std::move(walk);
  return p;
}

std::uint8_t Level(const nav::Continent& c, const FollowedPosition& f) {
  EXPECT_NE(f.surface, nav::kInvalidId);
  return f.surface == nav::kInvalidId ? 255 : c.level[f.surface];
}

TEST(TrailReaderTest, ReadsPositionsAndNamesTheLineAndFieldOfABadOne) {
  std::istringstream in(
      "{\"x\": -19, \"y\": -5}\n"
      "\n"
      "{\"walk\": \"b\", \"x\": 1.5, \"y\": 2, \"z\": 3.25}\n"
      "{\"walk\": 7, \"x\": 1, \"y\": 2, \"z\": null}\n"
      "{\"x\": 1, \"y\": \"north\"}\n");
  TrailReader reader(in, "trail");
  auto first = reader.Next();
  ASSERT_TRUE(first.ok() && first->has_value()) << first.status();
  EXPECT_EQ((*first)->index, 0u);
  EXPECT_EQ((*first)->walk, "null");
  EXPECT_DOUBLE_EQ((*first)->x_yards, -19.0);
  EXPECT_FALSE((*first)->z_yards.has_value());
  auto second = reader.Next();
  ASSERT_TRUE(second.ok() && second->has_value()) << second.status();
  EXPECT_EQ((*second)->index, 1u);  // the blank line is no position
  EXPECT_EQ((*second)->walk, "\"b\"");
  EXPECT_EQ((*second)->z_yards, 3.25);
  auto third = reader.Next();
  ASSERT_TRUE(third.ok() && third->has_value()) << third.status();
  EXPECT_EQ((*third)->walk, "7");
  EXPECT_FALSE((*third)->z_yards.has_value());
  auto bad = reader.Next();
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(), "trail line 5: y: must be a finite number");
}

TEST(TrailReaderTest, RefusesWhatIsNotAPosition) {
  for (const auto& [line, message] : std::vector<std::pair<std::string, std::string>>{
           {"x=1,y=2", "trail line 1: not JSON"},
           {"[1, 2]", "trail line 1: not a JSON object"},
           {"{\"y\": 2}", "trail line 1: x: missing"},
           {"{\"x\": 1, \"y\": 2, \"walk\": [1]}",
            "trail line 1: walk: must be a string or a number"},
           {"{\"x\": 1, \"y\": 2, \"z\": \"up\"}", "trail line 1: z: must be a finite number"}}) {
    std::istringstream in(line + "\n");
    TrailReader reader(in, "trail");
    auto next = reader.Next();
    ASSERT_FALSE(next.ok()) << line;
    EXPECT_EQ(next.status().message(), message);
  }
  std::istringstream empty("\n\n");
  TrailReader reader(empty, "trail");
  auto end = reader.Next();
  ASSERT_TRUE(end.ok());
  EXPECT_FALSE(end->has_value());
}

// Under the bridge a walk that came along the ground stays on the ground, although the column's
// usual floor is the deck; one that starts on the deck stays on it and falls off its end.
TEST(TrailFollowerTest, FollowsTheFloorTheLinksLeadTo) {
  const nav::World world = BridgeWorld();
  const nav::Continent& c = world.continents[0];
  TrailFollower follower(world, c);
  const FollowedPosition start = follower.Follow(At(0, 2, "\"under\""));
  EXPECT_EQ(start.status, FollowStatus::kStart);
  EXPECT_EQ(Level(c, start), 0);
  const FollowedPosition under = follower.Follow(At(3, 2, "\"under\""));
  EXPECT_EQ(under.status, FollowStatus::kFollowed);
  EXPECT_EQ(Level(c, under), 0);
  EXPECT_EQ(under.columns_stepped, 3u);
  EXPECT_FALSE(under.broke);

  const FollowedPosition deck = follower.Follow(At(2, 2, "\"over\""));  // a new walk
  EXPECT_EQ(deck.status, FollowStatus::kStart);
  EXPECT_EQ(Level(c, deck), 1);
  const FollowedPosition along = follower.Follow(At(4, 2, "\"over\""));
  EXPECT_EQ(Level(c, along), 1);
  const FollowedPosition off = follower.Follow(At(5, 2, "\"over\""));
  EXPECT_EQ(off.status, FollowStatus::kFollowed);
  EXPECT_EQ(Level(c, off), 0);
  EXPECT_EQ(c.height_yards[off.surface], 0.0f);
}

// Positions many columns apart are stepped column by column; the wall breaks the walk exactly
// where its column begins, and the walk resumes at the next position's usual floor.
TEST(TrailFollowerTest, ABreakIsTheFirstStepNoLinkTakes) {
  const nav::World world = BridgeWorld();
  const nav::Continent& c = world.continents[0];
  TrailFollower follower(world, c);
  follower.Follow(At(1, 0));
  const FollowedPosition f = follower.Follow(At(9, 1));
  EXPECT_EQ(f.status, FollowStatus::kResumed);
  ASSERT_TRUE(f.broke);
  EXPECT_EQ(f.broke->from_column_x, 5);
  EXPECT_EQ(f.broke->to_column_x, 6);
  EXPECT_EQ(c.column_x[f.broke->from], 5);
  EXPECT_EQ(f.columns_stepped, 4u);  // columns 2 to 5 before the wall
  EXPECT_EQ(Level(c, f), 0);
  EXPECT_EQ(c.column_x[f.surface], 9);
  // The wall top is a surface (a fall leads off it): a walk may start there and go on.
  const FollowedPosition top = follower.Follow(At(6, 3, "\"wall\""));
  EXPECT_EQ(c.height_yards[top.surface], 5.0f);
  const FollowedPosition down = follower.Follow(At(7, 3, "\"wall\""));
  EXPECT_EQ(down.status, FollowStatus::kFollowed);
  EXPECT_EQ(c.height_yards[down.surface], 0.0f);
}

// A diagonal step whose surface lacks the diagonal link goes round by an orthogonal neighbour.
TEST(TrailFollowerTest, ADiagonalWithoutItsLinkGoesRoundTheCorner) {
  nav::World world = BridgeWorld();
  nav::Continent& c = world.continents[0];
  nav::SurfaceId first, end;
  c.ColumnSurfaces(0, 0, &first, &end);
  c.links[first][1] = nav::kNoLink;  // NE
  TrailFollower follower(world, c);
  follower.Follow(At(0, 0));
  const FollowedPosition f = follower.Follow(At(1, 1));
  EXPECT_EQ(f.status, FollowStatus::kFollowed);
  EXPECT_EQ(f.columns_stepped, 2u);
  EXPECT_EQ(c.column_x[f.surface], 1);
  EXPECT_EQ(c.column_y[f.surface], 1);
  // With the orthogonal links gone too, the corner is a break.
  c.links[first][0] = nav::kNoLink;
  c.links[first][2] = nav::kNoLink;
  TrailFollower again(world, c);
  again.Follow(At(0, 0));
  EXPECT_TRUE(again.Follow(At(1, 1)).broke);
}

TEST(TrailFollowerTest, OffTheMapAndNoSurfaceHaveNoFloor) {
  nav::World world = BridgeWorld();
  const nav::Continent& c = world.continents[0];
  TrailFollower follower(world, c);
  follower.Follow(At(8, 0));
  const FollowedPosition off = follower.Follow(At(12, 0));
  EXPECT_EQ(off.status, FollowStatus::kOffMap);
  EXPECT_EQ(off.surface, nav::kInvalidId);
  ASSERT_TRUE(off.broke);
  EXPECT_EQ(off.broke->to_column_x, 10);
  // The next position starts afresh: no break is reported for coming back onto the map.
  const FollowedPosition back = follower.Follow(At(9, 0));
  EXPECT_EQ(back.status, FollowStatus::kStart);
  EXPECT_FALSE(back.broke);
}

}  // namespace
}  // namespace walk::client
