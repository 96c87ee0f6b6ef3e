// Shut gates widen along the wall line only: across the wall a gate's cells are the wall's own
// thickness, whatever depth its rectangle has; along it, the whole cells it covers. A unit inside
// a doorway when its gate shuts can still step out, to either side; nobody outside steps in.
#include <vector>

#include "gtest/gtest.h"
#include "nav/live/live_search.h"
#include "nav/live/live_world.h"
#include "tests/nav/live/ascii_live.h"

namespace walk::nav::live {
namespace {

using testing::AsciiWorld;
using testing::DrawRows;
using Rows = std::vector<std::string>;
using testing::kLight;

using testing::LightPath;

void ApplyChange(LiveWorld& world, BlockerChange change) {
  absl::StatusOr<UpdateResult> r = world.UpdateBlockers({&change, 1});
  EXPECT_TRUE(r.ok()) << r.status();
}

const Rows kOpen = {".........", ".........", ".........", ".........", "........."};

TEST(ShutGateTest, ADeepGateBlocksOnlyTheWallsThickness) {
  // The wall is row 2; the gate's rectangle reaches half a cell beyond it on both sides.
  auto world = AsciiWorld(kOpen, "building 1 0 2 9 3\ngate 2 1 4 1.5 5 3.5 shut\n");
  EXPECT_EQ(DrawRows(*world),
            (Rows{".........", ".........", "BBBBGBBBB", ".........", "........."}));
  // The ground in front of and behind the gate stays open: units wait there.
  EXPECT_EQ(LightPath(*world, {4, 1}, {0, 0}).status, PathStatus::kFound);
  EXPECT_EQ(LightPath(*world, {4, 3}, {8, 4}).status, PathStatus::kFound);
  EXPECT_EQ(LightPath(*world, {4, 1}, {4, 3}).status, PathStatus::kUnreachable);
  ApplyChange(*world, BlockerChange::OpenGate(2));
  EXPECT_EQ(DrawRows(*world)[2], "BBBB.BBBB");
  EXPECT_EQ(LightPath(*world, {4, 1}, {4, 3}).cost, 2u * 10 + 2);
}

TEST(ShutGateTest, AThinGateSealsAThickWall) {
  // A two-row wall and a gate drawn as a thin plank in its middle: shut, it seals both rows;
  // open, it opens both (a gate narrower than its wall would leave the doorway shut).
  auto world = AsciiWorld(kOpen, "building 1 0 1 9 3\ngate 2 1 4 2.2 5 2.8 shut\n");
  EXPECT_EQ(DrawRows(*world),
            (Rows{".........", "BBBBGBBBB", "BBBBGBBBB", ".........", "........."}));
  EXPECT_EQ(LightPath(*world, {4, 0}, {4, 4}).status, PathStatus::kUnreachable);
  ApplyChange(*world, BlockerChange::OpenGate(2));
  EXPECT_EQ(DrawRows(*world)[1], "BBBB.BBBB");
  EXPECT_EQ(DrawRows(*world)[2], "BBBB.BBBB");
  EXPECT_EQ(LightPath(*world, {4, 0}, {4, 4}).status, PathStatus::kFound);
}

TEST(ShutGateTest, AlongTheWallItCoversWholeCells) {
  // A wall running north-south (its line is its longer side). The gate's rectangle covers rows
  // 1 and 2 only in part, and shuts them whole: no strip beside it stays open; across the wall it
  // reaches from x 3.6 to 5.2 and shuts the wall's one column only.
  auto world = AsciiWorld(kOpen, "building 1 4 0 5 5\ngate 2 1 3.6 1.5 5.2 2.5 shut\n");
  EXPECT_EQ(DrawRows(*world),
            (Rows{"....B....", "....G....", "....G....", "....B....", "....B...."}));
  EXPECT_EQ(LightPath(*world, {0, 2}, {8, 2}).status, PathStatus::kUnreachable);
  ApplyChange(*world, BlockerChange::OpenGate(2));
  EXPECT_EQ(DrawRows(*world)[1], ".........");
  EXPECT_EQ(DrawRows(*world)[2], ".........");
}

TEST(ShutGateTest, AUnitInsideTheDoorwayStepsOutEitherWay) {
  auto world = AsciiWorld(kOpen, "building 1 0 2 9 3\ngate 2 1 4 2 5 3 open\n");
  ApplyChange(*world, BlockerChange::ShutGate(2));  // with a unit standing in the doorway at (4, 2)
  for (const Cell goal : {Cell{4, 0}, Cell{6, 4}}) {
    const LivePath out = LightPath(*world, {4, 2}, goal);
    ASSERT_EQ(out.status, PathStatus::kFound) << goal.x << "," << goal.y;
    EXPECT_EQ(out.method, PathMethod::kStepOut);
    EXPECT_EQ(out.cells.front(), (Cell{4, 2}));
    EXPECT_EQ(out.cells.back(), goal);
    EXPECT_EQ(out.waypoints.front(), (Cell{4, 2}));
    // Past the first step the path is an ordinary one, priced as the search prices it.
    world->Inspect([&](const LiveGrid& grid, const Layers&) {
      const std::vector<Cell> rest(out.cells.begin() + 1, out.cells.end());
      EXPECT_EQ(out.cost, (out.cells[1].x != 4 ? 14u : 10u) + PriceCells(grid, rest, kLight));
    });
  }
  EXPECT_EQ(world->Counters().step_outs, 2u);
  // Nobody outside steps in or through; a unit inside the wall itself is not freed.
  EXPECT_EQ(LightPath(*world, {4, 0}, {4, 4}).status, PathStatus::kUnreachable);
  EXPECT_EQ(LightPath(*world, {4, 0}, {4, 2}).goal,
            (Cell{4, 1}));  // the goal resolves out of the gate
  EXPECT_EQ(LightPath(*world, {3, 2}, {4, 0}).status, PathStatus::kStartBlocked);
}

TEST(ShutGateTest, AUnitDeepInsideAThickGateWalksOut) {
  // A three-row wall and gate: from the middle row the unit crosses a gate cell to get out.
  auto world = AsciiWorld({".....", ".....", ".....", ".....", ".....", "....."},
                          "building 1 0 1 5 4\ngate 2 1 2 1 3 4 shut\n");
  const LivePath out = LightPath(*world, {2, 2}, {2, 5});
  ASSERT_EQ(out.status, PathStatus::kFound);
  EXPECT_EQ(out.method, PathMethod::kStepOut);
  EXPECT_EQ(out.cells[1], (Cell{2, 3}));  // through the gate's last row
  EXPECT_EQ(out.cells[2], (Cell{2, 4}));  // and out
  EXPECT_EQ(out.cost, 3u * 10);           // two steps out, one on
}

}  // namespace
}  // namespace walk::nav::live
