// The floor rule (nav/layers/district_layer.h): faction B's main building on the 1 x 1 demo world
// has stairs and a lift from its ground floor to its top floor. Without districts a walk up
// takes the stairs; with the top floor a district joined only by its lift, it rides the lift,
// on the grid and on a navmesh of the same triangles priced by that grid. Walks that do not
// cross the district's edge are not touched, and bad files are refused naming the member.
#include "nav/layers/district_layer.h"

#include <cmath>
#include <optional>
#include <string>

#include "gtest/gtest.h"
#include "nav/cost/metric.h"
#include "nav/demo/demo_world.h"
#include "nav/layers/ground_layers.h"
#include "nav/navmesh/navmesh_builder.h"
#include "nav/navmesh/navmesh_ground.h"
#include "nav/navmesh/navmesh_walker.h"
#include "nav/navmesh/world_navmesh.h"
#include "nav/query/walk_pipeline.h"

namespace walk::nav {
namespace {

// A lift ride of the demo world whose two landings are indoor floors of one column: faction B's
// main building's lift (the mesas' lifts start outdoors).
const LiftRide* BuildingLift(const World& world) {
  const Continent& c = world.continents[0];
  for (const LiftRide& ride : c.lifts) {
    const bool indoor = (c.flags[ride.from] & kFlagIndoor) && (c.flags[ride.to] & kFlagIndoor);
    const bool shaft = c.column_x[ride.from] == c.column_x[ride.to] &&
                       c.column_y[ride.from] == c.column_y[ride.to];
    if (indoor && shaft && c.height_yards[ride.to] > c.height_yards[ride.from]) return &ride;
  }
  return nullptr;
}

Place PlaceOn(const World& world, SurfaceId s) {
  const Continent& c = world.continents[0];
  const WorldFrame frame = world.FrameOf(world.continents[0]);
  return Place{0, frame.CentreX(c.column_x[s]), frame.CentreY(c.column_y[s]),
               double(c.height_yards[s])};
}

// The grid's walk and its seconds by kind.
WalkAnswer GridWalk(const World& world, const Place& from, const Place& to) {
  const Metric metric(world, *FindProfile("neutral"), 0);
  FineGridAStar astar;
  WalkOptions options;
  options.want_path = true;
  absl::StatusOr<WalkAnswer> answer = AnswerWalk(world, metric, from, to, astar, options);
  EXPECT_TRUE(answer.ok()) << answer.status();
  return answer.ok() ? *answer : WalkAnswer{};
}

double LiftSecondsOf(const WalkAnswer& answer) {
  if (!answer.path) return 0.0;
  for (const auto& [kind, seconds] : answer.path->seconds_by_kind) {
    if (kind == "lift") return seconds;
  }
  return 0.0;
}

// The navmesh's walk on the demo world's triangles priced by `world`'s grid.
NavMeshWalk NavMeshWalkOn(const World& world, const Place& from, const Place& to) {
  DemoOptions options;
  options.tiles_x = options.tiles_y = 1;
  absl::StatusOr<TriangleMesh> mesh = DemoWorldMesh(options);
  EXPECT_TRUE(mesh.ok());
  NavMeshBuildOptions build;
  build.connections = LiftConnections(world, 0);
  absl::StatusOr<NavMesh> navmesh = BuildNavMesh(*mesh, build);
  EXPECT_TRUE(navmesh.ok()) << navmesh.status();
  absl::StatusOr<NavMeshGround> ground = NavMeshGround::Classify(*navmesh, &world, 0);
  EXPECT_TRUE(ground.ok()) << ground.status();
  const Metric metric(world, *FindProfile("neutral"), 0);
  absl::StatusOr<NavMeshWalker> walker = NavMeshWalker::Create(*navmesh);
  EXPECT_TRUE(walker.ok());
  absl::StatusOr<NavMeshWalk> walk = walker->Walk(from, to, NavMeshPricing{&metric, &*ground});
  EXPECT_TRUE(walk.ok()) << walk.status();
  return walk.ok() ? *walk : NavMeshWalk{};
}

// The districts file that makes the building's top floor a district around its lift shaft.
std::string TopFloorDistrict(const World& world, const LiftRide& lift) {
  const Continent& c = world.continents[0];
  const Place top = PlaceOn(world, lift.to);
  const double middle = c.height_yards[lift.to] - 1.6;  // half a storey below the top floor
  return "{\"districts\": [{\"name\": \"Top floor\", \"shafts\": [{\"x\": " +
         std::to_string(top.x_yards) + ", \"y\": " + std::to_string(top.y_yards) +
         "}], \"radius_yards\": 25, \"middle_height_yards\": " + std::to_string(middle) +
         ", \"side\": \"above\"}]}";
}

TEST(DistrictLayerTest, AWalkUpToTheTopFloorMustRideItsLiftOnBothBackends) {
  DemoOptions options;
  options.tiles_x = options.tiles_y = 1;
  absl::StatusOr<World> built = GenerateDemoWorld(options);
  ASSERT_TRUE(built.ok()) << built.status();
  World world = *std::move(built);
  const LiftRide* lift = BuildingLift(world);
  ASSERT_NE(lift, nullptr) << "faction B's main building has a lift";
  const Place bottom = PlaceOn(world, lift->from);
  const Place top = PlaceOn(world, lift->to);
  const double ride = lift->wait_seconds + lift->shaft_yards / lift->shaft_yards_per_second;

  // Without districts the stairs are quicker than waiting for the car.
  const WalkAnswer stairs = GridWalk(world, bottom, top);
  ASSERT_EQ(stairs.status, WalkStatus::kOk);
  EXPECT_EQ(LiftSecondsOf(stairs), 0.0);
  EXPECT_LT(stairs.seconds, ride);
  const NavMeshWalk mesh_stairs = NavMeshWalkOn(world, bottom, top);
  ASSERT_EQ(mesh_stairs.status, WalkStatus::kOk);
  EXPECT_LT(mesh_stairs.seconds, ride);
  // A walk that never crosses the edge, for comparison after.
  const Place outside_a = PlaceOn(world, lift->from);
  const DemoLandmarks landmarks = *FindLandmarks(options);
  const Place outside_b{0, landmarks.town_a.x_yards(world.column_yards),
                        landmarks.town_a.y_yards(world.column_yards), double(landmarks.town_a.z)};
  const WalkAnswer across_town = GridWalk(world, outside_a, outside_b);

  LayerSources sources;
  sources.districts = LayerSource{"districts.json", TopFloorDistrict(world, *lift)};
  absl::StatusOr<LayersReport> report = ApplyLayers(sources, &world);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->districts->size(), 1u);
  const DistrictOutcome& outcome = report->districts->front();
  EXPECT_GT(outcome.inside, 50u);
  EXPECT_GT(outcome.links_cut, 0u) << "the stairs reach the top floor";
  EXPECT_EQ(outcome.rides_kept, 2u) << "the lift, both ways";
  EXPECT_EQ(outcome.rides_cut, 0u);

  // Now the walk up rides the lift, on both backends.
  const WalkAnswer lifted = GridWalk(world, bottom, top);
  ASSERT_EQ(lifted.status, WalkStatus::kOk);
  EXPECT_GT(LiftSecondsOf(lifted), 0.0);
  EXPECT_GE(lifted.seconds, ride - 1e-6);
  const NavMeshWalk mesh_lifted = NavMeshWalkOn(world, bottom, top);
  ASSERT_EQ(mesh_lifted.status, WalkStatus::kOk);
  EXPECT_GE(mesh_lifted.seconds, ride - 1e-3);
  EXPECT_NEAR(mesh_lifted.seconds, lifted.seconds, 0.25 * lifted.seconds);
  // A walk that stays outside is the same as before.
  const WalkAnswer again = GridWalk(world, outside_a, outside_b);
  EXPECT_DOUBLE_EQ(again.seconds, across_town.seconds);

  // Districts cut links for good: a second districts file, or a lifts file, is refused.
  absl::StatusOr<LayersReport> twice = ApplyLayers(sources, &world);
  EXPECT_EQ(twice.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(DistrictLayerTest, BadFilesAreRefusedNamingTheMember) {
  const struct {
    const char* text;
    const char* says;
  } cases[] = {
      {"[]", "must be an object"},
      {"{\"districts\": {}}", "districts: must be an array"},
      {"{\"districts\": [{\"shafts\": []}]}", "districts[0]: shafts: must be a non-empty"},
      {"{\"districts\": [{\"name\": \"D\", \"shafts\": [{\"x\": 1, \"y\": 2}], "
       "\"radius_yards\": 0, \"middle_height_yards\": 5, \"side\": \"above\"}]}",
       "districts[0] (\"D\"): radius_yards: must be above 0"},
      {"{\"districts\": [{\"shafts\": [{\"x\": 1, \"y\": 2}], \"radius_yards\": 9, "
       "\"middle_height_yards\": 5, \"side\": \"up\"}]}",
       "districts[0]: side: must be \"above\" or \"below\""},
      {"{\"districts\": [{\"shafts\": [{\"x\": 1, \"z\": 2}], \"radius_yards\": 9, "
       "\"middle_height_yards\": 5, \"side\": \"below\"}]}",
       "districts[0]: shafts[0].z: is not x or y"},
      {"{\"districts\": [{\"shaft\": []}]}", "districts[0]: shaft: is not a member"},
  };
  for (const auto& c : cases) {
    absl::StatusOr<DistrictLayer> layer = ParseDistrictLayer(c.text, "d.json");
    ASSERT_FALSE(layer.ok()) << c.text;
    EXPECT_EQ(layer.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(layer.status().message().find(c.says), std::string::npos)
        << layer.status().message() << " | wanted: " << c.says;
  }
}

}  // namespace
}  // namespace walk::nav
