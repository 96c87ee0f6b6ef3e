// Waypoints across crossings: a waypoint on a bridge deck walks on the deck's centre line, one on
// a hill entrance on its middle line; every other waypoint is its cell's centre.
#include "nav/live/crossing_points.h"

#include <vector>

#include "gtest/gtest.h"
#include "nav/live/live_world.h"
#include "tests/nav/live/ascii_live.h"

namespace walk::nav::live {
namespace {

using testing::AsciiLayers;
using testing::AsciiWorld;
using Rows = std::vector<std::string>;
using testing::kLight;

using testing::LightPath;

bool OnCrossing(const LiveWorld& world, Cell c) {
  bool on = false;
  world.Inspect([&](const LiveGrid& grid, const Layers&) { on = grid.Portal(grid.Index(c)); });
  return on;
}

// Every point of `path` is its waypoint's centre, except on a crossing, where the coordinate
// across the crossing is `centre` (x for a north-south crossing, else y). Returns how many
// waypoints lay on a crossing.
int ExpectPoints(const LiveWorld& world, const LivePath& path, bool along_y, double centre) {
  EXPECT_EQ(path.points.size(), path.waypoints.size());
  int on_crossing = 0;
  for (std::size_t k = 0; k < path.waypoints.size() && k < path.points.size(); ++k) {
    const Cell c = path.waypoints[k];
    const CellPoint p = path.points[k];
    const bool on = OnCrossing(world, c);
    on_crossing += on;
    const double want_x = on && along_y ? centre : c.x + 0.5;
    const double want_y = on && !along_y ? centre : c.y + 0.5;
    EXPECT_DOUBLE_EQ(p.x, want_x) << "waypoint " << k << " (" << c.x << ", " << c.y << ")";
    EXPECT_DOUBLE_EQ(p.y, want_y) << "waypoint " << k << " (" << c.x << ", " << c.y << ")";
  }
  return on_crossing;
}

const Rows kRiver = {
    ".........",  //
    ".........",  //
    "RRRRRRRRR",  //
    "RRRRRRRRR",  //
    ".........",  //
    ".........",  //
};

TEST(CrossingPointsTest, AThreeWideDeckIsWalkedOnItsMiddleCellsCentres) {
  // The deck from the layer file: x 3..5 over rows 2-3. Its centre line is x = 4.5.
  auto world = AsciiWorld(kRiver, "bridge 3 2 6 4\n");
  const LivePath path = LightPath(*world, {0, 0}, {8, 5});
  ASSERT_EQ(path.status, PathStatus::kFound);
  EXPECT_EQ(ExpectPoints(*world, path, /*along_y=*/true, 4.5), 2);
  // From the far edge of the deck too: the unit is drawn back to the middle.
  const LivePath edge = LightPath(*world, {3, 1}, {3, 4});
  EXPECT_EQ(ExpectPoints(*world, edge, true, 4.5), 2);
}

TEST(CrossingPointsTest, ATwoWideDecksCentreLineLiesBetweenItsCells) {
  // The example of docs/live_grids.md.
  auto world = AsciiWorld({"........", "........", "RRR++RRR", "RRR++RRR", "........", "........"});
  const LivePath path = LightPath(*world, {0, 0}, {7, 5});
  ASSERT_EQ(path.status, PathStatus::kFound);
  EXPECT_EQ(path.waypoints, (std::vector<Cell>{{0, 0}, {2, 0}, {4, 2}, {4, 3}, {5, 5}, {7, 5}}));
  EXPECT_EQ(ExpectPoints(*world, path, true, 4.0), 2);
}

TEST(CrossingPointsTest, ARiverRunningNorthSouthIsCrossedEastWest) {
  // The deck is taller (3) than long (2): its direction comes from the water on its sides.
  auto world = AsciiWorld(
      {"...RR...", "...RR...", "...++...", "...++...", "...++...", "...RR...", "...RR..."});
  const LivePath path = LightPath(*world, {0, 0}, {7, 6});
  ASSERT_EQ(path.status, PathStatus::kFound);
  EXPECT_EQ(ExpectPoints(*world, path, /*along_y=*/false, 3.5), 2);
}

TEST(CrossingPointsTest, AHillEntranceIsWalkedThroughItsMiddle) {
  // A walled plateau; its east wall has a three-cell entrance (x 7, rows 3-5) from the layers.
  const Rows hill = {
      "...........",  //
      ".@@@@@@@...",  //
      ".@.....@...",  //
      ".@.....@...",  //
      ".@.....@...",  //
      ".@.....@...",  //
      ".@.....@...",  //
      ".@@@@@@@...",  //
  };
  auto world = AsciiWorld(hill, "entrance 7 3 8 6\n");
  for (const Cell start : {Cell{3, 2}, Cell{3, 6}, Cell{5, 4}}) {
    const LivePath path = LightPath(*world, start, {10, 2});
    ASSERT_EQ(path.status, PathStatus::kFound);
    EXPECT_EQ(ExpectPoints(*world, path, /*along_y=*/false, 4.5), 1);
  }
}

TEST(CrossingPointsTest, DecksAreGroupedAndOrientedFromTheLayers) {
  const Layers layers =
      AsciiLayers({"..........", "RR+++RR++R", "RR+++RR++R", ".........."}, "entrance 0 3 1 4\n");
  const CrossingMap map(layers);
  ASSERT_EQ(map.decks().size(), 3u);
  const CrossingDeck* wide = map.DeckAt({3, 2});
  ASSERT_NE(wide, nullptr);
  EXPECT_EQ(wide->cells, (CellRect{2, 1, 5, 3}));
  EXPECT_EQ(wide->kind, CrossingKind::kBridge);
  EXPECT_TRUE(wide->along_y);
  EXPECT_DOUBLE_EQ(wide->centre, 3.5);
  const CrossingDeck* narrow = map.DeckAt({7, 1});
  ASSERT_NE(narrow, nullptr);
  EXPECT_NE(narrow, wide);
  EXPECT_DOUBLE_EQ(narrow->centre, 8.0);
  const CrossingDeck* entrance = map.DeckAt({0, 3});
  ASSERT_NE(entrance, nullptr);
  EXPECT_EQ(entrance->kind, CrossingKind::kHillEntrance);
  EXPECT_EQ(map.DeckAt({0, 0}), nullptr);
  EXPECT_EQ(map.DeckAt({-1, 0}), nullptr);
  EXPECT_DOUBLE_EQ(map.PointFor({9, 0}).x, 9.5);
  EXPECT_DOUBLE_EQ(map.PointFor({8, 2}).x, 8.0);
  EXPECT_DOUBLE_EQ(map.PointFor({8, 2}).y, 2.5);
}

TEST(CrossingPointsTest, GroupPathsCarryPointsForMembersAndCorridor) {
  auto world = AsciiWorld(kRiver, "bridge 3 2 6 4\n");
  const std::vector<GroupMember> members = {{{1, 0}, kLight}, {{2, 0}, kLight}, {{1, 1}, kLight}};
  absl::StatusOr<GroupPlan> plan = world->PathGroup(members, {7, 5});
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_FALSE(plan->corridor.empty());
  ASSERT_EQ(plan->corridor_points.size(), plan->corridor.size());
  int on_deck = 0;
  for (std::size_t k = 0; k < plan->corridor.size(); ++k) {
    const Cell c = plan->corridor[k];
    if (OnCrossing(*world, c)) {
      ++on_deck;
      EXPECT_DOUBLE_EQ(plan->corridor_points[k].x, 4.5);
    } else {
      EXPECT_DOUBLE_EQ(plan->corridor_points[k].x, c.x + 0.5);
    }
  }
  EXPECT_EQ(on_deck, 2);
  for (const MemberPath& m : plan->members) {
    ASSERT_EQ(m.route, GroupRoute::kShared);
    LivePath as_path;
    as_path.waypoints = m.waypoints;
    as_path.points = m.points;
    EXPECT_EQ(ExpectPoints(*world, as_path, true, 4.5), 2);
  }
}

}  // namespace
}  // namespace walk::nav::live
