// walkgrid build-mesh: voxelizes an OBJ level mesh with Recast into a grid folder and prints one
// JSON line saying what it built.
//
//   walkgrid build-mesh ../shared/data/meshes/dungeon.obj --out /tmp/dungeon
//   {"mesh":"dungeon.obj","out":"/tmp/dungeon","triangles":10133,...,"build_seconds":0.21}
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <string>

#include "CLI/CLI.hpp"
#include "client/walkgrid_commands.h"
#include "nav/grid/grid.h"
#include "nav/grid/grid_format.h"
#include "nav/import/triangle_mesh.h"
#include "nav/import/voxelizer.h"
#include "nlohmann/json.hpp"

namespace walk::client {
namespace {

struct BuildMeshArgs {
  std::string mesh_path;
  std::string out;
  nav::VoxelizeOptions options;
  nav::LayerFiles layers;
  ContinentTarget target;
};

void RunBuildMesh(BuildMeshArgs& args) {
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  absl::StatusOr<nav::TriangleMesh> mesh = nav::ReadObj(args.mesh_path);
  if (!mesh.ok()) FailCommand("build-mesh", std::string(mesh.status().message()));
  const double read_seconds = std::chrono::duration<double>(Clock::now() - started).count();

  nav::VoxelizeOptions& options = args.options;
  std::int64_t origin_column_x = 0, origin_column_y = 0;
  nav::PlaceOriginAtMeshCorner(*mesh, &options, &origin_column_x, &origin_column_y);
  std::uint32_t width = 0, height = 0;
  nav::MeshExtent(*mesh, options, &width, &height);

  // A tile counter on stderr when someone watches (tiled meshes only: a whole mesh is one step).
  const bool terminal = ::isatty(STDERR_FILENO) != 0;
  bool counted = false;
  if (terminal) {
    options.progress = [&](std::uint32_t done, std::uint32_t total) {
      if (total <= 1) return;
      std::cerr << "\rwalkgrid build-mesh: tile " << done << "/" << total << std::flush;
      counted = true;
    };
  }
  nav::VoxelizeStats stats;
  const std::uint32_t id = args.target.id.value_or(0);
  absl::StatusOr<nav::Continent> continent =
      nav::VoxelizeMesh(*mesh, options, id, width, height, &stats);
  if (counted) std::cerr << "\n";
  if (!continent.ok()) FailCommand("build-mesh", std::string(continent.status().message()));

  const std::string name = BaseName(args.mesh_path);
  nav::World built;
  built.column_yards = options.column_yards;
  continent->origin_column_x = origin_column_x;
  continent->origin_column_y = origin_column_y;
  continent->source = "mesh:" + name;
  built.continents.push_back(*std::move(continent));
  nav::AssignContentIds(built);
  const std::string layers = args.layers.empty() ? "" : LayWorld(args.layers, &built, "build-mesh");
  const nav::World world = SaveBuilt(std::move(built), args.out, args.target, "build-mesh");

  const nav::Continent& c = *world.FindContinent(id);
  nlohmann::ordered_json line;
  line["mesh"] = name;
  line["out"] = args.out;
  line["triangles"] = stats.triangles;
  line["width_columns"] = c.width_columns;
  line["height_columns"] = c.height_columns;
  line["heightfields"] = stats.heightfields;
  line["columns"] = c.CountColumns();
  line["surfaces"] = c.surface_count();
  line["max_floors"] = c.MaxFloors();
  line["regions"] = c.region_count();
  line["dropped_surfaces"] = stats.dropped_surfaces;
  line["read_seconds"] = read_seconds;
  line["build_seconds"] = stats.seconds;
  line["continent"] = id;
  line["continent_content_id"] = nav::FormatId(c.content_id);
  line["content_id"] = nav::FormatId(world.content_id);
  if (!layers.empty()) line["layers"] = nlohmann::ordered_json::parse(layers);
  std::cout << line.dump() << std::endl;
}

}  // namespace

void AddBuildMeshCommand(CLI::App& app) {
  auto args = std::make_shared<BuildMeshArgs>();
  nav::VoxelizeOptions& o = args->options;
  CLI::App* cmd = app.add_subcommand(
      "build-mesh", "Voxelize an OBJ level mesh (Recast) into a grid folder; prints one JSON line");
  cmd->add_option("mesh", args->mesh_path, "The .obj mesh (y up, yards)")->required();
  cmd->add_option("--out", args->out, "Folder to write grid.walkgrid into")->required();
  cmd->add_option("--column-yards", o.column_yards, "Column width (Recast's cs)")
      ->capture_default_str();
  cmd->add_option("--height-step-yards", o.height_step_yards, "Height resolution (Recast's ch)")
      ->capture_default_str();
  cmd->add_option("--agent-height-yards", o.agent_height_yards, "Room a astar needs above it")
      ->capture_default_str();
  cmd->add_option("--agent-radius-yards", o.agent_radius_yards,
                  "Erode walkable areas by this much (0: none)")
      ->capture_default_str();
  cmd->add_option("--step-yards", o.step_yards, "Largest rise walked as a step")
      ->capture_default_str();
  cmd->add_option("--jump-yards", o.jump_yards, "Largest rise taken as a jump")
      ->capture_default_str();
  cmd->add_option("--max-fall-yards", o.max_fall_yards, "Largest drop taken as a one-way fall")
      ->capture_default_str();
  cmd->add_option("--walk-slope", o.walk_slope_degrees, "Steeper than this (degrees): steep")
      ->capture_default_str();
  cmd->add_option("--steep-slope", o.steep_slope_degrees, "Steeper than this (degrees): climb")
      ->capture_default_str();
  cmd->add_option("--climb-slope", o.climb_slope_degrees,
                  "Steeper than this (degrees): not standable")
      ->capture_default_str();
  cmd->add_flag("--filter-ledges", o.filter_ledges,
                "Run Recast's ledge filter (drops rims of drops and steep slopes)");
  AddLayerOptions(cmd, &args->layers);
  AddContinentOptions(cmd, &args->target);
  cmd->callback([args] { RunBuildMesh(*args); });
}

}  // namespace walk::client
