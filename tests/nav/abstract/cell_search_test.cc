// CellSearch against the textbook Dijkstra (nav/check/reference_dijkstra.h): a map that is one
// tile, searched as one cell, so no way leaves it. Without lifts a plain search files its surfaces
// in Dial's buckets (nav/search/bucket_queue.h), which must settle exactly what a heap settles.
#include "nav/abstract/cell_search.h"

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nav/check/reference_dijkstra.h"
#include "nav/search/bucket_queue.h"
#include "tests/nav/ascii_grid.h"

namespace walk::nav {
namespace {

TEST(CellSearchTest, PlainSearchesCostWhatTheTextbookDijkstraCosts) {
  // 256 x 256 columns of ground, water, swamp and walls: steps of many prices.
  std::mt19937 random(5);
  std::vector<std::string> rows(kTileColumns, std::string(kTileColumns, '.'));
  for (auto& row : rows) {
    for (char& ch : row) {
      const unsigned r = random() % 20;
      ch = r < 4 ? '@' : r < 6 ? 'W' : r < 8 ? 'S' : '.';
    }
  }
  const World world = testing::AsciiWorld(rows);
  const Continent& c = world.continents[0];
  ASSERT_TRUE(c.lifts.empty());  // so every plain search below takes the buckets
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  CellSearch search;
  int compared = 0;
  for (const char* profile : {"neutral", "shortest"}) {
    const Metric metric(world, *FindProfile(profile), 0);
    for (int origin = 0; origin < 6; ++origin) {
      const SurfaceId s = any(random);
      std::vector<SurfaceId> targets;
      for (int k = 0; k < 8; ++k) targets.push_back(any(random));
      const bool backward = origin % 2 == 1;
      search.Run(c, CellOf(c, kTileColumns, s), metric,
                 {.origin = s, .backward = backward, .targets = targets});
      ASSERT_TRUE(search.used_buckets());
      for (const SurfaceId t : targets) {
        const SearchResult exact = backward
                                       ? ReferenceDijkstra(c, world.column_yards, metric, t, s)
                                       : ReferenceDijkstra(c, world.column_yards, metric, s, t);
        ASSERT_EQ(search.Settled(t), exact.found)
            << profile << ": " << s << (backward ? " <- " : " -> ") << t;
        if (!exact.found) continue;
        ++compared;
        EXPECT_NEAR(search.Seconds(t), exact.seconds, 1e-9 * exact.seconds)
            << profile << ": " << s << (backward ? " <- " : " -> ") << t;
      }
    }
  }
  EXPECT_GT(compared, 60);
}

TEST(BucketQueueTest, TakesBucketsInOrderAcrossWideSpans) {
  // Keys as a search makes them: each pushed at least one width above the last taken, some
  // thousands of widths above (a costly step), so the ring widens while entries wait in it.
  std::mt19937 random(9);
  BucketQueue queue;
  for (int round = 0; round < 3; ++round) {  // Reset between searches, entries left behind
    const double width = 0.25;
    queue.Reset(width);
    double last = 0.0;
    std::size_t waiting = 0, taken = 0;
    const std::uint32_t ids = 1'000'000 * round;  // this round's ids: none may come back later
    queue.Push(ids, 0.0);
    ++waiting;
    while (!queue.empty() && taken < 5000) {
      double key;
      ASSERT_EQ(queue.PopMin(&key) / 1'000'000, static_cast<std::uint32_t>(round));
      --waiting;
      ++taken;
      ASSERT_GE(static_cast<std::uint64_t>(key / width), static_cast<std::uint64_t>(last / width));
      last = key;
      for (int k = 1 + random() % 2; k > 0; --k) {
        const double step = width * (1.0 + (random() % 8 == 0 ? random() % 5000 : random() % 4));
        queue.Push(ids + static_cast<std::uint32_t>(taken), key + step);
        ++waiting;
      }
    }
    EXPECT_EQ(taken, 5000u);
    EXPECT_GT(waiting, 0u);  // left behind for Reset to clear
    EXPECT_FALSE(queue.empty());
  }
}

}  // namespace
}  // namespace walk::nav
