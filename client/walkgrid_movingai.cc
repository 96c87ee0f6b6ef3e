// walkgrid movingai-check: every scenario of a MovingAI .scen file, in-process, against its
// optimal length. The exact walker is timed as walkd runs it: jump points where the map is a
// plain octile grid (its tables built first and timed apart), else the fine-grid A*. The A* and
// a plain Dijkstra are timed on samples of the same run, and must agree with it. With
// `--search subgoal...` the walker is a subgoal graph search instead (its graph and hierarchy
// built after the jump tables and timed apart), and jump point search is timed on the same
// scenarios in a second pass.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "client/walkgrid_commands.h"
#include "nav/cch/subgoal_hierarchy.h"
#include "nav/check/reference_dijkstra.h"
#include "nav/cost/metric.h"
#include "nav/import/movingai.h"
#include "nav/search/fine_grid_astar.h"
#include "nav/search/jump_point_search.h"
#include "nav/search/subgoal_search.h"
#include "nlohmann/json.hpp"

namespace walk::client {
namespace {

using Clock = std::chrono::steady_clock;

struct CheckOptions {
  std::string map_path, scen_path;
  std::string method = "auto";  // auto (jump points where they apply), astar
  // On plain octile grids: jump_points, subgoal, subgoal_cch, subgoal_cch_perfect, auto.
  std::string search = "jump_points";
  int jps_every = 1;
  int astar_every = 10;
  int baseline_every = 0;
  bool verbose = false;
};

double Mean(const std::vector<double>& values) {
  if (values.empty()) return 0.0;
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

double Microseconds(Clock::time_point since) {
  return std::chrono::duration<double, std::micro>(Clock::now() - since).count();
}

// What one run tallies.
struct Tally {
  std::uint64_t matched = 0, mismatched = 0, unreachable = 0, disagreements = 0;
  std::uint64_t nodes = 0, astar_nodes = 0, baseline_nodes = 0, jps_nodes = 0;
  std::vector<double> us, astar_us, us_astar_sampled, baseline_us, us_baseline_sampled;
  std::vector<double> jps_us, us_jps_sampled;
};

// A scenario walkd's walker answered, kept to time another search on after the run: interleaved,
// each would evict the other's working set from the caches.
struct Sampled {
  std::size_t index;
  nav::SurfaceId from, to;
  double us;
  nav::SearchResult result;
};

double Sum(const std::vector<double>& values) {
  return std::accumulate(values.begin(), values.end(), 0.0);
}

// Counts a disagreement between walkd's walker and another exact search on one scenario.
void Compare(const nav::SearchResult& mine, const nav::SearchResult& other, const char* name,
             std::size_t i, bool verbose, Tally* t) {
  if (other.found == mine.found && (!mine.found || std::abs(other.seconds - mine.seconds) <=
                                                       1e-9 * std::max(1.0, other.seconds))) {
    return;
  }
  ++t->disagreements;
  if (verbose)
    std::fprintf(stderr, "scenario %zu: %s %.9f, walkd %.9f\n", i, name, other.seconds,
                 mine.seconds);
}

// Scores one found (or not found) walk against the scenario's optimal length.
void Score(const nav::ScenarioFile& file, std::size_t i, bool same_cell, const nav::SearchResult& r,
           bool verbose, Tally* t) {
  const nav::Scenario& s = file.scenarios[i];
  // An optimal length of 0 between two different cells is how the benchmark marks a pair with
  // no path (some dao files have them): it matches when no walk is found either.
  if (s.optimal_length == 0.0 && !same_cell) {
    if (r.found) {
      ++t->mismatched;
      if (verbose) std::cerr << "scenario " << i << ": a walk where the benchmark has none\n";
    } else {
      ++t->matched;
    }
  } else if (!r.found) {
    ++t->unreachable;
    if (verbose) std::cerr << "scenario " << i << ": no walk found\n";
  } else if (std::abs(r.yards - s.optimal_length) <= file.Tolerance(s.optimal_length)) {
    ++t->matched;
  } else {
    ++t->mismatched;
    if (verbose) {
      std::fprintf(stderr, "scenario %zu: %.8f yards, optimal %.8f\n", i, r.yards,
                   s.optimal_length);
    }
  }
}

// The A* and the plain Dijkstra, each timed on its sample of the scenarios beside walkd's walker
// on the same ones.
void AddSampledTimings(const Tally& t, nlohmann::ordered_json* out) {
  nlohmann::ordered_json& line = *out;
  if (!t.astar_us.empty()) {
    line["astar_scenarios"] = t.astar_us.size();
    line["astar_median_us"] = Median(t.astar_us);
    line["astar_mean_us"] = Mean(t.astar_us);
    line["mean_us_astar_sampled"] = Mean(t.us_astar_sampled);
    line["speedup_vs_astar"] = Mean(t.astar_us) / std::max(1e-9, Mean(t.us_astar_sampled));
    line["astar_nodes_expanded"] = t.astar_nodes;
    line["astar_disagreements"] = t.disagreements;
  }
  if (!t.baseline_us.empty()) {
    line["baseline"] = "plain_dijkstra";
    line["baseline_scenarios"] = t.baseline_us.size();
    line["baseline_median_us"] = Median(t.baseline_us);
    line["baseline_mean_us"] = Mean(t.baseline_us);
    line["mean_us_same_scenarios"] = Mean(t.us_baseline_sampled);
    line["speedup_vs_baseline"] = Mean(t.baseline_us) / std::max(1e-9, Mean(t.us_baseline_sampled));
    line["baseline_nodes_expanded"] = t.baseline_nodes;
  }
  if (!t.jps_us.empty()) {
    line["jps_scenarios"] = t.jps_us.size();
    line["jps_total_s"] = Sum(t.jps_us) * 1e-6;
    line["jps_median_us"] = Median(t.jps_us);
    line["jps_mean_us"] = Mean(t.jps_us);
    line["mean_us_jps_sampled"] = Mean(t.us_jps_sampled);
    line["speedup_vs_jps"] = Mean(t.jps_us) / std::max(1e-9, Mean(t.us_jps_sampled));
    line["jps_nodes_expanded"] = t.jps_nodes;
    line["disagreements"] = t.disagreements;  // with the A*'s, when it ran too
  }
}

// walkd's exact walker for one map as the options choose it, with what it was built from.
struct Walker {
  const nav::Continent* c = nullptr;
  const nav::Metric* metric = nullptr;
  double column_yards = 1.0, per_column = 1.0;
  std::unique_ptr<const nav::JumpGrid> grid;
  std::unique_ptr<const nav::SubgoalGraph> subgoals;
  std::unique_ptr<const nav::SubgoalHierarchy> hierarchy;
  std::string why_not = "--method astar", hierarchy_why_not;
  double unused_subgoal_ms = 0.0;
  nav::JumpPointSearch jps;
  nav::SubgoalSearch subgoal_search;
  nav::SubgoalHierarchySearch hierarchy_search;
  nav::FineGridAStar astar;

  // Builds the jump tables, and the subgoal graph and its hierarchy when `o` asks for them.
  void Prepare(const CheckOptions& o, const nav::World& world) {
    c = &world.continents[0];
    column_yards = world.column_yards;
    double multiplier = 1.0;
    if (o.method == "auto") grid = nav::JumpGrid::Build(*c, &why_not);
    if (grid != nullptr && !grid->PricesUniformly(*metric, &multiplier)) {
      why_not = "the metric prices its ground unevenly";
      grid.reset();
    }
    per_column = metric->seconds_per_column() * multiplier;
    if (grid != nullptr && o.search != "jump_points") subgoals = nav::SubgoalGraph::Build(*grid);
    if (subgoals != nullptr && o.search != "subgoal") {
      nav::SubgoalHierarchyOptions options;
      options.perfect = o.search != "subgoal_cch";
      if (o.search != "auto") options.max_arcs = options.max_graph_arcs = UINT64_MAX;
      hierarchy = nav::SubgoalHierarchy::Build(*subgoals, options, &hierarchy_why_not);
      if (hierarchy == nullptr) {  // auto: jump points, after the subgoal graph's build
        unused_subgoal_ms = subgoals->build_seconds() * 1e3;
        subgoals.reset();
      }
    }
  }

  nav::SearchResult Find(nav::SurfaceId from, nav::SurfaceId to,
                         std::vector<nav::PathStep>* steps) {
    if (hierarchy != nullptr)
      return hierarchy_search.FindWalk(*hierarchy, *c, column_yards, per_column, from, to, steps);
    if (subgoals != nullptr)
      return subgoal_search.FindWalk(*subgoals, *c, column_yards, per_column, from, to, steps);
    if (grid != nullptr) return jps.FindWalk(*grid, *c, column_yards, per_column, from, to, steps);
    return astar.FindWalk(*c, column_yards, *metric, from, to, steps);
  }

  // What was built, and how long it took.
  void AddPreparation(nlohmann::ordered_json* out) const {
    nlohmann::ordered_json& line = *out;
    line["method"] = hierarchy != nullptr  ? "subgoal_hierarchy"
                     : subgoals != nullptr ? "subgoals"
                     : grid != nullptr     ? "jump_points"
                                           : "fine_grid";
    if (grid != nullptr) {
      line["prepare_ms"] = grid->build_seconds() * 1e3;
      line["prepare_bytes"] = grid->MemoryBytes();
    } else {
      line["jump_points_not_used"] = why_not;
    }
    if (subgoals != nullptr) {
      line["subgoal_prepare_ms"] = subgoals->build_seconds() * 1e3;
      line["subgoal_bytes"] = subgoals->MemoryBytes();
      line["subgoals"] = subgoals->node_count();
      line["subgoal_arcs"] = subgoals->arc_count();
    }
    if (!hierarchy_why_not.empty()) {
      line["hierarchy_not_used"] = hierarchy_why_not;
      if (subgoals == nullptr) line["subgoal_prepare_ms"] = unused_subgoal_ms;
    }
    if (hierarchy != nullptr) {
      line["hierarchy_prepare_ms"] = hierarchy->build_seconds() * 1e3;
      line["hierarchy_bytes"] = hierarchy->MemoryBytes();
      line["hierarchy_arcs"] = hierarchy->cch().arc_count();
      line["elimination_tree_height"] = hierarchy->cch().elimination_tree_height();
    }
  }
};

// Jump point search on the scenarios a subgoal search answered, in a pass of its own.
void TimeJumpPointsAfter(const std::vector<Sampled>& pending, bool verbose, Walker* w, Tally* t) {
  std::vector<nav::PathStep> steps;
  for (const Sampled& p : pending) {
    const auto t0 = Clock::now();
    const nav::SearchResult j =
        w->jps.FindWalk(*w->grid, *w->c, w->column_yards, w->per_column, p.from, p.to, &steps);
    t->jps_us.push_back(Microseconds(t0));
    t->us_jps_sampled.push_back(p.us);
    t->jps_nodes += j.stats.nodes_expanded;
    Compare(p.result, j, "jump points", p.index, verbose, t);
  }
}

bool Every(int n, std::size_t i) { return n > 0 && i % static_cast<std::size_t>(n) == 0; }

// Every scenario through the walker, with the samples of other searches the options ask for.
void RunScenarios(const CheckOptions& o, const nav::ScenarioFile& file, Walker* w, Tally* t,
                  std::vector<Sampled>* jps_pending) {
  const nav::Continent& c = *w->c;
  std::vector<nav::PathStep> steps;
  auto surface_at = [&](std::uint32_t x, std::uint32_t y) {
    if (!c.OnMap(x, y)) return nav::kInvalidId;
    nav::SurfaceId first, end;
    c.ColumnSurfaces(x, y, &first, &end);
    return first < end ? first : nav::kInvalidId;
  };
  for (std::size_t i = 0; i < file.scenarios.size(); ++i) {
    const nav::Scenario& s = file.scenarios[i];
    const nav::SurfaceId from = surface_at(s.start_x, s.start_y);
    const nav::SurfaceId to = surface_at(s.goal_x, s.goal_y);
    if (from == nav::kInvalidId || to == nav::kInvalidId) {
      ++t->unreachable;
      if (o.verbose) std::cerr << "scenario " << i << ": an end has no surface\n";
      continue;
    }
    // The walk's steps are produced, as a query that draws or smooths its walk needs them.
    auto t0 = Clock::now();
    const nav::SearchResult r = w->Find(from, to, &steps);
    const double us = Microseconds(t0);
    t->us.push_back(us);
    t->nodes += r.stats.nodes_expanded;
    Score(file, i, from == to, r, o.verbose, t);
    if (w->grid != nullptr && Every(o.astar_every, i)) {
      t0 = Clock::now();
      const nav::SearchResult a =
          w->astar.FindWalk(c, w->column_yards, *w->metric, from, to, &steps);
      t->astar_us.push_back(Microseconds(t0));
      t->us_astar_sampled.push_back(us);
      t->astar_nodes += a.stats.nodes_expanded;
      Compare(r, a, "A*", i, o.verbose, t);
    }
    if (w->subgoals != nullptr && Every(o.jps_every, i))
      jps_pending->push_back({i, from, to, us, r});
    if (Every(o.baseline_every, i)) {
      t0 = Clock::now();
      const nav::SearchResult b = nav::ReferenceDijkstra(c, w->column_yards, *w->metric, from, to);
      t->baseline_us.push_back(Microseconds(t0));
      t->us_baseline_sampled.push_back(us);
      t->baseline_nodes += b.stats.nodes_expanded;
    }
  }
}

int Run(const CheckOptions& o) {
  auto map = nav::ReadMovingAiMap(o.map_path);
  if (!map.ok()) return (std::cerr << "walkgrid: " << map.status().message() << "\n", 1);
  auto file = nav::ReadScenarios(o.scen_path);
  if (!file.ok()) return (std::cerr << "walkgrid: " << file.status().message() << "\n", 1);
  auto world = nav::WorldFromMovingAi(*map);
  if (!world.ok()) return (std::cerr << "walkgrid: " << world.status().message() << "\n", 1);
  const nav::Metric metric(*world, *nav::FindProfile("shortest"), 0);
  Walker w;
  w.metric = &metric;
  w.Prepare(o, *world);

  Tally t;
  std::vector<Sampled> jps_pending;
  const auto start_all = Clock::now();
  RunScenarios(o, *file, &w, &t, &jps_pending);
  const double total_s = std::chrono::duration<double>(Clock::now() - start_all).count();
  TimeJumpPointsAfter(jps_pending, o.verbose, &w, &t);

  nlohmann::ordered_json line;
  line["map"] = BaseName(o.map_path);
  line["scenarios"] = file->scenarios.size();
  line["matched"] = t.matched;
  line["mismatched"] = t.mismatched;
  line["unreachable"] = t.unreachable;
  w.AddPreparation(&line);
  line["median_us"] = Median(t.us);
  line["mean_us"] = Mean(t.us);
  // The first search sizes the walker's buffers to the grid (in walkd once per thread and
  // world); reported apart so a mean can be read without that one-time cost.
  if (!t.us.empty()) {
    line["first_us"] = t.us.front();
    line["mean_us_after_first"] = Mean(std::vector<double>(t.us.begin() + 1, t.us.end()));
  }
  line["total_s"] = total_s;
  line["query_total_s"] = Sum(t.us) * 1e-6;  // walkd's walker alone, samples of others left out
  line["nodes_expanded"] = t.nodes;
  AddSampledTimings(t, &line);
  std::cout << line.dump() << std::endl;
  return t.mismatched == 0 && t.unreachable == 0 && t.disagreements == 0 ? 0 : 3;
}

}  // namespace

void AddMovingAiCheckCommand(CLI::App& app) {
  auto o = std::make_shared<CheckOptions>();
  auto* cmd = app.add_subcommand(
      "movingai-check", "Run every scenario of a .scen file and compare with its optimal lengths");
  cmd->add_option("map", o->map_path, "the .map file")->required();
  cmd->add_option("scen", o->scen_path, "the .map.scen file")->required();
  cmd->add_option("--method", o->method,
                  "auto: jump points where the map allows them, else the A*; astar: the A* only")
      ->check(CLI::IsMember({"auto", "astar"}));
  cmd->add_option(
         "--search", o->search,
         "on plain octile grids: jump_points (jump point search), subgoal (A* over the "
         "subgoal graph), subgoal_cch (a CCH over the subgoal graph), subgoal_cch_perfect (its "
         "metric perfectly customized), auto (subgoal_cch_perfect where its hierarchy has at "
         "most 2^20 arcs, else jump_points); with a subgoal search, jump point search is timed "
         "after it")
      ->check(
          CLI::IsMember({"jump_points", "subgoal", "subgoal_cch", "subgoal_cch_perfect", "auto"}));
  cmd->add_option("--jps-every", o->jps_every,
                  "with a subgoal search, time jump point search on every Nth scenario, in a pass "
                  "of its own after the run, and compare (0: never)");
  cmd->add_option(
      "--astar-every", o->astar_every,
      "with jump points, also time the A* on every Nth scenario and compare (0: never)");
  cmd->add_option("--baseline-every", o->baseline_every,
                  "also time a plain Dijkstra on every Nth scenario (0: never)");
  cmd->add_flag("--verbose", o->verbose, "name each scenario that does not match");
  cmd->callback([o] {
    if (const int code = Run(*o); code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace walk::client
