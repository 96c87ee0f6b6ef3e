#include "nav/search/jump_point_search.h"

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nav/check/reference_dijkstra.h"
#include "nav/cost/metric.h"
#include "nav/query/walk_pipeline.h"
#include "tests/nav/ascii_grid.h"
#include "tests/nav/search/search_checks.h"

namespace walk::nav {
namespace {

using testing::AsciiWorld;
using testing::ExpectWalk;
using testing::Shortest;
using testing::SurfaceAt;

// A w x h map with each cell a wall with probability `density`, and some straight walls with
// gaps (rooms), so jump points meet corridors, doorways and open ground.
std::vector<std::string> RandomRows(std::mt19937& rng, int w, int h, double density) {
  std::vector<std::string> rows(h, std::string(w, '.'));
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (auto& row : rows) {
    for (char& cell : row) cell = unit(rng) < density ? '@' : '.';
  }
  if (unit(rng) < 0.5 && w > 4) {
    const int x = 1 + static_cast<int>(rng() % (w - 2));
    for (int y = 0; y < h; ++y) rows[y][x] = (rng() % 5 == 0) ? '.' : '@';
  }
  return rows;
}

TEST(JumpPointSearchTest, RandomGridsCostWhatTheReferenceDijkstraCosts) {
  std::mt19937 rng(20261202);
  JumpPointSearch jps;
  std::vector<PathStep> steps;
  int compared = 0, found = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int w = 2 + static_cast<int>(rng() % 40), h = 2 + static_cast<int>(rng() % 40);
    const double density = std::vector<double>{0.0, 0.1, 0.2, 0.3, 0.45}[trial % 5];
    const World world = AsciiWorld(RandomRows(rng, w, h, density));
    const Continent& c = world.continents[0];
    if (c.surface_count() < 2) continue;
    std::string why;
    const auto grid = JumpGrid::Build(c, &why);
    ASSERT_NE(grid, nullptr) << why;
    const Metric metric = Shortest(world);
    double multiplier = 0.0;
    ASSERT_TRUE(grid->PricesUniformly(metric, &multiplier));
    for (int pair = 0; pair < 40; ++pair) {
      const SurfaceId a = rng() % c.surface_count(), b = rng() % c.surface_count();
      const SearchResult want = ReferenceDijkstra(c, world.column_yards, metric, a, b);
      const SearchResult got = jps.FindWalk(*grid, c, world.column_yards,
                                            metric.seconds_per_column() * multiplier, a, b, &steps);
      ++compared;
      ASSERT_EQ(got.found, want.found) << "trial " << trial << " pair " << a << " " << b;
      if (!want.found) continue;
      ++found;
      ASSERT_NEAR(got.seconds, want.seconds, 1e-9 * std::max(1.0, want.seconds))
          << "trial " << trial << " pair " << a << " " << b;
      EXPECT_NEAR(got.yards, want.yards, 1e-9 * std::max(1.0, want.yards));
      ExpectWalk(c, steps, a, b, got.yards);
    }
  }
  EXPECT_GT(found, compared / 3);
}

TEST(JumpPointSearchTest, EveryPairOfAWalledMap) {
  const World world = AsciiWorld({
      "..........@.....",
      ".@@@@@@...@..@..",
      ".@....@...@..@..",
      ".@.@@.@......@..",
      ".@.@..@@@@@..@..",
      "...@.........@..",
      "@@@@@@@@.@@@@@..",
      "................",
  });
  const Continent& c = world.continents[0];
  const auto grid = JumpGrid::Build(c);
  ASSERT_NE(grid, nullptr);
  const Metric metric = Shortest(world);
  JumpPointSearch jps;
  std::vector<PathStep> steps;
  for (SurfaceId a = 0; a < c.surface_count(); ++a) {
    for (SurfaceId b = 0; b < c.surface_count(); ++b) {
      const SearchResult want = ReferenceDijkstra(c, world.column_yards, metric, a, b);
      const SearchResult got =
          jps.FindWalk(*grid, c, world.column_yards, metric.seconds_per_column(), a, b, &steps);
      ASSERT_EQ(got.found, want.found);
      ASSERT_NEAR(got.seconds, want.seconds, 1e-9 * std::max(1.0, want.seconds)) << a << " " << b;
      ExpectWalk(c, steps, a, b, got.yards);
    }
  }
}

TEST(JumpPointSearchTest, WhatIsNotAPlainOctileGridIsRefused) {
  // Water is entered only from water: its links are not the plain rule.
  std::string why;
  EXPECT_EQ(JumpGrid::Build(AsciiWorld({"..WW", "..WW"}).continents[0], &why), nullptr);
  EXPECT_NE(why.find("link"), std::string::npos) << why;
}

TEST(JumpPointSearchTest, GroundPricedApartKeepsTheAStar) {
  World world = AsciiWorld({"....", "....", "...."});
  Continent& c = world.continents[0];
  c.flags[SurfaceAt(c, 2, 1)] |= kFlagSteep;
  const auto grid = JumpGrid::Build(c);
  ASSERT_NE(grid, nullptr);
  double multiplier = 0.0;
  EXPECT_TRUE(grid->PricesUniformly(Shortest(world), &multiplier));  // yards are yards
  EXPECT_FALSE(grid->PricesUniformly(Metric(world, *FindProfile("neutral"), 0), &multiplier));
}

TEST(JumpPointSearchTest, StopsWhenItsBudgetIsSpent) {
  // A goal walled in on rubble: the search would expand every jump point it reaches.
  std::mt19937 rng(3);
  std::vector<std::string> rows = RandomRows(rng, 256, 256, 0.3);
  rows[0][0] = '.';
  for (int y = 198; y <= 202; ++y) {
    for (int x = 198; x <= 202; ++x) rows[y][x] = (x == 200 && y == 200) ? '.' : '@';
  }
  const World world = AsciiWorld(rows);
  const Continent& c = world.continents[0];
  const auto grid = JumpGrid::Build(c);
  ASSERT_NE(grid, nullptr);
  SearchStop stop;
  stop.budget = 1;
  JumpPointSearch jps;
  const SearchResult r = jps.FindWalk(*grid, c, 1.0, 1.0, SurfaceAt(c, 0, 0),
                                      SurfaceAt(c, 200, 200), nullptr, UINT64_MAX, &stop);
  EXPECT_FALSE(r.found);
  EXPECT_EQ(r.stopped.code(), absl::StatusCode::kResourceExhausted) << r.stopped;
}

TEST(JumpPointSearchTest, TheWalkPipelineAnswersByJumpPoints) {
  std::mt19937 rng(7);
  const World world = AsciiWorld(RandomRows(rng, 48, 40, 0.25));
  const Metric metric = Shortest(world);
  const JumpGrids grids(world);
  ASSERT_NE(grids.For(world.continents[0].id), nullptr) << grids.note();
  Searchers searchers;
  FineGridAStar astar;
  WalkOptions options;
  options.search = SearchMode::kGrid;
  options.jump_grids = &grids;
  int by_jump_points = 0;
  for (int pair = 0; pair < 60; ++pair) {
    const Place from = testing::At(rng() % 48, rng() % 40),
                to = testing::At(rng() % 48, rng() % 40);
    auto fast = AnswerWalk(world, metric, from, to, searchers, options);
    auto exact = AnswerWalk(world, metric, from, to, astar, options);
    ASSERT_TRUE(fast.ok() && exact.ok());
    ASSERT_EQ(fast->status, exact->status);
    if (fast->status != WalkStatus::kOk) continue;
    EXPECT_NEAR(fast->seconds, exact->seconds, 1e-9 * std::max(1.0, exact->seconds));
    if (fast->method == Method::kJumpPoints) ++by_jump_points;
  }
  EXPECT_GT(by_jump_points, 20);
}

}  // namespace
}  // namespace walk::nav
