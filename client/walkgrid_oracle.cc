// walkgrid oracle-check: walkd's answers against an independent plain Dijkstra on random pairs.
//
// For each pair of random surfaces (fixed seed), the walk is answered as walkd answers it
// (nav::AnswerWalk: snap, settle, regions, straight line, A*), then a plain Dijkstra runs between
// the surfaces the ends snapped to; seconds must agree within a relative 1e-6, and a pair with no
// walk must have none for Dijkstra either. Prints one JSON line; exits 3 on any disagreement.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <random>

#include "client/walkgrid_commands.h"
#include "nav/answer_walk.h"
#include "nav/cost_model.h"
#include "nav/danger.h"
#include "nav/grid_format.h"
#include "nav/metric.h"
#include "nav/reference_dijkstra.h"
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

double Median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

int RunOracle(const OracleArgs& args) {
  using Clock = std::chrono::steady_clock;
  auto loaded = nav::LoadWorld(args.dir);
  if (!loaded.ok()) {
    std::cerr << "walkgrid: " << loaded.status().message() << "\n";
    return 1;
  }
  const nav::World& world = loaded->world;
  const nav::Profile* profile = nav::FindProfile(args.profile);
  if (profile == nullptr) {
    std::cerr << "walkgrid: --profile: unknown profile '" << args.profile << "'\n";
    return 2;
  }
  if (!nav::ValidateBand(args.band).ok()) {
    std::cerr << "walkgrid: --band: " << args.band << " is not a danger band\n";
    return 2;
  }
  const nav::Metric metric(world, *profile, args.band);
  const nav::Continent& c = world.continents.at(0);
  std::mt19937_64 random(args.seed);
  std::uniform_int_distribution<nav::SurfaceId> any(0, c.surface_count() - 1);
  nav::Walker walker;
  std::uint64_t walks = 0, no_walk = 0, disagree = 0, straight = 0, settled = 0;
  double worst = 0.0;
  std::vector<double> walkd_us, dijkstra_us;
  auto place_of = [&](nav::SurfaceId s) {
    nav::Place p;
    p.continent = c.id;
    p.x_yards = (c.column_x[s] + 0.5) * world.column_yards;
    p.y_yards = (c.column_y[s] + 0.5) * world.column_yards;
    p.z_yards = c.height_yards[s];
    return p;
  };
  for (std::uint32_t i = 0; i < args.pairs; ++i) {
    const nav::SurfaceId a = any(random), b = any(random);
    const auto t0 = Clock::now();
    auto answer = nav::AnswerWalk(world, metric, place_of(a), place_of(b), walker);
    walkd_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    if (!answer.ok() || !answer->from_end || !answer->to_end) {
      std::cerr << "walkgrid: pair " << i << ": " << (answer.ok() ? "an end did not snap" : answer.status().message()) << "\n";
      ++disagree;
      continue;
    }
    settled += (answer->from_end->settled || answer->to_end->settled) ? 1 : 0;
    const auto t1 = Clock::now();
    const nav::SearchResult oracle = nav::ReferenceDijkstra(c, world.column_yards, metric,
                                                            answer->from_end->surface, answer->to_end->surface);
    dijkstra_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t1).count());
    const bool ok = answer->status == nav::WalkStatus::kOk;
    if (ok != oracle.found) {
      ++disagree;
      std::cerr << "walkgrid: pair " << i << ": walkd says " << nav::WalkStatusName(answer->status)
                << ", Dijkstra " << (oracle.found ? "found one" : "found none") << "\n";
      continue;
    }
    if (!ok) {
      ++no_walk;
      continue;
    }
    ++walks;
    straight += answer->method == nav::Method::kStraightLine ? 1 : 0;
    const double rel = std::abs(answer->seconds - oracle.seconds) / std::max(1.0, oracle.seconds);
    worst = std::max(worst, rel);
    if (rel > 1e-6) {
      ++disagree;
      std::cerr << "walkgrid: pair " << i << ": walkd " << answer->seconds << " s, Dijkstra "
                << oracle.seconds << " s\n";
    }
  }
  nlohmann::ordered_json line;
  line["grid"] = args.dir;
  line["profile"] = args.profile;
  line["band"] = args.band;
  line["pairs"] = args.pairs;
  line["walks"] = walks;
  line["no_walk"] = no_walk;
  line["straight_line"] = straight;
  line["settled"] = settled;
  line["disagree"] = disagree;
  line["worst_relative_difference"] = worst;
  line["walkd_median_us"] = Median(walkd_us);
  line["dijkstra_median_us"] = Median(dijkstra_us);
  std::cout << line.dump() << std::endl;
  return disagree == 0 ? 0 : 3;
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
