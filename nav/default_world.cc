#include "nav/default_world.h"

#include <cmath>
#include <vector>

#include "nav/grid_builder.h"

namespace walk::nav {
namespace {

// splitmix64: a small deterministic generator (std::mt19937 distributions differ by library).
class SplitMix {
 public:
  explicit SplitMix(std::uint64_t seed) : state_(seed) {}
  std::uint64_t Next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  int Uniform(int lo, int hi) {  // [lo, hi]
    return lo + static_cast<int>(Next() % static_cast<std::uint64_t>(hi - lo + 1));
  }

 private:
  std::uint64_t state_;
};

enum class Ground : std::uint8_t { kOpen, kTree, kWall, kFloor, kWater, kRiver };

constexpr int kSize = static_cast<int>(kTileColumns);
constexpr float kDeckHeight = 2.0f;
constexpr float kBedHeight = -0.5f;

}  // namespace

absl::StatusOr<World> GenerateDefaultWorld(std::uint64_t seed) {
  SplitMix random(seed);
  std::vector<Ground> ground(kSize * kSize, Ground::kOpen);
  auto at = [&](int x, int y) -> Ground& { return ground[y * kSize + x]; };

  // A river running north-south, wandering by a column every few rows.
  std::vector<int> river_x(kSize);
  int rx = kSize / 2 + random.Uniform(-8, 8);
  for (int y = 0; y < kSize; ++y) {
    if (y % 6 == 0) rx += random.Uniform(-1, 1);
    river_x[y] = rx;
    for (int x = rx - 3; x <= rx + 3; ++x) at(x, y) = Ground::kRiver;
  }
  // A lake in the west.
  const int lake_x = 50 + random.Uniform(-10, 10), lake_y = 190 + random.Uniform(-10, 10);
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize / 2 - 12; ++x) {
      const double dx = (x - lake_x) / 22.0, dy = (y - lake_y) / 14.0;
      if (dx * dx + dy * dy <= 1.0) at(x, y) = Ground::kWater;
    }
  }
  // Woods: clumps of trees away from the river.
  for (int clump = 0; clump < 40; ++clump) {
    const int cx = random.Uniform(8, kSize - 9), cy = random.Uniform(8, kSize - 9);
    const int r = random.Uniform(2, 6);
    for (int y = cy - r; y <= cy + r; ++y) {
      for (int x = cx - r; x <= cx + r; ++x) {
        if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r && at(x, y) == Ground::kOpen &&
            random.Uniform(0, 3) != 0) {
          at(x, y) = Ground::kTree;
        }
      }
    }
  }
  // Houses: walls round an indoor floor, one door on a random side.
  for (int house = 0; house < 14; ++house) {
    const int w = random.Uniform(6, 14), h = random.Uniform(6, 12);
    const int x0 = random.Uniform(4, kSize - w - 5), y0 = random.Uniform(4, kSize - h - 5);
    bool clear = true;
    for (int y = y0 - 1; y <= y0 + h && clear; ++y) {
      for (int x = x0 - 1; x <= x0 + w && clear; ++x) clear = at(x, y) == Ground::kOpen || at(x, y) == Ground::kTree;
    }
    if (!clear) continue;
    for (int y = y0; y < y0 + h; ++y) {
      for (int x = x0; x < x0 + w; ++x) {
        const bool edge = x == x0 || y == y0 || x == x0 + w - 1 || y == y0 + h - 1;
        at(x, y) = edge ? Ground::kWall : Ground::kFloor;
      }
    }
    const int side = random.Uniform(0, 3);
    const int dx = x0 + w / 2, dy = y0 + h / 2;
    if (side == 0) at(dx, y0) = Ground::kFloor;
    if (side == 1) at(dx, y0 + h - 1) = Ground::kFloor;
    if (side == 2) at(x0, dy) = Ground::kFloor;
    if (side == 3) at(x0 + w - 1, dy) = Ground::kFloor;
  }
  // The bridge: rows [bridge_y, bridge_y + 3], a deck over the river with ramps either side.
  const int bridge_y = 100 + random.Uniform(-10, 10);
  constexpr int kRampColumns = 6;

  ContinentBuilder builder(0, kSize, kSize);
  for (int y = 0; y < kSize; ++y) {
    const bool on_bridge_row = y >= bridge_y && y < bridge_y + 4;
    const int river_w = river_x[y] - 3, river_e = river_x[y] + 3;
    for (int x = 0; x < kSize; ++x) {
      const std::uint16_t zone = x < river_x[y] ? 1 : 2;
      SurfaceSpec spec;
      spec.zone = zone;
      switch (at(x, y)) {
        case Ground::kTree:
        case Ground::kWall:
          continue;  // nowhere to stand
        case Ground::kFloor:
          spec.flags = kFlagBuilding | kFlagIndoor;
          spec.headroom_yards = 3.0f;
          break;
        case Ground::kWater:
          spec.flags = kFlagTerrain | kFlagWater;
          spec.height_yards = kBedHeight;
          break;
        case Ground::kRiver:
          spec.flags = kFlagTerrain | kFlagWater;
          spec.height_yards = kBedHeight;
          if (on_bridge_row) spec.headroom_yards = kDeckHeight - kBedHeight;
          break;
        case Ground::kOpen:
          break;
      }
      // Ramps up to the deck replace the open ground beside the river.
      const int west_ramp = river_w - x;  // 1 .. kRampColumns west of the river
      const int east_ramp = x - river_e;
      if (on_bridge_row && at(x, y) == Ground::kOpen &&
          ((west_ramp >= 1 && west_ramp <= kRampColumns) || (east_ramp >= 1 && east_ramp <= kRampColumns))) {
        const int from_river = west_ramp >= 1 ? west_ramp : east_ramp;
        spec.flags = kFlagBuilding;
        spec.marks = kMarkRoad;
        spec.height_yards = kDeckHeight * static_cast<float>(kRampColumns + 1 - from_river) / (kRampColumns + 1);
      }
      builder.AddSurface(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), spec);
      if (on_bridge_row && at(x, y) == Ground::kRiver) {
        SurfaceSpec deck;
        deck.flags = kFlagBuilding;
        deck.marks = kMarkRoad;
        deck.zone = zone;
        deck.height_yards = kDeckHeight;
        builder.AddSurface(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), deck);
      }
    }
  }
  absl::StatusOr<Continent> continent = builder.Build(LinkRules{});
  if (!continent.ok()) return continent.status();
  World world;
  world.column_yards = 533.3333 / 256.0;
  world.continents.push_back(*std::move(continent));
  world.content_id = ComputeContentId(world);
  return world;
}

}  // namespace walk::nav
