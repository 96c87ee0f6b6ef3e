#include "nav/search/fine_grid_astar.h"

#include <cmath>
#include <random>

#include "gtest/gtest.h"
#include "nav/check/reference_dijkstra.h"
#include "nav/cost/metric.h"
#include "nav/grid/grid_builder.h"
#include "nav/search/lazy_buffer.h"
#include "tests/nav/ascii_grid.h"
#include "tests/nav/search/search_checks.h"

namespace walk::nav {
namespace {

using testing::AsciiWorld;
using testing::Shortest;
using testing::SurfaceAt;

SearchResult Walk(const World& world, std::uint32_t x0, std::uint32_t y0, std::uint32_t x1,
                  std::uint32_t y1) {
  FineGridAStar astar;
  const Continent& c = world.continents[0];
  return astar.FindWalk(c, world.column_yards, Shortest(world), SurfaceAt(c, x0, y0),
                        SurfaceAt(c, x1, y1));
}

TEST(WalkerTest, OctileCostsOneAndRootTwo) {
  const World world = AsciiWorld({
      ".....",
      ".....",
      ".....",
  });
  const SearchResult r = Walk(world, 0, 0, 4, 2);
  ASSERT_TRUE(r.found);
  EXPECT_NEAR(r.yards, 2 + 2 * std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(r.seconds, r.yards / 7.0, 1e-12);  // shortest: 7 yards a second
}

TEST(WalkerTest, NeverCutsABlockedCorner) {
  // The diagonal from (0,0) to (1,1) would squeeze past the wall corner at (1,0).
  const World world = AsciiWorld({
      ".@",
      "..",
  });
  const SearchResult r = Walk(world, 0, 0, 1, 1);
  ASSERT_TRUE(r.found);
  EXPECT_DOUBLE_EQ(r.yards, 2.0);
}

TEST(WalkerTest, DiagonalWallOneSegmentThickIsSealed) {
  const World world = AsciiWorld({
      "...@",
      "..@.",
      ".@..",
      "@...",
  });
  const SearchResult r = Walk(world, 0, 0, 3, 3);
  EXPECT_FALSE(r.found);
  EXPECT_GT(r.stats.nodes_expanded, 0u);
}

TEST(WalkerTest, GoesRoundAWall) {
  const World world = AsciiWorld({
      ".......",
      "...@...",
      "...@...",
      "...@...",
      ".......",
  });
  const SearchResult r = Walk(world, 1, 2, 5, 2);
  ASSERT_TRUE(r.found);
  // Over the top: the diagonals beside the wall's end would cut its corner, so the way is
  // (1,2) diag (2,1), up, east, east, diag (5,1), down: 4 + 2 sqrt(2).
  EXPECT_NEAR(r.yards, 4 + 2 * std::sqrt(2.0), 1e-9);
  const SearchResult oracle =
      ReferenceDijkstra(world.continents[0], 1.0, Shortest(world),
                        SurfaceAt(world.continents[0], 1, 2), SurfaceAt(world.continents[0], 5, 2));
  EXPECT_NEAR(r.yards, oracle.yards, 1e-9);
}

TEST(WalkerTest, BuffersAreReusedAcrossSearchesAndContinents) {
  FineGridAStar astar;
  const World small = AsciiWorld({"...", "..."});
  const World large = AsciiWorld({"........", "........", "........"});
  for (int round = 0; round < 3; ++round) {
    for (const World* w : {&small, &large}) {
      const Continent& c = w->continents[0];
      const SearchResult r = astar.FindWalk(c, 1.0, Shortest(*w), SurfaceAt(c, 0, 0),
                                            SurfaceAt(c, c.width_columns - 1, 1));
      ASSERT_TRUE(r.found);
      const SearchResult oracle = ReferenceDijkstra(c, 1.0, Shortest(*w), SurfaceAt(c, 0, 0),
                                                    SurfaceAt(c, c.width_columns - 1, 1));
      EXPECT_DOUBLE_EQ(r.seconds, oracle.seconds);
    }
  }
}

// walkd's memory governor recalls every searcher's buffers: each hands them back once, before
// its next search, and answers as before.
TEST(WalkerTest, HandsItsBuffersBackOnceWhenRecalled) {
  const World w = AsciiWorld({"........", "........", "........"});
  const Continent& c = w.continents[0];
  const SurfaceId from = SurfaceAt(c, 0, 0), to = SurfaceAt(c, c.width_columns - 1, 2);
  const double want = ReferenceDijkstra(c, 1.0, Shortest(w), from, to).seconds;
  RecallSearchBuffers();  // before a searcher's first search: nothing of its to hand back
  FineGridAStar a, b;
  EXPECT_DOUBLE_EQ(a.FindWalk(c, 1.0, Shortest(w), from, to).seconds, want);
  EXPECT_EQ(a.releases(), 0u);
  RecallSearchBuffers();
  for (int k = 0; k < 3; ++k) {
    EXPECT_DOUBLE_EQ(a.FindWalk(c, 1.0, Shortest(w), from, to).seconds, want);
    EXPECT_DOUBLE_EQ(b.FindWalk(c, 1.0, Shortest(w), from, to).seconds, want);
  }
  EXPECT_EQ(a.releases(), 1u);
  EXPECT_EQ(b.releases(), 0u);  // its buffers were made after the recall
}

// LazyBuffersResidentBytes counts the pages a buffer's writes mapped, and none once handed back.
TEST(LazyBufferTest, ResidentBytesFollowTouchedPages) {
  const std::uint64_t before = LazyBuffersResidentBytes();
  {
    LazyBuffer<std::uint64_t> buffer;
    buffer.Reset(std::size_t{64} << 20);  // 512 MB of address space, none of it resident
    EXPECT_LT(LazyBuffersResidentBytes(), before + (std::uint64_t{1} << 20));
    for (std::size_t i = 0; i < 100; ++i) buffer[i * 4096] = 1;  // 100 pages, 32 KB apart
    const std::uint64_t touched = LazyBuffersResidentBytes() - before;
    EXPECT_GE(touched, 100u * 4096);
    EXPECT_LE(touched, 100u * 4096 * 16);  // a page each, or a little more around them
    buffer.Release();
    EXPECT_LT(LazyBuffersResidentBytes(), before + 4096);
    EXPECT_EQ(buffer[4096], 0u);
  }
  EXPECT_LE(LazyBuffersResidentBytes(), before);  // unmapped: no longer counted
}

// Random multi-floor worlds: columns of 0-3 surfaces at assorted heights (steps, jumps, falls),
// some water, steep, climb, forest, road and town ground, three zones, and a few lifts.
World RandomWorld(std::mt19937_64& random, std::uint32_t width, std::uint32_t height) {
  ContinentBuilder builder(0, width, height);
  std::uniform_int_distribution<int> floors(0, 3), pick(0, 19);
  const float heights[] = {0.0f, 0.3f, 0.5f, 1.2f, 2.8f, 3.1f, 6.0f};
  for (std::uint32_t y = 0; y < height; ++y) {
    for (std::uint32_t x = 0; x < width; ++x) {
      const int n = floors(random) == 0 ? 0 : 1 + floors(random) % 2;
      float z = heights[pick(random) % 4];
      for (int k = 0; k < n; ++k) {
        SurfaceSpec s;
        s.height_yards = z;
        const int kind = pick(random);
        if (kind == 0) s.flags = kFlagWater;
        if (kind == 1) s.flags = kFlagTerrain | kFlagSteep;
        if (kind == 2) s.flags = kFlagTerrain | kFlagClimb;
        if (kind == 3) s.flags = kFlagTerrain | kFlagForest;
        if (kind == 4 || kind == 5) s.marks = kMarkRoad;
        if (kind == 6) s.marks = kMarkHubA;
        if (kind == 7) s.marks = kMarkHubB;
        s.zone = static_cast<std::uint16_t>(1 + (x * 3) / width);
        builder.AddSurface(x, y, s);
        z += heights[4 + pick(random) % 3];
      }
      if (n == 2 && pick(random) == 0) builder.AddLift(x, y, -100.0f, 100.0f);
    }
  }
  auto built = builder.Build(LinkRules{});
  EXPECT_TRUE(built.ok()) << built.status();
  World world;
  world.column_yards = 1.5;
  world.continents.push_back(*std::move(built));
  world.zones = {{1, "low", 1, 10}, {2, "middle", 20, 30}, {3, "high", 45, 55}};
  AssignContentIds(world);
  return world;
}

TEST(WalkerTest, AgreesWithPlainDijkstraOnRandomMultiFloorGrids) {
  std::mt19937_64 random(12345);
  FineGridAStar astar;
  int found = 0, compared = 0, lifts = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const World world = RandomWorld(random, 12 + trial % 20, 9 + trial % 13);
    const Continent& c = world.continents[0];
    lifts += static_cast<int>(c.lifts.size());
    if (c.surface_count() < 2) continue;
    const Metric metrics[] = {Metric(world, *FindProfile("shortest"), 0),
                              Metric(world, *FindProfile("faction-a"), 10),
                              Metric(world, *FindProfile("faction-b-heavy"), 30),
                              Metric(world, *FindProfile("neutral"), 0)};
    std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
    for (int pair = 0; pair < 25; ++pair) {
      const SurfaceId from = any(random), to = any(random);
      for (const Metric& metric : metrics) {
        const SearchResult a = astar.FindWalk(c, world.column_yards, metric, from, to);
        const SearchResult b = ReferenceDijkstra(c, world.column_yards, metric, from, to);
        ASSERT_EQ(a.found, b.found)
            << "trial " << trial << " pair " << from << "->" << to << " " << metric.profile().name;
        ++compared;
        if (!a.found) continue;
        ++found;
        EXPECT_NEAR(a.seconds, b.seconds, 1e-9 * std::max(1.0, b.seconds)) << metric.profile().name;
        if (metric.profile().name == "shortest" && c.lifts.empty()) {
          EXPECT_NEAR(a.yards, b.yards, 1e-9 * std::max(1.0, b.yards));
        }
        EXPECT_LE(a.stats.nodes_expanded, b.stats.nodes_expanded + 1);
      }
    }
  }
  EXPECT_GT(found, 300);  // the comparison must have had walks to compare
  EXPECT_GT(compared, 3000);
  EXPECT_GT(lifts, 0);
}

TEST(WalkerTest, ReturnsThePathItMeasured) {
  const World world = AsciiWorld({"....", ".@@.", "...."});
  const Continent& c = world.continents[0];
  FineGridAStar astar;
  std::vector<PathStep> path;
  const SearchResult r =
      astar.FindWalk(c, 1.0, Shortest(world), SurfaceAt(c, 0, 1), SurfaceAt(c, 3, 1), &path);
  ASSERT_TRUE(r.found);
  ASSERT_GE(path.size(), 2u);
  EXPECT_EQ(path.front().surface, SurfaceAt(c, 0, 1));
  EXPECT_EQ(path.front().via, PathStep::kViaStart);
  EXPECT_EQ(path.back().surface, SurfaceAt(c, 3, 1));
  EXPECT_DOUBLE_EQ(r.yards, 5.0);  // round the wall; both diagonals past it would cut a corner
  EXPECT_EQ(path.size(), 6u);
}

}  // namespace
}  // namespace walk::nav

namespace walk::nav {
namespace {

// An open 200 x 200 map with a walled box round (190, 190): a search from a corner into the
// box expands all 40,000 surfaces outside it before it knows there is no walk.
World OpenMap() {
  std::vector<std::string> rows(200, std::string(200, '.'));
  for (int i = 185; i <= 195; ++i) {
    rows[185][i] = rows[195][i] = rows[i][185] = rows[i][195] = '#';
  }
  return testing::AsciiWorld(rows);
}

TEST(SearchStopTest, ACancelledSearchStopsAtItsNextPoll) {
  const World world = OpenMap();
  const Continent& c = world.continents[0];
  FineGridAStar astar;
  int asked = 0;
  SearchStop stop;
  stop.wanted = [&]() -> absl::Status {
    return ++asked >= 2 ? absl::CancelledError("gone") : absl::OkStatus();
  };
  const SearchResult r = astar.FindWalk(c, world.column_yards, Shortest(world), SurfaceAt(c, 0, 0),
                                        SurfaceAt(c, 190, 190), nullptr, UINT64_MAX, &stop);
  EXPECT_FALSE(r.found);
  EXPECT_EQ(r.stopped.code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(r.stats.nodes_expanded, 2 * SearchStop::kPollEvery) << "stopped at the second poll";
  // The same search unstopped expands everything, and the searcher is reusable after a stop.
  const SearchResult whole = astar.FindWalk(c, world.column_yards, Shortest(world),
                                            SurfaceAt(c, 0, 0), SurfaceAt(c, 190, 190));
  EXPECT_FALSE(whole.found);
  EXPECT_TRUE(whole.stopped.ok());
  EXPECT_GT(whole.stats.nodes_expanded, 30000u);
  EXPECT_TRUE(astar
                  .FindWalk(c, world.column_yards, Shortest(world), SurfaceAt(c, 0, 0),
                            SurfaceAt(c, 199, 199))
                  .found);
}

TEST(SearchStopTest, ABudgetAndAPassedDeadlineStopASearch) {
  const World world = OpenMap();
  const Continent& c = world.continents[0];
  FineGridAStar astar;
  SearchStop budget;
  budget.budget = 10000;
  SearchResult r = astar.FindWalk(c, world.column_yards, Shortest(world), SurfaceAt(c, 0, 0),
                                  SurfaceAt(c, 190, 190), nullptr, UINT64_MAX, &budget);
  EXPECT_EQ(r.stopped.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(r.stopped.message().find("--max-search-expansions"), std::string::npos);
  EXPECT_LE(r.stats.nodes_expanded, budget.budget + SearchStop::kPollEvery);
  SearchStop late;
  late.deadline = SearchStop::Clock::now() - std::chrono::seconds(1);
  r = astar.FindWalk(c, world.column_yards, Shortest(world), SurfaceAt(c, 0, 0),
                     SurfaceAt(c, 190, 190), nullptr, UINT64_MAX, &late);
  EXPECT_EQ(r.stopped.code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(r.stats.nodes_expanded, SearchStop::kPollEvery);
  // A short walk never reaches a poll: a stop costs it nothing.
  r = astar.FindWalk(c, world.column_yards, Shortest(world), SurfaceAt(c, 0, 0), SurfaceAt(c, 5, 5),
                     nullptr, UINT64_MAX, &late);
  EXPECT_TRUE(r.found);
}

}  // namespace
}  // namespace walk::nav
