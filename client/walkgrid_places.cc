// walkgrid sample-places: places on a continent's largest region, at random, as JSON lines in its
// frame (what a batch's pairs or a travel network's nodes need: places a walk reaches).
//
//   walkgrid sample-places worlds/atlas --continent 1 --count 3 --seed 7
//   {"continent":1,"x":12.5,"y":-40.5,"z":0.25}
#include <algorithm>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "client/walkgrid_commands.h"
#include "nav/grid/grid_format.h"
#include "nav/query/snap.h"
#include "nlohmann/json.hpp"

namespace walk::client {
namespace {

struct PlacesArgs {
  std::string dir;
  std::uint32_t continent = 0;
  std::uint64_t count = 10;
  std::uint64_t seed = 1;
};

void RunSamplePlaces(const PlacesArgs& args) {
  absl::StatusOr<nav::LoadedWorld> loaded = nav::LoadWorld(args.dir);
  auto fail = [](absl::string_view message) {
    std::cerr << "walkgrid sample-places: " << message << "\n";
    throw CLI::RuntimeError(1);
  };
  if (!loaded.ok()) fail(loaded.status().message());
  const nav::World& world = loaded->world;
  const nav::Continent* c = world.FindContinent(args.continent);
  if (c == nullptr)
    fail("--continent: the world has no continent " + std::to_string(args.continent));
  if (c->region_count() == 0) fail("--continent: continent " + std::to_string(c->id) + " is empty");
  const auto largest = std::max_element(c->region_size.begin(), c->region_size.end());
  const auto region = static_cast<nav::RegionId>(largest - c->region_size.begin());
  std::vector<nav::SurfaceId> members;
  for (nav::SurfaceId s = 0; s < c->surface_count(); ++s) {
    if (c->region[s] == region) members.push_back(s);
  }
  std::mt19937_64 random(args.seed);
  std::uniform_int_distribution<std::size_t> any(0, members.size() - 1);
  const nav::WorldFrame frame = world.FrameOf(*c);
  for (std::uint64_t i = 0; i < args.count; ++i) {
    const nav::Place p = nav::PlaceOf(*c, frame, members[any(random)]);
    nlohmann::ordered_json line;
    line["continent"] = c->id;
    line["x"] = p.x_yards;
    line["y"] = p.y_yards;
    if (p.z_yards) line["z"] = *p.z_yards;
    std::cout << line.dump() << "\n";
  }
}

}  // namespace

void AddSamplePlacesCommand(CLI::App& app) {
  auto args = std::make_shared<PlacesArgs>();
  CLI::App* cmd = app.add_subcommand(
      "sample-places",
      "Places on a continent's largest region, at random, as JSON lines in its frame");
  cmd->add_option("dir", args->dir, "the world folder")->required();
  cmd->add_option("--continent", args->continent, "the continent id")->capture_default_str();
  cmd->add_option("--count", args->count, "how many places")->capture_default_str();
  cmd->add_option("--seed", args->seed, "the sample's seed")->capture_default_str();
  cmd->callback([args] { RunSamplePlaces(*args); });
}

}  // namespace walk::client
