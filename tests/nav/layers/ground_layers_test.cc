// Zones, roads and hubs laid from GeoJSON on worlds (nav/layers/ground_layers.h): what each
// covers, that a layer replaces what the world had, that the world's frame decides where, that
// metrics see what was laid, and that bad files are refused naming file, feature and field and
// never crash.
#include "nav/layers/ground_layers.h"

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nav/cost/metric.h"
#include "nav/grid/grid_builder.h"
#include "nav/layers/hub_layer.h"
#include "nav/layers/json_text.h"
#include "tests/nav/ascii_grid.h"

namespace walk::nav {
namespace {

using testing::AsciiWorld;
using testing::OpenWorld;
using testing::SurfaceAt;

// A FeatureCollection of the features given as JSON text.
std::string Collection(const std::vector<std::string>& features) {
  std::string text = R"({"type": "FeatureCollection", "features": [)";
  for (std::size_t i = 0; i < features.size(); ++i) text += (i ? ", " : "") + features[i];
  return text + "]}";
}

std::string Feature(const std::string& properties, const std::string& geometry) {
  return R"({"type": "Feature", "properties": )" + properties + R"(, "geometry": )" + geometry +
         "}";
}

std::string BoxPolygon(double x0, double y0, double x1, double y1) {
  auto p = [](double x, double y) {
    return "[" + std::to_string(x) + ", " + std::to_string(y) + "]";
  };
  return "[" + p(x0, y0) + ", " + p(x1, y0) + ", " + p(x1, y1) + ", " + p(x0, y1) + ", " +
         p(x0, y0) + "]";
}

std::string Polygon(double x0, double y0, double x1, double y1) {
  return R"({"type": "Polygon", "coordinates": [)" + BoxPolygon(x0, y0, x1, y1) + "]}";
}

absl::StatusOr<LayersReport> Lay(World* world, const std::string& zones, const std::string& roads,
                                 const std::string& hubs) {
  LayerSources sources;
  if (!zones.empty()) sources.zones = LayerSource{"layers/zones.geojson", zones};
  if (!roads.empty()) sources.roads = LayerSource{"roads.geojson", roads};
  if (!hubs.empty()) sources.hubs = LayerSource{"hubs.geojson", hubs};
  return ApplyLayers(sources, world);
}

TEST(GroundLayersTest, ZonesWithAHoleAndInPiecesReplaceEveryZoneTheWorldHad) {
  World world = OpenWorld(20, 10);
  Continent& c = world.continents[0];
  std::fill(c.zone.begin(), c.zone.end(), std::uint16_t{9});  // the zones it had
  world.zones = {{9, "Old", 1, 2}};
  const std::string zones = Collection({
      // Zone 4: x 0..10 with a hole x 2..4, y 2..4.
      Feature(R"({"zone": 4, "name": "Amber Vale", "min_level": 1, "max_level": 6})",
              R"({"type": "Polygon", "coordinates": [)" + BoxPolygon(0, 0, 10, 10) + ", " +
                  BoxPolygon(2, 2, 4, 4) + "]}"),
      // Zone 2 in two pieces, one MultiPolygon and one more feature.
      Feature(R"({"zone": 2, "name": "Deadwood", "min_level": 30, "max_level": 35})",
              R"({"type": "MultiPolygon", "coordinates": [[)" + BoxPolygon(10, 0, 12, 10) + "], [" +
                  BoxPolygon(14, 0, 16, 10) + "]]}"),
      Feature(R"({"zone": 2, "name": "Deadwood", "min_level": 30, "max_level": 35})",
              Polygon(18, 0, 20, 5)),
  });
  absl::StatusOr<LayersReport> report = Lay(&world, zones, "", "");
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_TRUE(report->zones.has_value());
  ASSERT_EQ(report->zones->size(), 2u);
  EXPECT_EQ((*report->zones)[0].zone, 2);  // by id
  EXPECT_EQ((*report->zones)[0].columns, 20u + 20u + 10u);
  EXPECT_EQ((*report->zones)[1].zone, 4);
  EXPECT_EQ((*report->zones)[1].columns, 100u - 4u);
  EXPECT_EQ(c.zone[SurfaceAt(c, 3, 3)], 0);  // the hole
  EXPECT_EQ(c.zone[SurfaceAt(c, 1, 1)], 4);
  EXPECT_EQ(c.zone[SurfaceAt(c, 12, 5)], 0);  // between the pieces
  EXPECT_EQ(c.zone[SurfaceAt(c, 19, 7)], 0);  // nothing there: the old zone is gone too
  ASSERT_EQ(world.zones.size(), 2u);
  EXPECT_EQ(world.zones[0].id, 2);
  EXPECT_EQ(world.zones[0].name, "Deadwood");
  EXPECT_EQ(world.zones[1].min_level, 1);
  EXPECT_EQ(world.zones[1].max_level, 6);
  EXPECT_EQ(world.FindZone(9), nullptr);
  ASSERT_EQ(world.layers.size(), 1u);
  EXPECT_EQ(world.layers[0].name, "zones");
  EXPECT_EQ(world.layers[0].file, "zones.geojson");  // the file's name, not where it was
  EXPECT_EQ(world.layers[0].summary, "2 zones, 146 columns");
  EXPECT_EQ(world.content_id, ComputeContentId(world));
}

TEST(GroundLayersTest, EverySurfaceOfAColumnTakesItsLayers) {
  ContinentBuilder builder(0, 3, 1);
  SurfaceSpec ground, deck;
  deck.height_yards = 4.0f;
  deck.flags = kFlagBuilding;
  for (std::uint32_t x = 0; x < 3; ++x) builder.AddSurface(x, 0, ground);
  builder.AddSurface(1, 0, deck);
  auto built = builder.Build(LinkRules{});
  ASSERT_TRUE(built.ok()) << built.status();
  World world;
  world.continents.push_back(*std::move(built));
  AssignContentIds(world);
  const std::string zone =
      Collection({Feature(R"({"zone": 3, "min_level": 5, "max_level": 9})", Polygon(1, 0, 2, 1))});
  const std::string hub = Collection({Feature(R"({"faction": "b"})", Polygon(1, 0, 2, 1))});
  ASSERT_TRUE(Lay(&world, zone, "", hub).ok());
  const Continent& c = world.continents[0];
  SurfaceId first, end;
  c.ColumnSurfaces(1, 0, &first, &end);
  ASSERT_EQ(end - first, 2u);
  for (SurfaceId s = first; s < end; ++s) {
    EXPECT_EQ(c.zone[s], 3);
    EXPECT_EQ(c.marks[s], kMarkHubB);
  }
  EXPECT_EQ(c.zone[SurfaceAt(c, 0, 0)], 0);
}

TEST(GroundLayersTest, HubsOfBothFactionsAreHostileToTheOtherOnly) {
  World world = OpenWorld(12, 3);
  const std::string hubs = Collection({
      Feature(R"({"faction": "A", "name": "Westhold"})", Polygon(0, 0, 2, 3)),
      Feature(R"({"faction": "faction-b", "name": "Eastwatch"})", Polygon(8, 0, 12, 3)),
  });
  absl::StatusOr<LayersReport> report = Lay(&world, "", "", hubs);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(*report->hub_a_columns, 6u);
  EXPECT_EQ(*report->hub_b_columns, 12u);
  const Continent& c = world.continents[0];
  EXPECT_EQ(c.marks[SurfaceAt(c, 1, 1)], kMarkHubA);
  EXPECT_EQ(c.marks[SurfaceAt(c, 9, 1)], kMarkHubB);
  EXPECT_EQ(c.marks[SurfaceAt(c, 5, 1)], 0);
  const Metric a(world, *FindProfile("faction-a"), 0), b(world, *FindProfile("faction-b"), 0);
  EXPECT_EQ(a.EnterMultiplier(c, SurfaceAt(c, 9, 1), 0, 0), DefaultCostModel().hostile);
  EXPECT_EQ(a.EnterMultiplier(c, SurfaceAt(c, 1, 1), 0, 0), 1.0);
  EXPECT_EQ(b.EnterMultiplier(c, SurfaceAt(c, 1, 1), 0, 0), DefaultCostModel().hostile);
  EXPECT_EQ(b.EnterMultiplier(c, SurfaceAt(c, 9, 1), 0, 0), 1.0);
  // A second hubs file replaces the first.
  ASSERT_TRUE(
      Lay(&world, "", "", Collection({Feature(R"({"faction": "Faction_B"})", Polygon(0, 0, 1, 1))}))
          .ok());
  EXPECT_EQ(c.marks[SurfaceAt(c, 9, 1)], 0);
  EXPECT_EQ(c.marks[SurfaceAt(c, 0, 0)], kMarkHubB);
  ASSERT_EQ(world.layers.size(), 1u);  // one record a layer, the latest
  EXPECT_EQ(world.layers[0].summary, "1 feature, 0 columns of faction A, 1 of faction B");
}

TEST(GroundLayersTest, FactionsAreSpelledAsEitherFileWouldSpellThem) {
  for (const char* a : {"A", "a", " a ", "faction-a", "Faction_A", "faction a", "FACTION-A"})
    EXPECT_EQ(HubMarkOf(a), kMarkHubA) << a;
  for (const char* b : {"B", "b", "faction-b", "faction_b"})
    EXPECT_EQ(HubMarkOf(b), kMarkHubB) << b;
  for (const char* neither : {"", "c", "ab", "faction", "faction-", "factiona", "horde", "a-b"})
    EXPECT_FALSE(HubMarkOf(neither).has_value()) << neither;
}

TEST(GroundLayersTest, RoadsLowerTheMetricsBoundAndPriceTheirColumns) {
  World world = OpenWorld(10, 5);
  const Metric before(world, *FindProfile("neutral"), 0);
  EXPECT_EQ(before.min_seconds_per_column(), before.seconds_per_column());
  const std::string roads = Collection({
      Feature(R"({"width_yards": 1, "name": "King's Road"})",
              R"({"type": "LineString", "coordinates": [[0, 2], [10, 2]]})"),
      Feature("null", Polygon(0, 4, 2, 5)),  // a paved square, no properties at all
  });
  absl::StatusOr<LayersReport> report = Lay(&world, "", roads, "");
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(*report->road_columns, 20u + 2u);
  const Continent& c = world.continents[0];
  EXPECT_TRUE(c.marks[SurfaceAt(c, 4, 1)] & kMarkRoad);  // centre y 1.5, 0.5 from the line
  EXPECT_TRUE(c.marks[SurfaceAt(c, 4, 2)] & kMarkRoad);
  EXPECT_FALSE(c.marks[SurfaceAt(c, 4, 3)] & kMarkRoad);
  // The ground kinds were recomputed: a metric of the new world bounds its A* by road.
  const Metric after(world, *FindProfile("neutral"), 0);
  EXPECT_DOUBLE_EQ(after.min_seconds_per_column(),
                   after.seconds_per_column() * DefaultCostModel().road);
  EXPECT_EQ(after.EnterMultiplier(c, SurfaceAt(c, 4, 1), 0, 0), DefaultCostModel().road);
}

TEST(GroundLayersTest, LayersAreLaidInTheWorldsFrame) {
  World world = OpenWorld(10, 4);
  world.continents[0].origin_column_x = -40;
  AssignContentIds(world);
  const std::string zones = Collection({Feature(
      R"({"zone": 1, "name": "West", "min_level": 0, "max_level": 1})", Polygon(-38, 0, -35, 4))});
  absl::StatusOr<LayersReport> report = Lay(&world, zones, "", "");
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ((*report->zones)[0].columns, 12u);  // grid columns 2, 3, 4 of four rows
  const Continent& c = world.continents[0];
  EXPECT_EQ(c.zone[SurfaceAt(c, 2, 0)], 1);
  EXPECT_EQ(c.zone[SurfaceAt(c, 4, 3)], 1);
  EXPECT_EQ(c.zone[SurfaceAt(c, 5, 0)], 0);
  EXPECT_EQ(c.zone[SurfaceAt(c, 1, 0)], 0);
}

TEST(GroundLayersTest, ALayerRepricesOnlyTheContinentsItNames) {
  // Two continents, each in its own frame; zones and roads for continent 1 only.
  World world = OpenWorld(8, 4);
  World other = OpenWorld(6, 6);
  other.continents[0].id = 1;
  other.continents[0].origin_column_x = 100;
  world.continents.push_back(other.continents[0]);
  const std::string first = Collection({Feature(
      R"({"zone": 2, "min_level": 0, "max_level": 1, "continent": 0})", Polygon(0, 0, 3, 3))});
  ASSERT_TRUE(Lay(&world, first, "", "").ok());
  const World before = world;
  const std::string zones = Collection({Feature(
      R"({"zone": 1, "min_level": 0, "max_level": 1, "continent": 1})", Polygon(100, 0, 103, 3))});
  const std::string roads =
      Collection({Feature(R"({"continent": 1, "width_yards": 1})",
                          R"({"type": "LineString", "coordinates": [[100, 4.5], [106, 4.5]]})")});
  absl::StatusOr<LayersReport> report = Lay(&world, zones, roads, "");
  ASSERT_TRUE(report.ok()) << report.status();
  // Continent 0 keeps its zone and its content id (so its stored answers); continent 1 changes.
  EXPECT_EQ(world.continents[0].content_id, before.continents[0].content_id);
  EXPECT_EQ(world.continents[0].zone, before.continents[0].zone);
  EXPECT_NE(world.continents[1].content_id, before.continents[1].content_id);
  const Continent& c = world.continents[1];
  EXPECT_EQ(c.zone[SurfaceAt(c, 1, 1)], 1);
  EXPECT_NE(c.marks[SurfaceAt(c, 2, 4)] & kMarkRoad, 0);
  // The world's zone list keeps continent 0's zone beside the file's.
  ASSERT_EQ(world.zones.size(), 2u);
  EXPECT_EQ(world.zones[0].id, 1);
  EXPECT_EQ(world.zones[1].id, 2);
}

TEST(GroundLayersTest, LayingTheSameFilesAgainChangesNothing) {
  World world = OpenWorld(6, 6);
  const std::string zones =
      Collection({Feature(R"({"zone": 1, "min_level": 0, "max_level": 1})", Polygon(0, 0, 3, 3))});
  ASSERT_TRUE(Lay(&world, zones, "", "").ok());
  const std::uint64_t id = world.content_id;
  const std::vector<WorldLayer> layers = world.layers;
  ASSERT_TRUE(Lay(&world, zones, "", "").ok());
  EXPECT_EQ(world.content_id, id);
  ASSERT_EQ(world.layers.size(), 1u);
  EXPECT_EQ(world.layers[0].hash, layers[0].hash);
}

// Each bad file, and the message that refuses it: file, feature, field.
struct BadFile {
  const char* layer;  // "zones", "roads", "hubs"
  std::string text;
  std::string message;
};

TEST(GroundLayersTest, BadFilesAreRefusedNamingFileFeatureAndField) {
  const std::string zone_ok = R"({"zone": 1, "name": "A", "min_level": 1, "max_level": 2})";
  const std::string square = Polygon(0, 0, 1, 1);
  const std::vector<BadFile> bad = {
      {"zones",
       Collection({Feature(zone_ok, square), Feature(zone_ok, square), Feature(zone_ok, square),
                   Feature(R"({"zone": 3, "name": "Deadwood", "min_level": -1, "max_level": 4})",
                           square)}),
       "layers/zones.geojson: feature 3 (\"Deadwood\"): properties.min_level: must be an integer "
       "0..65535"},
      {"zones", Collection({Feature(R"({"zone": 0, "min_level": 1, "max_level": 2})", square)}),
       "layers/zones.geojson: feature 0: properties.zone: must be an integer 1..65535"},
      {"zones",
       Collection({Feature(R"({"name": "Nowhere", "min_level": 1, "max_level": 2})", square)}),
       "layers/zones.geojson: feature 0 (\"Nowhere\"): properties.zone: must be an integer "
       "1..65535 (it is missing)"},
      {"zones", Collection({Feature(R"({"zone": 1, "min_level": 1.5, "max_level": 2})", square)}),
       "layers/zones.geojson: feature 0: properties.min_level: must be an integer 0..65535"},
      {"zones", Collection({Feature(R"({"zone": 1, "min_level": 9, "max_level": 2})", square)}),
       "layers/zones.geojson: feature 0: properties.max_level: must be at least min_level (9)"},
      {"zones",
       Collection({Feature(zone_ok, square),
                   Feature(R"({"zone": 1, "name": "B", "min_level": 1, "max_level": 2})", square)}),
       "layers/zones.geojson: feature 1 (\"B\"): properties.name: differs from feature 0 (zone 1 "
       "has name \"A\" there)"},
      {"zones", Collection({Feature(zone_ok, R"({"type": "Point", "coordinates": [1, 2]})")}),
       "layers/zones.geojson: feature 0 (\"A\"): geometry.type: \"Point\" is not a Polygon or "
       "MultiPolygon"},
      {"zones",
       Collection({Feature(zone_ok,
                           R"({"type": "Polygon", "coordinates": [[[0, 0], [1, "x"], [1, 1]]]})")}),
       "layers/zones.geojson: feature 0 (\"A\"): geometry.coordinates[0][1]: must be a position "
       "[x, y]"},
      {"zones",
       Collection({Feature(zone_ok, R"({"type": "Polygon", "coordinates": [[[0, 0], [1, 1]]]})")}),
       "layers/zones.geojson: feature 0 (\"A\"): geometry.coordinates[0]: must hold at least 3 "
       "positions"},
      {"zones", Collection({Feature(zone_ok, "null")}),
       "layers/zones.geojson: feature 0 (\"A\"): geometry: must be an object (a layer's feature "
       "needs a geometry)"},
      {"zones", R"({"type": "Feature"})",
       "layers/zones.geojson: type: must be \"FeatureCollection\""},
      {"zones", R"({"type": "FeatureCollection", "features": {}})",
       "layers/zones.geojson: features: must be an array"},
      {"zones",
       Collection(
           {Feature(R"({"zone": 1, "min_level": 1, "max_level": 2, "continent": 7})", square)}),
       "layers/zones.geojson: feature 0: properties.continent: the world has no continent 7"},
      {"roads",
       Collection({Feature(R"({"name": "King's Road"})",
                           R"({"type": "LineString", "coordinates": [[0, 0], [5, 0]]})")}),
       "roads.geojson: feature 0 (\"King's Road\"): properties.width_yards: must be a number "
       "above 0 to 1000 (it is missing)"},
      {"roads",
       Collection({Feature(R"({"width_yards": -2})",
                           R"({"type": "MultiLineString", "coordinates": [[[0, 0], [5, 0]]]})")}),
       "roads.geojson: feature 0: properties.width_yards: must be a number above 0 to 1000"},
      {"hubs", Collection({Feature(R"({"faction": "C", "name": "Eastwatch"})", square)}),
       "hubs.geojson: feature 0 (\"Eastwatch\"): properties.faction: must be \"A\" or \"B\""},
      {"hubs",
       Collection({Feature(R"({"faction": "A"})",
                           R"({"type": "LineString", "coordinates": [[0, 0], [5, 0]]})")}),
       "hubs.geojson: feature 0: geometry.type: \"LineString\" is not a Polygon or MultiPolygon"},
  };
  for (const BadFile& b : bad) {
    World world = OpenWorld(4, 4);
    const std::uint64_t id = world.content_id;
    const std::string layer = b.layer;
    absl::StatusOr<LayersReport> report =
        Lay(&world, layer == "zones" ? b.text : "", layer == "roads" ? b.text : "",
            layer == "hubs" ? b.text : "");
    ASSERT_FALSE(report.ok()) << b.text;
    EXPECT_EQ(report.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(report.status().message(), b.message);
    EXPECT_EQ(world.content_id, id);
    EXPECT_TRUE(world.layers.empty());
  }
}

TEST(GroundLayersTest, ABadFileLeavesTheWorldAsItWas) {
  World world = OpenWorld(4, 4);
  const World before = world;
  LayerSources sources;
  sources.zones = LayerSource{
      "zones.geojson",
      Collection({Feature(R"({"zone": 1, "min_level": 0, "max_level": 1})", Polygon(0, 0, 4, 4))})};
  sources.hubs = LayerSource{"hubs.geojson", "{not json"};
  absl::StatusOr<LayersReport> report = ApplyLayers(sources, &world);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().message().substr(0, 23), "hubs.geojson: not JSON:");
  EXPECT_EQ(world.continents[0].zone, before.continents[0].zone);
  EXPECT_TRUE(world.zones.empty());
  EXPECT_EQ(world.content_id, before.content_id);
}

TEST(GroundLayersTest, MangledFilesAreRefusedNeverCrash) {
  const std::string good = Collection({
      Feature(R"({"zone": 4, "name": "Amber Vale", "min_level": 1, "max_level": 6})",
              R"({"type": "MultiPolygon", "coordinates": [[)" + BoxPolygon(0, 0, 3, 3) + ", " +
                  BoxPolygon(1, 1, 2, 2) + "]]}"),
      Feature(R"({"width_yards": 2, "faction": "a", "zone": 2, "min_level": 1, "max_level": 1})",
              R"({"type": "LineString", "coordinates": [[0, 0], [3, 3]]})"),
  });
  std::vector<std::string> texts;
  for (std::size_t cut = 0; cut < good.size(); cut += 3) texts.push_back(good.substr(0, cut));
  std::mt19937_64 random(17);
  const std::string noise = "{}[],:\"0123456789.-eE \\nulltruefalse\x01\xff";
  for (int i = 0; i < 400; ++i) {
    std::string text = good;
    for (int k = 0; k < 1 + i % 4; ++k)
      text[random() % text.size()] = noise[random() % noise.size()];
    texts.push_back(std::move(text));
  }
  texts.push_back(std::string(100000, '['));
  texts.push_back(std::string(100000, '{'));
  texts.push_back(Collection({Feature("{}", R"({"type": "Polygon", "coordinates": [[[1e308, 0], )"
                                            R"([-1e308, 1e308], [0, -1e308]]]})")}));
  texts.push_back(
      Collection({Feature(R"({"width_yards": 1e-300})",
                          R"({"type": "LineString", "coordinates": [[0, 0], [1, 1]]})")}));
  for (const std::string& text : texts) {
    for (int layer = 0; layer < 3; ++layer) {
      World world = OpenWorld(4, 4);
      absl::StatusOr<LayersReport> report =
          Lay(&world, layer == 0 ? text : "", layer == 1 ? text : "", layer == 2 ? text : "");
      if (!report.ok()) {
        EXPECT_EQ(report.status().code(), absl::StatusCode::kInvalidArgument) << text;
      }
    }
  }
}

TEST(GroundLayersTest, AFileLargerThanTheLimitIsRefusedBeforeParsing) {
  // Padding is whitespace: as JSON, the file is sound; its size alone is refused.
  std::string text = Collection({});
  text.resize(kMaxLayerFileBytes + 1, ' ');
  for (int layer = 0; layer < 3; ++layer) {
    World world = OpenWorld(4, 4);
    absl::StatusOr<LayersReport> report =
        Lay(&world, layer == 0 ? text : "", layer == 1 ? text : "", layer == 2 ? text : "");
    ASSERT_EQ(report.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(report.status().message().find("67108865 bytes, more than the 67108864"),
              std::string::npos)
        << report.status();
  }
  text.resize(kMaxLayerFileBytes);
  World world = OpenWorld(4, 4);
  EXPECT_TRUE(Lay(&world, text, "", "").ok());
}

}  // namespace
}  // namespace walk::nav
