// walkgrid's subcommands, one file each, registered by walkgrid_main.cc. Each Add*Command adds
// its subcommand to `app` and sets the callback that runs it; the callback throws
// CLI::RuntimeError(code) to exit with a non-zero code.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "nav/grid/grid.h"
#include "nav/layers/ground_layers.h"

namespace walk::client {

void AddMovingAiCheckCommand(CLI::App& app);  // walkgrid_movingai.cc
void AddBuildMeshCommand(CLI::App& app);      // walkgrid_build_mesh.cc
void AddDemoCommand(CLI::App& app);           // walkgrid_demo.cc
void AddOracleCommand(CLI::App& app);         // walkgrid_oracle.cc
void AddGraphCommands(CLI::App& app);   // walkgrid_graph.cc: prepare, export-graph, abstract-check
void AddGridcolCommand(CLI::App& app);  // walkgrid_gridcol.cc
void AddTrailfollowCommand(CLI::App& app);   // walkgrid_trailfollow.cc
void AddSnapcheckCommand(CLI::App& app);     // walkgrid_snapcheck.cc
void AddLayersCommand(CLI::App& app);        // walkgrid_layers.cc
void AddNavMeshCommands(CLI::App& app);      // walkgrid_navmesh.cc: build-navmesh, import-navmesh
void AddSamplePlacesCommand(CLI::App& app);  // walkgrid_places.cc

// What every subcommand's output shares (walkgrid_commands.cc).
// Prints `walkgrid COMMAND: message` on stderr and throws CLI::RuntimeError(code).
[[noreturn]] void FailCommand(const std::string& command, const std::string& message, int code = 1);
// Yards rounded to the millimetre, as walkgrid prints them.
double RoundedYards(double yards);
// The last part of a path (after its last '/'): the name a file is reported under.
std::string BaseName(const std::string& path);
// This process's peak resident set (VmHWM), bytes; 0 when /proc does not say.
std::uint64_t PeakResidentBytes();

// Adds --zones, --roads, --hubs and --lifts (ground layer files) to `cmd`, filling *files.
void AddLayerOptions(CLI::App* cmd, nav::LayerFiles* files);  // walkgrid_layers.cc
// Lays `files` on *world (nav::ApplyLayers: content id recomputed) and returns the report as a
// JSON object's text; on a bad file prints why, as `walkgrid COMMAND: ...`, and throws
// CLI::RuntimeError(1).
std::string LayWorld(const nav::LayerFiles& files, nav::World* world, const std::string& command);

// Where a command that builds one continent puts it: the whole world in --out (no --continent),
// or continent ID of the world in --out, created when absent (walkgrid_continent.cc).
struct ContinentTarget {
  std::optional<std::uint32_t> id;  // --continent
  bool replace = false;             // --replace: an existing continent ID is replaced
};
// Adds --continent and --replace to `cmd`, filling *target.
void AddContinentOptions(CLI::App* cmd, ContinentTarget* target);
// Saves `built` (one continent; its source note set) into `out` as `target` says and returns
// the world saved. On an error prints why, as `walkgrid COMMAND: ...`, and throws
// CLI::RuntimeError(1).
nav::World SaveBuilt(nav::World built, const std::string& out, const ContinentTarget& target,
                     const std::string& command);

// The median of `values` (0 when empty), as the checks print it.
inline double Median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

}  // namespace walk::client
