// The clearance map: exact values as 4·d² on drawn maps, agreement with a brute-force scan on
// random maps, and the incremental map equal to a from-scratch one after random blocker updates.
#include "nav/live/clearance.h"

#include <algorithm>
#include <random>

#include "gtest/gtest.h"
#include "tests/nav/live/ascii_live.h"

namespace walk::nav::live {
namespace {

using testing::AsciiWorld;

// Every closed cell (and every cell of a one-cell frame round the map) within the reach, the
// formula applied to each: no separability, no rolling rows.
std::uint16_t BruteClearance(const LiveGrid& grid, Cell c, Passability p) {
  std::uint32_t best = kClearanceCap;
  auto term = [](std::int32_t a) {
    a = a < 0 ? -a : a;
    return a == 0 ? 0u : static_cast<std::uint32_t>((2 * a - 1) * (2 * a - 1));
  };
  for (std::int32_t dy = -kClearanceReach - 1; dy <= kClearanceReach + 1; ++dy) {
    for (std::int32_t dx = -kClearanceReach - 1; dx <= kClearanceReach + 1; ++dx) {
      const Cell m{c.x + dx, c.y + dy};
      if (grid.Open(m, p)) continue;  // Open is false off the map: those count as closed
      best = std::min(best, term(dx) + term(dy));
    }
  }
  return static_cast<std::uint16_t>(best);
}

// The map computed from scratch from the grid's open bits.
std::vector<std::uint16_t> FromScratch(const LiveGrid& grid, Passability p) {
  std::vector<std::uint16_t> out(grid.cell_count());
  Clearance::Scratch scratch;
  Clearance::Compute(grid.flags(), OpenBit(p), grid.width(), grid.height(),
                     CellRect{0, 0, grid.width(), grid.height()}, out.data(), &scratch);
  return out;
}

TEST(ClearanceTest, CorridorsAndCorners) {
  auto world = AsciiWorld({
      "@@@@@@@@@@@",  //
      "...........",  // a corridor one cell wide: 0.5 everywhere
      "@@@@@@@@@@@",  //
      "...........",  //
      "...........",  // three cells wide: 1.5 in the middle (away from the map's ends)
      "...........",  //
      "@@@@@@@@@@@",
  });
  world->Inspect([](const LiveGrid& grid, const Layers&) {
    const Clearance& c = grid.clearance();
    const Passability p = Passability::kLight;
    EXPECT_EQ(c.At(grid.Index({5, 0}), p), 0);  // closed
    EXPECT_EQ(c.At(grid.Index({5, 1}), p), 1);  // d = 0.5
    EXPECT_EQ(c.At(grid.Index({5, 3}), p), 1);
    EXPECT_EQ(c.At(grid.Index({5, 4}), p), 9);  // d = 1.5
    EXPECT_EQ(c.At(grid.Index({1, 4}), p), 9);  // the map's left edge is 1.5 away too
    EXPECT_EQ(c.At(grid.Index({0, 4}), p), 1);  // the map edge is closed
  });
  auto corner = AsciiWorld({".....", ".....", "..@..", ".....", "....."});
  corner->Inspect([](const LiveGrid& grid, const Layers&) {
    EXPECT_EQ(grid.clearance().At(grid.Index({2, 1}), Passability::kLight), 1);  // beside it
    EXPECT_EQ(grid.clearance().At(grid.Index({1, 1}), Passability::kLight), 2);  // d = √2 / 2
    EXPECT_EQ(grid.clearance().At(grid.Index({3, 3}), Passability::kLight), 2);
  });
  auto diagonal = AsciiWorld(std::vector<std::string>(9, "........."));
  diagonal->Inspect([](const LiveGrid& grid, const Layers&) {
    EXPECT_EQ(grid.clearance().At(grid.Index({4, 4}), Passability::kLight), 81);  // d = 4.5
  });
}

TEST(ClearanceTest, ForestIsClosedToHeavyOnly) {
  auto world = AsciiWorld({"FFFFFFF", ".......", ".......", "......."});
  world->Inspect([](const LiveGrid& grid, const Layers&) {
    EXPECT_EQ(grid.clearance().At(grid.Index({3, 1}), Passability::kHeavy), 1);
    EXPECT_EQ(grid.clearance().At(grid.Index({3, 1}), Passability::kLight), 9);  // 1.5 to the edge
  });
}

TEST(ClearanceTest, MatchesABruteForceScanOnRandomMaps) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> pct(0, 99);
  for (int map = 0; map < 40; ++map) {
    const std::int32_t w = 3 + static_cast<std::int32_t>(rng() % 30);
    const std::int32_t h = 3 + static_cast<std::int32_t>(rng() % 30);
    const int blocked = static_cast<int>(rng() % 12);
    std::vector<std::string> rows(static_cast<std::size_t>(h));
    for (auto& row : rows) {
      for (std::int32_t x = 0; x < w; ++x) {
        const int r = pct(rng);
        row.push_back(r < blocked ? '@' : r < blocked + 10 ? 'F' : '.');
      }
    }
    auto world = AsciiWorld(rows);
    world->Inspect([&](const LiveGrid& grid, const Layers&) {
      for (Passability p : {Passability::kLight, Passability::kHeavy}) {
        for (CellIndex i = 0; i < grid.cell_count(); ++i) {
          ASSERT_EQ(grid.clearance().At(i, p), BruteClearance(grid, grid.CellOf(i), p))
              << "map " << map << " cell " << grid.CellOf(i).x << "," << grid.CellOf(i).y;
        }
      }
    });
  }
}

TEST(ClearanceTest, IncrementalEqualsFromScratchAfterRandomUpdates) {
  constexpr std::int32_t kWidth = 60, kHeight = 44;
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> pct(0, 99);
    std::vector<std::string> rows(kHeight, std::string(kWidth, '.'));
    for (auto& row : rows) {
      for (char& c : row) {
        const int r = pct(rng);
        // Seed 3: forest only in one corner, so most updates find both passabilities alike
        // (Update copies light to heavy) and those near the corner do not.
        const int forest = seed == 3 ? 0 : 15;
        c = r < 3 ? 'M' : r < 6 ? 'T' : r < forest ? 'F' : '.';
      }
    }
    if (seed == 3) {
      for (int y = 0; y < 6; ++y) rows[y].replace(0, 6, "FFFFFF");
    }
    LiveWorldOptions options;
    options.full_rebuild_fraction = 2.0;  // never fall back to a full rebuild
    auto world = AsciiWorld(rows, "", options);
    ASSERT_NE(world, nullptr);
    std::vector<EntityId> buildings;
    EntityId next_id = 1;
    auto coord = [&](std::int32_t n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
    auto random_rect = [&]() {
      const double x = coord(kWidth), y = coord(kHeight);
      return WorldRect{x, y, x + 1 + coord(6), y + 1 + coord(6)};
    };
    for (int step = 0; step < 120; ++step) {
      std::vector<BlockerChange> changes;
      const int r = pct(rng);
      if (r < 45 || buildings.empty()) {
        buildings.push_back(next_id);
        changes.push_back(BlockerChange::AddBuilding(next_id++, random_rect()));
      } else if (r < 75) {
        const std::size_t k = static_cast<std::size_t>(rng() % buildings.size());
        changes.push_back(BlockerChange::RemoveBuilding(buildings[k]));
        buildings.erase(buildings.begin() + static_cast<std::ptrdiff_t>(k));
      } else {
        const std::size_t k = static_cast<std::size_t>(rng() % buildings.size());
        changes.push_back(BlockerChange::MoveBuilding(buildings[k], random_rect()));
      }
      auto u = world->UpdateBlockers(changes);
      ASSERT_TRUE(u.ok()) << u.status();
      ASSERT_FALSE(u->full_rebuild);
      world->Inspect([&](const LiveGrid& grid, const Layers&) {
        for (Passability p : {Passability::kLight, Passability::kHeavy}) {
          const std::vector<std::uint16_t> fresh = FromScratch(grid, p);
          ASSERT_TRUE(std::equal(fresh.begin(), fresh.end(), grid.clearance().values(p)))
              << "seed " << seed << " step " << step;
        }
      });
      if (HasFatalFailure()) return;
    }
  }
}

TEST(ClearanceTest, BodiesAreClassedExactly) {
  EXPECT_EQ(ClassifyBody(0.0).need, 0);
  EXPECT_EQ(ClassifyBody(0.5).need, 1);  // a one-cell corridor
  EXPECT_EQ(ClassifyBody(0.6).need, 2);  // needs the diagonals clear too
  EXPECT_EQ(ClassifyBody(1.5).need, 9);  // three cells
  EXPECT_EQ(ClassifyBody(8.0).need, kClearanceCap);
  EXPECT_EQ(ClassifyBody(0.0, 1.0).half_width, 16);
  EXPECT_EQ(ClassifyBody(0.0, 0.01).half_width, 1);
  EXPECT_TRUE(ValidateBody(8.0, 8.0).ok());
  for (double bad : {-0.1, 8.01, std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity()}) {
    const absl::Status r = ValidateBody(bad, 0.0);
    EXPECT_EQ(r.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(r.message().find("radius"), std::string::npos) << r;
    const absl::Status w = ValidateBody(0.0, bad);
    EXPECT_NE(w.message().find("formation_half_width"), std::string::npos) << w;
  }
}

TEST(ClearanceTest, OverlapPriceGrowsAsClearanceShrinks) {
  const std::uint16_t w = ClassifyBody(0.0, 3.0).half_width;  // 3 cells
  EXPECT_EQ(OverlapPrice(1, w), 17u);                         // d = 0.5: round(20 * 2.5 / 3)
  EXPECT_EQ(OverlapPrice(9, w), 10u);                         // d = 1.5: half
  EXPECT_EQ(OverlapPrice(25, w), 3u);                         // d = 2.5
  EXPECT_EQ(OverlapPrice(36, w), 0u);                         // d = 3: no overlap
  EXPECT_EQ(OverlapPrice(1, 0), 0u);                          // no half-width
  std::uint8_t table[kClearanceCap + 1];
  FillOverlapTable(w, table);
  for (std::uint16_t v = 1; v <= kClearanceCap; ++v) {
    EXPECT_LE(table[v], table[v - 1]);
    EXPECT_LT(table[v], kOverlapCost);
  }
}

}  // namespace
}  // namespace walk::nav::live
