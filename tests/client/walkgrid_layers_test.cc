// walkgrid's ground layers, run as the real binary: `walkgrid layers` lays layer files on a saved
// world and saves it back (its report one JSON line), `walkgrid info` lists the layers a world
// carries, a bad file is refused naming file, feature and field and leaves the world alone, and
// import-movingai, demo and build-mesh lay the same files before they save.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nav/grid/grid_format.h"
#include "nlohmann/json.hpp"
#include "tests/integration/walkd_process.h"

namespace walk::client {
namespace {

using walk::testing::RunCommand;

class WalkgridLayersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("walkgrid-layers-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    // 40 x 20 open ground, a wall down x = 20 but for its lowest two rows.
    std::ostringstream map;
    map << "type octile\nheight 20\nwidth 40\nmap\n";
    for (int y = 0; y < 20; ++y) {
      std::string row(40, '.');
      if (y >= 2) row[20] = '@';
      map << row << "\n";
    }
    Write("arena.map", map.str());
    Write("zones.geojson", R"({"type": "FeatureCollection", "features": [
      {"type": "Feature", "properties": {"zone": 1, "name": "West", "min_level": 1, "max_level": 5},
       "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [20, 0], [20, 20], [0, 20], [0, 0]],
                                                        [[5, 5], [10, 5], [10, 10], [5, 10], [5, 5]]]}},
      {"type": "Feature", "properties": {"zone": 2, "name": "East", "min_level": 30, "max_level": 35},
       "geometry": {"type": "MultiPolygon", "coordinates": [[[[21, 0], [30, 0], [30, 10], [21, 10]]],
                                                             [[[30, 10], [40, 10], [40, 20], [30, 20]]]]}}]})");
    Write("roads.geojson", R"({"type": "FeatureCollection", "features": [
      {"type": "Feature", "properties": {"width_yards": 2, "name": "Low Road"},
       "geometry": {"type": "LineString", "coordinates": [[0, 1], [40, 1]]}}]})");
    Write("hubs.geojson", R"({"type": "FeatureCollection", "features": [
      {"type": "Feature", "properties": {"faction": "A", "name": "Westhold"},
       "geometry": {"type": "Polygon", "coordinates": [[[0, 16], [4, 16], [4, 20], [0, 20]]]}},
      {"type": "Feature", "properties": {"faction": "faction-b", "name": "Eastwatch"},
       "geometry": {"type": "Polygon", "coordinates": [[[36, 16], [40, 16], [40, 20], [36, 20]]]}}]})");
    Write("lifts.json", R"({"lifts": [
      {"name": "Wall car", "from": {"x": 18.5, "y": 15.5, "z": 0}, "to": {"x": 22.5, "y": 15.5, "z": 0},
       "wait_s": 5, "shaft_yards_per_s": 2},
      {"name": "Nowhere", "from": {"x": 20.5, "y": 10.5, "z": 0}, "to": {"x": 1.5, "y": 1.5, "z": 0}}]})");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  void Write(const std::string& name, const std::string& text) const {
    std::ofstream(Path(name)) << text;
  }
  // Runs walkgrid; its last line of output parsed as JSON (null when it is not JSON).
  nlohmann::json Run(const std::vector<std::string>& args, int* exit_code,
                     std::string* output = nullptr) const {
    std::vector<std::string> argv = {WALKGRID_BIN};
    argv.insert(argv.end(), args.begin(), args.end());
    const walk::testing::CommandResult result = RunCommand(argv);
    *exit_code = result.exit_code;
    if (output != nullptr) *output = result.output;
    std::string text = result.output;
    while (!text.empty() && text.back() == '\n') text.pop_back();
    const std::size_t last = text.find_last_of('\n');
    return nlohmann::json::parse(last == std::string::npos ? text : text.substr(last + 1), nullptr,
                                 /*allow_exceptions=*/false);
  }

  std::filesystem::path dir_;
};

TEST_F(WalkgridLayersTest, LayersAreLaidSavedAndListed) {
  int code = -1;
  std::string output;
  Run({"import-movingai", Path("arena.map"), "--out", Path("world")}, &code, &output);
  ASSERT_EQ(code, 0) << output;
  auto before = nav::LoadWorld(Path("world"));
  ASSERT_TRUE(before.ok()) << before.status();

  const nlohmann::json line =
      Run({"layers", Path("world"), "--zones", Path("zones.geojson"), "--roads",
           Path("roads.geojson"), "--hubs", Path("hubs.geojson"), "--lifts", Path("lifts.json")},
          &code, &output);
  ASSERT_EQ(code, 0) << output;
  ASSERT_TRUE(line.is_object()) << output;
  EXPECT_EQ(line["previous_content_id"], nav::FormatId(before->world.content_id));
  EXPECT_NE(line["content_id"], line["previous_content_id"]);
  ASSERT_EQ(line["files"].size(), 4u);
  EXPECT_EQ(line["files"][0]["name"], "zones");
  EXPECT_EQ(line["files"][0]["file"], "zones.geojson");
  EXPECT_EQ(line["zones"][0]["columns"], 400 - 25);  // x 0..20 but the hole
  EXPECT_EQ(line["zones"][1]["columns"], 9 * 10 + 10 * 10);
  EXPECT_EQ(line["road_columns"], 2 * 40);  // rows 0 and 1: centres 0.5 from y = 1
  EXPECT_EQ(line["hub_columns"]["A"], 16);
  EXPECT_EQ(line["hub_columns"]["B"], 16);
  ASSERT_EQ(line["lifts"]["joined"].size(), 1u);
  EXPECT_EQ(line["lifts"]["joined"][0]["name"], "Wall car");
  ASSERT_EQ(line["lifts"]["refused"].size(), 1u);
  EXPECT_EQ(line["lifts"]["refused"][0]["why"], "from: the column at (20.5, 10.5) has no surface");

  auto after = nav::LoadWorld(Path("world"));
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(nav::FormatId(after->world.content_id), line["content_id"]);
  EXPECT_EQ(after->source, before->source);
  ASSERT_EQ(after->world.zones.size(), 2u);
  EXPECT_EQ(after->world.zones[1].name, "East");
  const nav::Continent& c = after->world.continents[0];
  EXPECT_EQ(c.lifts.size(), 2u);
  EXPECT_EQ(c.lifts[0].wait_seconds, 5.0f);
  EXPECT_EQ(c.region_count(), 1u);
  ASSERT_EQ(after->world.layers.size(), 4u);
  EXPECT_EQ(after->world.layers[3].summary, "1 lift joined, 1 refused");

  const nlohmann::json info = nlohmann::json::parse(
      [&] {
        std::string text;
        Run({"info", Path("world")}, &code, &text);
        return text;
      }(),
      nullptr, false);
  ASSERT_EQ(code, 0);
  ASSERT_TRUE(info.is_object());
  ASSERT_EQ(info["layers"].size(), 4u);
  EXPECT_EQ(info["layers"][2]["name"], "hubs");
  EXPECT_EQ(info["layers"][2]["file"], "hubs.geojson");
  EXPECT_EQ(info["layers"][2]["hash"], line["files"][2]["hash"]);
  EXPECT_EQ(info["zones"], 2);
  EXPECT_EQ(info["continents"][0]["lifts"], 1);
}

TEST_F(WalkgridLayersTest, ABadFileIsRefusedAndTheWorldIsLeftAlone) {
  int code = -1;
  std::string output;
  Run({"import-movingai", Path("arena.map"), "--out", Path("world")}, &code, &output);
  ASSERT_EQ(code, 0) << output;
  const auto size = std::filesystem::file_size(Path("world/grid.walkgrid"));
  Write("bad.geojson", R"({"type": "FeatureCollection", "features": [
      {"type": "Feature", "properties": {"zone": 3, "name": "Deadwood", "min_level": 70000,
       "max_level": 1}, "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1]]]}}]})");
  Run({"layers", Path("world"), "--roads", Path("roads.geojson"), "--zones", Path("bad.geojson")},
      &code, &output);
  EXPECT_EQ(code, 1);
  EXPECT_NE(output.find("bad.geojson: feature 0 (\"Deadwood\"): properties.min_level: must be an "
                        "integer 0..65535"),
            std::string::npos)
      << output;
  auto world = nav::LoadWorld(Path("world"));
  ASSERT_TRUE(world.ok());
  EXPECT_TRUE(world->world.layers.empty()) << "the roads were not laid either";
  EXPECT_EQ(std::filesystem::file_size(Path("world/grid.walkgrid")), size);
  Run({"layers", Path("world")}, &code, &output);
  EXPECT_EQ(code, 1);
  EXPECT_NE(output.find("name at least one of --zones, --roads, --hubs, --lifts"),
            std::string::npos);
  Run({"layers", Path("world"), "--lifts", Path("missing.json")}, &code, &output);
  EXPECT_EQ(code, 1);
  EXPECT_NE(output.find("missing.json: cannot be read"), std::string::npos) << output;
}

TEST_F(WalkgridLayersTest, BuildersLayTheFilesBeforeTheySave) {
  int code = -1;
  std::string output;
  // import-movingai prints its line, then the layers' report.
  nlohmann::json line = Run({"import-movingai", Path("arena.map"), "--out", Path("imported"),
                             "--hubs", Path("hubs.geojson")},
                            &code, &output);
  ASSERT_EQ(code, 0) << output;
  EXPECT_EQ(line["hub_columns"]["A"], 16) << output;
  auto imported = nav::LoadWorld(Path("imported"));
  ASSERT_TRUE(imported.ok());
  ASSERT_EQ(imported->world.layers.size(), 1u);
  EXPECT_EQ(imported->world.layers[0].name, "hubs");

  // The demo world's own zones give way to the file's.
  line = Run({"demo", "--tiles", "1x1", "--out", Path("demo"), "--zones", Path("zones.geojson")},
             &code, &output);
  ASSERT_EQ(code, 0) << output;
  EXPECT_EQ(line["zones"], 2) << output;
  EXPECT_EQ(line["layers"]["files"][0]["name"], "zones");
  auto demo = nav::LoadWorld(Path("demo"));
  ASSERT_TRUE(demo.ok());
  EXPECT_EQ(nav::FormatId(demo->world.content_id), line["content_id"]);
  ASSERT_EQ(demo->world.zones.size(), 2u);
  EXPECT_EQ(demo->world.zones[0].name, "West");

  // A flat 20-yard square at negative mesh coordinates, voxelized; a lift from one corner to
  // the other, named in the mesh's own x and z (the world's frame).
  Write("floor.obj", "v -30 0 -30\nv -10 0 -30\nv -10 0 -10\nv -30 0 -10\nf 1 4 3 2\n");
  Write("corner.json", R"({"lifts": [{"from": {"x": -29, "y": -29, "z": 0},
                                     "to": {"x": -11, "y": -11, "z": 0}}]})");
  line =
      Run({"build-mesh", Path("floor.obj"), "--out", Path("mesh"), "--lifts", Path("corner.json")},
          &code, &output);
  ASSERT_EQ(code, 0) << output;
  ASSERT_EQ(line["layers"]["lifts"]["joined"].size(), 1u) << output;
  auto mesh = nav::LoadWorld(Path("mesh"));
  ASSERT_TRUE(mesh.ok());
  EXPECT_EQ(mesh->world.continents[0].lifts.size(), 2u);
}

}  // namespace
}  // namespace walk::client
