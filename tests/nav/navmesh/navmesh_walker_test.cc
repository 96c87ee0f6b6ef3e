// NavMeshWalker against Detour called directly: on a shared level mesh's navmesh, the same yards
// for random pairs of places whenever both find a full path; plain ground priced at the run
// speed; an end far off the mesh is off the map; water priced by the cost model on a hand-built
// mesh of two squares.
#include "nav/navmesh/navmesh_walker.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "DetourNavMesh.h"
#include "DetourNavMeshQuery.h"
#include "gtest/gtest.h"
#include "nav/cost/metric.h"
#include "nav/navmesh/navmesh_builder.h"
#include "nav/navmesh/navmesh_ground.h"
#include "tests/nav/ascii_grid.h"

namespace walk::nav {
namespace {

namespace fs = std::filesystem;

const char kDungeonMesh[] = "meshes/dungeon.obj";

std::mt19937* g_random = nullptr;
float Frand() { return std::uniform_real_distribution<float>(0.0f, 1.0f)(*g_random); }

// Detour alone: default filter, findPath + findStraightPath, the straight path's 3D length;
// negative when it finds no full path.
double DetourYards(dtNavMeshQuery& query, dtPolyRef a, const float* pa, dtPolyRef b,
                   const float* pb) {
  const dtQueryFilter filter;
  std::vector<dtPolyRef> polys(kNavMeshWalkerMaxPolys);
  int count = 0;
  const dtStatus found =
      query.findPath(a, b, pa, pb, &filter, polys.data(), &count, kNavMeshWalkerMaxPolys);
  if (dtStatusFailed(found) || dtStatusDetail(found, DT_PARTIAL_RESULT) || count == 0 ||
      polys[count - 1] != b) {
    return -1.0;
  }
  std::vector<float> points(3 * kNavMeshWalkerMaxPoints);
  int n = 0;
  if (dtStatusFailed(query.findStraightPath(pa, pb, polys.data(), count, points.data(), nullptr,
                                            nullptr, &n, kNavMeshWalkerMaxPoints))) {
    return -1.0;
  }
  double yards = 0.0;
  for (int i = 0; i + 1 < n; ++i) {
    const float* p = &points[3 * i];
    yards += std::sqrt(double(p[3] - p[0]) * (p[3] - p[0]) + double(p[4] - p[1]) * (p[4] - p[1]) +
                       double(p[5] - p[2]) * (p[5] - p[2]));
  }
  return yards;
}

Place PlaceAt(const float* p) { return Place{0, p[0], p[2], double(p[1])}; }

// A navmesh's pricing for a profile, band 0, without a grid: classes from its own areas.
struct Pricer {
  Pricer(NavMesh& navmesh, const char* profile) : metric(World(), *FindProfile(profile), 0) {
    absl::StatusOr<NavMeshGround> classified = NavMeshGround::Classify(navmesh, nullptr, 0);
    EXPECT_TRUE(classified.ok()) << classified.status();
    if (classified.ok()) ground = *std::move(classified);
  }
  NavMeshPricing pricing() const { return {&metric, &ground}; }
  Metric metric;
  NavMeshGround ground;
};

TEST(NavMeshWalkerTest, SharedMeshYardsMatchDetourAndGroundCostsRunSpeed) {
  const std::string path = testing::SharedDataDir() + "/" + kDungeonMesh;
  if (!fs::exists(path)) GTEST_SKIP() << path << " is absent (set WALKD_SHARED_DATA)";
  absl::StatusOr<TriangleMesh> mesh = ReadObj(path);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  absl::StatusOr<NavMesh> navmesh = BuildNavMesh(*mesh, NavMeshBuildOptions{});
  ASSERT_TRUE(navmesh.ok()) << navmesh.status();
  absl::StatusOr<NavMeshWalker> walker = NavMeshWalker::Create(*navmesh);
  ASSERT_TRUE(walker.ok()) << walker.status();

  dtNavMeshQuery query;
  ASSERT_TRUE(dtStatusSucceed(query.init(navmesh->detour(), kNavMeshWalkerNodes)));
  std::mt19937 random(18);
  g_random = &random;
  const dtQueryFilter filter;
  const Pricer shortest_pricer(*navmesh, "shortest");
  const Pricer terrain_pricer(*navmesh, "neutral");
  const NavMeshPricing shortest = shortest_pricer.pricing();
  const NavMeshPricing terrain = terrain_pricer.pricing();
  bool all_ground = true;  // every polygon area 0
  const dtNavMesh& dt = *navmesh->detour();
  for (int t = 0; t < dt.getMaxTiles(); ++t) {
    const dtMeshTile* tile = dt.getTile(t);
    if (tile == nullptr || tile->header == nullptr) continue;
    for (int p = 0; p < tile->header->polyCount; ++p) {
      if (tile->polys[p].getArea() != kNavAreaGround) all_ground = false;
    }
  }
  int both = 0, priced_pairs = 0;
  for (int pair = 0; pair < 50; ++pair) {
    dtPolyRef a = 0, b = 0;
    float pa[3], pb[3];
    ASSERT_TRUE(dtStatusSucceed(query.findRandomPoint(&filter, Frand, &a, pa)));
    ASSERT_TRUE(dtStatusSucceed(query.findRandomPoint(&filter, Frand, &b, pb)));
    const double detour = DetourYards(query, a, pa, b, pb);
    absl::StatusOr<NavMeshWalk> walk = walker->Walk(PlaceAt(pa), PlaceAt(pb), shortest);
    ASSERT_TRUE(walk.ok()) << walk.status();
    ASSERT_NE(walk->status, WalkStatus::kOffMap) << "pair " << pair;
    if (detour < 0.0 || walk->status != WalkStatus::kOk) continue;
    ++both;
    EXPECT_NEAR(walk->yards, detour, 1e-3 * std::max(detour, 1.0)) << "pair " << pair;
    EXPECT_NEAR(walk->seconds, walk->yards / 7.0, 1e-9 * std::max(walk->yards, 1.0));
    ASSERT_GE(walk->points.size(), 2u);
    EXPECT_NEAR(walk->points.front().x_yards, pa[0], 1e-3);
    EXPECT_NEAR(walk->points.front().y_yards, pa[2], 1e-3);
    EXPECT_NEAR(walk->points.front().z_yards, pa[1], 1e-3);

    // Terrain pricing: on ground only (every polygon area 0), seconds are yards / run speed.
    if (!all_ground) continue;
    absl::StatusOr<NavMeshWalk> priced = walker->Walk(PlaceAt(pa), PlaceAt(pb), terrain);
    ASSERT_TRUE(priced.ok()) << priced.status();
    ASSERT_EQ(priced->status, WalkStatus::kOk) << "pair " << pair;
    EXPECT_NEAR(priced->seconds, priced->yards / 7.0, 1e-9 * std::max(priced->yards, 1.0));
    ++priced_pairs;
  }
  EXPECT_GE(both, 25) << "too few pairs with a walk";
  std::printf("%d pairs walked by both, %d priced on ground only (all ground: %d)\n", both,
              priced_pairs, int(all_ground));
  if (all_ground) {
    EXPECT_EQ(priced_pairs, both);
  }

  // An end far outside the mesh snaps to nothing.
  const float* origin = navmesh->tiling().origin;
  const Place far{0, origin[0] - 1.0e5, origin[2] - 1.0e5, double(origin[1])};
  const Place far_no_z{0, origin[0] - 1.0e5, origin[2] - 1.0e5, std::nullopt};
  dtPolyRef a = 0;
  float pa[3];
  ASSERT_TRUE(dtStatusSucceed(query.findRandomPoint(&filter, Frand, &a, pa)));
  for (const Place& off : {far, far_no_z}) {
    absl::StatusOr<NavMeshWalk> walk = walker->Walk(PlaceAt(pa), off, terrain);
    ASSERT_TRUE(walk.ok()) << walk.status();
    EXPECT_EQ(walk->status, WalkStatus::kOffMap);
    walk = walker->Walk(off, PlaceAt(pa), terrain);
    ASSERT_TRUE(walk.ok()) << walk.status();
    EXPECT_EQ(walk->status, WalkStatus::kOffMap);
  }
  g_random = nullptr;
}

// Two 20-yard squares side by side at height 0: ground (x 0 .. 20) and water (x 20 .. 40).
TriangleMesh GroundAndWater() {
  TriangleMesh mesh;
  for (int square = 0; square < 2; ++square) {
    const float x0 = 20.0f * square, x1 = x0 + 20.0f;
    const std::uint32_t a = mesh.AddVertex(x0, 0.0f, 0.0f), b = mesh.AddVertex(x1, 0.0f, 0.0f);
    const std::uint32_t c = mesh.AddVertex(x1, 0.0f, 20.0f), d = mesh.AddVertex(x0, 0.0f, 20.0f);
    TriangleTag tag;
    if (square == 1) tag.flags = static_cast<std::uint8_t>(tag.flags | kFlagWater);
    mesh.AddTriangle(a, d, c, tag);
    mesh.AddTriangle(a, c, b, tag);
  }
  return mesh;
}

TEST(NavMeshWalkerTest, WaterCostsTheModelsWaterMultiplier) {
  absl::StatusOr<NavMesh> navmesh = BuildNavMesh(GroundAndWater(), NavMeshBuildOptions{});
  ASSERT_TRUE(navmesh.ok()) << navmesh.status();
  absl::StatusOr<NavMeshWalker> walker = NavMeshWalker::Create(*navmesh);
  ASSERT_TRUE(walker.ok()) << walker.status();
  const Pricer pricer(*navmesh, "neutral");
  const NavMeshPricing terrain = pricer.pricing();
  const double water = DefaultCostModel().water;
  const Place ground_a{0, 4.0, 10.0, 0.0}, ground_b{0, 14.0, 10.0, 0.0};
  const Place water_a{0, 26.0, 10.0, 0.0}, water_b{0, 36.0, 10.0, std::nullopt};

  absl::StatusOr<NavMeshWalk> walk = walker->Walk(ground_a, ground_b, terrain);
  ASSERT_TRUE(walk.ok()) << walk.status();
  ASSERT_EQ(walk->status, WalkStatus::kOk);
  EXPECT_NEAR(walk->yards, 10.0, 0.1);
  EXPECT_NEAR(walk->seconds, walk->yards / 7.0, 1e-9);

  walk = walker->Walk(water_a, water_b, terrain);
  ASSERT_TRUE(walk.ok()) << walk.status();
  ASSERT_EQ(walk->status, WalkStatus::kOk);
  EXPECT_NEAR(walk->yards, 10.0, 0.1);
  EXPECT_NEAR(walk->seconds, walk->yards * water / 7.0, 1e-9);

  // Ground into water: each side at its own price (the straight path breaks where areas meet).
  walk = walker->Walk(ground_a, water_b, terrain);
  ASSERT_TRUE(walk.ok()) << walk.status();
  ASSERT_EQ(walk->status, WalkStatus::kOk);
  EXPECT_NEAR(walk->yards, 32.0, 0.1);
  EXPECT_NEAR(walk->seconds, (16.0 + 16.0 * water) / 7.0, 0.1);
  EXPECT_GE(walk->points.size(), 3u) << "a vertex where the water starts";
}

}  // namespace
}  // namespace walk::nav
