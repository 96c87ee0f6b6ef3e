// Ring searches: the perimeter order (pinned against the discarding square scan), the nearest
// standable cell, and resolving a blocked target toward the caller's side.
#include "nav/live/nearest.h"

#include "gtest/gtest.h"
#include "tests/nav/live/ascii_live.h"

namespace walk::nav::live {
namespace {

using testing::AsciiWorld;
using testing::kLight;

TEST(RingTest, PerimeterOrderIsTheDiscardingScansOrder) {
  constexpr std::int32_t kW = 9, kH = 7;
  for (std::int32_t cy = -3; cy < kH + 3; ++cy) {
    for (std::int32_t cx = -3; cx < kW + 3; ++cx) {
      for (std::int32_t r = 0; r <= 6; ++r) {
        // The old way: scan the whole (2r + 1)² square row-major, keep the ring's cells.
        std::vector<Cell> scan;
        for (std::int32_t y = cy - r; y <= cy + r; ++y) {
          for (std::int32_t x = cx - r; x <= cx + r; ++x) {
            if (x < 0 || y < 0 || x >= kW || y >= kH) continue;
            if (std::max(std::abs(x - cx), std::abs(y - cy)) != r) continue;
            scan.push_back({x, y});
          }
        }
        std::vector<Cell> ring;
        ForEachRingCell({cx, cy}, r, kW, kH, [&](Cell c) { ring.push_back(c); });
        ASSERT_EQ(ring, scan) << "centre " << cx << "," << cy << " radius " << r;
      }
    }
  }
}

TEST(RingTest, VisitsOnlyThePerimeter) {
  int count = 0;
  ForEachRingCell({50, 50}, 10, 100, 100, [&](Cell) { ++count; });
  EXPECT_EQ(count, 80);  // 8r, not (2r + 1)²
}

TEST(NearestTest, FirstRingWithAStandableCellClosestFirstTiesRowMajor) {
  auto world = AsciiWorld({".......", ".@@@@@.", ".@@@@@.", ".@@@@@.", "......."});
  world->Inspect([](const LiveGrid& grid, const Layers&) {
    RingStats stats;
    // (3, 0) and (3, 4) are both 2 away; (3, 0) comes first in row-major order.
    EXPECT_EQ(NearestStandable(grid, {3, 2}, kLight, 10, &stats), (Cell{3, 0}));
    EXPECT_EQ(stats.rings, 3u);
    EXPECT_EQ(stats.cells_scanned, 1u + 8u + 16u);
    // Standable already: itself, one cell looked at.
    EXPECT_EQ(NearestStandable(grid, {0, 0}, kLight, 10), (Cell{0, 0}));
    // Nothing within reach.
    EXPECT_EQ(NearestStandable(grid, {3, 2}, kLight, 1), std::nullopt);
    // Off the map: the rings are clipped.
    EXPECT_EQ(NearestStandable(grid, {-2, 2}, kLight, 5), (Cell{0, 2}));
  });
}

TEST(NearestTest, ResolvesABlockedTargetTowardTheCallersSide) {
  // A wall two cells thick; an order lands on its left half.
  auto world = AsciiWorld({"....@@....", "....@@....", "....@@....", "....@@....", "....@@...."});
  world->Inspect([](const LiveGrid& grid, const Layers&) {
    const Cell target{4, 2};
    // From the left: the nearest cell on the left.
    EXPECT_EQ(ResolveToward(grid, target, {0, 2}, kLight, 8), (Cell{3, 2}));
    // From the right: the left is nearer the target but on the other side of the wall; on the
    // right, the cell opposite the target.
    EXPECT_EQ(ResolveToward(grid, target, {9, 0}, kLight, 8), (Cell{6, 2}));
    EXPECT_EQ(NearestStandable(grid, target, kLight, 8), (Cell{3, 2}));
    // A standable target is left alone, whatever side it is on.
    EXPECT_EQ(ResolveToward(grid, {1, 1}, {9, 0}, kLight, 8), (Cell{1, 1}));
  });
  // Equally near the target: the one nearer the caller, not the first in row-major order.
  auto notch = AsciiWorld({"....@@....", "....@@....", "....@@@...", "....@@....", "....@@...."});
  notch->Inspect([](const LiveGrid& grid, const Layers&) {
    EXPECT_EQ(ResolveToward(grid, {4, 2}, {9, 4}, kLight, 8), (Cell{6, 3}));
    EXPECT_EQ(ResolveToward(grid, {4, 2}, {9, 0}, kLight, 8), (Cell{6, 1}));
  });
}

TEST(NearestTest, PassabilityDecidesWhatIsStandable) {
  auto world = AsciiWorld({"FFFFF", "FFFFF", "FF..F"});
  world->Inspect([](const LiveGrid& grid, const Layers&) {
    EXPECT_EQ(NearestStandable(grid, {2, 0}, Passability::kLight, 4), (Cell{2, 0}));
    EXPECT_EQ(NearestStandable(grid, {2, 0}, Passability::kHeavy, 4), (Cell{2, 2}));
  });
}

}  // namespace
}  // namespace walk::nav::live
