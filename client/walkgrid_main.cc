// walkgrid: the offline grid tool. Builds grids, checks them against the MovingAI oracle, and
// tells what a grid holds. Every subcommand prints what it did.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "client/walkgrid_commands.h"
#include "nav/grid/grid_format.h"
#include "nav/import/movingai.h"
#include "nav/navmesh/world_navmesh.h"
#include "nlohmann/json.hpp"

namespace {

using walk::nav::World;

int Fail(const std::string& message) {
  std::cerr << "walkgrid: " << message << "\n";
  return 1;
}

int ImportMovingAi(const std::string& map_path, const std::string& out,
                   const walk::nav::LayerFiles& layer_files,
                   const walk::client::ContinentTarget& target) {
  auto map = walk::nav::ReadMovingAiMap(map_path);
  if (!map.ok()) return Fail(std::string(map.status().message()));
  auto built = walk::nav::WorldFromMovingAi(*map);
  if (!built.ok()) return Fail(std::string(built.status().message()));
  const std::uint32_t id = target.id.value_or(0);
  built->continents[0].id = id;
  built->continents[0].source = "movingai:" + walk::client::BaseName(map_path);
  walk::nav::AssignContentIds(*built);
  const std::string layers =
      layer_files.empty() ? "" : walk::client::LayWorld(layer_files, &*built, "import-movingai");
  const World world = walk::client::SaveBuilt(*std::move(built), out, target, "import-movingai");
  const auto& c = *world.FindContinent(id);
  std::cout << "walkgrid: imported " << map_path << " (" << map->width << " x " << map->height
            << ") into " << out;
  if (target.id.has_value()) std::cout << " as continent " << id;
  std::cout << ": " << c.surface_count() << " surfaces, " << c.region_count()
            << " regions, content id " << walk::nav::FormatId(world.content_id) << "\n";
  if (!layers.empty()) std::cout << layers << "\n";  // the layers' report, one JSON line
  return 0;
}

int Info(const std::string& dir) {
  auto loaded = walk::nav::LoadWorld(dir);
  if (!loaded.ok()) return Fail(std::string(loaded.status().message()));
  nlohmann::ordered_json out;
  out["dir"] = dir;
  out["source"] = loaded->source;
  out["content_id"] = walk::nav::FormatId(loaded->world.content_id);
  out["column_yards"] = loaded->world.column_yards;
  out["memory_bytes"] = loaded->world.MemoryBytes();
  out["zones"] = loaded->world.zones.size();
  out["layers"] = nlohmann::ordered_json::array();
  for (const walk::nav::WorldLayer& layer : loaded->world.layers) {
    out["layers"].push_back({{"name", layer.name},
                             {"file", layer.file},
                             {"hash", walk::nav::FormatId(layer.hash)},
                             {"summary", layer.summary}});
  }
  // The navmeshes beside the grid, as its note names them: one a map, each on its continent.
  auto note = walk::nav::LoadNavMeshNote(dir);
  if (!note.ok()) return Fail(std::string(note.status().message()));
  if (note->has_value()) {
    out["navmeshes"] = nlohmann::ordered_json::array();
    for (const walk::nav::NavMeshNoteMap& m : (*note)->maps) {
      out["navmeshes"].push_back({{"map", m.map},
                                  {"continent", m.continent},
                                  {"format", (*note)->format},
                                  {"content_hash", walk::nav::FormatId(m.content_hash)},
                                  {"tiles", m.tiles},
                                  {"polygons", m.polygons}});
    }
  }
  for (const auto& c : loaded->world.continents) {
    // The frame its places are named in (docs/formats.md): its column 0 and its extent in it.
    const walk::nav::WorldFrame frame = loaded->world.FrameOf(c);
    out["continents"].push_back(
        {{"id", c.id},
         {"source", c.source},
         {"content_id", walk::nav::FormatId(c.content_id)},
         {"origin_column_x", c.origin_column_x},
         {"origin_column_y", c.origin_column_y},
         {"tiles_x", c.tiles_x},
         {"tiles_y", c.tiles_y},
         {"tiles", c.tiles.size()},
         {"width_columns", c.width_columns},
         {"height_columns", c.height_columns},
         {"columns", c.CountColumns()},
         {"surfaces", c.surface_count()},
         {"max_floors", c.MaxFloors()},
         {"regions", c.region_count()},
         {"lifts", c.lifts.size() / 2},
         {"min_x_yards", frame.FrameX(0.0)},
         {"min_y_yards", frame.FrameY(0.0)},
         {"max_x_yards", frame.FrameX(c.width_columns * frame.column_yards)},
         {"max_y_yards", frame.FrameY(c.height_columns * frame.column_yards)}});
  }
  std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return 0;
}

// Every surface of the column under (x, y) yards: height, headroom, flags, zone, region, links.
int Floors(const std::string& dir, double x_yards, double y_yards, std::uint32_t continent_id) {
  auto loaded = walk::nav::LoadWorld(dir);
  if (!loaded.ok()) return Fail(std::string(loaded.status().message()));
  const walk::nav::World& world = loaded->world;
  const walk::nav::Continent* c = world.FindContinent(continent_id);
  if (c == nullptr)
    return Fail("--continent: the world has no continent " + std::to_string(continent_id));
  // --at is in the world's frame; the column printed is the frame's too.
  const walk::nav::WorldFrame frame = world.FrameOf(*c);
  const std::int64_t x = frame.ColumnX(x_yards), y = frame.ColumnY(y_yards);
  if (!c->OnMap(x, y)) {
    return Fail("--at: column " + std::to_string(frame.FrameColumnX(x)) + "," +
                std::to_string(frame.FrameColumnY(y)) + " is off the map");
  }
  walk::nav::SurfaceId first, end;
  c->ColumnSurfaces(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), &first, &end);
  nlohmann::ordered_json out;
  out["column"] = {frame.FrameColumnX(x), frame.FrameColumnY(y)};
  out["floors"] = nlohmann::json::array();
  static const char* kDirections[] = {"E", "NE", "N", "NW", "W", "SW", "S", "SE"};
  for (walk::nav::SurfaceId s = first; s < end; ++s) {
    nlohmann::ordered_json floor;
    floor["level"] = c->level[s];
    floor["z_yards"] = c->height_yards[s];
    floor["headroom_yards"] = std::isfinite(c->headroom_yards[s])
                                  ? nlohmann::json(c->headroom_yards[s])
                                  : nlohmann::json("open sky");
    floor["flags"] = c->flags[s];
    floor["marks"] = c->marks[s];
    floor["zone"] = c->zone[s];
    floor["region"] = c->region[s];
    floor["region_surfaces"] = c->region_size[c->region[s]];
    nlohmann::ordered_json links;
    for (int d = 0; d < walk::nav::kDirectionCount; ++d) {
      const walk::nav::Link link = c->links[s][d];
      if (!walk::nav::HasLink(link)) continue;
      links[kDirections[d]] = std::string(walk::nav::LinkKindName(walk::nav::LinkKindOf(link))) +
                              " to level " + std::to_string(walk::nav::LinkLevel(link));
    }
    floor["links"] = links;
    out["floors"].push_back(floor);
  }
  std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"walkgrid: build, check and inspect walkd grids"};
  app.require_subcommand(1);

  std::string map_path, scen_path, out, dir;
  auto* import = app.add_subcommand("import-movingai", "Build a grid from a MovingAI .map file");
  import->add_option("map", map_path, "the .map file")->required();
  import->add_option("--out", out, "the world folder to write (grid.walkgrid inside)")->required();
  walk::nav::LayerFiles import_layers;
  walk::client::AddLayerOptions(import, &import_layers);
  walk::client::ContinentTarget import_target;
  walk::client::AddContinentOptions(import, &import_target);

  auto* info = app.add_subcommand("info", "Describe a grid: continents, tiles, surfaces, regions");
  info->add_option("dir", dir, "the world folder")->required();

  double at_x = 0, at_y = 0;
  std::uint32_t continent = 0;
  std::vector<double> at;
  auto* floors = app.add_subcommand("floors", "Every surface of the column under a place");
  floors->add_option("dir", dir, "the world folder")->required();
  floors->add_option("--at", at, "the place: x,y yards")->required()->delimiter(',')->expected(2);
  floors->add_option("--continent", continent, "the continent id");

  walk::client::AddMovingAiCheckCommand(app);
  walk::client::AddBuildMeshCommand(app);
  walk::client::AddOracleCommand(app);
  walk::client::AddGraphCommands(app);
  walk::client::AddDemoCommand(app);
  walk::client::AddGridcolCommand(app);
  walk::client::AddTrailfollowCommand(app);
  walk::client::AddSnapcheckCommand(app);
  walk::client::AddLayersCommand(app);
  walk::client::AddNavMeshCommands(app);
  walk::client::AddSamplePlacesCommand(app);

  CLI11_PARSE(app, argc, argv);
  if (*floors) {
    at_x = at[0];
    at_y = at[1];
    return Floors(dir, at_x, at_y, continent);
  }
  if (*import) {
    try {
      return ImportMovingAi(map_path, out, import_layers, import_target);
    } catch (const CLI::RuntimeError& e) {
      return e.get_exit_code();  // a bad layer file or continent, already named on stderr
    }
  }
  if (*info) return Info(dir);
  return 0;  // a subcommand that ran as a callback, and succeeded
}
