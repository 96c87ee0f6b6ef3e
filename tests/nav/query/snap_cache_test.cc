// The snap cache answers what SnapPlace answers, for every column and height asked, whether it
// holds the snap or has had to drop it, and counts a column asked again as a hit.
#include "nav/query/snap_cache.h"

#include <cstdint>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "nav/grid/grid_builder.h"
#include "tests/nav/ascii_grid.h"

namespace walk::nav {
namespace {

// 6 x 4 columns, each with ground at 0; columns with x odd also hold a floor at 5 (indoor where
// y is even), column (5, 3) nothing.
World StackedWorld() {
  ContinentBuilder builder(0, 6, 4);
  for (std::uint32_t y = 0; y < 4; ++y) {
    for (std::uint32_t x = 0; x < 6; ++x) {
      if (x == 5 && y == 3) continue;
      builder.AddSurface(x, y, SurfaceSpec{});
      if (x % 2 == 1) {
        SurfaceSpec floor;
        floor.height_yards = 5.0f;
        if (y % 2 == 0) floor.flags = kFlagIndoor | kFlagBuilding;
        builder.AddSurface(x, y, floor);
      }
    }
  }
  auto built = builder.Build(LinkRules{});
  EXPECT_TRUE(built.ok()) << built.status();
  World world;
  world.continents.push_back(*std::move(built));
  AssignContentIds(world);
  return world;
}

// Every place the test asks: each column's middle (and one off the map) without a height and at
// heights 0, 1, 4 and 5.
std::vector<Place> Asked() {
  std::vector<Place> places;
  for (int y = 0; y < 4; ++y) {
    for (int x = -1; x < 6; ++x) {
      Place p = testing::At(x, y);
      places.push_back(p);
      for (double z : {0.0, 1.0, 4.0, 5.0}) {
        p.z_yards = z;
        places.push_back(p);
      }
    }
  }
  return places;
}

void ExpectSame(const Snap& got, const Snap& want) {
  ASSERT_EQ(got.status, want.status);
  if (want.status != WalkStatus::kOk) return;
  EXPECT_EQ(got.end.surface, want.end.surface);
  EXPECT_EQ(got.end.column_x, want.end.column_x);
  EXPECT_EQ(got.end.column_y, want.end.column_y);
  EXPECT_EQ(got.end.level, want.end.level);
  EXPECT_EQ(got.end.surface_z_yards, want.end.surface_z_yards);
  EXPECT_EQ(got.end.region, want.end.region);
  EXPECT_EQ(got.end.zone, want.end.zone);
}

TEST(SnapCacheTest, AnswersWhatSnapPlaceAnswersAndCountsColumnsAskedAgain) {
  const World world = StackedWorld();
  const Continent& c = world.continents[0];
  const WorldFrame frame = world.FrameOf(c);
  SnapCache cache;
  const std::vector<Place> places = Asked();
  for (int round = 0; round < 2; ++round) {
    for (const Place& p : places) {
      SCOPED_TRACE(::testing::PrintToString(
          std::vector<double>{p.x_yards, p.y_yards, p.z_yards.value_or(-1.0)}));
      ExpectSame(cache.SnapOf(c, frame, p), SnapPlace(c, frame, p));
    }
  }
  EXPECT_EQ(cache.misses(), places.size());
  EXPECT_EQ(cache.hits(), places.size());
  EXPECT_EQ(cache.Size(), places.size());
  // A column's stacked floors are told apart by the height asked: ground at 1, the floor at 4.
  Place low = testing::At(1, 1), high = low;
  low.z_yards = 1.0;
  high.z_yards = 4.0;
  EXPECT_NE(cache.SnapOf(c, frame, low).end.surface, cache.SnapOf(c, frame, high).end.surface);
  // Another place of the same column asks the same question.
  Place corner = testing::At(1, 1);
  corner.x_yards -= 0.49;
  corner.y_yards += 0.49;
  const std::uint64_t hits = cache.hits();
  ExpectSame(cache.SnapOf(c, frame, corner), SnapPlace(c, frame, corner));
  EXPECT_EQ(cache.hits(), hits + 1);
}

TEST(SnapCacheTest, ACacheTooSmallForWhatIsAskedDropsSnapsNeverMixesThem) {
  const World world = StackedWorld();
  const Continent& c = world.continents[0];
  const WorldFrame frame = world.FrameOf(c);
  SnapCache cache(2);  // four snaps
  const std::vector<Place> places = Asked();
  for (int round = 0; round < 3; ++round) {
    for (const Place& p : places) ExpectSame(cache.SnapOf(c, frame, p), SnapPlace(c, frame, p));
  }
  EXPECT_LE(cache.Size(), 4u);
  EXPECT_GT(cache.misses(), places.size());
}

TEST(SnapCacheTest, ThreadsAskingTogetherGetTheirOwnSnaps) {
  const World world = StackedWorld();
  const Continent& c = world.continents[0];
  const WorldFrame frame = world.FrameOf(c);
  SnapCache cache(8);
  const std::vector<Place> places = Asked();
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 200; ++round) {
        for (std::size_t i = t; i < places.size(); i += 2) {
          const Snap got = cache.SnapOf(c, frame, places[i]);
          const Snap want = SnapPlace(c, frame, places[i]);
          if (got.status != want.status ||
              (want.status == WalkStatus::kOk && got.end.surface != want.end.surface)) {
            ++wrong[t];
          }
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(wrong[t], 0) << "thread " << t;
}

}  // namespace
}  // namespace walk::nav
