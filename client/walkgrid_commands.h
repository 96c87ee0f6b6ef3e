// walkgrid's subcommands, one file each, registered by walkgrid_main.cc. Each Add*Command adds
// its subcommand to `app` and sets the callback that runs it; the callback throws
// CLI::RuntimeError(code) to exit with a non-zero code.
#pragma once

#include "CLI/CLI.hpp"

namespace walk::client {

void AddBuildMeshCommand(CLI::App& app);  // walkgrid_build_mesh.cc
void AddDemoCommand(CLI::App& app);       // walkgrid_demo.cc
void AddOracleCommand(CLI::App& app);     // walkgrid_oracle.cc
void AddGraphCommands(CLI::App& app);     // walkgrid_graph.cc: prepare, export-graph, abstract-check

}  // namespace walk::client
