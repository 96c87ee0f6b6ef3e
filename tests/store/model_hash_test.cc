// The model hash: every answer-deciding input changes it; nothing else does.
#include "store/model_hash.h"

#include "gtest/gtest.h"
#include "nav/grid/grid_builder.h"

namespace walk::store {
namespace {

nav::World SmallWorld(float height = 0.0f) {
  nav::ContinentBuilder builder(0, 4, 1);
  for (std::uint32_t x = 0; x < 4; ++x) {
    nav::SurfaceSpec s;
    s.height_yards = height;
    s.zone = x < 2 ? 1 : 2;
    builder.AddSurface(x, 0, s);
  }
  nav::World world;
  world.continents.push_back(*builder.Build(nav::LinkRules{}));
  world.zones = {{1, "low", 1, 10}, {2, "high", 40, 50}};
  nav::AssignContentIds(world);
  return world;
}

std::uint64_t Hash(const nav::World& world, const std::string& profile, std::uint32_t band,
                   const nav::CostModel& model = nav::DefaultCostModel(),
                   std::uint32_t version = kWalkerAnswerVersion) {
  const nav::Metric metric(world, *nav::FindProfile(profile), band, model);
  return ModelHash({world.content_id, &metric, version});
}

TEST(ModelHashTest, EveryAnswerDecidingInputChangesIt) {
  const nav::World world = SmallWorld();
  const std::uint64_t base = Hash(world, "faction-a", 10);
  EXPECT_EQ(base, Hash(world, "faction-a", 10));             // stable
  EXPECT_NE(base, Hash(SmallWorld(1.0f), "faction-a", 10));  // the grid
  EXPECT_NE(base, Hash(world, "faction-b", 10));             // the faction
  EXPECT_NE(base, Hash(world, "faction-a-heavy", 10));       // the move profile
  EXPECT_NE(base, Hash(world, "neutral", 10));               // hostile towns
  EXPECT_NE(base, Hash(world, "faction-a", 40));             // the band's danger table
  nav::CostModel cheaper_roads;
  cheaper_roads.road = 0.7;
  EXPECT_NE(base, Hash(world, "faction-a", 10, cheaper_roads));  // a cost constant
  EXPECT_NE(base, Hash(world, "faction-a", 10, nav::DefaultCostModel(), kWalkerAnswerVersion + 1));
  // Walks over an abstract graph, and which one (its cell side, spacing, version).
  const nav::Metric metric(world, *nav::FindProfile("faction-a"), 10);
  EXPECT_NE(base, ModelHash({world.content_id, &metric, kWalkerAnswerVersion, 0x1234}));
  EXPECT_NE(ModelHash({world.content_id, &metric, kWalkerAnswerVersion, 0x1234}),
            ModelHash({world.content_id, &metric, kWalkerAnswerVersion, 0x1235}));
  nav::World deadlier = world;
  deadlier.zones[0].min_level = 30;  // a zone's lowest level decides danger
  nav::AssignContentIds(deadlier);
  EXPECT_NE(base, Hash(deadlier, "faction-a", 10));
}

TEST(ModelHashTest, WhatDecidesNoAnswerDoesNotChangeIt) {
  const nav::World world = SmallWorld();
  const std::uint64_t base = Hash(world, "faction-a", 10);
  // Zone names and the top of a level range decide nothing: same content id, same model.
  nav::World renamed = world;
  renamed.zones[0].name = "meadow";
  renamed.zones[1].max_level = 60;
  nav::AssignContentIds(renamed);
  EXPECT_EQ(renamed.content_id, world.content_id);
  EXPECT_EQ(base, Hash(renamed, "faction-a", 10));
  // The world's folder name and logging are not inputs at all: ModelInputs has no such field,
  // and a world loaded under another name has the same content id (tests/nav/grid/grid_test.cc).
  // Bands that price alike share answers: "shortest" ignores danger, band 0 prices none.
  EXPECT_EQ(Hash(world, "shortest", 0), Hash(world, "shortest", 50));
  // A band whose danger table is empty prices like band 0 on this world (zone 2 is 40+: band
  // 50 exempts nothing and prices nothing).
  EXPECT_EQ(Hash(world, "faction-a", 50), Hash(world, "faction-a", 0));
}

}  // namespace
}  // namespace walk::store
