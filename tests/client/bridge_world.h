// A small world for the trail tools' tests, named in a frame with a negative origin (so every
// coordinate a test asks or reads is really converted), 10 x 5 columns of 2 yards:
//
//   grid row 4   . . . . . . # . . s      .  ground at 0 (zone 1 "meadow"); s a step up to 0.5
//   grid row 3   . . . . . . # . . .      #  a wall: a block whose top is at 5 (no zone)
//   grid row 2   . . B B L . # . . .      B  a bridge deck at 3 over ground at 0 (zone 2
//   grid row 1   . . . . . . # . . .         "high pass", road); L the same with a lift
//   grid row 0   . . . . . . # . . .         between the ground and the deck
//                0 1 2 3 4 5 6 7 8 9
//
// Grid column 0 is frame column -10 and row 0 frame row -3: grid column (gx, gy) has its centre
// at frame yards (2 gx - 19, 2 gy - 5).
#pragma once

#include "gtest/gtest.h"
#include "nav/grid/grid.h"
#include "nav/grid/grid_builder.h"

namespace walk::client::testing {

inline constexpr std::int64_t kOriginX = -10;
inline constexpr std::int64_t kOriginY = -3;
inline constexpr double kColumnYards = 2.0;
inline constexpr std::uint32_t kWallX = 6;
inline constexpr std::uint32_t kBridgeY = 2;
inline constexpr std::uint32_t kLiftX = 4;

// The frame coordinates of grid column (gx, gy)'s centre.
inline double CentreX(std::int64_t gx) { return (gx + kOriginX + 0.5) * kColumnYards; }
inline double CentreY(std::int64_t gy) { return (gy + kOriginY + 0.5) * kColumnYards; }

inline nav::World BridgeWorld() {
  nav::ContinentBuilder builder(0, 10, 5);
  for (std::uint32_t y = 0; y < 5; ++y) {
    for (std::uint32_t x = 0; x < 10; ++x) {
      nav::SurfaceSpec ground;
      ground.zone = 1;
      if (x == 9 && y == 4) ground.height_yards = 0.5f;
      if (x == kWallX) {
        ground.height_yards = 5.0f;
        ground.zone = 0;
      }
      const bool bridged = y == kBridgeY && x >= 2 && x <= 4;
      if (bridged) ground.headroom_yards = 3.0f;
      builder.AddSurface(x, y, ground);
      if (bridged) {
        nav::SurfaceSpec deck;
        deck.height_yards = 3.0f;
        deck.flags = nav::kFlagBuilding;
        deck.zone = 2;
        deck.marks = nav::kMarkRoad;
        builder.AddSurface(x, y, deck);
      }
    }
  }
  builder.AddLift(kLiftX, kBridgeY, 0.0f, 3.0f);
  auto continent = builder.Build(nav::LinkRules());
  EXPECT_TRUE(continent.ok()) << continent.status();
  nav::World world;
  world.column_yards = kColumnYards;
  continent->origin_column_x = kOriginX;
  continent->origin_column_y = kOriginY;
  world.continents.push_back(*std::move(continent));
  world.zones.push_back({1, "meadow", 1, 10});
  world.zones.push_back({2, "high pass", 20, 30});
  nav::AssignContentIds(world);
  return world;
}

}  // namespace walk::client::testing
