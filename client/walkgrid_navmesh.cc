// walkgrid build-navmesh and import-navmesh: a Detour navmesh into a world folder (beside a grid
// if one is there), each printing one JSON line saying what it wrote.
//
//   walkgrid build-navmesh ../shared/data/meshes/dungeon.obj --out /tmp/dungeon --format mmaps
//   {"command":"build-navmesh","out":"/tmp/dungeon","format":"mmaps","tiles":12,...}
//   walkgrid import-navmesh /srv/mmaps --out /tmp/world
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "CLI/CLI.hpp"
#include "client/walkgrid_commands.h"
#include "nav/grid/grid_format.h"
#include "nav/import/triangle_mesh.h"
#include "nav/navmesh/navmesh_builder.h"
#include "nav/navmesh/world_navmesh.h"
#include "nlohmann/json.hpp"

namespace walk::client {
namespace {

using Clock = std::chrono::steady_clock;

struct NavMeshArgs {
  std::string input;  // the mesh (build) or the navmesh file or folder (import)
  std::string out;
  std::string format = "mset";
  // The map number it is written as (mmaps: MMM.mmap, beside the folder's other maps), and the
  // continent it walks (default: the map number; its lift rides become connections).
  std::uint32_t map = 0;
  std::optional<std::uint32_t> continent;
  // import-navmesh: which map of a folder holding several to read (default: its only one).
  std::optional<std::uint32_t> from_map;
  nav::NavMeshBuildOptions options;

  nav::ContinentId Continent() const { return continent.value_or(map); }
};

void PrintLine(const std::string& command, const NavMeshArgs& args, nav::NavMeshFormat format,
               const nav::NavMesh& navmesh, double seconds) {
  const std::string& input = args.input;
  const std::string& out = args.out;
  nlohmann::ordered_json line;
  line["command"] = command;
  line["input"] = input;
  line["out"] = out;
  line["format"] = nav::NavMeshFormatName(format);
  line["map"] = args.map;
  line["continent"] = args.Continent();
  line["tiles"] = navmesh.tile_count();
  line["polygons"] = navmesh.polygon_count();
  line["off_mesh_connections"] = navmesh.off_mesh_count();
  line["content_hash"] = nav::FormatId(navmesh.content_hash());
  line["seconds"] = seconds;
  std::cout << line.dump() << std::endl;
}

void RunBuild(NavMeshArgs& args) {
  const auto started = Clock::now();
  absl::StatusOr<nav::TriangleMesh> mesh = nav::ReadObj(args.input);
  if (!mesh.ok()) FailCommand("build-navmesh", std::string(mesh.status().message()));
  // Beside a grid, the grid's lift rides become off-mesh connections.
  if (nav::HasGrid(args.out)) {
    absl::StatusOr<nav::LoadedWorld> grid = nav::LoadWorld(args.out);
    if (!grid.ok()) FailCommand("build-navmesh", std::string(grid.status().message()));
    args.options.connections = nav::LiftConnections(grid->world, args.Continent());
  }
  absl::StatusOr<nav::NavMesh> navmesh = nav::BuildNavMesh(*mesh, args.options);
  if (!navmesh.ok()) FailCommand("build-navmesh", std::string(navmesh.status().message()));
  const nav::NavMeshFormat format =
      args.format == "mmaps" ? nav::NavMeshFormat::kMmaps : nav::NavMeshFormat::kMset;
  if (absl::Status s =
          nav::SaveWorldNavMesh(*navmesh, args.out, format, args.Continent(), args.map);
      !s.ok()) {
    FailCommand("build-navmesh", std::string(s.message()));
  }
  PrintLine("build-navmesh", args, format, *navmesh,
            std::chrono::duration<double>(Clock::now() - started).count());
}

// Checks the navmesh loads, then copies it in its own format; the copy is read back, so what the
// world folder holds is what was checked.
void RunImport(NavMeshArgs& args) {
  const auto started = Clock::now();
  nav::NavMeshFormat format = nav::NavMeshFormat::kMset;
  absl::StatusOr<nav::NavMesh> navmesh = nav::ReadNavMesh(args.input, &format, args.from_map);
  if (!navmesh.ok()) FailCommand("import-navmesh", std::string(navmesh.status().message()));
  if (absl::Status s =
          nav::SaveWorldNavMesh(*navmesh, args.out, format, args.Continent(), args.map);
      !s.ok()) {
    FailCommand("import-navmesh", std::string(s.message()));
  }
  absl::StatusOr<std::optional<nav::NavMesh>> copy = nav::LoadWorldNavMesh(
      args.out, nullptr,
      format == nav::NavMeshFormat::kMmaps ? std::optional<std::uint32_t>(args.map) : std::nullopt);
  if (!copy.ok()) FailCommand("import-navmesh", std::string(copy.status().message()));
  if (!copy->has_value() || (*copy)->content_hash() != navmesh->content_hash()) {
    FailCommand("import-navmesh",
                args.out + ": the copy does not read back as the navmesh imported");
  }
  PrintLine("import-navmesh", args, format, *navmesh,
            std::chrono::duration<double>(Clock::now() - started).count());
}

void AddMapOptions(CLI::App* cmd, NavMeshArgs& args) {
  cmd->add_option("--map", args.map,
                  "The map number to write it as: mmaps/MMM.mmap beside the folder's other maps "
                  "(mset: 0 only)")
      ->capture_default_str()
      ->check(CLI::Range(0, 999));
  cmd->add_option("--continent", args.continent,
                  "The continent it walks, recorded in navmesh.json (default: the map number)");
}

void AddBuildOptions(CLI::App* cmd, nav::NavMeshBuildOptions& o) {
  cmd->add_option("--cell-yards", o.cell_yards, "Heightfield cell width (Recast's cs), yards")
      ->capture_default_str();
  cmd->add_option("--cell-height-yards", o.cell_height_yards, "Height resolution (ch), yards")
      ->capture_default_str();
  cmd->add_option("--agent-height-yards", o.agent_height_yards, "Room above the feet, yards")
      ->capture_default_str();
  cmd->add_option("--agent-radius-yards", o.agent_radius_yards, "Erosion, yards (0: none)")
      ->capture_default_str();
  cmd->add_option("--step-yards", o.step_yards, "Largest rise walked as a step, yards")
      ->capture_default_str();
  cmd->add_option("--walk-slope", o.walk_slope_degrees, "Steepest walkable slope, degrees")
      ->capture_default_str();
  cmd->add_option("--tile-cells", o.tile_cells, "Tile side, cells")->capture_default_str();
}

}  // namespace

void AddNavMeshCommands(CLI::App& app) {
  auto build = std::make_shared<NavMeshArgs>();
  CLI::App* cmd = app.add_subcommand(
      "build-navmesh", "Build a tiled Detour navmesh from an OBJ mesh into a world folder");
  cmd->add_option("mesh", build->input, "The .obj mesh (y up, yards)")->required();
  cmd->add_option("--out", build->out, "The world folder (navmesh.bin or mmaps/ inside)")
      ->required();
  cmd->add_option("--format", build->format, "mset (navmesh.bin) or mmaps (mmaps/)")
      ->check(CLI::IsMember({"mset", "mmaps"}))
      ->capture_default_str();
  AddMapOptions(cmd, *build);
  AddBuildOptions(cmd, build->options);
  cmd->callback([build] { RunBuild(*build); });

  auto import = std::make_shared<NavMeshArgs>();
  CLI::App* imp = app.add_subcommand(
      "import-navmesh", "Check and copy an all-tiles file or an mmaps folder into a world folder");
  imp->add_option("navmesh", import->input, "An all-tiles file (MSET) or an mmaps folder")
      ->required();
  imp->add_option("--out", import->out, "The world folder (created if needed)")->required();
  imp->add_option("--from-map", import->from_map,
                  "The map to read of an mmaps folder holding several (default: its only one)");
  AddMapOptions(imp, *import);
  imp->callback([import] { RunImport(*import); });
}

}  // namespace walk::client
