// walkgrid oracle-check: walkd's answers against an independent plain Dijkstra on random pairs.
//
// For each pair of random surfaces (fixed seed), the walk is answered as walkd answers it
// (nav::AnswerWalk: snap, settle, regions, straight line, A*), then a plain Dijkstra runs between
// the surfaces the ends snapped to; seconds must agree within a relative 1e-6, and a pair with no
// walk must have none for Dijkstra either. Prints one JSON line; exits 3 on any disagreement.
#include <algorithm>
#include <iostream>

#include "client/walkgrid_commands.h"
#include "nav/check/oracle_check.h"
#include "nav/cost/cost_model.h"
#include "nav/cost/danger.h"
#include "nav/cost/metric.h"
#include "nav/grid/grid_format.h"
#include "nlohmann/json.hpp"

namespace walk::client {
namespace {

struct OracleArgs {
  std::string dir;
  std::uint32_t pairs = 200;
  std::uint64_t seed = 1;
  std::string profile = "neutral";
  std::uint32_t band = 0;
};

int RunOracle(const OracleArgs& args) {
  auto loaded = nav::LoadWorld(args.dir);
  if (!loaded.ok()) {
    std::cerr << "walkgrid: " << loaded.status().message() << "\n";
    return 1;
  }
  const nav::Profile* profile = nav::FindProfile(args.profile);
  if (profile == nullptr) {
    std::cerr << "walkgrid: --profile: unknown profile '" << args.profile << "'\n";
    return 2;
  }
  if (!nav::ValidateBand(args.band).ok()) {
    std::cerr << "walkgrid: --band: " << args.band << " is not a danger band\n";
    return 2;
  }
  const nav::Metric metric(loaded->world, *profile, args.band);
  const nav::OracleReport report = nav::OracleCheck(loaded->world, metric, args.pairs, args.seed);
  for (const std::string& problem : report.problems) std::cerr << "walkgrid: " << problem << "\n";
  nlohmann::ordered_json line;
  line["grid"] = args.dir;
  line["profile"] = args.profile;
  line["band"] = args.band;
  line["pairs"] = report.pairs;
  line["walks"] = report.walks;
  line["no_walk"] = report.no_walk;
  line["straight_line"] = report.straight_line;
  line["settled"] = report.settled;
  line["disagree"] = report.disagree;
  line["worst_relative_difference"] = report.worst_relative_difference;
  line["walkd_median_us"] = Median(report.walkd_us);
  line["dijkstra_median_us"] = Median(report.dijkstra_us);
  std::cout << line.dump() << std::endl;
  return report.disagree == 0 ? 0 : 3;
}

}  // namespace

void AddOracleCommand(CLI::App& app) {
  auto args = std::make_shared<OracleArgs>();
  auto* command = app.add_subcommand(
      "oracle-check", "Compare walkd's answers with a plain Dijkstra on random pairs of a grid");
  command->add_option("dir", args->dir, "the world folder")->required();
  command->add_option("--pairs", args->pairs, "random pairs")->capture_default_str();
  command->add_option("--seed", args->seed, "the pairs' seed")->capture_default_str();
  command->add_option("--profile", args->profile, "profile to price with")->capture_default_str();
  command->add_option("--band", args->band, "danger band")->capture_default_str();
  command->callback([args] {
    if (int code = RunOracle(*args); code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace walk::client
