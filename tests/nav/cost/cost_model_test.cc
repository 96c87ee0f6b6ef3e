// The cost model and danger bands, on tiny worlds drawn in ASCII: what each profile and band
// avoids, and the multi-floor cases (a bridge, a two-floor building, a ledge).
#include <cmath>

#include "gtest/gtest.h"
#include "nav/cost/danger.h"
#include "nav/cost/metric.h"
#include "nav/grid/grid_builder.h"
#include "nav/query/path_description.h"
#include "nav/query/walk_pipeline.h"
#include "tests/nav/ascii_grid.h"

namespace walk::nav {
namespace {

constexpr double kSqrt2 = 1.41421356237309504880;

// One surface per character: '.' ground, '=' road, 'a' / 'b' a town of faction A / B, '~' water,
// '^' steep, 'f' forest, '#' nothing. `zones`, when given, holds a zone digit per column.
World Draw(const std::vector<std::string>& rows, const std::vector<std::string>& zones = {},
           std::vector<Zone> zone_table = {}) {
  const auto height = static_cast<std::uint32_t>(rows.size());
  const auto width = static_cast<std::uint32_t>(rows[0].size());
  ContinentBuilder builder(0, width, height);
  for (std::uint32_t y = 0; y < height; ++y) {
    for (std::uint32_t x = 0; x < width; ++x) {
      SurfaceSpec s;
      switch (rows[y][x]) {
        case '#':
          continue;
        case '=':
          s.marks = kMarkRoad;
          break;
        case 'a':
          s.marks = kMarkHubA;
          break;
        case 'b':
          s.marks = kMarkHubB;
          break;
        case '~':
          s.flags = kFlagTerrain | kFlagWater;
          break;
        case '^':
          s.flags = kFlagTerrain | kFlagSteep;
          break;
        case 'f':
          s.flags = kFlagTerrain | kFlagForest;
          break;
        default:
          break;
      }
      if (!zones.empty()) s.zone = static_cast<std::uint16_t>(zones[y][x] - '0');
      builder.AddSurface(x, y, s);
    }
  }
  auto built = builder.Build(LinkRules{});
  EXPECT_TRUE(built.ok()) << built.status();
  World world;
  world.column_yards = 1.0;
  world.continents.push_back(*std::move(built));
  world.zones = std::move(zone_table);
  AssignContentIds(world);
  return world;
}

using testing::At;

WalkAnswer Ask(const World& world, const std::string& profile, std::uint32_t band, Place from,
               Place to) {
  const Metric metric(world, *FindProfile(profile), band);
  FineGridAStar astar;
  auto answer = AnswerWalk(world, metric, from, to, astar);
  EXPECT_TRUE(answer.ok()) << answer.status();
  return *answer;
}

// Plain running: 7 yards a second.
double Running(double yards) { return yards / 7.0; }

TEST(CostModelTest, RoadsAreCheaperAndPreferred) {
  // Two ways from the west to the east end: straight over plain ground (8 columns), or a dog-leg
  // along the road (2 diagonals + 6 straight, all road): 0.8 x (6 + 2 sqrt 2) = 7.06 < 8.
  const World world = Draw({
      ".........",
      ".=======.",
  });
  const WalkAnswer answer = Ask(world, "neutral", 0, At(0, 0), At(8, 0));
  ASSERT_EQ(answer.status, WalkStatus::kOk);
  // Onto the road by a diagonal (x0.8), six road columns, off it by a diagonal onto plain ground.
  EXPECT_NEAR(answer.seconds, Running(0.8 * kSqrt2 + 6 * 0.8 + kSqrt2), 1e-12);
  EXPECT_LT(answer.seconds, Running(8.0));
  // "shortest" ignores roads.
  EXPECT_NEAR(Ask(world, "shortest", 0, At(0, 0), At(8, 0)).seconds, Running(8.0), 1e-12);
}

TEST(CostModelTest, AHostileTownIsAvoidedAndOnesOwnIsNot) {
  const World world = Draw({
      ".......",
      "..bbb..",
      "..bbb..",
      "..bbb..",
      ".......",
  });
  // Straight through the B town: 6 columns. Around it: 4 straight + 2 diagonals... longer.
  const double through = Running(6.0);
  const WalkAnswer a = Ask(world, "faction-a", 0, At(0, 2), At(6, 2));
  const WalkAnswer b = Ask(world, "faction-b", 0, At(0, 2), At(6, 2));
  ASSERT_EQ(a.status, WalkStatus::kOk);
  EXPECT_NEAR(b.seconds, through, 1e-12);                     // its own town: straight through
  EXPECT_GT(a.seconds, through);                              // the other faction walks round
  EXPECT_LT(a.seconds, Running(6.0) * 20);                    // ... not through it at x20
  EXPECT_NEAR(a.seconds, Running(2 * kSqrt2 * 2 + 2), 1e-9);  // up, along row 0, down
}

TEST(CostModelTest, HeavyUnitsKeepOutOfForest) {
  const World world = Draw({
      ".fff.",
      ".fff.",
      ".###.",
  });
  const WalkAnswer light = Ask(world, "faction-a", 0, At(0, 0), At(4, 0));
  const WalkAnswer heavy = Ask(world, "faction-a-heavy", 0, At(0, 0), At(4, 0));
  EXPECT_EQ(light.status, WalkStatus::kOk);
  EXPECT_NEAR(light.seconds, Running(4.0), 1e-12);
  EXPECT_EQ(heavy.status, WalkStatus::kNoWalk);  // the only way is through the wood
}

TEST(CostModelTest, WaterSteepAndClimbCostTheirMultipliers) {
  EXPECT_NEAR(Ask(Draw({"~~~~"}), "neutral", 0, At(0, 0), At(3, 0)).seconds, Running(3 * 2.0),
              1e-12);
  EXPECT_NEAR(Ask(Draw({".^^."}), "neutral", 0, At(0, 0), At(3, 0)).seconds, Running(2 * 40.0 + 1),
              1e-9);
}

// Zones: 1 (levels 1-10) west, 2 (levels 30-40) in the middle band, 3 (levels 5-15) east; the
// middle band can be skirted by a detour through zone 1 at the top.
std::vector<Zone> Zones() {
  return {{1, "meadow", 1, 10}, {2, "badlands", 30, 40}, {3, "fields", 5, 15}};
}
const std::vector<std::string> kGround = {
    ".........",
    ".........",
    ".........",
    ".........",
};
const std::vector<std::string> kZones = {
    "111111111",
    "112222233",
    "112222233",
    "112222233",
};

TEST(DangerTest, ADangerousZoneIsAvoidedInBand10ButNotIn50) {
  const World world = Draw(kGround, kZones, Zones());
  // From the west of row 2 to the east of row 2: straight across the badlands is 8 columns.
  const WalkAnswer band10 = Ask(world, "neutral", 10, At(0, 2), At(8, 2));
  const WalkAnswer band50 = Ask(world, "neutral", 50, At(0, 2), At(8, 2));
  const WalkAnswer band0 = Ask(world, "neutral", 0, At(0, 2), At(8, 2));
  EXPECT_NEAR(band50.seconds, Running(8.0), 1e-12);  // 30 < 50 + 4: no danger
  EXPECT_NEAR(band0.seconds, Running(8.0), 1e-12);   // band 0: the base walk
  // Band 10: 30 > 20 costs x20; the way round through row 0 (zone 1) is cheaper.
  EXPECT_GT(band10.seconds, Running(8.0));
  // Row 0 is zone 1, the start's (exempt): two diagonals up, four along, two diagonals down.
  EXPECT_NEAR(band10.seconds, Running(4 * kSqrt2 + 4), 1e-12);
  EXPECT_LT(band10.seconds, Running(8.0) * 3);
  EXPECT_DOUBLE_EQ(DangerMultiplier(10, 30), 20.0);
  EXPECT_DOUBLE_EQ(DangerMultiplier(10, 14), 3.0);
  EXPECT_DOUBLE_EQ(DangerMultiplier(10, 13), 1.0);
  EXPECT_DOUBLE_EQ(DangerMultiplier(20, 30), 3.0);
  EXPECT_DOUBLE_EQ(DangerMultiplier(0, 60), 1.0);
}

TEST(DangerTest, TheZonesOfBothEndsAreExempt) {
  const World world = Draw(kGround, kZones, Zones());
  // The goal stands inside the badlands: walking into it costs nothing extra.
  const WalkAnswer into = Ask(world, "neutral", 10, At(0, 2), At(4, 2));
  EXPECT_NEAR(into.seconds, Running(4.0), 1e-12);
  // And from inside it, out.
  const WalkAnswer out = Ask(world, "neutral", 10, At(4, 2), At(0, 2));
  EXPECT_NEAR(out.seconds, Running(4.0), 1e-12);
  // The walk records its yards per zone: 2 in zone 1 and 2 in zone 2 (before smoothing).
  double zone1 = 0, zone2 = 0;
  for (const ZoneCell& cell : into.zone_cells) (cell.zone == 1 ? zone1 : zone2) += cell.yards;
  EXPECT_NEAR(zone1, 1 * 0.961, 1e-9);  // the first step enters column 1 (zone 1)
  EXPECT_NEAR(zone2, 3 * 0.961, 1e-9);
}

TEST(DangerTest, BandsOutsideTheListAreRefusedNamingTheField) {
  const absl::Status status = ValidateBand(15);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(status.message()).rfind("band:", 0), 0u);
  EXPECT_TRUE(ValidateBand(40).ok());
}

// A river (water at 0) under a bridge deck (2.0) in columns 2-3, banks ramping up to the deck.
World Bridge() {
  ContinentBuilder builder(0, 6, 3);
  for (std::uint32_t y = 0; y < 3; ++y) {
    for (std::uint32_t x = 0; x < 6; ++x) {
      SurfaceSpec bank;
      if (x == 2 || x == 3) {
        SurfaceSpec water;
        water.flags = kFlagTerrain | kFlagWater;
        water.headroom_yards = 2.0f + 0.01f;
        builder.AddSurface(x, y, water);
        if (y == 1) {
          SurfaceSpec deck;
          deck.flags = kFlagBuilding;
          deck.marks = kMarkRoad;
          deck.height_yards = 2.0f;
          builder.AddSurface(x, y, deck);
        }
        continue;
      }
      if (y == 1 && (x == 1 || x == 4)) bank.height_yards = 1.5f;  // the ramp's top
      if (y == 1 && (x == 0 || x == 5)) bank.height_yards = 1.0f;
      builder.AddSurface(x, y, bank);
    }
  }
  auto built = builder.Build(LinkRules{});
  EXPECT_TRUE(built.ok());
  World world;
  world.continents.push_back(*std::move(built));
  AssignContentIds(world);
  return world;
}

TEST(MultiFloorTest, ABridgeDeckAndTheRiverUnderItAreBothWalkable) {
  const World world = Bridge();
  EXPECT_EQ(world.continents[0].MaxFloors(), 2u);
  Place deck = At(2, 1), river = At(2, 1);
  deck.z_yards = 2.0;
  river.z_yards = 0.0;
  const WalkAnswer on_deck = Ask(world, "neutral", 0, At(0, 1), deck);
  const WalkAnswer in_river = Ask(world, "neutral", 0, At(0, 0), river);
  ASSERT_EQ(on_deck.status, WalkStatus::kOk);
  ASSERT_EQ(in_river.status, WalkStatus::kOk);
  EXPECT_EQ(on_deck.to_end->level, 1);
  EXPECT_EQ(in_river.to_end->level, 0);
  // Across on the deck (road) is cheaper than swimming.
  Place far_deck = At(3, 1);
  far_deck.z_yards = 2.0;
  const WalkAnswer across = Ask(world, "neutral", 0, At(1, 1), At(4, 1));
  EXPECT_NEAR(across.seconds, Running(0.8 * 2 + 1.0), 1e-9);  // deck, deck (road), bank
}

TEST(MultiFloorTest, ALedgeCanBeDroppedButNotClimbed) {
  ContinentBuilder builder(0, 4, 1);
  for (std::uint32_t x = 0; x < 4; ++x) {
    SurfaceSpec s;
    s.height_yards = x < 2 ? 3.0f : 0.0f;  // a 3-yard drop between columns 1 and 2
    builder.AddSurface(x, 0, s);
  }
  auto built = builder.Build(LinkRules{});
  ASSERT_TRUE(built.ok());
  World world;
  world.continents.push_back(*std::move(built));
  AssignContentIds(world);
  const WalkAnswer down = Ask(world, "neutral", 0, At(0, 0), At(3, 0));
  ASSERT_EQ(down.status, WalkStatus::kOk);
  EXPECT_NEAR(down.seconds, Running(3.0) + DefaultCostModel().fall_seconds, 1e-12);
  const WalkAnswer up = Ask(world, "neutral", 0, At(3, 0), At(0, 0));
  EXPECT_EQ(up.status, WalkStatus::kNoWalk);
  // The path names the fall.
  const Metric metric(world, *FindProfile("neutral"), 0);
  FineGridAStar astar;
  WalkOptions options;
  options.want_path = true;
  auto detail = AnswerWalk(world, metric, At(0, 0), At(3, 0), astar, options);
  ASSERT_TRUE(detail.ok() && detail->path.has_value());
  ASSERT_EQ(detail->path->falls.size(), 1u);
  EXPECT_DOUBLE_EQ(detail->path->falls[0].drop_yards, 3.0);
}

TEST(MultiFloorTest, TwoFloorsJoinedByStairsAndALift) {
  // Columns 0-5: a ground floor (indoor, headroom 3.8) and an upper floor at 4.0 over columns
  // 3-5. Stairs rise 0.5 per column from column 0 to the landing... simpler: a lift at column 5.
  ContinentBuilder builder(0, 6, 1);
  for (std::uint32_t x = 0; x < 6; ++x) {
    SurfaceSpec ground;
    ground.flags = kFlagBuilding | kFlagIndoor;
    if (x >= 3) ground.headroom_yards = 3.8f;
    builder.AddSurface(x, 0, ground);
    if (x >= 3) {
      SurfaceSpec upper;
      upper.flags = kFlagBuilding | kFlagIndoor;
      upper.height_yards = 4.0f;
      upper.headroom_yards = 3.0f;
      builder.AddSurface(x, 0, upper);
    }
  }
  builder.AddLift(5, 0, 0.0f, 4.0f);
  auto built = builder.Build(LinkRules{});
  ASSERT_TRUE(built.ok()) << built.status();
  World world;
  world.continents.push_back(*std::move(built));
  AssignContentIds(world);
  Place upstairs = At(3, 0);
  upstairs.z_yards = 4.0;
  const WalkAnswer answer = Ask(world, "neutral", 0, At(0, 0), upstairs);
  ASSERT_EQ(answer.status, WalkStatus::kOk);
  EXPECT_EQ(answer.to_end->level, 1);
  // Walk 5 columns to the lift, ride 4 yards up (15 s wait + 1 s of shaft), walk back 2.
  const CostModel& m = DefaultCostModel();
  EXPECT_NEAR(
      answer.seconds,
      Running(5.0) + (m.lift_wait_seconds + 4.0 / m.lift_shaft_yards_per_second) + Running(2.0),
      1e-9);
  EXPECT_NEAR(answer.yards, 7 * 0.961, 1e-9);  // a ride walks no yards
}

}  // namespace
}  // namespace walk::nav
