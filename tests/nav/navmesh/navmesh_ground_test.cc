// A navmesh priced by the grid beside it: the 1 x 1 demo world and a navmesh of the same
// triangles (its lifts as off-mesh connections) classified by the grid's ground. Lift rides
// cost what the grid's rides cost, hostile towns and danger zones are priced inside Detour's
// search with the ends' zones exempt, and walks stay close to the grid's exact walks.
#include "nav/navmesh/navmesh_ground.h"

#include <cmath>
#include <memory>
#include <optional>

#include "gtest/gtest.h"
#include "nav/cost/metric.h"
#include "nav/demo/demo_world.h"
#include "nav/navmesh/navmesh_builder.h"
#include "nav/navmesh/navmesh_walker.h"
#include "nav/navmesh/world_navmesh.h"
#include "nav/query/walk_pipeline.h"

namespace walk::nav {
namespace {

// The 1 x 1 demo world, its navmesh and its landmarks, made once for every test.
struct DemoNavMesh {
  DemoOptions options;
  World world;
  std::optional<NavMesh> navmesh;
  NavMeshGround ground;
  DemoLandmarks landmarks;
};

const DemoNavMesh& DemoMesh() {
  static const DemoNavMesh* demo = [] {
    auto* d = new DemoNavMesh;
    d->options.tiles_x = d->options.tiles_y = 1;
    absl::StatusOr<World> world = GenerateDemoWorld(d->options);
    EXPECT_TRUE(world.ok()) << world.status();
    d->world = *std::move(world);
    absl::StatusOr<TriangleMesh> mesh = DemoWorldMesh(d->options);
    EXPECT_TRUE(mesh.ok()) << mesh.status();
    NavMeshBuildOptions build;
    build.connections = LiftConnections(d->world, 0);
    absl::StatusOr<NavMesh> navmesh = BuildNavMesh(*mesh, build);
    EXPECT_TRUE(navmesh.ok()) << navmesh.status();
    d->navmesh = *std::move(navmesh);
    absl::StatusOr<NavMeshGround> ground = NavMeshGround::Classify(*d->navmesh, &d->world, 0);
    EXPECT_TRUE(ground.ok()) << ground.status();
    d->ground = *std::move(ground);
    d->landmarks = *FindLandmarks(d->options);
    return d;
  }();
  return *demo;
}

Place At(const DemoPoint& p, double column_yards) {
  return Place{0, p.x_yards(column_yards), p.y_yards(column_yards), double(p.z)};
}

// The navmesh's walk between two landmarks for a profile and band.
NavMeshWalk NavMeshWalkOf(const DemoPoint& a, const DemoPoint& b, const char* profile,
                          std::uint32_t band) {
  const DemoNavMesh& d = DemoMesh();
  const Metric metric(d.world, *FindProfile(profile), band);
  absl::StatusOr<NavMeshWalker> walker = NavMeshWalker::Create(*d.navmesh);
  EXPECT_TRUE(walker.ok()) << walker.status();
  const double cy = d.world.column_yards;
  absl::StatusOr<NavMeshWalk> walk =
      walker->Walk(At(a, cy), At(b, cy), NavMeshPricing{&metric, &d.ground});
  EXPECT_TRUE(walk.ok()) << walk.status();
  return walk.ok() ? *walk : NavMeshWalk{};
}

// The grid's exact walk between the same landmarks.
WalkAnswer GridWalkOf(const DemoPoint& a, const DemoPoint& b, const char* profile,
                      std::uint32_t band) {
  const DemoNavMesh& d = DemoMesh();
  const Metric metric(d.world, *FindProfile(profile), band);
  FineGridAStar astar;
  const double cy = d.world.column_yards;
  absl::StatusOr<WalkAnswer> answer = AnswerWalk(d.world, metric, At(a, cy), At(b, cy), astar);
  EXPECT_TRUE(answer.ok()) << answer.status();
  return answer.ok() ? *answer : WalkAnswer{};
}

TEST(NavMeshGroundTest, ClassifiesByTheGridAndMatchesEveryLiftRide) {
  const DemoNavMesh& d = DemoMesh();
  ASSERT_TRUE(d.navmesh.has_value());
  const NavMeshGroundStats& stats = d.ground.stats();
  EXPECT_TRUE(d.ground.exact());
  EXPECT_LE(d.ground.classes().size(), std::size_t{kNavMeshClassLimit});
  EXPECT_EQ(stats.connections, d.world.continents[0].lifts.size());
  EXPECT_EQ(stats.lift_rides, stats.connections) << "every connection is a ride of the grid";
  EXPECT_LT(stats.off_grid, stats.polygons / 50) << "nearly every polygon stands on the grid";
  bool water = false, road = false, hub_a = false, hub_b = false, zone = false;
  for (const NavMeshClass& c : d.ground.classes()) {
    water |= (c.flags & kFlagWater) != 0;
    road |= (c.marks & kMarkRoad) != 0;
    hub_a |= (c.marks & kMarkHubA) != 0;
    hub_b |= (c.marks & kMarkHubB) != 0;
    zone |= c.zone != 0;
  }
  EXPECT_TRUE(water && road && hub_a && hub_b && zone);
  EXPECT_NE(d.ground.id(), 0u);
}

TEST(NavMeshGroundTest, ALiftRideCostsWhatTheGridsRideCosts) {
  const DemoNavMesh& d = DemoMesh();
  const NavMeshWalk up = NavMeshWalkOf(d.landmarks.lift_bottom, d.landmarks.lift_top, "neutral", 0);
  ASSERT_EQ(up.status, WalkStatus::kOk);
  const WalkAnswer grid = GridWalkOf(d.landmarks.lift_bottom, d.landmarks.lift_top, "neutral", 0);
  ASSERT_EQ(grid.status, WalkStatus::kOk);
  // The only way up the mesa is the lift: 15 s of wait and the shaft at 4 yd/s.
  EXPECT_GT(up.seconds, 15.0);
  EXPECT_NEAR(up.seconds, grid.seconds, 0.15 * grid.seconds);
  EXPECT_LT(up.yards, 10.0) << "a ride walks no yards";
}

TEST(NavMeshGroundTest, HostileTownsAndDangerArePricedWithTheEndsZonesExempt) {
  const DemoNavMesh& d = DemoMesh();
  const DemoLandmarks& l = d.landmarks;
  // Faction A pays x20 inside faction B's town; neutral does not.
  const NavMeshWalk neutral = NavMeshWalkOf(l.town_a, l.town_b, "neutral", 0);
  const NavMeshWalk faction_a = NavMeshWalkOf(l.town_a, l.town_b, "faction-a", 0);
  ASSERT_EQ(neutral.status, WalkStatus::kOk);
  ASSERT_EQ(faction_a.status, WalkStatus::kOk);
  EXPECT_GT(faction_a.seconds, 1.5 * neutral.seconds);

  // A class of a zone that band 10 prices costs more, unless its zone is an end's.
  const Metric band10_metric(d.world, *FindProfile("neutral"), 10);
  const NavMeshPricing pricing{&band10_metric, &d.ground};
  int priced_classes = 0;
  for (std::size_t area = 0; area < d.ground.classes().size(); ++area) {
    const NavMeshClass& c = d.ground.classes()[area];
    if (c.zone == 0 || band10_metric.ZoneMultiplier(c.zone) == 1.0) continue;
    ++priced_classes;
    const auto a = static_cast<std::uint8_t>(area);
    EXPECT_GT(pricing.ClassMultiplier(a, 0, 0), pricing.ClassMultiplier(a, c.zone, 0));
    EXPECT_EQ(pricing.ClassMultiplier(a, 0, c.zone), pricing.ClassMultiplier(a, c.zone, 0));
  }
  EXPECT_GT(priced_classes, 0);

  // Low zone to high zone: band 10 prices the high zone, but it is an end's zone: exempt.
  const NavMeshWalk band0 = NavMeshWalkOf(l.low_zone, l.high_zone, "neutral", 0);
  const NavMeshWalk band10 = NavMeshWalkOf(l.low_zone, l.high_zone, "neutral", 10);
  ASSERT_EQ(band0.status, WalkStatus::kOk);
  ASSERT_EQ(band10.status, WalkStatus::kOk);
  EXPECT_EQ(band0.from_zone, l.low_zone_id);
  EXPECT_EQ(band0.to_zone, l.high_zone_id);
  EXPECT_GE(band10.seconds, band0.seconds - 1e-9);
  // The grid agrees that the band costs more or the same, and by about as much.
  const WalkAnswer grid0 = GridWalkOf(l.low_zone, l.high_zone, "neutral", 0);
  const WalkAnswer grid10 = GridWalkOf(l.low_zone, l.high_zone, "neutral", 10);
  EXPECT_NEAR(band10.seconds / band0.seconds, grid10.seconds / grid0.seconds, 0.25);
  // Zone cells name both ends' zones and add up to the yards.
  double cell_yards = 0.0;
  bool low = false, high = false;
  for (const ZoneCell& cell : band0.zone_cells) {
    cell_yards += cell.yards;
    low |= cell.zone == l.low_zone_id;
    high |= cell.zone == l.high_zone_id;
  }
  EXPECT_TRUE(low && high);
  EXPECT_NEAR(cell_yards, band0.yards, 1e-6 * band0.yards);
}

TEST(NavMeshGroundTest, OutdoorWalksStayCloseToTheGridsExactWalks) {
  const DemoNavMesh& d = DemoMesh();
  const DemoLandmarks& l = d.landmarks;
  // Across open ground, roads, a bridge and zones the two backends walk the same ground: the
  // navmesh's any-angle line is a little shorter than the grid's octile steps, or a little
  // longer where its polygons' midpoints lead it round.
  const DemoPoint pairs[][2] = {
      {l.town_a, l.town_b}, {l.bridge_start, l.bridge_end}, {l.low_zone, l.high_zone}};
  for (const auto& pair : pairs) {
    for (const char* profile : {"shortest", "neutral", "faction-b"}) {
      const NavMeshWalk mesh = NavMeshWalkOf(pair[0], pair[1], profile, 0);
      const WalkAnswer grid = GridWalkOf(pair[0], pair[1], profile, 0);
      ASSERT_EQ(grid.status, WalkStatus::kOk) << profile;
      ASSERT_EQ(mesh.status, WalkStatus::kOk) << profile;
      EXPECT_NEAR(mesh.seconds / grid.seconds, 1.0, 0.1) << profile << " pair " << &pair - pairs;
    }
  }
}

TEST(NavMeshGroundTest, ANavMeshWithoutDropsGoesRoundWhereTheGridFalls) {
  const DemoNavMesh& d = DemoMesh();
  const DemoLandmarks& l = d.landmarks;
  // Off the mesa: the grid drops down the cliff; a Recast navmesh has no drops, so it rides the
  // lift down: a walk the hybrid's slack sends to the grid.
  const NavMeshWalk mesh = NavMeshWalkOf(l.cliff_top, l.cliff_foot, "neutral", 0);
  const WalkAnswer grid = GridWalkOf(l.cliff_top, l.cliff_foot, "neutral", 0);
  ASSERT_EQ(mesh.status, WalkStatus::kOk);
  ASSERT_EQ(grid.status, WalkStatus::kOk);
  EXPECT_GT(mesh.seconds, 1.2 * grid.seconds);
  EXPECT_GT(mesh.seconds, 15.0) << "the ride's wait";
}

}  // namespace
}  // namespace walk::nav
