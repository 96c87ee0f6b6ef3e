// The cursor: what a cell holds (Describe), and where a worker stands beside a resource or a
// building (WorkCell), never on it.
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "nav/live/live_search.h"
#include "nav/live/live_world.h"
#include "tests/nav/live/ascii_live.h"

namespace walk::nav::live {
namespace {

using testing::AsciiWorld;
using Rows = std::vector<std::string>;
using testing::kHeavy;
using testing::kLight;

CellReport Report(const LiveWorld& world, Cell c) {
  absl::StatusOr<CellReport> r = world.Describe(c);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : CellReport{};
}

// A wall along row 3 with an open gate (20) at x 2 and a shut one (21) at x 5, a gap at x 8; a
// road through a wood, a river with a bridge deck, a tree, ore under a hut (9).
const Rows kYard = {
    "FF=FF.T...",  //
    "FF=FF...I.",  //
    "RR+RRRRRRR",  //
    "..........",  //
    "..........",  //
};
const char* kYardLayers =
    "building 1 0 3 10 4\n"
    "gate 20 1 2 3 3 4 open\n"
    "gate 21 1 5 3 6 4 shut\n"
    "gap 1 8 3 9 4\n"
    "building 9 8 1 9 2\n";

TEST(CursorTest, DescribeSaysWhatIsOnACell) {
  auto world = AsciiWorld(kYard, kYardLayers);
  const CellReport wood = Report(*world, {0, 0});
  EXPECT_EQ(wood.value, CellValue::kForest);
  EXPECT_TRUE(wood.forest);
  EXPECT_TRUE(wood.light_standable);
  EXPECT_FALSE(wood.heavy_standable);
  const CellReport road = Report(*world, {2, 1});
  EXPECT_EQ(road.value, CellValue::kWalkable);
  EXPECT_TRUE(road.road);
  EXPECT_TRUE(road.heavy_standable);
  const CellReport deck = Report(*world, {2, 2});
  EXPECT_EQ(deck.terrain, CellValue::kRiver);
  EXPECT_EQ(deck.crossing, CrossingKind::kBridge);
  EXPECT_EQ(deck.value, CellValue::kWalkable);
  EXPECT_FALSE(Report(*world, {3, 2}).crossing.has_value());
  const CellReport tree = Report(*world, {6, 0});
  EXPECT_EQ(tree.value, CellValue::kTree);
  EXPECT_EQ(tree.resource, CellValue::kTree);
  EXPECT_FALSE(tree.light_standable);
  const CellReport hut = Report(*world, {8, 1});  // iron ore under a hut
  EXPECT_EQ(hut.value, CellValue::kBuilding);
  EXPECT_EQ(hut.resource, CellValue::kIronOre);
  EXPECT_EQ(hut.blocker, BlockerKind::kBuilding);
  EXPECT_EQ(hut.footprint_id, 9u);
  EXPECT_EQ(hut.footprints, 1u);
  const CellReport plain = Report(*world, {5, 4});
  EXPECT_EQ(plain.blocker, BlockerKind::kNone);
  EXPECT_EQ(plain.gate, 0u);
  EXPECT_EQ(plain.revision, world->revision());
}

TEST(CursorTest, DescribeTellsAGateFromItsWall) {
  auto world = AsciiWorld(kYard, kYardLayers);
  const CellReport wall = Report(*world, {0, 3});
  EXPECT_EQ(wall.value, CellValue::kBuilding);
  EXPECT_EQ(wall.blocker, BlockerKind::kBuilding);
  EXPECT_EQ(wall.footprint_id, 1u);
  EXPECT_EQ(wall.gate, 0u);
  const CellReport open = Report(*world, {2, 3});
  EXPECT_EQ(open.value, CellValue::kWalkable);
  EXPECT_EQ(open.blocker, BlockerKind::kBuilding);  // the wall it reopens
  EXPECT_EQ(open.gate, 20u);
  EXPECT_EQ(open.gate_owner, 1u);
  EXPECT_TRUE(open.gate_open);
  const CellReport shut = Report(*world, {5, 3});
  EXPECT_EQ(shut.value, CellValue::kGate);
  EXPECT_EQ(shut.blocker, BlockerKind::kGate);
  EXPECT_EQ(shut.footprint_id, 21u);
  EXPECT_EQ(shut.footprints, 2u);  // the gate's and the wall's
  EXPECT_EQ(shut.gate, 21u);
  EXPECT_EQ(shut.gate_owner, 1u);
  EXPECT_FALSE(shut.gate_open);
  const CellReport gap = Report(*world, {8, 3});
  EXPECT_TRUE(gap.gap);
  EXPECT_EQ(gap.gate, 0u);
  EXPECT_TRUE(gap.heavy_standable);
  // Shutting the open gate shows at the next revision.
  const BlockerChange change = BlockerChange::ShutGate(20);
  ASSERT_TRUE(world->UpdateBlockers({&change, 1}).ok());
  const CellReport now = Report(*world, {2, 3});
  EXPECT_EQ(now.blocker, BlockerKind::kGate);
  EXPECT_FALSE(now.gate_open);
  EXPECT_EQ(now.revision, open.revision + 1);
}

TEST(CursorTest, DescribeOffTheMapIsInvalid) {
  auto world = AsciiWorld(kYard, kYardLayers);
  EXPECT_EQ(world->Describe({10, 0}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(world->Describe({0, -1}).status().code(), absl::StatusCode::kInvalidArgument);
}

WorkCellAnswer Work(LiveWorld& world, Cell target, Cell unit, Passability p = kLight,
                    const std::function<bool(Cell)>& fits = nullptr) {
  absl::StatusOr<WorkCellAnswer> a = world.WorkCell(target, unit, p, fits);
  EXPECT_TRUE(a.ok()) << a.status();
  return a.ok() ? *a : WorkCellAnswer{};
}

// A tree at (5, 3) below a ridge the worker at (5, 0) must walk round by the west.
const Rows kRidge = {
    ".........",  //
    ".MMMMMMMM",  //
    ".........",  //
    ".....T...",  //
    ".........",  //
};

TEST(WorkCellTest, TheWorkCellNearestByPathNotByDistance) {
  auto world = AsciiWorld(kRidge);
  // (5, 2) is nearest as the crow flies; (4, 2) is a step nearer on foot.
  const WorkCellAnswer a = Work(*world, {5, 3}, {5, 0});
  EXPECT_EQ(a.cell, (Cell{4, 2}));
  EXPECT_TRUE(a.reachable);
  EXPECT_EQ(a.target.value, CellValue::kTree);
  EXPECT_EQ(a.target.footprint_id, 0u);
  absl::StatusOr<LivePath> walk = world->FindPath({{5, 0}, {4, 2}, kLight});
  ASSERT_TRUE(walk.ok());
  EXPECT_EQ(a.cost, walk->cost);
  EXPECT_EQ(a.revision, world->revision());
  // From below, the cell under the tree.
  EXPECT_EQ(Work(*world, {5, 3}, {5, 4}).cell, (Cell{5, 4}));
  EXPECT_EQ(Work(*world, {5, 3}, {8, 4}).cell, (Cell{6, 4}));
}

TEST(WorkCellTest, TheFitsHookRulesCellsOut) {
  auto world = AsciiWorld(kRidge);
  const WorkCellAnswer a =
      Work(*world, {5, 3}, {5, 0}, kLight, [](Cell c) { return c.y != 2; });  // a narrow row
  EXPECT_EQ(a.cell, (Cell{4, 3}));
  EXPECT_EQ(world->WorkCell({5, 3}, {5, 0}, kLight, [](Cell) { return false; }).status().code(),
            absl::StatusCode::kNotFound);
}

TEST(WorkCellTest, AnUnreachableWorkerGetsTheNearestByDistance) {
  // The worker is sealed in the north-east corner; the tree lies beyond the mountains.
  auto world = AsciiWorld({"......M..", "......MMM", "MMMMMMM..", "...T.....", "........."});
  const WorkCellAnswer a = Work(*world, {3, 3}, {8, 0});
  EXPECT_FALSE(a.reachable);
  EXPECT_EQ(a.cost, 0u);
  EXPECT_EQ(a.cell, (Cell{4, 3}));  // the work cell nearest (8, 0) as the crow flies
}

TEST(WorkCellTest, ABuildingIsWorkedFromTheRingAroundIt) {
  auto world = AsciiWorld(
      {"..........", "..........", "..........", "..........", "..........", ".........."},
      "building 5 3 1 6 4\n");  // x 3..5, y 1..3
  const WorkCellAnswer a = Work(*world, {4, 2}, {0, 2});
  EXPECT_EQ(a.cell, (Cell{2, 2}));
  EXPECT_EQ(a.target.value, CellValue::kBuilding);
  EXPECT_EQ(a.target.footprint_id, 5u);
  EXPECT_EQ(a.target.cells, (CellRect{3, 1, 6, 4}));
  absl::StatusOr<LivePath> walk = world->FindPath({{0, 2}, {2, 2}, kLight});
  ASSERT_TRUE(walk.ok());
  EXPECT_EQ(a.cost, walk->cost);
  // Any of its cells names the building; the worker below goes to the south side.
  EXPECT_EQ(Work(*world, {3, 1}, {4, 5}).cell, (Cell{4, 4}));
}

TEST(WorkCellTest, AShutGateIsATarget) {
  auto world = AsciiWorld(kYard, kYardLayers);
  const WorkCellAnswer a = Work(*world, {5, 3}, {5, 4}, kHeavy);
  EXPECT_EQ(a.target.value, CellValue::kGate);
  EXPECT_EQ(a.target.footprint_id, 21u);
  EXPECT_EQ(a.cell, (Cell{5, 4}));
}

TEST(WorkCellTest, SearchesStopAtTheBoundAndTheCap) {
  const std::vector<Cell> ring = {{1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}};
  int calls = 0;
  auto everywhere = [](Cell) { return true; };
  // A detour makes every path cost far more than its bound: only the cap stops the searches.
  auto detour = [&](Cell c) { return ++calls, 1000u - static_cast<std::uint32_t>(c.x); };
  WorkCellAnswer a = ChooseWorkCell(ring, {0, 0}, everywhere, detour, /*max_searches=*/2);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(a.cell, (Cell{2, 0}));  // the better of the two searched
  EXPECT_EQ(a.cost, 998u);
  // Costs equal to the bounds: the first search already beats every other bound.
  calls = 0;
  auto straight = [&](Cell c) { return ++calls, OctileCost({0, 0}, c); };
  a = ChooseWorkCell(ring, {0, 0}, everywhere, straight);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(a.cell, (Cell{1, 0}));
}

TEST(WorkCellTest, Errors) {
  auto world = AsciiWorld(kRidge);
  absl::StatusOr<WorkCellAnswer> ground = world->WorkCell({2, 2}, {0, 0}, kLight);
  EXPECT_EQ(ground.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(ground.status().message().find("walkable"), std::string::npos) << ground.status();
  absl::StatusOr<WorkCellAnswer> rock = world->WorkCell({3, 1}, {0, 0}, kLight);
  EXPECT_EQ(rock.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(rock.status().message().find("mountain"), std::string::npos) << rock.status();
  EXPECT_EQ(world->WorkCell({9, 0}, {0, 0}, kLight).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(world->WorkCell({5, 3}, {0, 5}, kLight).status().code(),
            absl::StatusCode::kInvalidArgument);
  // A tree walled in by mountains has nowhere to stand beside it.
  auto walled = AsciiWorld({".....", ".MMM.", ".MTM.", ".MMM.", "....."});
  absl::StatusOr<WorkCellAnswer> none = walled->WorkCell({2, 2}, {0, 0}, kLight);
  EXPECT_EQ(none.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(none.status().message().find("tree"), std::string::npos) << none.status();
}

}  // namespace
}  // namespace walk::nav::live
