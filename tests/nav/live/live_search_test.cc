// The RTS A*: step prices (10 straight, 14 diagonal, +1 clearance, +1 turn), no corner cutting,
// the sealed diagonal wall, and an exact Dijkstra over (cell, arrival direction) states as the
// oracle on random small maps.
#include "nav/live/live_search.h"

#include <queue>
#include <random>

#include "gtest/gtest.h"
#include "tests/nav/live/ascii_live.h"
#include "tests/nav/live/live_oracle.h"

namespace walk::nav::live {
namespace {

using testing::AsciiLayers;
using testing::AsciiWorld;
using testing::DrawPath;
using Rows = std::vector<std::string>;

struct Found {
  SearchResult result;
  std::vector<Cell> cells;
};

Found Search(const LiveWorld& world, Cell a, Cell b, Passability p = Passability::kLight) {
  Found f;
  world.Inspect([&](const LiveGrid& grid, const Layers&) {
    LiveSearch search;
    f.result = search.FindPath(grid, a, b, p, &f.cells);
    if (f.result.found) {
      EXPECT_EQ(PriceCells(grid, f.cells, p), f.result.cost) << "the path is not worth its cost";
    }
  });
  return f;
}

int Turns(const std::vector<Cell>& cells) {
  int turns = 0;
  for (std::size_t k = 2; k < cells.size(); ++k) {
    turns += StepDirection(cells[k - 2], cells[k - 1]) != StepDirection(cells[k - 1], cells[k]);
  }
  return turns;
}

// The oracle (live_oracle.h) for a single body: every open cell, no extra price.
std::uint32_t OracleCost(const LiveGrid& grid, Cell start, Cell goal, Passability p) {
  return testing::OracleCost(
      grid, start, goal, p, [&](Cell c) { return grid.Open(c, p); },
      [](Cell) { return std::uint32_t{0}; });
}

TEST(LiveSearchTest, AStraightLineCostsTenAStep) {
  auto world = AsciiWorld({".......", ".......", "......."});
  const Found f = Search(*world, {0, 1}, {6, 1});
  ASSERT_TRUE(f.result.found);
  EXPECT_EQ(f.result.cost, 60u);
  EXPECT_EQ(DrawPath(*world, f.cells), (Rows{".......", "S*****G", "......."}));
}

TEST(LiveSearchTest, DiagonalsCostFourteenAndTurnsOne) {
  auto world = AsciiWorld({".......", ".......", ".......", "......."});
  // Three diagonals, three straight steps, one turn between them: a staircase costs more.
  const Found f = Search(*world, {0, 0}, {6, 3});
  ASSERT_TRUE(f.result.found);
  EXPECT_EQ(f.result.cost, 3u * 14 + 3u * 10 + 1);
  EXPECT_EQ(Turns(f.cells), 1);
  EXPECT_EQ(OctileCost({0, 0}, {6, 3}), 72u);  // the heuristic: the same without the turn
}

TEST(LiveSearchTest, NeverCutsABlockedCorner) {
  auto world = AsciiWorld({".@", ".."});
  const Found f = Search(*world, {0, 0}, {1, 1});
  ASSERT_TRUE(f.result.found);
  // South then east, both cells touching the blocked one, and a turn: 10+1 + 10+1 + 1.
  EXPECT_EQ(f.result.cost, 23u);
  EXPECT_EQ(DrawPath(*world, f.cells), (Rows{"S#", "*G"}));
}

TEST(LiveSearchTest, ClearanceIsPricedNeverRequired) {
  auto world = AsciiWorld({"@@@@@", ".....", "@@@@@"});
  const Found f = Search(*world, {0, 1}, {4, 1});
  ASSERT_TRUE(f.result.found);
  EXPECT_EQ(f.result.cost, 44u);  // a one-cell gap is still a road
}

TEST(LiveSearchTest, TakesTheMiddleOfACorridor) {
  auto world = AsciiWorld({"@@@@@@@@@", ".........", ".........", ".........", "@@@@@@@@@"});
  const Found f = Search(*world, {0, 2}, {8, 2});
  ASSERT_TRUE(f.result.found);
  EXPECT_EQ(f.result.cost, 80u);
  EXPECT_EQ(DrawPath(*world, f.cells),
            (Rows{"#########", ".........", "S*******G", ".........", "#########"}));
}

TEST(LiveSearchTest, GoesRoundANotchRatherThanThreadingIt) {
  // The RTS specification's A* figure. Threading the notch (S * * down the gap, as the figure draws
  // it) costs 103 at best: every cell in it touches the walls and it turns five times. Going round
  // costs 4 steps south and 5 east, each cell touching a wall (+1), and one turn: 44 + 55 + 1 =
  // 100.
  auto world = AsciiWorld(
      {"........", "........", "..@.@@..", "..@..@..", "..@@.@..", "........", "........"});
  const Found f = Search(*world, {1, 1}, {6, 5});
  ASSERT_TRUE(f.result.found);
  world->Inspect([&](const LiveGrid& grid, const Layers&) {
    EXPECT_EQ(f.result.cost, OracleCost(grid, {1, 1}, {6, 5}, Passability::kLight));
    const std::vector<Cell> notch = {{1, 1}, {2, 1}, {3, 1}, {3, 2}, {3, 3},
                                     {4, 3}, {4, 4}, {4, 5}, {5, 5}, {6, 5}};
    EXPECT_EQ(PriceCells(grid, notch, Passability::kLight), 103u);
  });
  EXPECT_EQ(f.result.cost, 100u);
  EXPECT_EQ(DrawPath(*world, f.cells), (Rows{"........", ".S......", ".*#.##..", ".*#..#..",
                                             ".*##.#..", ".*****G.", "........"}));
}

TEST(LiveSearchTest, ADiagonalWallOneSegmentThickIsSealed) {
  auto world =
      AsciiWorld({"......@", ".....@.", "....@..", "...@...", "..@....", ".@.....", "@......"});
  for (Passability p : {Passability::kLight, Passability::kHeavy}) {
    const Found f = Search(*world, {0, 0}, {6, 6}, p);
    EXPECT_FALSE(f.result.found);
    EXPECT_GT(f.result.stats.cells_expanded, 0u);  // it searched and found the wall holds
    EXPECT_FALSE(*world->Reachable({0, 0}, {6, 6}, p));
  }
}

TEST(LiveSearchTest, AClosedEndFindsNothingWithoutSearching) {
  auto world = AsciiWorld({"..@.."});
  const Found f = Search(*world, {0, 0}, {2, 0});
  EXPECT_FALSE(f.result.found);
  EXPECT_EQ(f.result.stats.cells_expanded, 0u);
}

TEST(LiveSearchTest, PriceCellsRefusesIllegalPaths) {
  auto world = AsciiWorld({".@", ".."});
  world->Inspect([](const LiveGrid& grid, const Layers&) {
    const Passability p = Passability::kLight;
    EXPECT_EQ(PriceCells(grid, std::vector<Cell>{{0, 0}}, p), 0u);
    EXPECT_EQ(PriceCells(grid, std::vector<Cell>{{0, 0}, {1, 1}}, p), kNoCost);  // corner cut
    EXPECT_EQ(PriceCells(grid, std::vector<Cell>{{0, 0}, {1, 0}}, p), kNoCost);  // closed cell
    EXPECT_EQ(PriceCells(grid, std::vector<Cell>{{0, 0}, {0, 0}}, p), kNoCost);  // not a step
  });
}

TEST(LiveSearchTest, MatchesDijkstraOverArrivalStatesOnRandomMaps) {
  std::mt19937 rng(20260101);
  std::uniform_int_distribution<int> pct(0, 99);
  int compared = 0, found = 0;
  for (int map = 0; map < 250; ++map) {
    const std::int32_t w = 4 + static_cast<std::int32_t>(rng() % 13);
    const std::int32_t h = 3 + static_cast<std::int32_t>(rng() % 10);
    const int blocked = 10 + pct(rng) % 30;
    std::vector<std::string> rows(static_cast<std::size_t>(h));
    for (auto& row : rows) {
      for (std::int32_t x = 0; x < w; ++x) {
        const int r = pct(rng);
        row.push_back(r < blocked ? '@' : r < blocked + 15 ? 'F' : '.');
      }
    }
    auto world = AsciiWorld(rows);
    world->Inspect([&](const LiveGrid& grid, const Layers&) {
      LiveSearch search;  // reused across pairs and passabilities: stamps, not clears
      std::vector<Cell> cells;
      for (int pair = 0; pair < 8; ++pair) {
        const Cell a{static_cast<std::int32_t>(rng() % static_cast<unsigned>(w)),
                     static_cast<std::int32_t>(rng() % static_cast<unsigned>(h))};
        const Cell b{static_cast<std::int32_t>(rng() % static_cast<unsigned>(w)),
                     static_cast<std::int32_t>(rng() % static_cast<unsigned>(h))};
        for (Passability p : {Passability::kLight, Passability::kHeavy}) {
          const SearchResult r = search.FindPath(grid, a, b, p, &cells);
          const std::uint32_t oracle = OracleCost(grid, a, b, p);
          ++compared;
          ASSERT_EQ(r.found, oracle != kNoCost) << "map " << map << " pair " << pair;
          if (!r.found) continue;
          ++found;
          ASSERT_EQ(r.cost, oracle) << "map " << map << " pair " << pair;
          ASSERT_EQ(PriceCells(grid, cells, p), r.cost) << "map " << map;
          ASSERT_EQ(cells.front(), a);
          ASSERT_EQ(cells.back(), b);
          ASSERT_EQ(grid.Reachable(a, b, p), true);
        }
      }
    });
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(found, compared / 4);  // the comparison is not all "no path"
}

TEST(LiveSearchTest, BuffersServeGridsOfAnySizeInTurn) {
  auto big = AsciiWorld(std::vector<std::string>(30, std::string(40, '.')));
  auto small = AsciiWorld({"...", "..."});
  LiveSearch search;
  SearchResult r1, r2, r3;
  big->Inspect([&](const LiveGrid& g, const Layers&) {
    r1 = search.FindPath(g, {0, 0}, {39, 29}, Passability::kLight);
  });
  small->Inspect([&](const LiveGrid& g, const Layers&) {
    r2 = search.FindPath(g, {0, 0}, {2, 1}, Passability::kLight);
  });
  big->Inspect([&](const LiveGrid& g, const Layers&) {
    r3 = search.FindPath(g, {0, 0}, {39, 29}, Passability::kLight);
  });
  EXPECT_EQ(r1.cost, r3.cost);
  EXPECT_EQ(r1.stats.cells_expanded, r3.stats.cells_expanded);
  EXPECT_EQ(r2.cost, 25u);  // a diagonal, a straight step, a turn
}

}  // namespace
}  // namespace walk::nav::live
