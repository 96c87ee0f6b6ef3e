// "Is this straight line clear?" (the corner-safe supercover) and taut paths that never cross a
// portal.
#include "nav/live/taut_path.h"

#include <cmath>
#include <random>

#include "gtest/gtest.h"
#include "nav/live/live_search.h"
#include "tests/nav/live/ascii_live.h"

namespace walk::nav::live {
namespace {

using testing::AsciiWorld;
using testing::kLight;

bool Clear(const LiveWorld& world, Cell a, Cell b, std::vector<Cell>* cells = nullptr) {
  bool clear = false;
  world.Inspect([&](const LiveGrid& grid, const Layers&) {
    clear = SegmentClear(grid, a, b, kLight, false, cells);
  });
  return clear;
}

TEST(SegmentTest, RefusesToSqueezeBetweenBlockedCorners) {
  EXPECT_FALSE(Clear(*AsciiWorld({".@", "@."}), {0, 0}, {1, 1}));
  // One blocked flank is enough: the search's own diagonal rule.
  EXPECT_FALSE(Clear(*AsciiWorld({".@", ".."}), {0, 0}, {1, 1}));
  std::vector<Cell> cells;
  EXPECT_TRUE(Clear(*AsciiWorld({"..", ".."}), {0, 0}, {1, 1}, &cells));
  EXPECT_EQ(cells, (std::vector<Cell>{{0, 0}, {1, 1}}));
}

TEST(SegmentTest, NoStraightLineThroughADiagonalWallOneSegmentThick) {
  auto world =
      AsciiWorld({"......@", ".....@.", "....@..", "...@...", "..@....", ".@.....", "@......"});
  EXPECT_FALSE(Clear(*world, {5, 0}, {6, 1}));  // across the wall at a corner
  EXPECT_FALSE(Clear(*world, {0, 2}, {6, 4}));  // across the wall through a cell
  EXPECT_TRUE(Clear(*world, {0, 0}, {2, 2}));   // along it, on one side
}

TEST(SegmentTest, WalksEveryCellTheLineTouches) {
  // The line from (0, 0) to (6, 1) changes rows in the middle of column 3: it touches (3, 0)
  // and (3, 1). Sampling at cell centres would see only one of them.
  std::vector<Cell> cells;
  EXPECT_TRUE(Clear(*AsciiWorld({".......", "......."}), {0, 0}, {6, 1}, &cells));
  EXPECT_EQ(cells,
            (std::vector<Cell>{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {3, 1}, {4, 1}, {5, 1}, {6, 1}}));
  EXPECT_FALSE(Clear(*AsciiWorld({"...@...", "......."}), {0, 0}, {6, 1}));
  EXPECT_FALSE(Clear(*AsciiWorld({".......", "...@..."}), {0, 0}, {6, 1}));
}

TEST(SegmentTest, WorldSegmentsAlongAGridLineTouchBothSides) {
  auto world = AsciiWorld({"...", "@..", "..."});
  world->Inspect([](const LiveGrid& grid, const Layers&) {
    // Along y = 1, the line between rows 0 and 1: row 1's blocked cell is touched.
    EXPECT_FALSE(WorldSegmentClear(grid, 1.0, {0.5, 1.0}, {2.5, 1.0}, kLight));
    // Along y = 2.0 (between rows 1 and 2), starting right of the blocked cell: clear.
    EXPECT_TRUE(WorldSegmentClear(grid, 1.0, {1.5, 2.0}, {2.5, 2.0}, kLight));
    // Along the map's top edge: nothing lies beyond it.
    EXPECT_TRUE(WorldSegmentClear(grid, 1.0, {0.2, 0.0}, {2.8, 0.0}, kLight));
    // World units: cells 2 units wide.
    EXPECT_FALSE(WorldSegmentClear(grid, 2.0, {1.0, 1.0}, {1.0, 3.0}, kLight));
    EXPECT_TRUE(WorldSegmentClear(grid, 2.0, {3.0, 1.0}, {3.0, 5.0}, kLight));
    // Off the map: not clear.
    EXPECT_FALSE(WorldSegmentClear(grid, 1.0, {0.5, 0.5}, {5.5, 0.5}, kLight));
  });
}

std::vector<Cell> SearchCells(const LiveGrid& grid, Cell a, Cell b, Passability p = kLight) {
  LiveSearch search;
  std::vector<Cell> cells;
  EXPECT_TRUE(search.FindPath(grid, a, b, p, &cells).found);
  return cells;
}

TEST(PullTautTest, AStaircaseBecomesOneLeg) {
  auto world = AsciiWorld({".......", ".......", ".......", "......."});
  world->Inspect([](const LiveGrid& grid, const Layers&) {
    const std::vector<Cell> cells = SearchCells(grid, {0, 0}, {6, 3});
    EXPECT_EQ(cells.size(), 7u);
    EXPECT_EQ(PullTaut(grid, cells, kLight), (std::vector<Cell>{{0, 0}, {6, 3}}));
  });
}

TEST(PullTautTest, KeepsTheCornerItCannotSeePast) {
  auto world = AsciiWorld({"........", "........", "@@@@@@..", "........"});
  world->Inspect([](const LiveGrid& grid, const Layers&) {
    const std::vector<Cell> cells = SearchCells(grid, {0, 3}, {0, 0});
    const std::vector<Cell> taut = PullTaut(grid, cells, kLight);
    ASSERT_GE(taut.size(), 3u);
    EXPECT_LE(taut.size(), 4u);
    EXPECT_EQ(taut.front(), (Cell{0, 3}));
    EXPECT_EQ(taut.back(), (Cell{0, 0}));
    for (std::size_t k = 1; k < taut.size(); ++k) {
      EXPECT_TRUE(SegmentClear(grid, taut[k - 1], taut[k], kLight, true));
    }
  });
}

TEST(PullTautTest, LegsAcrossABridgeStayCellByCell) {
  const std::vector<std::string> rows = {"........", "........", "RRR++RRR",
                                         "RRR++RRR", "........", "........"};
  auto world = AsciiWorld(rows);
  world->Inspect([](const LiveGrid& grid, const Layers&) {
    const std::vector<Cell> cells = SearchCells(grid, {0, 0}, {7, 5});
    const std::vector<Cell> taut = PullTaut(grid, cells, kLight);
    // Every deck cell of the path is a waypoint, in order.
    std::vector<Cell> deck_in_path, deck_in_taut;
    for (Cell c : cells) {
      if (grid.Portal(grid.Index(c))) deck_in_path.push_back(c);
    }
    for (Cell c : taut) {
      if (grid.Portal(grid.Index(c))) deck_in_taut.push_back(c);
    }
    EXPECT_EQ(deck_in_path.size(), 2u);
    EXPECT_EQ(deck_in_taut, deck_in_path);
    // The approach may not clip the deck's other cell, so it lines up first; the exit turns
    // once it is clear of the water.
    EXPECT_EQ(taut, (std::vector<Cell>{{0, 0}, {2, 0}, {4, 2}, {4, 3}, {5, 5}, {7, 5}}));
  });
  // The same gap without a deck (a plain opening in a wall) is pulled straight through.
  std::vector<std::string> plain = rows;
  for (std::string& row : plain) {
    for (char& c : row) c = c == '+' ? '.' : c;
  }
  auto gap = AsciiWorld(plain);
  gap->Inspect([](const LiveGrid& grid, const Layers&) {
    const std::vector<Cell> cells = SearchCells(grid, {0, 0}, {7, 5});
    EXPECT_LT(PullTaut(grid, cells, kLight).size(), 6u);
  });
}

TEST(PullTautTest, EveryLegIsClearOnRandomMaps) {
  std::mt19937 rng(7);
  int checked = 0;
  for (int map = 0; map < 150; ++map) {
    const std::int32_t w = 8 + static_cast<std::int32_t>(rng() % 20);
    const std::int32_t h = 6 + static_cast<std::int32_t>(rng() % 12);
    std::vector<std::string> rows(static_cast<std::size_t>(h));
    for (auto& row : rows) {
      for (std::int32_t x = 0; x < w; ++x) {
        const unsigned r = rng() % 100;
        row.push_back(r < 22 ? '@' : r < 27 ? '+' : r < 32 ? '^' : '.');
      }
    }
    auto world = AsciiWorld(rows);
    world->Inspect([&](const LiveGrid& grid, const Layers&) {
      LiveSearch search;
      std::vector<Cell> cells;
      for (int pair = 0; pair < 6; ++pair) {
        const Cell a{static_cast<std::int32_t>(rng() % static_cast<unsigned>(w)),
                     static_cast<std::int32_t>(rng() % static_cast<unsigned>(h))};
        const Cell b{static_cast<std::int32_t>(rng() % static_cast<unsigned>(w)),
                     static_cast<std::int32_t>(rng() % static_cast<unsigned>(h))};
        if (!search.FindPath(grid, a, b, kLight, &cells).found) continue;
        const std::vector<Cell> taut = PullTaut(grid, cells, kLight);
        ASSERT_EQ(taut.front(), a);
        ASSERT_EQ(taut.back(), b);
        std::size_t at = 0;  // waypoints are path cells, in order
        for (Cell c : taut) {
          while (at < cells.size() && !(cells[at] == c)) ++at;
          ASSERT_LT(at, cells.size()) << "waypoint not on the path, map " << map;
        }
        for (std::size_t k = 1; k < taut.size(); ++k) {
          ASSERT_TRUE(SegmentClear(grid, taut[k - 1], taut[k], kLight, /*reject_portals=*/true))
              << "map " << map;
        }
        for (Cell c : cells) {
          if (grid.Portal(grid.Index(c))) {
            ASSERT_NE(std::find(taut.begin(), taut.end(), c), taut.end()) << "map " << map;
          }
        }
        ++checked;
      }
    });
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(checked, 200);
}

}  // namespace
}  // namespace walk::nav::live
