// walkgrid layers: lays ground layers (zones, roads, hubs, lifts, districts: nav/layers/) on a
// saved world,
// saves it back and prints one JSON line saying what each layer covered.
//
//   walkgrid layers worlds/demo --zones zones.geojson --lifts lifts.json
//   {"world":"worlds/demo","content_id":"...","previous_content_id":"...","files":[...],
//    "zones":[{"zone":1,"name":"Amber Vale","columns":5120}],"lifts":{"joined":[...],
//    "refused":[...]}}
//
// The same five options lay layers on a world as build-mesh, import-movingai and demo build it.
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "CLI/CLI.hpp"
#include "client/walkgrid_commands.h"
#include "nav/abstract/abstract_graph_format.h"
#include "nav/grid/grid_format.h"
#include "nlohmann/json.hpp"

namespace walk::client {
namespace {

struct LayersArgs {
  std::string dir;
  nav::LayerFiles files;
};

nlohmann::ordered_json ReportJson(const nav::LayersReport& report) {
  nlohmann::ordered_json out;
  out["files"] = nlohmann::ordered_json::array();
  for (const nav::WorldLayer& layer : report.applied) {
    out["files"].push_back({{"name", layer.name},
                            {"file", layer.file},
                            {"hash", nav::FormatId(layer.hash)},
                            {"summary", layer.summary}});
  }
  if (report.zones) {
    out["zones"] = nlohmann::ordered_json::array();
    for (const nav::ZoneColumns& z : *report.zones) {
      out["zones"].push_back({{"zone", z.zone}, {"name", z.name}, {"columns", z.columns}});
    }
  }
  if (report.road_columns) out["road_columns"] = *report.road_columns;
  if (report.hub_a_columns) {
    out["hub_columns"] = {{"A", *report.hub_a_columns}, {"B", *report.hub_b_columns}};
  }
  if (report.lifts) {
    nlohmann::ordered_json joined = nlohmann::ordered_json::array();
    nlohmann::ordered_json refused = nlohmann::ordered_json::array();
    for (const nav::LiftOutcome& lift : *report.lifts) {
      nlohmann::ordered_json item;
      item["index"] = lift.index;
      if (!lift.name.empty()) item["name"] = lift.name;
      item["continent"] = lift.continent;
      if (lift.joined) {
        item["from_surface"] = lift.from;
        item["to_surface"] = lift.to;
        item["shaft_yards"] = lift.shaft_yards;
        joined.push_back(item);
      } else {
        item["why"] = lift.why;
        refused.push_back(item);
      }
    }
    out["lifts"] = {{"joined", joined}, {"refused", refused}};
  }
  if (report.districts) {
    out["districts"] = nlohmann::ordered_json::array();
    for (const nav::DistrictOutcome& d : *report.districts) {
      nlohmann::ordered_json item;
      item["index"] = d.index;
      if (!d.name.empty()) item["name"] = d.name;
      item["inside_surfaces"] = d.inside;
      item["links_cut"] = d.links_cut;
      item["rides_kept"] = d.rides_kept;
      item["rides_cut"] = d.rides_cut;
      out["districts"].push_back(item);
    }
  }
  return out;
}

void RunLayers(const LayersArgs& args) {
  if (args.files.empty()) {
    std::cerr << "walkgrid layers: name at least one of --zones, --roads, --hubs, --lifts, "
                 "--districts\n";
    throw CLI::RuntimeError(1);
  }
  absl::StatusOr<nav::LoadedWorld> loaded = nav::LoadWorld(args.dir);
  if (!loaded.ok()) {
    std::cerr << "walkgrid layers: " << loaded.status().message() << "\n";
    throw CLI::RuntimeError(1);
  }
  const std::uint64_t previous = loaded->world.content_id;
  const std::string report = LayWorld(args.files, &loaded->world, "layers");
  if (absl::Status saved = nav::SaveWorld(loaded->world, loaded->source, args.dir); !saved.ok()) {
    std::cerr << "walkgrid layers: " << saved.message() << "\n";
    throw CLI::RuntimeError(1);
  }
  nlohmann::ordered_json line;
  line["world"] = args.dir;
  line["content_id"] = nav::FormatId(loaded->world.content_id);
  line["previous_content_id"] = nav::FormatId(previous);
  const nlohmann::ordered_json laid = nlohmann::ordered_json::parse(report);
  for (auto it = laid.begin(); it != laid.end(); ++it) line[it.key()] = it.value();
  std::error_code ec;
  if (loaded->world.content_id != previous &&
      std::filesystem::exists(std::filesystem::path(args.dir) / nav::kGraphFileName, ec)) {
    // walkd would refuse it as prepared for another grid and walk the fine grid instead.
    line["graph"] = "stale: run walkgrid prepare again";
  }
  std::cout << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
}

}  // namespace

void AddLayerOptions(CLI::App* cmd, nav::LayerFiles* files) {
  cmd->add_option("--zones", files->zones,
                  "A zones layer (GeoJSON): replaces the world's zones (docs/formats.md)");
  cmd->add_option("--roads", files->roads, "A roads layer (GeoJSON): replaces the world's roads");
  cmd->add_option("--hubs", files->hubs,
                  "A hubs layer (GeoJSON): replaces the world's faction towns and outposts");
  cmd->add_option("--lifts", files->lifts, "A lifts layer (JSON): replaces the world's lifts");
  cmd->add_option("--districts", files->districts,
                  "A districts layer (JSON): parts joined to the rest only by their lifts; cuts "
                  "links for good, so once, after the lifts");
}

std::string LayWorld(const nav::LayerFiles& files, nav::World* world, const std::string& command) {
  auto fail = [&](const absl::Status& status) {
    std::cerr << "walkgrid " << command << ": " << status.message() << "\n";
    throw CLI::RuntimeError(1);
  };
  absl::StatusOr<nav::LayerSources> sources = nav::ReadLayerFiles(files);
  if (!sources.ok()) fail(sources.status());
  absl::StatusOr<nav::LayersReport> report = nav::ApplyLayers(*sources, world);
  if (!report.ok()) fail(report.status());
  return ReportJson(*report).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void AddLayersCommand(CLI::App& app) {
  auto args = std::make_shared<LayersArgs>();
  CLI::App* cmd = app.add_subcommand(
      "layers",
      "Lay ground layers (zones, roads, hubs, lifts, districts) on a world and save it; prints one "
      "JSON line");
  cmd->add_option("dir", args->dir, "The world folder (grid.walkgrid inside)")->required();
  AddLayerOptions(cmd, &args->files);
  cmd->callback([args] { RunLayers(*args); });
}

}  // namespace walk::client
