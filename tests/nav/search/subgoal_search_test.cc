#include "nav/search/subgoal_search.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nav/cch/subgoal_hierarchies.h"
#include "nav/cch/subgoal_hierarchy.h"
#include "nav/check/reference_dijkstra.h"
#include "nav/cost/metric.h"
#include "nav/import/movingai.h"
#include "nav/query/walk_pipeline.h"
#include "nav/search/jump_point_search.h"
#include "tests/nav/ascii_grid.h"
#include "tests/nav/search/search_checks.h"

namespace walk::nav {
namespace {

using testing::AsciiWorld;
using testing::ExpectWalk;
using testing::SharedDataDir;
using testing::Shortest;
using testing::SurfaceAt;

// A maze of one-cell corridors and one-cell walls (a randomized depth-first carving), as the
// MovingAI maze512-1 maps: every bend and junction is a subgoal.
std::vector<std::string> MazeRows(std::mt19937& rng, int cells_w, int cells_h) {
  const int w = 2 * cells_w + 1, h = 2 * cells_h + 1;
  std::vector<std::string> rows(h, std::string(w, '@'));
  std::vector<std::pair<int, int>> stack = {{0, 0}};
  rows[1][1] = '.';
  while (!stack.empty()) {
    const auto [cx, cy] = stack.back();
    std::vector<std::pair<int, int>> next;
    for (const auto& [dx, dy] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
      const int nx = cx + dx, ny = cy + dy;
      if (nx >= 0 && ny >= 0 && nx < cells_w && ny < cells_h && rows[2 * ny + 1][2 * nx + 1] == '@')
        next.emplace_back(nx, ny);
    }
    if (next.empty()) {
      stack.pop_back();
      continue;
    }
    const auto [nx, ny] = next[rng() % next.size()];
    rows[cy + ny + 1][cx + nx + 1] = '.';
    rows[2 * ny + 1][2 * nx + 1] = '.';
    stack.emplace_back(nx, ny);
  }
  return rows;
}

// Rooms of `room` x `room` cells behind one-cell walls, joined by one-cell doors placed at
// random (as the MovingAI 8room maps), with a few random blocks inside.
std::vector<std::string> RoomRows(std::mt19937& rng, int rooms_w, int rooms_h, int room) {
  const int w = rooms_w * (room + 1) + 1, h = rooms_h * (room + 1) + 1;
  std::vector<std::string> rows(h, std::string(w, '.'));
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (x % (room + 1) == 0 || y % (room + 1) == 0)
        rows[y][x] = '@';
      else if (rng() % 40 == 0)
        rows[y][x] = '@';
    }
  }
  for (int ry = 0; ry < rooms_h; ++ry) {
    for (int rx = 0; rx < rooms_w; ++rx) {
      const int x0 = rx * (room + 1), y0 = ry * (room + 1);
      if (rx + 1 < rooms_w && rng() % 4 != 0) rows[y0 + 1 + rng() % room][x0 + room + 1] = '.';
      if (ry + 1 < rooms_h && rng() % 4 != 0) rows[y0 + room + 1][x0 + 1 + rng() % room] = '.';
    }
  }
  return rows;
}

// A w x h map with each cell a wall with probability `density`.
std::vector<std::string> SpeckledRows(std::mt19937& rng, int w, int h, double density) {
  std::vector<std::string> rows(h, std::string(w, '.'));
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (auto& row : rows) {
    for (char& cell : row) cell = unit(rng) < density ? '@' : '.';
  }
  return rows;
}

// Random pairs of `rows` against the reference Dijkstra and jump point search; returns how many
// had a walk.
int CheckPairs(const std::vector<std::string>& rows, std::mt19937& rng, int pairs, bool perfect) {
  const World world = AsciiWorld(rows);
  const Continent& c = world.continents[0];
  if (c.surface_count() < 2) return 0;
  const auto grid = JumpGrid::Build(c);
  EXPECT_NE(grid, nullptr);
  const auto graph = SubgoalGraph::Build(*grid);
  SubgoalHierarchyOptions options;
  options.perfect = perfect;
  const auto hierarchy = SubgoalHierarchy::Build(*graph, options);
  const Metric metric = Shortest(world);
  double multiplier = 0.0;
  EXPECT_TRUE(grid->PricesUniformly(metric, &multiplier));
  const double per_column = metric.seconds_per_column() * multiplier;
  SubgoalSearch search;
  SubgoalHierarchySearch hierarchy_search;
  JumpPointSearch jps;
  std::vector<PathStep> steps, hierarchy_steps;
  int found = 0;
  for (int pair = 0; pair < pairs; ++pair) {
    const SurfaceId a = rng() % c.surface_count(), b = rng() % c.surface_count();
    const SearchResult want = ReferenceDijkstra(c, world.column_yards, metric, a, b);
    const SearchResult jumps = jps.FindWalk(*grid, c, world.column_yards, per_column, a, b);
    const SearchResult got =
        search.FindWalk(*graph, c, world.column_yards, per_column, a, b, &steps);
    EXPECT_EQ(got.found, want.found) << "pair " << a << " -> " << b;
    EXPECT_EQ(got.found, jumps.found);
    const SearchResult fast = hierarchy_search.FindWalk(*hierarchy, c, world.column_yards,
                                                        per_column, a, b, &hierarchy_steps);
    EXPECT_EQ(fast.found, want.found) << "pair " << a << " -> " << b;
    if (!want.found || !got.found || !fast.found) continue;
    EXPECT_NEAR(fast.seconds, want.seconds, 1e-9 * std::max(1.0, want.seconds))
        << "pair " << a << " -> " << b;
    ExpectWalk(c, hierarchy_steps, a, b, fast.yards);
    ++found;
    EXPECT_NEAR(got.seconds, want.seconds, 1e-9 * std::max(1.0, want.seconds))
        << "pair " << a << " -> " << b;
    EXPECT_NEAR(got.seconds, jumps.seconds, 1e-9 * std::max(1.0, want.seconds));
    ExpectWalk(c, steps, a, b, got.yards);
  }
  return found;
}

TEST(SubgoalSearchTest, TheSubgoalsAreTheConvexCornersOfBlockedCells) {
  // Each blocked cell has four convex corners with both straight sides free.
  const World world = AsciiWorld({
      ".....",  //
      ".@...",  //
      "...@.",  //
      ".....",  //
  });
  const auto grid = JumpGrid::Build(world.continents[0]);
  ASSERT_NE(grid, nullptr);
  const auto graph = SubgoalGraph::Build(*grid);
  std::vector<std::pair<int, int>> corners;
  for (std::uint32_t u = 0; u < graph->node_count(); ++u)
    corners.emplace_back(graph->x(u) - 1, graph->y(u) - 1);
  EXPECT_EQ(corners, (std::vector<std::pair<int, int>>{
                         {0, 0}, {2, 0}, {2, 1}, {4, 1}, {0, 2}, {2, 2}, {2, 3}, {4, 3}}));
}

TEST(SubgoalSearchTest, MazesCostWhatTheReferenceDijkstraCosts) {
  std::mt19937 rng(20261204);
  int found = 0;
  for (int trial = 0; trial < 20; ++trial) {
    found += CheckPairs(MazeRows(rng, 3 + trial, 2 + trial / 2), rng, 60, trial % 2 == 0);
  }
  EXPECT_GT(found, 1000);
}

TEST(SubgoalSearchTest, RoomsCostWhatTheReferenceDijkstraCosts) {
  std::mt19937 rng(20261205);
  int found = 0;
  for (int trial = 0; trial < 20; ++trial) {
    found += CheckPairs(RoomRows(rng, 2 + trial % 5, 2 + trial % 3, 3 + trial % 6), rng, 60,
                        trial % 2 == 0);
  }
  EXPECT_GT(found, 800);
}

TEST(SubgoalSearchTest, RandomGridsCostWhatTheReferenceDijkstraCosts) {
  std::mt19937 rng(20261206);
  int found = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int w = 2 + static_cast<int>(rng() % 40), h = 2 + static_cast<int>(rng() % 40);
    const double density = std::vector<double>{0.0, 0.1, 0.2, 0.3, 0.45}[trial % 5];
    found += CheckPairs(SpeckledRows(rng, w, h, density), rng, 40, trial % 2 == 0);
  }
  EXPECT_GT(found, 5000);
}

TEST(SubgoalSearchTest, UnreachableAndSameCell) {
  const World world = AsciiWorld({
      "..@..",  //
      "..@..",  //
      "..@..",  //
  });
  const Continent& c = world.continents[0];
  const auto grid = JumpGrid::Build(c);
  const auto graph = SubgoalGraph::Build(*grid);
  SubgoalSearch search;
  std::vector<PathStep> steps;
  EXPECT_FALSE(search.FindWalk(*graph, c, 1.0, 1.0, SurfaceAt(c, 0, 0), SurfaceAt(c, 4, 2)).found);
  const SearchResult same =
      search.FindWalk(*graph, c, 1.0, 1.0, SurfaceAt(c, 1, 1), SurfaceAt(c, 1, 1), &steps);
  EXPECT_TRUE(same.found);
  EXPECT_EQ(same.yards, 0.0);
  ASSERT_EQ(steps.size(), 1u);
}

TEST(SubgoalSearchTest, OneQueryServesHierarchiesBuiltOneAfterAnother) {
  // Each hierarchy is freed before the next is built, which may stand at its address.
  std::mt19937 rng(20261208);
  SubgoalHierarchySearch search;
  for (int trial = 0; trial < 12; ++trial) {
    const World world = AsciiWorld(MazeRows(rng, 4 + 3 * (trial % 4), 3 + trial % 5));
    const Continent& c = world.continents[0];
    const auto grid = JumpGrid::Build(c);
    const auto graph = SubgoalGraph::Build(*grid);
    const auto hierarchy = SubgoalHierarchy::Build(*graph);
    ASSERT_NE(hierarchy, nullptr);
    const Metric metric = Shortest(world);
    for (int pair = 0; pair < 20; ++pair) {
      const SurfaceId a = rng() % c.surface_count(), b = rng() % c.surface_count();
      const SearchResult want = ReferenceDijkstra(c, world.column_yards, metric, a, b);
      const SearchResult got =
          search.FindWalk(*hierarchy, c, world.column_yards, metric.seconds_per_column(), a, b);
      ASSERT_EQ(got.found, want.found);
      EXPECT_NEAR(got.seconds, want.seconds, 1e-9 * std::max(1.0, want.seconds));
    }
  }
}

TEST(SubgoalSearchTest, AHierarchyOverItsArcBudgetIsRefused) {
  std::mt19937 rng(20261207);
  const World world = AsciiWorld(SpeckledRows(rng, 30, 30, 0.2));
  const auto grid = JumpGrid::Build(world.continents[0]);
  const auto graph = SubgoalGraph::Build(*grid);
  SubgoalHierarchyOptions options;
  options.max_graph_arcs = graph->arc_count() - 1;
  std::string why_not;
  EXPECT_EQ(SubgoalHierarchy::Build(*graph, options, &why_not), nullptr);
  EXPECT_NE(why_not.find("subgoal arcs, over"), std::string::npos) << why_not;
  options.max_graph_arcs = graph->arc_count();
  options.max_arcs = graph->arc_count() / 2 - 1;  // fewer than the graph's own edges
  EXPECT_EQ(SubgoalHierarchy::Build(*graph, options, &why_not), nullptr);
  EXPECT_NE(why_not.find("hierarchy arcs, over"), std::string::npos) << why_not;
  options.max_arcs = graph->arc_count() * graph->arc_count();
  EXPECT_NE(SubgoalHierarchy::Build(*graph, options), nullptr);
}

TEST(SubgoalSearchTest, TheWalkPipelineAnswersByTheHierarchyUnderAuto) {
  // walkd's pipeline on a maze: auto walks go by the hierarchy, forced grid walks by jump points,
  // at the same cost and length, every cell stepped. Half the places are walls (no surface).
  std::mt19937 rng(20261209);
  const World world = AsciiWorld(MazeRows(rng, 20, 14));
  const Metric metric = Shortest(world);
  const JumpGrids grids(world);
  const SubgoalHierarchies hierarchies(world, grids);
  ASSERT_NE(hierarchies.For(world.continents[0].id), nullptr) << hierarchies.note();
  EXPECT_NE(hierarchies.note().find("continent 0: subgoal hierarchy"), std::string::npos)
      << hierarchies.note();
  Searchers searchers;
  WalkOptions options;
  options.jump_grids = &grids;
  options.subgoal_hierarchies = &hierarchies;
  options.want_path = true;
  WalkOptions forced = options;
  forced.search = SearchMode::kGrid;
  int by_hierarchy = 0;
  for (int pair = 0; pair < 200; ++pair) {
    const Place from = testing::At(rng() % 41, rng() % 29),
                to = testing::At(rng() % 41, rng() % 29);
    auto got = AnswerWalk(world, metric, from, to, searchers, options);
    auto want = AnswerWalk(world, metric, from, to, searchers, forced);
    ASSERT_TRUE(got.ok() && want.ok());
    ASSERT_EQ(got->status, want->status);
    if (got->status != WalkStatus::kOk || got->method == Method::kStraightLine) continue;
    EXPECT_EQ(want->method, Method::kJumpPoints);
    EXPECT_EQ(got->method, Method::kSubgoalHierarchy);
    EXPECT_NEAR(got->seconds, want->seconds, 1e-9 * std::max(1.0, want->seconds));
    EXPECT_NEAR(got->yards, want->yards, 1e-9 * std::max(1.0, want->yards));
    ASSERT_TRUE(got->path.has_value() && want->path.has_value());
    EXPECT_EQ(got->path->steps, want->path->steps) << "every cell, on a maze's one way";
    ++by_hierarchy;
  }
  EXPECT_GT(by_hierarchy, 20);
}

// The MovingAI maps: every Nth scenario against its optimal length and jump point search.
class SubgoalSearchMapTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SubgoalSearchMapTest, ScenariosMatchTheirOptimalLengthAndJumpPoints) {
  const std::string map_path = SharedDataDir() + "/movingai/" + GetParam();
  auto map = ReadMovingAiMap(map_path);
  auto file = ReadScenarios(map_path + ".scen");
  if (!map.ok() || !file.ok()) GTEST_SKIP() << map_path << " or its .scen is absent";
  auto world = WorldFromMovingAi(*map);
  ASSERT_TRUE(world.ok()) << world.status();
  const Continent& c = world->continents[0];
  const auto grid = JumpGrid::Build(c);
  ASSERT_NE(grid, nullptr);
  const auto graph = SubgoalGraph::Build(*grid);
  // Null where its arcs are over budget (the random map): the A* alone is checked there.
  std::string why_not;
  const auto hierarchy = SubgoalHierarchy::Build(*graph, {}, &why_not);
  std::printf("%s: %u subgoals, %llu arcs, built in %.1f ms (jump tables %.1f ms)\n",
              GetParam().c_str(), graph->node_count(),
              static_cast<unsigned long long>(graph->arc_count()), graph->build_seconds() * 1e3,
              grid->build_seconds() * 1e3);
  if (hierarchy != nullptr) {
    std::printf("hierarchy built in %.1f ms\n", hierarchy->build_seconds() * 1e3);
  } else {
    std::printf("no hierarchy: %s\n", why_not.c_str());
  }
  SubgoalSearch search;
  SubgoalHierarchySearch hierarchy_search;
  JumpPointSearch jps;
  std::vector<PathStep> steps;
  int checked = 0;
  for (std::size_t i = 0; i < file->scenarios.size(); i += 50) {
    const Scenario& s = file->scenarios[i];
    const SurfaceId a = SurfaceAt(c, s.start_x, s.start_y), b = SurfaceAt(c, s.goal_x, s.goal_y);
    const SearchResult got = search.FindWalk(*graph, c, world->column_yards, 1.0, a, b, &steps);
    const SearchResult jumps = jps.FindWalk(*grid, c, world->column_yards, 1.0, a, b);
    ASSERT_TRUE(got.found) << "scenario " << i;
    EXPECT_NEAR(got.yards, s.optimal_length, file->Tolerance(s.optimal_length)) << "scenario " << i;
    EXPECT_NEAR(got.yards, jumps.yards, 1e-9 * std::max(1.0, jumps.yards)) << "scenario " << i;
    ExpectWalk(c, steps, a, b, got.yards);
    ++checked;
    if (hierarchy == nullptr) continue;
    const SearchResult fast =
        hierarchy_search.FindWalk(*hierarchy, c, world->column_yards, 1.0, a, b, &steps);
    ASSERT_TRUE(fast.found) << "scenario " << i;
    EXPECT_NEAR(fast.yards, jumps.yards, 1e-9 * std::max(1.0, jumps.yards)) << "scenario " << i;
    ExpectWalk(c, steps, a, b, fast.yards);
  }
  EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(Maps, SubgoalSearchMapTest,
                         ::testing::Values("mazes/maze512-1-0.map", "rooms/8room_000.map",
                                           "random/random512-10-0.map", "dao/arena.map"),
                         testing::FileParamName());

}  // namespace
}  // namespace walk::nav
