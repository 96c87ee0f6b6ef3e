// Pricing proven on real geometry: level meshes and MovingAI maps with ground layers drawn for
// the test (a dangerous zone across the middle, a road, a hostile hub, a lift), laid through the
// layer files' own parser. Every profile and band agrees with the plain reference Dijkstra on
// random pairs, and a band-20 walk across the dangerous zone costs more and spends fewer yards in
// it than band 0's walk between the same ends.
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "nav/check/oracle_check.h"
#include "nav/cost/danger.h"
#include "nav/import/movingai.h"
#include "nav/layers/ground_layers.h"
#include "nav/query/snap.h"
#include "nav/query/walk_pipeline.h"
#include "tests/nav/ascii_grid.h"
#include "tests/nav/mesh_world.h"

namespace walk::nav {
namespace {

constexpr std::uint16_t kDangerZone = 2;

// The world's extent in its frame.
struct Box {
  double x0, y0, x1, y1;
  double X(double f) const { return x0 + f * (x1 - x0); }
  double Y(double f) const { return y0 + f * (y1 - y0); }
};

Box ExtentOf(const World& world) {
  const Continent& c = world.continents[0];
  const WorldFrame f = world.FrameOf(world.continents[0]);
  return {f.FrameX(0.0), f.FrameY(0.0), f.FrameX(c.width_columns * f.column_yards),
          f.FrameY(c.height_columns * f.column_yards)};
}

std::string Rect(const Box& b, double fx0, double fy0, double fx1, double fy1) {
  char text[256];
  std::snprintf(text, sizeof text,
                "[[[%.3f,%.3f],[%.3f,%.3f],[%.3f,%.3f],[%.3f,%.3f],[%.3f,%.3f]]]", b.X(fx0),
                b.Y(fy0), b.X(fx1), b.Y(fy0), b.X(fx1), b.Y(fy1), b.X(fx0), b.Y(fy1), b.X(fx0),
                b.Y(fy0));
  return text;
}

std::string GeoFeature(const std::string& type, const std::string& coordinates,
                       const std::string& properties) {
  return R"({"type":"Feature","geometry":{"type":")" + type + R"(","coordinates":)" + coordinates +
         R"(},"properties":)" + properties + "}";
}

std::string FeatureCollection(const std::vector<std::string>& features) {
  std::string text = R"({"type":"FeatureCollection","features":[)";
  for (std::size_t i = 0; i < features.size(); ++i) text += (i ? "," : "") + features[i];
  return text + "]}";
}

// The surface nearest the middle of the box fraction (fx, fy) that lies in the largest region,
// searched outwards column ring by ring; kInvalidId when none is near.
SurfaceId SurfaceNear(const World& world, const Box& box, double fx, double fy) {
  const Continent& c = world.continents[0];
  RegionId largest = 0;
  for (RegionId r = 0; r < c.region_count(); ++r) {
    if (c.region_size[r] > c.region_size[largest]) largest = r;
  }
  const WorldFrame f = world.FrameOf(world.continents[0]);
  const std::int64_t cx = f.ColumnX(box.X(fx)), cy = f.ColumnY(box.Y(fy));
  for (std::int64_t ring = 0; ring < 64; ++ring) {
    for (std::int64_t dy = -ring; dy <= ring; ++dy) {
      for (std::int64_t dx = -ring; dx <= ring; ++dx) {
        if (std::max(std::abs(dx), std::abs(dy)) != ring || !c.OnMap(cx + dx, cy + dy)) continue;
        SurfaceId first, end;
        c.ColumnSurfaces(static_cast<std::uint32_t>(cx + dx), static_cast<std::uint32_t>(cy + dy),
                         &first, &end);
        for (SurfaceId s = first; s < end; ++s) {
          if (c.region[s] == largest && !(c.flags[s] & (kFlagBlocked | kFlagWater))) return s;
        }
      }
    }
  }
  return kInvalidId;
}

// Lays, in the world's frame: zone 1 (levels 1-5) over the south third, zone 2 (levels 40-45)
// across the middle third, zone 3 (levels 2-8) over the north third; a road 3 columns wide from
// the south-west corner to the north-east one; faction B's hub near the south-east corner; and a
// lift between two surfaces of the largest region, west and east.
void LayTestLayers(World* world) {
  const Box b = ExtentOf(*world);
  const double width = 3.0 * world->column_yards;
  LayerSources sources;
  sources.zones =
      LayerSource{"zones.geojson",
                  FeatureCollection(
                      {GeoFeature("Polygon", Rect(b, 0, 0, 1, 1.0 / 3),
                                  R"({"zone":1,"name":"South","min_level":1,"max_level":5})"),
                       GeoFeature("Polygon", Rect(b, 0, 1.0 / 3, 1, 2.0 / 3),
                                  R"({"zone":2,"name":"Deadwood","min_level":40,"max_level":45})"),
                       GeoFeature("Polygon", Rect(b, 0, 2.0 / 3, 1, 1),
                                  R"({"zone":3,"name":"North","min_level":2,"max_level":8})")})};
  char road[256];
  std::snprintf(road, sizeof road, "[[%.3f,%.3f],[%.3f,%.3f]]", b.X(0.02), b.Y(0.02), b.X(0.98),
                b.Y(0.98));
  sources.roads = LayerSource{
      "roads.geojson",
      FeatureCollection(
          {GeoFeature("LineString", road, "{\"width_yards\":" + std::to_string(width) + "}")})};
  const Continent& c = world->continents[0];
  // The hub: 16 columns square around the surface nearest the south-east corner's middle (a
  // mesh's corner may hold no floor at all: dungeon.obj's does not).
  const SurfaceId fort = SurfaceNear(*world, b, 0.85, 0.15);
  ASSERT_NE(fort, kInvalidId);
  const WorldFrame frame = world->FrameOf(world->continents[0]);
  const double half = 8.0 * world->column_yards;
  const Box around{frame.CentreX(c.column_x[fort]) - half, frame.CentreY(c.column_y[fort]) - half,
                   frame.CentreX(c.column_x[fort]) + half, frame.CentreY(c.column_y[fort]) + half};
  sources.hubs = LayerSource{
      "hubs.geojson", FeatureCollection({GeoFeature("Polygon", Rect(around, 0, 0, 1, 1),
                                                    R"({"faction":"B","name":"Southfort"})")})};
  const SurfaceId west = SurfaceNear(*world, b, 0.15, 0.5);
  const SurfaceId east = SurfaceNear(*world, b, 0.85, 0.5);
  ASSERT_NE(west, kInvalidId);
  ASSERT_NE(east, kInvalidId);
  const Place w = PlaceOf(c, world->FrameOf(world->continents[0]), west),
              e = PlaceOf(c, world->FrameOf(world->continents[0]), east);
  char lifts[512];
  std::snprintf(lifts, sizeof lifts,
                R"({"lifts":[{"name":"Test car","from":{"x":%.4f,"y":%.4f,"z":%.4f},)"
                R"("to":{"x":%.4f,"y":%.4f,"z":%.4f},"wait_s":5,"shaft_yards_per_s":6}]})",
                w.x_yards, w.y_yards, *w.z_yards, e.x_yards, e.y_yards, *e.z_yards);
  sources.lifts = LayerSource{"lifts.json", lifts};
  absl::StatusOr<LayersReport> report = ApplyLayers(sources, world);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_TRUE(report->lifts.has_value());
  ASSERT_EQ(report->lifts->size(), 1u);
  ASSERT_GT(*report->road_columns, 0u);
  ASSERT_GT(*report->hub_b_columns, 0u);
}

// Yards a walk spends in the dangerous zone.
double DangerYards(const WalkAnswer& answer) {
  double yards = 0.0;
  for (const ZoneCell& cell : answer.zone_cells) {
    if (cell.zone == kDangerZone) yards += cell.yards;
  }
  return yards;
}

void ExpectPricedRight(const World& world) {
  for (const std::string& name : ProfileNames()) {
    for (std::uint32_t band : kDangerBands) {
      const Metric metric(world, *FindProfile(name), band);
      const OracleReport report = OracleCheck(world, metric, 8, 13 + band);
      EXPECT_EQ(report.disagree, 0u) << name << " band " << band << ": "
                                     << (report.problems.empty() ? "" : report.problems[0]);
      EXPECT_GT(report.walks, 2u) << name << " band " << band;
    }
  }
  // Between the south-west and the north-east: band 20 prices the middle zone x20.
  const Box b = ExtentOf(world);
  const Continent& c = world.continents[0];
  const Metric band0(world, *FindProfile("neutral"), 0), band20(world, *FindProfile("neutral"), 20);
  FineGridAStar astar;
  bool shown = false;
  for (double f = 0.05; f < 0.3 && !shown; f += 0.05) {
    const SurfaceId a = SurfaceNear(world, b, f, f), z = SurfaceNear(world, b, 1 - f, 1 - f);
    if (a == kInvalidId || z == kInvalidId) continue;
    const Place from = PlaceOf(c, world.FrameOf(world.continents[0]), a),
                to = PlaceOf(c, world.FrameOf(world.continents[0]), z);
    absl::StatusOr<WalkAnswer> zero = AnswerWalk(world, band0, from, to, astar);
    absl::StatusOr<WalkAnswer> twenty = AnswerWalk(world, band20, from, to, astar);
    ASSERT_TRUE(zero.ok() && twenty.ok());
    if (zero->status != WalkStatus::kOk || twenty->status != WalkStatus::kOk) continue;
    EXPECT_GE(twenty->seconds, zero->seconds * (1 - 1e-12));
    shown = twenty->seconds > zero->seconds && DangerYards(*twenty) < DangerYards(*zero);
  }
  EXPECT_TRUE(shown) << "no pair across the dangerous zone where band 20 avoids it";
}

class LayeredMeshOracleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(LayeredMeshOracleTest, EveryProfileAndBandAgreesWithTheReferenceAndAvoidsDanger) {
  const std::string path = testing::SharedDataDir() + "/meshes/" + GetParam();
  if (!std::filesystem::exists(path)) {
    GTEST_SKIP() << path << " is absent (set WALKD_SHARED_DATA to the shared data folder)";
  }
  absl::StatusOr<World> world = testing::MeshWorld(path);
  ASSERT_TRUE(world.ok()) << world.status();
  LayTestLayers(&*world);
  if (HasFatalFailure()) return;
  ExpectPricedRight(*world);
}

INSTANTIATE_TEST_SUITE_P(Meshes, LayeredMeshOracleTest,
                         ::testing::Values("dungeon.obj", "cs_assault.obj", "undulating.obj"),
                         testing::FileParamName());

class LayeredMapOracleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(LayeredMapOracleTest, EveryProfileAndBandAgreesWithTheReferenceAndAvoidsDanger) {
  const std::string path = testing::SharedDataDir() + "/movingai/" + GetParam();
  if (!std::filesystem::exists(path)) {
    GTEST_SKIP() << path << " is absent (set WALKD_SHARED_DATA to the shared data folder)";
  }
  absl::StatusOr<MovingAiMap> map = ReadMovingAiMap(path);
  ASSERT_TRUE(map.ok()) << map.status();
  absl::StatusOr<World> world = WorldFromMovingAi(*map);
  ASSERT_TRUE(world.ok()) << world.status();
  LayTestLayers(&*world);
  if (HasFatalFailure()) return;
  ExpectPricedRight(*world);
}

INSTANTIATE_TEST_SUITE_P(Maps, LayeredMapOracleTest,
                         ::testing::Values("dao/arena.map", "dao/brc000d.map"),
                         testing::FileParamName());

}  // namespace
}  // namespace walk::nav
