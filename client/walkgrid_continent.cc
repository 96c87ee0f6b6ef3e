// walkgrid's --continent and --replace: a command that builds one continent (build-mesh,
// import-movingai, demo) writes the whole world, or puts its continent into the world already in
// the folder (nav/grid/world_assembly.h), leaving every other continent as it was.
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "client/walkgrid_commands.h"
#include "nav/grid/grid_format.h"
#include "nav/grid/world_assembly.h"

namespace walk::client {

void AddContinentOptions(CLI::App* cmd, ContinentTarget* target) {
  cmd->add_option("--continent", target->id,
                  "Put the continent built into the world in --out as this continent id (the "
                  "world is created when absent; every other continent stays as it was)");
  cmd->add_flag("--replace", target->replace,
                "With --continent: replace that continent when the world already has it");
}

nav::World SaveBuilt(nav::World built, const std::string& out, const ContinentTarget& target,
                     const std::string& command) {
  auto fail = [&](absl::string_view message) {
    std::cerr << "walkgrid " << command << ": " << message << "\n";
    throw CLI::RuntimeError(1);
  };
  if (target.replace && !target.id.has_value()) fail("--replace needs --continent");
  nav::World world;
  if (!target.id.has_value()) {
    world = std::move(built);
  } else {
    if (nav::HasGrid(out)) {
      absl::StatusOr<nav::LoadedWorld> loaded = nav::LoadWorld(out);
      if (!loaded.ok()) fail(loaded.status().message());
      world = std::move(loaded->world);
    }
    std::vector<std::string> renumbered;
    if (absl::Status put =
            nav::PutContinent(world, std::move(built), *target.id, target.replace, &renumbered);
        !put.ok()) {
      fail(absl::StrCat(out, ": ", put.message()));
    }
    for (const std::string& zone : renumbered) {
      std::cerr << "walkgrid " << command << ": continent " << *target.id << "'s " << zone
                << " in the world (another zone has its id there)\n";
    }
  }
  if (absl::Status saved = nav::SaveWorld(world, nav::AssembledNote(world), out); !saved.ok()) {
    fail(saved.message());
  }
  return world;
}

}  // namespace walk::client
