// Recovery: a unit standing where it may not (a building finished on top of it) asks with
// recover_start and gets one answer: out to the nearest standable cell on its goal's side, then on
// to the goal. Without recover_start, or with nothing standable near, its start stays blocked.
#include "nav/live/recovery.h"

#include <vector>

#include "gtest/gtest.h"
#include "nav/live/live_search.h"
#include "nav/live/live_world.h"
#include "tests/nav/live/ascii_live.h"

namespace walk::nav::live {
namespace {

using testing::AsciiWorld;
using Rows = std::vector<std::string>;
using testing::kLight;

LivePath AskRecovering(LiveWorld& world, Cell a, Cell b, bool recover = true) {
  PathRequest request{a, b, kLight};
  request.recover_start = recover;
  absl::StatusOr<LivePath> path = world.FindPath(request);
  EXPECT_TRUE(path.ok()) << path.status();
  return path.ok() ? *std::move(path) : LivePath{};
}

bool Neighbours(Cell a, Cell b) {
  return std::abs(a.x - b.x) <= 1 && std::abs(a.y - b.y) <= 1 && !(a == b);
}

// A recovered path: the escape leg from `start` to `path.start`, then the path on from there,
// costing the escape plus what FindPath from the recovery cell costs.
void ExpectSpliced(LiveWorld& world, const LivePath& path, Cell start, Cell goal) {
  ASSERT_EQ(path.status, PathStatus::kFound);
  EXPECT_EQ(path.method, PathMethod::kRecovered);
  ASSERT_FALSE(path.cells.empty());
  EXPECT_EQ(path.cells.front(), start);
  EXPECT_EQ(path.cells.back(), goal);
  for (std::size_t k = 1; k < path.cells.size(); ++k) {
    EXPECT_TRUE(Neighbours(path.cells[k - 1], path.cells[k])) << k;
  }
  EXPECT_EQ(path.waypoints.front(), start);
  EXPECT_EQ(path.waypoints[1], path.start);
  EXPECT_EQ(path.points.size(), path.waypoints.size());
  const LivePath rest = AskRecovering(world, path.start, goal, false);
  ASSERT_EQ(rest.status, PathStatus::kFound);
  EXPECT_EQ(path.cost, OctileCost(start, path.start) + rest.cost);
  EXPECT_EQ(std::vector<Cell>(path.waypoints.begin() + 1, path.waypoints.end()), rest.waypoints);
  // The leg: every cell before the recovery cell is closed, the rest priced as usual.
  std::size_t at = 0;
  while (!(path.cells[at] == path.start)) ++at;
  world.Inspect([&](const LiveGrid& grid, const Layers&) {
    for (std::size_t k = 0; k < at; ++k) EXPECT_FALSE(grid.Open(path.cells[k], kLight));
    const std::span<const Cell> on(path.cells.data() + at, path.cells.size() - at);
    EXPECT_EQ(PriceCells(grid, on, kLight), rest.cost);
  });
}

const Rows kField = {"..........", "..........", "..........",
                     "..........", "..........", ".........."};

TEST(RecoveryTest, AUnitUnderANewBuildingEscapesTowardItsGoal) {
  auto world = AsciiWorld(kField);
  const BlockerChange built = BlockerChange::AddBuilding(7, {3, 1, 6, 4});  // x 3..5, y 1..3
  ASSERT_TRUE(world->UpdateBlockers({&built, 1}).ok());
  // Without recover_start: blocked, as ever.
  const LivePath blocked = AskRecovering(*world, {4, 2}, {9, 2}, false);
  EXPECT_EQ(blocked.status, PathStatus::kStartBlocked);
  EXPECT_EQ(blocked.method, PathMethod::kNone);
  // Ring 2 is the first with open ground; its nearest cells are (2, 2), (6, 2), (4, 0), (4, 4),
  // and the goal decides between them.
  const LivePath east = AskRecovering(*world, {4, 2}, {9, 2});
  EXPECT_EQ(east.start, (Cell{6, 2}));
  ExpectSpliced(*world, east, {4, 2}, {9, 2});
  const LivePath west = AskRecovering(*world, {4, 2}, {0, 3});
  EXPECT_EQ(west.start, (Cell{2, 2}));
  ExpectSpliced(*world, west, {4, 2}, {0, 3});
  const LivePath south = AskRecovering(*world, {4, 2}, {4, 5});
  EXPECT_EQ(south.start, (Cell{4, 4}));
  ExpectSpliced(*world, south, {4, 2}, {4, 5});
  EXPECT_EQ(world->Counters().recovered_starts, 3u);
}

TEST(RecoveryTest, ACornerCellIsNearerThanNothing) {
  auto world = AsciiWorld(kField);
  const BlockerChange built = BlockerChange::AddBuilding(7, {3, 1, 6, 4});
  ASSERT_TRUE(world->UpdateBlockers({&built, 1}).ok());
  // From the building's edge cell (5, 1) ring 1 already holds open ground: (6, 1) is nearest.
  const LivePath out = AskRecovering(*world, {5, 1}, {9, 5});
  EXPECT_EQ(out.start, (Cell{6, 1}));
  ExpectSpliced(*world, out, {5, 1}, {9, 5});
}

TEST(RecoveryTest, AUnitInsideAWallEscapesToTheGoalsSide) {
  // A wall three cells thick splits the field; a unit caught in its middle leaves by the side
  // facing its goal, both sides being as near.
  auto world = AsciiWorld(kField, "building 1 4 0 7 6\n");
  const LivePath east = AskRecovering(*world, {5, 2}, {9, 2});
  EXPECT_EQ(east.start, (Cell{7, 2}));
  ExpectSpliced(*world, east, {5, 2}, {9, 2});
  const LivePath west = AskRecovering(*world, {5, 2}, {0, 2});
  EXPECT_EQ(west.start, (Cell{3, 2}));
  ExpectSpliced(*world, west, {5, 2}, {0, 2});
}

TEST(RecoveryTest, RecoveryIsNarrowAndMayLeaveOnlyTheEscape) {
  // In the wall's west cell the only ring-1 ground is west; the goal lies east, beyond the wall.
  // The unit still leaves the wall (the escape alone), and the goal is unreachable from there.
  auto world = AsciiWorld(kField, "building 1 4 0 7 6\n");
  const LivePath out = AskRecovering(*world, {4, 2}, {9, 2});
  EXPECT_EQ(out.status, PathStatus::kUnreachable);
  EXPECT_EQ(out.method, PathMethod::kRecovered);
  EXPECT_EQ(out.start, (Cell{3, 2}));
  EXPECT_EQ(out.cells, (std::vector<Cell>{{4, 2}, {3, 2}}));
  EXPECT_EQ(out.waypoints, (std::vector<Cell>{{4, 2}, {3, 2}}));
  EXPECT_EQ(out.cost, 10u);
}

TEST(RecoveryTest, NothingStandableNearStaysBlocked) {
  LiveWorldOptions options;
  options.recover_max_radius = 2;
  auto world = AsciiWorld(
      {"MMMMMMM.", "MMMMMMM.", "MMMMMMM.", "MMMMMMM.", "MMMMMMM.", "MMMMMMM.", "MMMMMMM."}, "",
      options);
  const LivePath out = AskRecovering(*world, {3, 3}, {7, 0});
  EXPECT_EQ(out.status, PathStatus::kStartBlocked);
  EXPECT_EQ(out.method, PathMethod::kNone);
  EXPECT_EQ(out.start, (Cell{3, 3}));
  EXPECT_TRUE(out.cells.empty());
  // Within reach it escapes: straight east to (7, 3), the open cell nearest it.
  const LivePath near = AskRecovering(*world, {5, 3}, {7, 0});
  EXPECT_EQ(near.start, (Cell{7, 3}));
  ExpectSpliced(*world, near, {5, 3}, {7, 0});
}

TEST(RecoveryTest, ANegativeRadiusIsRefused) {
  LiveWorldOptions options;
  options.recover_max_radius = -1;
  absl::StatusOr<std::unique_ptr<LiveWorld>> world =
      LiveWorld::FromText(testing::MapText(kField), "", options);
  EXPECT_EQ(world.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(RecoveryTest, AShutGateStillStepsOut) {
  auto world = AsciiWorld(kField, "building 1 0 2 10 3\ngate 2 1 4 2 5 3 open\n");
  const BlockerChange shut = BlockerChange::ShutGate(2);
  ASSERT_TRUE(world->UpdateBlockers({&shut, 1}).ok());
  const LivePath out = AskRecovering(*world, {4, 2}, {4, 5});
  EXPECT_EQ(out.status, PathStatus::kFound);
  EXPECT_EQ(out.method, PathMethod::kStepOut);
  EXPECT_EQ(out.start, (Cell{4, 2}));
}

TEST(RecoveryTest, TheEscapeLegStepsDiagonallyFirst) {
  EXPECT_EQ(EscapeLeg({0, 0}, {3, 1}), (std::vector<Cell>{{0, 0}, {1, 1}, {2, 1}, {3, 1}}));
  EXPECT_EQ(EscapeLeg({2, 2}, {2, 2}), (std::vector<Cell>{{2, 2}}));
}

}  // namespace
}  // namespace walk::nav::live
