// walkgrid demo: generates the demo world (nav/demo/demo_world.h) from a seed and a size in tiles,
// saves it to a grid folder and prints one JSON line saying what it built.
//
//   walkgrid demo --seed 1 --tiles 2x2 --out worlds/demo
//   {"seed":1,"tiles":"2x2","out":"worlds/demo","columns":262144,"surfaces":...,"max_floors":4,
//    "regions":1,"lifts":2,"zones":4,...,"build_seconds":0.3,"peak_resident_bytes":...}
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "CLI/CLI.hpp"
#include "client/walkgrid_commands.h"
#include "nav/demo/demo_travel.h"
#include "nav/demo/demo_world.h"
#include "nav/grid/grid.h"
#include "nav/grid/grid_format.h"
#include "nav/navmesh/navmesh_builder.h"
#include "nav/navmesh/world_navmesh.h"
#include "nav/travel/travel_file.h"
#include "nlohmann/json.hpp"

namespace walk::client {
namespace {

struct DemoArgs {
  std::uint64_t seed = nav::kDemoWorldDefaultSeed;
  std::string tiles = "2x2";
  std::string out;
  bool landmarks = false;
  nav::LayerFiles layers;
  std::string navmesh;  // "", "mset" or "mmaps": also build a navmesh of the same ground
  ContinentTarget target;
};

// "WxH" (e.g. "2x2", "32x32") into its two sides; false when it is not that.
bool ParseTiles(const std::string& text, std::uint32_t* w, std::uint32_t* h) {
  const std::size_t x = text.find_first_of("xX");
  if (x == std::string::npos || x == 0 || x + 1 >= text.size()) return false;
  auto number = [](const std::string& digits, std::uint32_t* out) {
    if (digits.empty() || digits.size() > 6) return false;
    std::uint32_t value = 0;
    for (char ch : digits) {
      if (ch < '0' || ch > '9') return false;
      value = value * 10 + static_cast<std::uint32_t>(ch - '0');
    }
    *out = value;
    return true;
  };
  return number(text.substr(0, x), w) && number(text.substr(x + 1), h);
}

nlohmann::ordered_json PointJson(const nav::DemoPoint& p, double column_yards) {
  nlohmann::ordered_json j;
  j["x_yards"] = p.x_yards(column_yards);
  j["y_yards"] = p.y_yards(column_yards);
  j["z_yards"] = p.z;
  return j;
}

// Builds the navmesh of the demo world's triangles (its lifts as off-mesh connections) into the
// world folder, in the format asked; what it built, for the JSON line.
nlohmann::ordered_json BuildDemoNavMesh(const DemoArgs& args, const nav::DemoOptions& options,
                                        const nav::World& world) {
  const auto started = std::chrono::steady_clock::now();
  absl::StatusOr<nav::TriangleMesh> mesh = nav::DemoWorldMesh(options);
  if (!mesh.ok()) FailCommand("demo", std::string(mesh.status().message()));
  nav::NavMeshBuildOptions build;
  build.connections = nav::LiftConnections(world, 0);
  absl::StatusOr<nav::NavMesh> navmesh = nav::BuildNavMesh(*mesh, build);
  if (!navmesh.ok()) FailCommand("demo", std::string(navmesh.status().message()));
  const nav::NavMeshFormat format =
      args.navmesh == "mmaps" ? nav::NavMeshFormat::kMmaps : nav::NavMeshFormat::kMset;
  if (absl::Status s = nav::SaveWorldNavMesh(*navmesh, args.out, format); !s.ok()) {
    FailCommand("demo", std::string(s.message()));
  }
  nlohmann::ordered_json j;
  j["format"] = nav::NavMeshFormatName(format);
  j["tiles"] = navmesh->tile_count();
  j["polygons"] = navmesh->polygon_count();
  j["off_mesh_connections"] = navmesh->off_mesh_count();
  j["content_hash"] = nav::FormatId(navmesh->content_hash());
  j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return j;
}

void RunDemo(const DemoArgs& args) {
  using Clock = std::chrono::steady_clock;
  if (!args.navmesh.empty() && args.target.id.has_value()) {
    FailCommand("demo", "--navmesh builds a one-continent world's navmesh: not with --continent");
  }
  nav::DemoOptions options;
  options.seed = args.seed;
  if (!ParseTiles(args.tiles, &options.tiles_x, &options.tiles_y)) {
    FailCommand("demo", "--tiles must be WxH, e.g. 2x2 (got \"" + args.tiles + "\")");
  }
  if (options.tiles_x < 1 || options.tiles_y < 1 || options.tiles_x > 256 ||
      options.tiles_y > 256) {
    FailCommand("demo", "--tiles: each side must be 1 to 256 (got " + args.tiles + ")");
  }

  // A tile counter on stderr when someone watches.
  const bool terminal = ::isatty(STDERR_FILENO) != 0;
  bool counted = false;
  if (terminal) {
    options.voxelize.progress = [&](std::uint32_t done, std::uint32_t total) {
      std::cerr << "\rwalkgrid demo: tile " << done << "/" << total << std::flush;
      counted = true;
    };
  }
  const auto started = Clock::now();
  nav::VoxelizeStats stats;
  absl::StatusOr<nav::World> world = nav::GenerateDemoWorld(options, &stats);
  if (counted) std::cerr << "\n";
  if (!world.ok()) FailCommand("demo", std::string(world.status().message()));
  const double build_seconds = std::chrono::duration<double>(Clock::now() - started).count();
  // Layers replace what the generator laid for them, before the world is saved.
  const std::string layers = args.layers.empty() ? "" : LayWorld(args.layers, &*world, "demo");

  const std::string source = "demo:seed=" + std::to_string(args.seed) +
                             ":tiles=" + std::to_string(options.tiles_x) + "x" +
                             std::to_string(options.tiles_y);
  const auto save_started = Clock::now();
  world->continents[0].source = source;
  // The travel network, generated from the same plan (continent 0), beside the grid: with
  // --continent, only into a folder without one (a network over several continents is the
  // planner's own file), its nodes on that continent.
  absl::StatusOr<nav::TravelNetwork> travel = nav::DemoTravel(options, *world);
  if (!travel.ok()) FailCommand("demo", std::string(travel.status().message()));
  const std::string travel_path = (std::filesystem::path(args.out) / nav::kTravelFileName).string();
  const bool write_travel = !args.target.id.has_value() || !std::filesystem::exists(travel_path);
  const std::uint32_t id = args.target.id.value_or(0);
  for (nav::TravelNode& node : travel->nodes) node.place.continent = id;
  world->continents[0].id = id;
  nav::AssignContentIds(*world);
  *world = SaveBuilt(*std::move(world), args.out, args.target, "demo");
  const double save_seconds = std::chrono::duration<double>(Clock::now() - save_started).count();
  if (write_travel) {
    std::ofstream out(travel_path, std::ios::trunc);
    out << nav::TravelText(*travel);
    if (!out.flush()) FailCommand("demo", "cannot write " + travel_path);
  }

  nlohmann::ordered_json navmesh_line;
  if (!args.navmesh.empty()) navmesh_line = BuildDemoNavMesh(args, options, *world);

  const nav::Continent& c = *world->FindContinent(id);
  nlohmann::ordered_json line;
  line["seed"] = args.seed;
  line["tiles"] = std::to_string(options.tiles_x) + "x" + std::to_string(options.tiles_y);
  line["out"] = args.out;
  line["triangles"] = stats.triangles;
  line["columns"] = c.CountColumns();
  line["surfaces"] = c.surface_count();
  line["max_floors"] = c.MaxFloors();
  line["regions"] = c.region_count();
  line["lifts"] = c.lifts.size() / 2;  // each lift is two rides, one each way
  line["zones"] = world->zones.size();
  if (write_travel) {
    line["travel"] = {{"nodes", travel->nodes.size()},
                      {"edges", travel->edge_count},
                      {"hearthstones", travel->hearthstones.size()}};
  } else {
    line["travel"] = "kept the folder's travel.json";
  }
  if (args.target.id.has_value()) {
    line["continent"] = id;
    line["continent_content_id"] = nav::FormatId(c.content_id);
  }
  line["content_id"] = nav::FormatId(world->content_id);
  if (!layers.empty()) line["layers"] = nlohmann::ordered_json::parse(layers);
  line["build_seconds"] = build_seconds;
  line["save_seconds"] = save_seconds;
  if (!navmesh_line.is_null()) line["navmesh"] = navmesh_line;
  line["peak_resident_bytes"] = PeakResidentBytes();
  if (args.landmarks) {
    absl::StatusOr<nav::DemoLandmarks> l = nav::FindLandmarks(options);
    if (!l.ok()) FailCommand("demo", std::string(l.status().message()));
    const double cy = world->column_yards;
    nlohmann::ordered_json marks;
    marks["town_a"] = PointJson(l->town_a, cy);
    marks["town_b"] = PointJson(l->town_b, cy);
    marks["bridge_start"] = PointJson(l->bridge_start, cy);
    marks["bridge_end"] = PointJson(l->bridge_end, cy);
    marks["bridge_deck"] = PointJson(l->bridge_deck, cy);
    marks["bridge_water"] = PointJson(l->bridge_water, cy);
    marks["building_ground"] = PointJson(l->building_ground, cy);
    marks["building_upper"] = PointJson(l->building_upper, cy);
    marks["lift_bottom"] = PointJson(l->lift_bottom, cy);
    marks["lift_top"] = PointJson(l->lift_top, cy);
    marks["cliff_top"] = PointJson(l->cliff_top, cy);
    marks["cliff_foot"] = PointJson(l->cliff_foot, cy);
    marks["low_zone"] = PointJson(l->low_zone, cy);
    marks["low_zone"]["zone"] = l->low_zone_id;
    marks["high_zone"] = PointJson(l->high_zone, cy);
    marks["high_zone"]["zone"] = l->high_zone_id;
    line["landmarks"] = marks;
  }
  std::cout << line.dump() << std::endl;
}

}  // namespace

void AddDemoCommand(CLI::App& app) {
  auto args = std::make_shared<DemoArgs>();
  CLI::App* cmd = app.add_subcommand(
      "demo",
      "Generate the demo world (terrain, rivers, towns, roads, bridges, buildings, lifts, zones) "
      "into a grid folder; prints one JSON line");
  cmd->add_option("--seed", args->seed, "The generator's seed (same seed and size, same bytes)")
      ->capture_default_str();
  cmd->add_option("--tiles", args->tiles, "Size in tiles of 256 x 256 columns, WxH")
      ->capture_default_str();
  cmd->add_option("--out", args->out, "Folder to write grid.walkgrid into")->required();
  cmd->add_flag("--landmarks", args->landmarks,
                "Also print the landmarks (yards) worth walking between");
  AddLayerOptions(cmd, &args->layers);
  AddContinentOptions(cmd, &args->target);
  cmd->add_option("--navmesh", args->navmesh,
                  "Also build a navmesh of the same triangles, its lifts as off-mesh "
                  "connections, in this format (mset: navmesh.bin, mmaps: mmaps/)")
      ->check(CLI::IsMember({"mset", "mmaps"}));
  cmd->callback([args] { RunDemo(*args); });
}

}  // namespace walk::client
