// The demo world: deterministic, and holding everything the grid models (floors, lifts, zones,
// hubs, roads, water, forest, steep ground, a bridge deck over water), walkable between its
// landmarks.
#include "nav/demo/demo_world.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "nav/cost/cost_model.h"
#include "nav/cost/danger.h"
#include "nav/cost/metric.h"
#include "nav/search/fine_grid_astar.h"

namespace walk::nav {
namespace {

struct Demo {
  DemoOptions options;
  World world;
  DemoLandmarks landmarks;
};

// The 2 x 2-tile world of seed 1, generated once for the tests that only read it.
const Demo& TheDemo() {
  static const Demo* demo = [] {
    auto* d = new Demo;
    d->options.seed = 1;
    d->options.tiles_x = d->options.tiles_y = 2;
    absl::StatusOr<World> world = GenerateDemoWorld(d->options);
    EXPECT_TRUE(world.ok()) << world.status();
    if (world.ok()) d->world = *std::move(world);
    absl::StatusOr<DemoLandmarks> landmarks = FindLandmarks(d->options);
    EXPECT_TRUE(landmarks.ok()) << landmarks.status();
    if (landmarks.ok()) d->landmarks = *landmarks;
    return d;
  }();
  return *demo;
}

const Continent& TheContinent() {
  const Demo& demo = TheDemo();
  EXPECT_EQ(demo.world.continents.size(), 1u);
  return demo.world.continents.at(0);
}

std::uint64_t CountSurfaces(const Continent& c, std::uint8_t flags, std::uint8_t marks) {
  std::uint64_t n = 0;
  for (SurfaceId s = 0; s < c.surface_count(); ++s) {
    if ((c.flags[s] & flags) == flags && (c.marks[s] & marks) == marks) ++n;
  }
  return n;
}

// The landmark's surface; fails the test when its column has none near the planned height.
SurfaceId Surface(const DemoPoint& p) {
  const Demo& demo = TheDemo();
  const SurfaceId s = LandmarkSurface(demo.world, p);
  EXPECT_NE(s, kInvalidId) << "no surface at column " << p.x << "," << p.y;
  if (s != kInvalidId) {
    EXPECT_NEAR(TheContinent().height_yards[s], p.z, 0.6) << "column " << p.x << "," << p.y;
  }
  return s;
}

struct Walked {
  SearchResult result;
  std::vector<PathStep> path;
};

Walked Walk(const DemoPoint& from, const DemoPoint& to) {
  const Demo& demo = TheDemo();
  const Metric metric(demo.world, *FindProfile("neutral"), 0);
  FineGridAStar astar;
  Walked w;
  w.result = astar.FindWalk(TheContinent(), demo.world.column_yards, metric, Surface(from),
                            Surface(to), &w.path);
  return w;
}

int LiftRides(const std::vector<PathStep>& path) {
  return static_cast<int>(std::count_if(
      path.begin(), path.end(), [](const PathStep& s) { return s.via == PathStep::kViaLift; }));
}

TEST(DemoWorldTest, SameSeedSameWorld) {
  DemoOptions options;
  options.seed = 1;
  absl::StatusOr<World> again = GenerateDemoWorld(options);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_NE(again->content_id, 0u);
  EXPECT_EQ(again->content_id, TheDemo().world.content_id);
  EXPECT_EQ(again->continents[0].height_yards, TheContinent().height_yards);
  EXPECT_EQ(again->continents[0].links, TheContinent().links);
  EXPECT_EQ(again->continents[0].lifts.size(), TheContinent().lifts.size());

  absl::StatusOr<TriangleMesh> a = DemoTileMesh(options, 1, 0);
  absl::StatusOr<TriangleMesh> b = DemoTileMesh(options, 1, 0);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->vertices, b->vertices);
  EXPECT_EQ(a->indices, b->indices);

  absl::StatusOr<DemoLandmarks> landmarks = FindLandmarks(options);
  ASSERT_TRUE(landmarks.ok());
  EXPECT_EQ(landmarks->town_a.x, TheDemo().landmarks.town_a.x);
  EXPECT_EQ(landmarks->town_a.y, TheDemo().landmarks.town_a.y);
  EXPECT_EQ(landmarks->lift_top.z, TheDemo().landmarks.lift_top.z);
}

TEST(DemoWorldTest, OtherSeedOtherWorld) {
  DemoOptions options;
  options.seed = 2;
  absl::StatusOr<World> other = GenerateDemoWorld(options);
  ASSERT_TRUE(other.ok()) << other.status();
  EXPECT_NE(other->content_id, TheDemo().world.content_id);
}

TEST(DemoWorldTest, RefusesBadOptions) {
  DemoOptions options;
  options.tiles_x = 0;
  absl::StatusOr<World> world = GenerateDemoWorld(options);
  ASSERT_EQ(world.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(world.status().message().find("tiles_x"), absl::string_view::npos);

  options = DemoOptions{};
  options.tiles_y = 300;
  EXPECT_EQ(FindLandmarks(options).status().code(), absl::StatusCode::kInvalidArgument);

  options = DemoOptions{};
  options.column_yards = 0.0;
  EXPECT_EQ(DemoTileMesh(options, 0, 0).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(DemoTileMesh(DemoOptions{}, 2, 0).status().code(), absl::StatusCode::kOutOfRange);
}

TEST(DemoWorldTest, IsOneContinentOfTheAskedSize) {
  const Demo& demo = TheDemo();
  const Continent& c = TheContinent();
  EXPECT_EQ(c.id, 0u);
  EXPECT_EQ(c.tiles_x, 2u);
  EXPECT_EQ(c.tiles_y, 2u);
  EXPECT_EQ(c.width_columns, 512u);
  EXPECT_EQ(c.height_columns, 512u);
  EXPECT_EQ(c.tiles.size(), 4u);
  EXPECT_DOUBLE_EQ(demo.world.column_yards, 533.3333 / 256.0);
  EXPECT_EQ(demo.world.content_id, ComputeContentId(demo.world));
  // Nearly every column has somewhere to stand (trees, walls and cliffs' feet excepted).
  EXPECT_GT(c.CountColumns(), 512u * 512u * 9 / 10);
}

TEST(DemoWorldTest, HasFloorsOverGroundAndLifts) {
  const Continent& c = TheContinent();
  EXPECT_GE(c.MaxFloors(), 3u);  // a building's floors over one another, and its roof
  ASSERT_FALSE(c.lifts.empty());
  EXPECT_EQ(c.lifts.size() % 2, 0u);  // every lift goes both ways
  for (const LiftRide& ride : c.lifts) {
    EXPECT_TRUE(c.marks[ride.from] & kMarkLift);
    EXPECT_EQ(c.column_x[ride.from], c.column_x[ride.to]);
    EXPECT_EQ(c.column_y[ride.from], c.column_y[ride.to]);
    EXPECT_GE(ride.shaft_yards, 5.0f);
    // Timed as the cost model has always timed lifts, so the demo world's answers stand.
    EXPECT_EQ(ride.wait_seconds, DefaultCostModel().lift_wait_seconds);
    EXPECT_EQ(ride.shaft_yards_per_second, DefaultCostModel().lift_shaft_yards_per_second);
  }
}

TEST(DemoWorldTest, ZonesTileTheMapWithSpreadLevels) {
  const Demo& demo = TheDemo();
  const Continent& c = TheContinent();
  ASSERT_GE(demo.world.zones.size(), 4u);
  std::set<std::pair<int, int>> ranges;
  int lowest = 100, highest = 0;
  for (std::size_t i = 0; i < demo.world.zones.size(); ++i) {
    const Zone& z = demo.world.zones[i];
    EXPECT_EQ(z.id, i + 1);
    EXPECT_FALSE(z.name.empty());
    EXPECT_GE(z.min_level, 1);
    EXPECT_LE(z.max_level, 60);
    EXPECT_LE(z.min_level, z.max_level);
    ranges.insert({z.min_level, z.max_level});
    lowest = std::min<int>(lowest, z.min_level);
    highest = std::max<int>(highest, z.min_level);
  }
  EXPECT_EQ(ranges.size(), demo.world.zones.size());  // distinct level ranges
  // Far enough apart that danger bands price them: x20 for a band-10 walker in the highest.
  EXPECT_EQ(DangerMultiplier(10, static_cast<std::uint32_t>(lowest)), 1.0);
  EXPECT_EQ(DangerMultiplier(10, static_cast<std::uint32_t>(highest)), kDangerHigh);
  // Every surface is in a zone, and every zone has surfaces.
  std::vector<std::uint64_t> per_zone(demo.world.zones.size() + 1, 0);
  for (SurfaceId s = 0; s < c.surface_count(); ++s) {
    ASSERT_NE(demo.world.FindZone(c.zone[s]), nullptr) << "surface " << s;
    ++per_zone[c.zone[s]];
  }
  for (std::size_t z = 1; z < per_zone.size(); ++z) EXPECT_GT(per_zone[z], 1000u) << "zone " << z;
}

TEST(DemoWorldTest, HasEveryKindOfGround) {
  const Continent& c = TheContinent();
  EXPECT_GT(CountSurfaces(c, kFlagTerrain, kMarkHubA), 1000u);
  EXPECT_GT(CountSurfaces(c, kFlagTerrain, kMarkHubB), 1000u);
  EXPECT_GT(CountSurfaces(c, kFlagBuilding | kFlagIndoor, kMarkHubA), 100u);
  EXPECT_GT(CountSurfaces(c, kFlagBuilding | kFlagIndoor, kMarkHubB), 100u);
  EXPECT_GT(CountSurfaces(c, kFlagTerrain, kMarkRoad), 500u);
  EXPECT_GT(CountSurfaces(c, kFlagBuilding, kMarkRoad), 10u);  // bridge decks
  EXPECT_GT(CountSurfaces(c, kFlagWater, 0), 1000u);
  EXPECT_GT(CountSurfaces(c, kFlagForest, 0), 1000u);
  EXPECT_GT(CountSurfaces(c, kFlagSteep, 0), 10u);
  EXPECT_GT(CountSurfaces(c, kFlagClimb, 0), 0u);
  // Roads and towns are not forest; water is nothing else.
  EXPECT_EQ(CountSurfaces(c, kFlagForest, kMarkRoad), 0u);
  EXPECT_EQ(CountSurfaces(c, kFlagForest, kMarkHubA), 0u);
  EXPECT_EQ(CountSurfaces(c, kFlagWater | kFlagBuilding, 0), 0u);
}

TEST(DemoWorldTest, OneRegionHoldsNearlyEverything) {
  const Continent& c = TheContinent();
  const std::uint32_t largest = *std::max_element(c.region_size.begin(), c.region_size.end());
  EXPECT_GE(largest, c.surface_count() / 100 * 99);
}

TEST(DemoWorldTest, EveryTriangleIsTaggedWithItsZone) {
  const Demo& demo = TheDemo();
  absl::StatusOr<TriangleMesh> mesh = DemoTileMesh(demo.options, 0, 1);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  ASSERT_GT(mesh->triangle_count(), 2u * 256 * 256);
  for (const TriangleTag& tag : mesh->tags) {
    ASSERT_NE(demo.world.FindZone(tag.zone), nullptr);
    ASSERT_TRUE(tag.flags & (kFlagTerrain | kFlagBuilding));
  }
}

TEST(DemoWorldTest, LandmarksStandWhereTheySay) {
  const Demo& demo = TheDemo();
  const DemoLandmarks& l = demo.landmarks;
  const Continent& c = TheContinent();
  EXPECT_TRUE(c.marks[Surface(l.town_a)] & kMarkHubA);
  EXPECT_TRUE(c.marks[Surface(l.town_b)] & kMarkHubB);
  EXPECT_TRUE(c.marks[Surface(l.bridge_start)] & kMarkRoad);
  EXPECT_TRUE(c.marks[Surface(l.bridge_end)] & kMarkRoad);
  for (const DemoPoint* p : {&l.building_ground, &l.building_upper}) {
    EXPECT_EQ(c.flags[Surface(*p)] & (kFlagBuilding | kFlagIndoor), kFlagBuilding | kFlagIndoor);
  }
  EXPECT_EQ(l.building_ground.x, l.building_upper.x);
  EXPECT_EQ(l.building_ground.y, l.building_upper.y);
  EXPECT_GT(l.building_upper.z, l.building_ground.z + 6.0f);
  EXPECT_TRUE(c.marks[Surface(l.lift_bottom)] & kMarkLift);
  EXPECT_TRUE(c.marks[Surface(l.lift_top)] & kMarkLift);
  EXPECT_GT(l.cliff_top.z, l.cliff_foot.z + 4.0f);
  EXPECT_EQ(c.zone[Surface(l.low_zone)], l.low_zone_id);
  EXPECT_EQ(c.zone[Surface(l.high_zone)], l.high_zone_id);
  const Zone* low = demo.world.FindZone(l.low_zone_id);
  const Zone* high = demo.world.FindZone(l.high_zone_id);
  ASSERT_TRUE(low != nullptr && high != nullptr);
  for (const Zone& z : demo.world.zones) {
    EXPECT_LE(low->min_level, z.min_level);
    EXPECT_GE(high->min_level, z.min_level);
  }
}

TEST(DemoWorldTest, BridgeDeckStandsOverTheWater) {
  const DemoLandmarks& l = TheDemo().landmarks;
  const Continent& c = TheContinent();
  ASSERT_EQ(l.bridge_deck.x, l.bridge_water.x);
  ASSERT_EQ(l.bridge_deck.y, l.bridge_water.y);
  const SurfaceId deck = Surface(l.bridge_deck);
  const SurfaceId water = Surface(l.bridge_water);
  ASSERT_NE(deck, water);
  EXPECT_TRUE(c.flags[water] & kFlagWater);
  EXPECT_FALSE(c.flags[deck] & kFlagWater);
  EXPECT_TRUE(c.flags[deck] & kFlagBuilding);
  EXPECT_TRUE(c.marks[deck] & kMarkRoad);
  EXPECT_GT(c.level[deck], c.level[water]);
  EXPECT_GE(c.height_yards[deck] - c.height_yards[water], 2.0f);
  EXPECT_GE(c.headroom_yards[water], 2.0f);  // one can swim under it
}

TEST(DemoWorldTest, WalksFromTownToTown) {
  const DemoLandmarks& l = TheDemo().landmarks;
  const Walked w = Walk(l.town_a, l.town_b);
  ASSERT_TRUE(w.result.found);
  EXPECT_GT(w.result.yards, 100.0);
  // Faction A's town lies north of the river, faction B's south: the way crosses water.
  const Walked back = Walk(l.town_b, l.town_a);
  ASSERT_TRUE(back.result.found);
}

TEST(DemoWorldTest, ClimbsTheStairsToTheTopFloor) {
  const DemoLandmarks& l = TheDemo().landmarks;
  const Continent& c = TheContinent();
  const Walked w = Walk(l.building_ground, l.building_upper);
  ASSERT_TRUE(w.result.found);
  EXPECT_EQ(LiftRides(w.path), 0);
  // Step by step: every step is indoors and rises or drops less than a step (0.6 yards), and
  // some surfaces lie between the floors (the stairs).
  int between = 0;
  for (std::size_t i = 1; i < w.path.size(); ++i) {
    const SurfaceId a = w.path[i - 1].surface, b = w.path[i].surface;
    EXPECT_TRUE(c.flags[b] & kFlagIndoor) << "step " << i;
    EXPECT_LE(std::abs(c.height_yards[b] - c.height_yards[a]), 0.6f + 1e-4f) << "step " << i;
    if (c.height_yards[b] > l.building_ground.z + 1.0f &&
        c.height_yards[b] < l.building_upper.z - 1.0f) {
      ++between;
    }
  }
  EXPECT_GE(between, 8);
  // The building is entered by its door.
  ASSERT_TRUE(Walk(l.town_a, l.building_upper).result.found);
}

TEST(DemoWorldTest, CrossesTheBridgeOnItsDeck) {
  const DemoLandmarks& l = TheDemo().landmarks;
  const Continent& c = TheContinent();
  const Walked w = Walk(l.bridge_start, l.bridge_end);
  ASSERT_TRUE(w.result.found);
  int on_deck = 0;
  for (const PathStep& step : w.path) {
    const SurfaceId s = step.surface;
    EXPECT_FALSE(c.flags[s] & kFlagWater) << "swam at " << c.column_x[s] << "," << c.column_y[s];
    if ((c.flags[s] & kFlagBuilding) && c.level[s] > 0) {
      SurfaceId first = 0, end = 0;
      c.ColumnSurfaces(c.column_x[s], c.column_y[s], &first, &end);
      if (c.flags[first] & kFlagWater) ++on_deck;  // over water
    }
  }
  EXPECT_GE(on_deck, 3);
}

TEST(DemoWorldTest, TheCliffTopIsReachedByItsLift) {
  const DemoLandmarks& l = TheDemo().landmarks;
  const Walked up = Walk(l.cliff_foot, l.cliff_top);
  ASSERT_TRUE(up.result.found);
  EXPECT_EQ(LiftRides(up.path), 1);
  const Walked ride = Walk(l.lift_bottom, l.lift_top);
  ASSERT_TRUE(ride.result.found);
  EXPECT_EQ(LiftRides(ride.path), 1);
  const Walked down = Walk(l.cliff_top, l.cliff_foot);  // a fall off the cliff, or the lift
  ASSERT_TRUE(down.result.found);
}

TEST(DemoWorldTest, WalksFromTheLowZoneToTheHighZone) {
  const DemoLandmarks& l = TheDemo().landmarks;
  const Walked w = Walk(l.low_zone, l.high_zone);
  ASSERT_TRUE(w.result.found);
  EXPECT_GT(w.result.yards, 100.0);
}

}  // namespace
}  // namespace walk::nav
