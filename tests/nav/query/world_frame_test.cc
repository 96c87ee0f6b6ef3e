// A world answers in its source's coordinates: a grid whose column 0 is frame column -40 snaps,
// walks, describes and tallies in that frame, and keeps its origin through its file.
#include <filesystem>

#include "gtest/gtest.h"
#include "nav/grid/grid_builder.h"
#include "nav/grid/grid_format.h"
#include "nav/query/place_check.h"
#include "nav/query/snap.h"
#include "nav/query/walk_pipeline.h"
#include "tests/nav/ascii_grid.h"

namespace walk::nav {
namespace {

// 20 x 10 columns of one yard, the grid's column 0 at frame x = -40 and row 0 at y = -25.
World ShiftedWorld() {
  World world = testing::AsciiWorld({
      "....................",
      "....................",
      "..........@.........",
      "..........@.........",
      "..........@.........",
      "..........@.........",
      "..........@.........",
      "....................",
      "....................",
      "....................",
  });
  world.continents[0].origin_column_x = -40;
  world.continents[0].origin_column_y = -25;
  AssignContentIds(world);
  return world;
}

// The middle of the grid's column (x, y), in the shifted world's frame.
Place FrameAt(double x, double y) { return testing::At(x - 40.0, y - 25.0); }

TEST(WorldFrameTest, PlacesAreNamedInTheFrameNegativeOnesIncluded) {
  const World world = ShiftedWorld();
  const Continent& c = world.continents[0];
  const Snap snap = SnapPlace(c, world.FrameOf(world.continents[0]), FrameAt(3, 4));
  ASSERT_EQ(snap.status, WalkStatus::kOk);
  EXPECT_EQ(snap.end.column_x, 3u);
  EXPECT_EQ(snap.end.column_y, 4u);
  const Place back = PlaceOf(c, world.FrameOf(world.continents[0]), snap.end.surface);
  EXPECT_DOUBLE_EQ(back.x_yards, -36.5);
  EXPECT_DOUBLE_EQ(back.y_yards, -20.5);
  // The grid's own coordinates are off this world's map.
  EXPECT_EQ(SnapPlace(c, world.FrameOf(world.continents[0]), testing::At(3, 4)).status,
            WalkStatus::kOffMap);
  EXPECT_EQ(SnapPlace(c, world.FrameOf(world.continents[0]), FrameAt(-1, 4)).status,
            WalkStatus::kOffMap);
  EXPECT_EQ(SnapPlace(c, world.FrameOf(world.continents[0]), FrameAt(20, 4)).status,
            WalkStatus::kOffMap);
}

TEST(WorldFrameTest, AWalkAnswersInTheFrame) {
  const World world = ShiftedWorld();
  const Metric metric(world, *FindProfile("neutral"), 0);
  FineGridAStar astar;
  WalkOptions options;
  options.want_path = true;
  absl::StatusOr<WalkAnswer> answer =
      AnswerWalk(world, metric, FrameAt(2, 4), FrameAt(18, 4), astar, options);
  ASSERT_TRUE(answer.ok()) << answer.status();
  ASSERT_EQ(answer->status, WalkStatus::kOk);
  ASSERT_TRUE(answer->path.has_value());
  const PathDetail& path = *answer->path;
  EXPECT_DOUBLE_EQ(path.points.front().x_yards, -37.5);
  EXPECT_DOUBLE_EQ(path.points.front().y_yards, -20.5);
  EXPECT_DOUBLE_EQ(path.points.back().x_yards, -21.5);
  for (const PathPoint& p : path.points) {
    EXPECT_LT(p.x_yards, -20.0);
    EXPECT_LT(p.y_yards, -15.0);
  }
  // Every column of the walk has a negative x and y: zone cell -1, -1.
  ASSERT_FALSE(answer->zone_cells.empty());
  for (const ZoneCell& cell : answer->zone_cells) {
    EXPECT_EQ(cell.cell_x, -1);
    EXPECT_EQ(cell.cell_y, -1);
  }
  // Outside the extent: OFF_MAP. Absurd values: INVALID_ARGUMENT naming the field.
  absl::StatusOr<WalkAnswer> off =
      AnswerWalk(world, metric, FrameAt(2, 4), testing::At(5, 5), astar);
  ASSERT_TRUE(off.ok()) << off.status();
  EXPECT_EQ(off->status, WalkStatus::kOffMap);
  Place absurd = FrameAt(2, 4);
  absurd.x_yards = -2e8;
  absl::StatusOr<WalkAnswer> refused = AnswerWalk(world, metric, absurd, FrameAt(5, 5), astar);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("from.x_yards"), std::string::npos);
}

TEST(WorldFrameTest, TheFileKeepsTheOriginAndTheOriginIsInTheContentId) {
  const World world = ShiftedWorld();
  World unshifted = world;
  unshifted.continents[0].origin_column_x = unshifted.continents[0].origin_column_y = 0;
  EXPECT_NE(ComputeContentId(unshifted), world.content_id);
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("walkd_frame_" + std::to_string(::getpid())))
          .string();
  ASSERT_TRUE(SaveWorld(world, "test", dir).ok());
  absl::StatusOr<LoadedWorld> loaded = LoadWorld(dir);
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->world.continents[0].origin_column_x, -40);
  EXPECT_EQ(loaded->world.continents[0].origin_column_y, -25);
  EXPECT_EQ(loaded->world.content_id, world.content_id);
}

// A zone's levels price only the danger bands, which the model keys by their danger tables: they
// are not the grid's. The zone a column belongs to, roads, hubs and lifts are.
TEST(WorldFrameTest, ZoneLevelsAreNotInTheContentIdButZonesAndRoadsAre) {
  World world = ShiftedWorld();
  Continent& c = world.continents[0];
  for (SurfaceId s = 0; s < c.surface_count(); ++s) c.zone[s] = c.column_x[s] < 10 ? 1 : 2;
  world.zones = {{1, "low", 1, 10}, {2, "high", 30, 40}};
  const std::uint64_t id = ComputeContentId(world);
  World relevelled = world;
  relevelled.zones[1].min_level = 12;
  relevelled.zones[1].max_level = 20;
  relevelled.zones[1].name = "renamed";
  EXPECT_EQ(ComputeContentId(relevelled), id);
  World rezoned = world;
  rezoned.continents[0].zone[0] = 2;
  EXPECT_NE(ComputeContentId(rezoned), id);
  World road = world;
  road.continents[0].marks[0] |= kMarkRoad;
  EXPECT_NE(ComputeContentId(road), id);
  World hub = world;
  hub.continents[0].marks[0] |= kMarkHubA;
  EXPECT_NE(ComputeContentId(hub), id);
}

}  // namespace
}  // namespace walk::nav
