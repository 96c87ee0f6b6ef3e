// Short clear moves take the direct line without a search; a unit's route is kept when its goal
// moved less than 1.5 cells and stays standable (the end slides), and only then.
#include <algorithm>
#include <vector>

#include "gtest/gtest.h"
#include "nav/live/live_search.h"
#include "nav/live/live_world.h"
#include "nav/live/taut_path.h"
#include "nav/live/unit_routes.h"
#include "tests/nav/live/ascii_live.h"

namespace walk::nav::live {
namespace {

using testing::AsciiWorld;
using testing::kLight;

LivePath Ask(LiveWorld& world, Cell a, Cell b, std::uint64_t unit = 0) {
  PathRequest request{a, b, kLight};
  request.unit = unit;
  absl::StatusOr<LivePath> path = world.FindPath(request);
  EXPECT_TRUE(path.ok()) << path.status();
  return path.ok() ? *std::move(path) : LivePath{};
}

// A found path is a walkable cell path worth its cost, its waypoints joined by clear lines.
void ExpectSound(const LiveWorld& world, const LivePath& path, Cell start, Cell goal) {
  ASSERT_EQ(path.status, PathStatus::kFound);
  EXPECT_EQ(path.cells.front(), start);
  EXPECT_EQ(path.cells.back(), goal);
  EXPECT_EQ(path.waypoints.front(), start);
  EXPECT_EQ(path.waypoints.back(), goal);
  world.Inspect([&](const LiveGrid& grid, const Layers&) {
    EXPECT_EQ(PriceCells(grid, path.cells, kLight), path.cost);
    for (std::size_t k = 1; k < path.waypoints.size(); ++k) {
      EXPECT_TRUE(SegmentClear(grid, path.waypoints[k - 1], path.waypoints[k], kLight, true));
    }
  });
}

std::unique_ptr<LiveWorld> Field(std::int32_t direct_cells) {
  LiveWorldOptions options;
  options.direct_line_cells = direct_cells;
  return AsciiWorld({"....................", "....................", "........TT..........",
                     "........TT..........", "....................", "...................."},
                    "", options);
}

TEST(DirectLineTest, AShortClearMoveTakesTheLineWithoutASearch) {
  auto world = Field(8);
  const LivePath line = Ask(*world, {0, 0}, {7, 3});
  ExpectSound(*world, line, {0, 0}, {7, 3});
  EXPECT_EQ(line.method, PathMethod::kDirect);
  EXPECT_EQ(line.waypoints, (std::vector<Cell>{{0, 0}, {7, 3}}));
  EXPECT_EQ(world->Counters().searches, 0u);
  EXPECT_EQ(world->Counters().direct_lines, 1u);
  // Through the trees, or longer than 8 cells: a search.
  EXPECT_EQ(Ask(*world, {6, 2}, {12, 3}).method, PathMethod::kSearch);
  EXPECT_EQ(Ask(*world, {0, 5}, {19, 5}).method, PathMethod::kSearch);
  EXPECT_EQ(world->Counters().searches, 2u);
  // Off, every move is searched.
  auto searched = Field(0);
  EXPECT_EQ(Ask(*searched, {0, 0}, {7, 3}).method, PathMethod::kSearch);
}

TEST(KeptRouteTest, AGoalThatMovesLessThanACellAndAHalfKeepsTheRoute) {
  auto world = Field(0);
  const Cell start{2, 3}, goal{14, 2};
  const LivePath first = Ask(*world, start, goal, 7);
  ExpectSound(*world, first, start, goal);
  EXPECT_EQ(first.method, PathMethod::kSearch);
  // Two steps on, the target moved one cell (diagonally): the route is kept and slides.
  const Cell here = first.cells[2], moved{15, 1};
  const LivePath kept = Ask(*world, here, moved, 7);
  ExpectSound(*world, kept, here, moved);
  EXPECT_EQ(kept.method, PathMethod::kKept);
  EXPECT_TRUE(std::equal(kept.cells.begin(), kept.cells.end() - 1, first.cells.begin() + 2));
  // The heading does not flip: the next waypoint is one the unit was already walking to.
  EXPECT_NE(std::find(first.waypoints.begin(), first.waypoints.end(), kept.waypoints[1]),
            first.waypoints.end());
  EXPECT_EQ(world->Counters().searches, 1u);
  EXPECT_EQ(world->Counters().kept_routes, 1u);
  // The target comes back onto the route: it is cut there.
  const LivePath back = Ask(*world, here, goal, 7);
  EXPECT_EQ(back.method, PathMethod::kKept);
  ExpectSound(*world, back, here, goal);
  // Moved two cells: a new search. Another unit, or none, never shares the route.
  EXPECT_EQ(Ask(*world, here, {16, 2}, 7).method, PathMethod::kSearch);
  EXPECT_NE(Ask(*world, here, {16, 3}, 8).method, PathMethod::kKept);
  EXPECT_NE(Ask(*world, here, {16, 3}).method, PathMethod::kKept);
}

TEST(KeptRouteTest, ARouteIsNotKeptWhenItNoLongerHolds) {
  auto world = Field(0);
  const Cell start{2, 3}, goal{14, 2};
  const LivePath first = Ask(*world, start, goal, 7);
  // A goal moved onto a tree is not standable: resolved and searched, not kept.
  Ask(*world, start, {10, 2}, 7);
  EXPECT_NE(Ask(*world, start, {9, 2}, 7).method, PathMethod::kKept);
  // A unit that left its route is searched again.
  Ask(*world, start, goal, 7);
  EXPECT_EQ(Ask(*world, {2, 0}, goal, 7).method, PathMethod::kSearch);
  // A building placed across the rest of the route: the kept route is priced afresh and refused.
  Ask(*world, start, goal, 7);
  const Cell ahead = first.cells[first.cells.size() - 3];
  const WorldRect on_route{ahead.x + 0.0, ahead.y + 0.0, ahead.x + 1.0, ahead.y + 1.0};
  const std::vector<BlockerChange> build = {BlockerChange::AddBuilding(1, on_route)};
  ASSERT_TRUE(world->UpdateBlockers(build).ok());
  const LivePath after = Ask(*world, start, goal, 7);
  EXPECT_EQ(after.method, PathMethod::kSearch);
  ExpectSound(*world, after, start, goal);
}

TEST(KeptRouteTest, KeepRouteSlidesTheEnd) {
  auto world = Field(0);
  world->Inspect([&](const LiveGrid& grid, const Layers&) {
    UnitRoute old;
    old.goal = {5, 0};
    old.cells = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}};
    old.waypoint_at = {0, 5};
    old.cost = PriceCells(grid, old.cells, kLight);
    std::optional<UnitRoute> kept = KeepRoute(grid, old, {2, 0}, {6, 1}, kLight, 1.5);
    ASSERT_TRUE(kept.has_value());
    EXPECT_EQ(kept->cells, (std::vector<Cell>{{2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 1}}));
    EXPECT_EQ(kept->waypoint_at, (std::vector<std::uint32_t>{0, 4}));  // (5, 0) slid to (6, 1)
    kept = KeepRoute(grid, old, {2, 0}, {4, 0}, kLight, 1.5);
    ASSERT_TRUE(kept.has_value());
    EXPECT_EQ(kept->cells, (std::vector<Cell>{{2, 0}, {3, 0}, {4, 0}}));
    EXPECT_FALSE(KeepRoute(grid, old, {2, 0}, {7, 0}, kLight, 1.5).has_value());  // 2 cells
    EXPECT_FALSE(KeepRoute(grid, old, {2, 1}, {5, 0}, kLight, 1.5).has_value());  // off it
    EXPECT_FALSE(KeepRoute(grid, old, {2, 0}, {5, 0}, Passability::kHeavy, 1.5).has_value());
  });
}

}  // namespace
}  // namespace walk::nav::live
