// A table's rows (nav/abstract/abstract_table.h) answer every cell as a single walk answers it:
// the same status, method, seconds and yards, on the demo world, through the walk pipeline.
#include "nav/abstract/abstract_table.h"

#include <algorithm>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "nav/abstract/abstract_graph.h"
#include "nav/query/snap.h"
#include "nav/query/walk_pipeline.h"
#include "tests/nav/abstract/demo_abstract.h"

namespace walk::nav {
namespace {

using testing::DemoWorld;
using testing::Prepare;

// Random places over continent 0, a few of them off the map.
std::vector<Place> RandomPlaces(const World& world, int count, std::mt19937_64& random) {
  const Continent& c = world.continents.at(0);
  const WorldFrame frame = world.FrameOf(c);
  std::uniform_real_distribution<double> x(-2.0, c.width_columns + 0.0);
  std::uniform_real_distribution<double> y(0.0, c.height_columns + 0.0);
  std::vector<Place> places(count);
  for (Place& p : places) {
    p.continent = c.id;
    p.x_yards = (frame.origin_x + x(random)) * frame.column_yards;
    p.y_yards = (frame.origin_y + y(random)) * frame.column_yards;
  }
  return places;
}

SurfaceId SnappedSurface(const World& world, const Place& place) {
  const Continent& c = world.continents.at(0);
  const Snap snap = SnapPlace(c, world.FrameOf(c), place);
  return snap.status == WalkStatus::kOk ? snap.end.surface : kInvalidId;
}

TEST(AbstractTableTest, EveryCellIsTheWalkAskedAloneWithItsYardsWhenAsked) {
  const World& world = DemoWorld();
  const Continent& c = world.continents.at(0);
  const AbstractRouter router(world, Prepare(world, {"neutral", "shortest"}), 64 << 20);
  std::mt19937_64 random(7);
  const std::vector<Place> sources = RandomPlaces(world, 14, random);
  const std::vector<Place> targets = RandomPlaces(world, 15, random);
  std::vector<SurfaceId> target_surfaces;
  for (const Place& t : targets) target_surfaces.push_back(SnappedSurface(world, t));
  Searchers searchers;
  WalkOptions options;
  options.router = &router;
  int known = 0, cells = 0;
  for (const char* profile : {"neutral", "shortest"}) {
    const Metric metric(world, *FindProfile(profile), 0);
    auto table =
        AbstractTable::Build(router, c, metric, target_surfaces, searchers.abstract.cell, nullptr);
    ASSERT_TRUE(table.ok()) << table.status();
    ASSERT_TRUE((*table)->active());
    for (const Place& s : sources) {
      const SurfaceId from = SnappedSurface(world, s);
      std::unique_ptr<AbstractTable::Row> row =
          from != kInvalidId ? (*table)->RowOf(from, searchers.abstract.cell) : nullptr;
      std::unique_ptr<AbstractTable::Row> seconds_row =
          from != kInvalidId ? (*table)->RowOf(from, searchers.abstract.cell, false) : nullptr;
      for (const Place& t : targets) {
        ++cells;
        searchers.abstract.known = nullptr;
        const absl::StatusOr<WalkAnswer> alone =
            AnswerWalk(world, metric, s, t, searchers, options);
        searchers.abstract.known = row.get();
        const absl::StatusOr<WalkAnswer> tabled =
            AnswerWalk(world, metric, s, t, searchers, options);
        searchers.abstract.known = seconds_row.get();
        const absl::StatusOr<WalkAnswer> seconds_only =
            AnswerWalk(world, metric, s, t, searchers, options);
        searchers.abstract.known = nullptr;
        ASSERT_TRUE(alone.ok()) << alone.status();
        ASSERT_TRUE(seconds_only.ok()) << seconds_only.status();
        ASSERT_EQ(alone->status, seconds_only->status);
        EXPECT_NEAR(alone->seconds, seconds_only->seconds, 1e-9 * std::max(1.0, alone->seconds));
        // A row without yards leaves them 0 in the walks it knows, and only there.
        if (seconds_only->zone_cells_left_out) {
          EXPECT_EQ(seconds_only->yards, 0.0);
        } else {
          EXPECT_NEAR(seconds_only->yards, alone->yards, 1e-6 * std::max(1.0, alone->yards));
        }
        ASSERT_TRUE(tabled.ok()) << tabled.status();
        ASSERT_EQ(alone->status, tabled->status);
        EXPECT_EQ(alone->method, tabled->method);
        if (alone->status != WalkStatus::kOk) continue;
        if (tabled->zone_cells_left_out) ++known;
        EXPECT_NEAR(alone->seconds, tabled->seconds, 1e-9 * std::max(1.0, alone->seconds));
        EXPECT_NEAR(alone->yards, tabled->yards, 1e-6 * std::max(1.0, alone->yards));
      }
    }
  }
  // The rows answered most cells that went over the graph (the rest: near, straight, one tile).
  EXPECT_GT(known, cells / 4) << known << " of " << cells << " cells known";
}

// A danger band prices what the CCH cannot: its table builds nothing and knows no walk.
TEST(AbstractTableTest, ADangerBandKnowsNothing) {
  const World& world = DemoWorld();
  const Continent& c = world.continents.at(0);
  const AbstractRouter router(world, Prepare(world, {"neutral"}), 16 << 20);
  const Metric band20(world, *FindProfile("neutral"), 20);
  ASSERT_TRUE(band20.prices_danger());
  CellSearch search;
  auto table = AbstractTable::Build(router, c, band20, {0, 1}, search, nullptr);
  ASSERT_TRUE(table.ok());
  EXPECT_FALSE((*table)->active());
  EXPECT_EQ((*table)->RowOf(0, search), nullptr);
}

}  // namespace
}  // namespace walk::nav
