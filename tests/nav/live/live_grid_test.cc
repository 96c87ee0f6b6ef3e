// The live grid: dirty rectangles merged, a full rebuild equal to the sum of regional rebuilds
// after random updates, and regions that stay exact (checked against a plain flood fill).
#include "nav/live/live_grid.h"

#include <map>
#include <random>
#include <set>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nav/live/live_world.h"
#include "tests/nav/live/ascii_live.h"

namespace walk::nav::live {
namespace {

using testing::AsciiLayers;

// Region ids of a plain 4-connected flood fill: the oracle.
std::vector<std::uint32_t> FloodRegions(const LiveGrid& grid, Passability p) {
  std::vector<std::uint32_t> region(grid.cell_count(), kNoRegion);
  std::uint32_t next = 0;
  std::vector<CellIndex> queue;
  for (CellIndex s = 0; s < grid.cell_count(); ++s) {
    if (!grid.Open(s, p) || region[s] != kNoRegion) continue;
    region[s] = next;
    queue.assign(1, s);
    while (!queue.empty()) {
      const Cell c = grid.CellOf(queue.back());
      queue.pop_back();
      for (int d = 0; d < 8; d += 2) {
        const Cell n{c.x + (d == 0) - (d == 4), c.y + (d == 2) - (d == 6)};
        if (!grid.Open(n, p) || region[grid.Index(n)] != kNoRegion) continue;
        region[grid.Index(n)] = next;
        queue.push_back(grid.Index(n));
      }
    }
    ++next;
  }
  return region;
}

// Fails unless `grid`'s regions for `p` partition the open cells exactly as `expected` does.
void ExpectSamePartition(const LiveGrid& grid, Passability p,
                         const std::vector<std::uint32_t>& expected, const std::string& where) {
  std::map<RegionId, std::uint32_t> forward;
  std::map<std::uint32_t, RegionId> backward;
  for (CellIndex i = 0; i < grid.cell_count(); ++i) {
    const RegionId got = grid.regions(p).RegionOf(i);
    ASSERT_EQ(got == kNoRegion, expected[i] == kNoRegion) << where << " cell " << i;
    if (got == kNoRegion) continue;
    auto [f, f_new] = forward.emplace(got, expected[i]);
    auto [b, b_new] = backward.emplace(expected[i], got);
    ASSERT_EQ(f->second, expected[i])
        << where << ": region " << got << " joins two regions at cell " << i << " "
        << PassabilityName(p);
    ASSERT_EQ(b->second, got) << where << ": a region is split in two at cell " << i << " "
                              << PassabilityName(p);
  }
}

TEST(LiveGridTest, MergesRectanglesThatOverlapOrTouch) {
  std::vector<CellRect> merged = LiveGrid::MergeRects({{0, 0, 2, 2},
                                                       {1, 1, 4, 3},      // overlaps the first
                                                       {4, 0, 5, 1},      // touches the merged box
                                                       {10, 10, 12, 12},  // far away
                                                       {3, 3, 3, 5}});    // empty
  ASSERT_EQ(merged.size(), 2u);
  std::set<std::pair<int, int>> corners;
  for (const CellRect& r : merged) corners.insert({r.x0, r.x1});
  EXPECT_TRUE(corners.count({0, 5}));
  EXPECT_TRUE(corners.count({10, 12}));
}

TEST(LiveGridTest, APlacedBuildingIsRebuiltLocally) {
  Layers layers(200, 200, 1.0);
  LiveGrid grid(layers);
  const std::uint64_t before = grid.revision();
  CellRect cells;
  ASSERT_TRUE(layers.AddBuilding(1, {90, 90, 100, 100}, &cells).ok());
  const RebuildStats stats = grid.RebuildDirty(layers, {cells});
  EXPECT_EQ(grid.revision(), before + 1);
  EXPECT_FALSE(stats.full);
  EXPECT_EQ(stats.cells_rebuilt, 100u);
  EXPECT_EQ(stats.region_global_floods, 0u);  // the ring around it still joins up locally
  EXPECT_LT(stats.region_cells, 2000u);
  EXPECT_EQ(grid.value(Cell{95, 95}), CellValue::kBuilding);
  EXPECT_TRUE(grid.Reachable({0, 0}, {199, 199}, Passability::kHeavy));
}

TEST(LiveGridTest, AWallThatClosesSplitsTheRegionAndReopeningJoinsIt) {
  // A wall down column 5 with a one-cell gate; shutting it splits the map.
  Layers layers =
      AsciiLayers({"...........", "...........", "...........", "...........", "..........."},
                  "building 1 5 0 6 5\ngate 2 1 5 2 6 3 open\n");
  LiveGrid grid(layers);
  EXPECT_TRUE(grid.Reachable({0, 0}, {10, 4}, Passability::kLight));
  CellRect cells;
  ASSERT_TRUE(layers.SetGateOpen(2, false, &cells).ok());
  RebuildStats stats = grid.RebuildDirty(layers, {cells});
  EXPECT_FALSE(grid.Reachable({0, 0}, {10, 4}, Passability::kLight));
  EXPECT_TRUE(grid.Reachable({0, 0}, {4, 4}, Passability::kLight));
  EXPECT_TRUE(grid.Reachable({6, 0}, {10, 4}, Passability::kLight));
  EXPECT_GT(stats.region_global_floods, 0u);
  ASSERT_TRUE(layers.SetGateOpen(2, true, &cells).ok());
  stats = grid.RebuildDirty(layers, {cells});
  EXPECT_TRUE(grid.Reachable({0, 0}, {10, 4}, Passability::kLight));
  EXPECT_EQ(stats.region_global_floods, 0u);  // a merge never floods
}

// A random RTS-like world: terrain, a river with a bridge, forest, resources, a wall with gates.
struct RandomWorld {
  std::string map_text;
  std::string layer_text;
  std::vector<EntityId> gates;
};

RandomWorld MakeRandomWorld(std::mt19937& rng, std::int32_t w, std::int32_t h) {
  std::uniform_int_distribution<int> pct(0, 99);
  std::vector<std::string> rows(static_cast<std::size_t>(h),
                                std::string(static_cast<std::size_t>(w), '.'));
  for (auto& row : rows) {
    for (char& c : row) {
      const int r = pct(rng);
      c = r < 6 ? 'M' : r < 10 ? 'T' : r < 12 ? 'B' : r < 13 ? 'I' : r < 25 ? 'F' : '.';
    }
  }
  const std::int32_t river = h * 3 / 4;
  for (std::int32_t x = 0; x < w; ++x)
    rows[static_cast<std::size_t>(river)][static_cast<std::size_t>(x)] = 'R';
  RandomWorld world;
  world.map_text = testing::MapText(rows);
  const std::int32_t wall = h / 3;
  world.layer_text = absl::StrCat("bridge ", w / 2, " ", river, " ", w / 2 + 2, " ", river + 1,
                                  "\n", "building 1000 0 ", wall, " ", w, " ", wall + 1, "\n");
  for (int k = 0; k < 3; ++k) {
    const EntityId id = 2000 + static_cast<EntityId>(k);
    const std::int32_t x = (k + 1) * w / 4;
    absl::StrAppend(&world.layer_text, "gate ", id, " 1000 ", x, " ", wall, " ", x + 2, " ",
                    wall + 1, k == 0 ? " open\n" : " shut\n");
    world.gates.push_back(id);
  }
  return world;
}

TEST(LiveGridTest, FullRebuildEqualsRegionalRebuildsAfterRandomUpdates) {
  constexpr std::int32_t kWidth = 48, kHeight = 40;
  for (std::uint32_t seed : {1u, 2u, 3u, 4u}) {
    std::mt19937 rng(seed);
    const RandomWorld random = MakeRandomWorld(rng, kWidth, kHeight);
    LiveWorldOptions options;
    options.full_rebuild_fraction = 2.0;  // never fall back to a full rebuild
    options.region_margin = 1 + static_cast<std::int32_t>(seed % 3);
    auto made = LiveWorld::FromText(random.map_text, random.layer_text, options);
    ASSERT_TRUE(made.ok()) << made.status();
    LiveWorld& world = **made;

    std::vector<EntityId> buildings;
    EntityId next_id = 1;
    std::uniform_int_distribution<int> pct(0, 99);
    auto coord = [&](std::int32_t n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
    auto random_rect = [&]() {
      const bool wall = pct(rng) < 40;
      const int along = wall ? 4 + coord(16) : 1 + coord(5);
      const int across = wall ? 1 : 1 + coord(5);
      const bool vertical = pct(rng) < 50;
      const double x = coord(kWidth), y = coord(kHeight);
      return vertical ? WorldRect{x, y, x + across, y + along}
                      : WorldRect{x, y, x + along, y + across};
    };
    for (int step = 0; step < 150; ++step) {
      std::vector<BlockerChange> changes;
      const int batch = 1 + coord(3);
      for (int b = 0; b < batch; ++b) {
        const int r = pct(rng);
        if (r < 30 || buildings.empty()) {
          buildings.push_back(next_id);
          changes.push_back(BlockerChange::AddBuilding(next_id++, random_rect()));
        } else if (r < 45) {
          const std::size_t k =
              static_cast<std::size_t>(coord(static_cast<std::int32_t>(buildings.size())));
          changes.push_back(BlockerChange::RemoveBuilding(buildings[k]));
          buildings.erase(buildings.begin() + static_cast<std::ptrdiff_t>(k));
        } else if (r < 60) {
          const std::size_t k =
              static_cast<std::size_t>(coord(static_cast<std::int32_t>(buildings.size())));
          changes.push_back(BlockerChange::MoveBuilding(buildings[k], random_rect()));
        } else if (r < 80) {
          const EntityId gate = random.gates[static_cast<std::size_t>(coord(3))];
          changes.push_back(pct(rng) < 50 ? BlockerChange::OpenGate(gate)
                                          : BlockerChange::ShutGate(gate));
        } else {
          const WorldPoint p{coord(kWidth) + 0.5, coord(kHeight) + 0.5};
          bool has_resource = false;
          world.Inspect([&](const LiveGrid&, const Layers& layers) {
            has_resource = IsResource(layers.ResourceAt(layers.Index(CellContaining(p, 1.0))));
          });
          // Resources already changed in this batch are left alone (validation would refuse).
          bool touched = false;
          for (const BlockerChange& c : changes) {
            touched |= (c.kind == BlockerChange::Kind::kHarvest ||
                        c.kind == BlockerChange::Kind::kPlaceResource) &&
                       c.point.x == p.x && c.point.y == p.y;
          }
          if (touched) continue;
          changes.push_back(has_resource ? BlockerChange::Harvest(p)
                                         : BlockerChange::PlaceResource(p, CellValue::kBoulder));
        }
      }
      const absl::StatusOr<UpdateResult> result = world.UpdateBlockers(changes);
      ASSERT_TRUE(result.ok()) << result.status();
      ASSERT_FALSE(result->full_rebuild);
      const std::string where = absl::StrCat("seed ", seed, " step ", step);
      world.Inspect([&](const LiveGrid& incremental, const Layers& layers) {
        const LiveGrid full(layers);
        ASSERT_EQ(incremental.values(), full.values()) << where;
        ASSERT_EQ(incremental.flag_vector(), full.flag_vector()) << where;
        for (Passability p : {Passability::kLight, Passability::kHeavy}) {
          ExpectSamePartition(incremental, p, FloodRegions(full, p), where);
          ExpectSamePartition(full, p, FloodRegions(full, p), where + " (full)");
        }
      });
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

}  // namespace
}  // namespace walk::nav::live
