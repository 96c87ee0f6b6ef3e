// walkgrid's abstract-graph commands:
//   prepare GRID         builds the abstract graph and its CCH order, writes graph.walkgraph
//   export-graph GRID    writes one profile's graph as DIMACS (.gr, .co) with the CCH order
//   abstract-check GRID  abstract-graph walks against the exact fine-grid walk on random pairs
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "client/walkgrid_commands.h"
#include "nav/abstract/abstract_graph.h"
#include "nav/abstract/abstract_graph_format.h"
#include "nav/check/abstract_check.h"
#include "nav/cost/cost_model.h"
#include "nav/cost/danger.h"
#include "nav/grid/grid_format.h"
#include "nlohmann/json.hpp"

namespace walk::client {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// A progress bar on a terminal, a line per tenth otherwise.
std::function<void(std::uint64_t, std::uint64_t)> ProgressPrinter(const std::string& what) {
  const bool terminal = isatty(STDERR_FILENO) != 0;
  auto last_tenth = std::make_shared<int>(-1);
  auto start = Clock::now();
  return [terminal, last_tenth, start, what](std::uint64_t done, std::uint64_t total) {
    if (total == 0) return;
    const double share = static_cast<double>(done) / total;
    if (terminal) {
      const int width = 30, filled = static_cast<int>(share * width);
      std::cerr << "\r" << what << " [" << std::string(filled, '#')
                << std::string(width - filled, ' ') << "] " << done << "/" << total << " cells, "
                << static_cast<int>(SecondsSince(start)) << " s" << (done == total ? "\n" : "")
                << std::flush;
    } else if (static_cast<int>(share * 10) > *last_tenth) {
      *last_tenth = static_cast<int>(share * 10);
      std::cerr << what << ": " << done << "/" << total << " cells, " << SecondsSince(start)
                << " s\n";
    }
  };
}

struct PrepareArgs {
  std::string dir;
  std::uint32_t cell_columns = nav::AbstractGraphOptions().cell_columns;
  std::uint32_t spacing = nav::AbstractGraphOptions().entrance_spacing;
  std::uint32_t major_spacing = nav::AbstractGraphOptions().major_entrance_spacing;
  std::vector<std::string> profiles;
  std::vector<std::uint32_t> continents;  // empty: those without a current graph
  bool all = false;                       // every continent, even those with a current graph
  unsigned threads = 0;
};

// The continents to prepare: those asked, or (neither --continents nor --all) every continent
// `earlier` (the graph in the folder) has no current graph of with these settings. Sets *kept to
// the earlier graph when some of its continents stay.
std::vector<nav::ContinentId> ContinentsToPrepare(const PrepareArgs& args, const nav::World& world,
                                                  const nav::AbstractGraphOptions& options,
                                                  std::optional<nav::AbstractGraph>* kept) {
  absl::StatusOr<nav::AbstractGraph> earlier = nav::LoadAbstractGraph(world, args.dir);
  absl::StatusOr<nav::AbstractGraphOptions> resolved = nav::ResolveGraphOptions(world, options);
  if (args.all || !earlier.ok() || !resolved.ok() ||
      !nav::GraphSettings(*resolved).SameSettings(*earlier)) {
    return args.continents;
  }
  std::vector<nav::ContinentId> wanted = args.continents;
  if (wanted.empty()) {
    for (const nav::Continent& c : world.continents) {
      if (earlier->Find(c.id) == nullptr) wanted.push_back(c.id);
    }
  }
  *kept = *std::move(earlier);
  return wanted;
}

int RunPrepare(const PrepareArgs& args) {
  const auto load_start = Clock::now();
  auto loaded = nav::LoadWorld(args.dir);
  if (!loaded.ok()) {
    std::cerr << "walkgrid: " << loaded.status().message() << "\n";
    return 1;
  }
  const double load_s = SecondsSince(load_start);
  nav::AbstractGraphOptions options;
  options.cell_columns = args.cell_columns;
  options.entrance_spacing = args.spacing;
  options.major_entrance_spacing = args.major_spacing;
  options.profiles = args.profiles;
  options.threads = args.threads;
  options.progress = ProgressPrinter("prepare");
  std::optional<nav::AbstractGraph> earlier;
  options.continents = ContinentsToPrepare(args, loaded->world, options, &earlier);
  const bool nothing_to_do = earlier.has_value() && options.continents.empty();
  const std::uint64_t rss_before = PeakResidentBytes();
  const auto start = Clock::now();
  absl::StatusOr<nav::AbstractGraph> graph =
      nothing_to_do ? *std::move(earlier) : nav::BuildAbstractGraph(loaded->world, options);
  if (!graph.ok()) {
    std::cerr << "walkgrid: --" << graph.status().message() << "\n";
    return 2;
  }
  std::vector<nav::ContinentId> kept;
  if (nothing_to_do) {
    for (const nav::ContinentGraph& g : graph->continents) kept.push_back(g.continent);
  } else if (earlier.has_value()) {
    kept = nav::KeepPrepared(loaded->world, *std::move(earlier), &*graph);
  }
  const double prepare_s = SecondsSince(start);
  if (absl::Status s = nav::SaveAbstractGraph(*graph, args.dir); !s.ok()) {
    std::cerr << "walkgrid: " << s.message() << "\n";
    return 1;
  }
  nlohmann::ordered_json line;
  line["grid"] = args.dir;
  line["content_id"] = nav::FormatId(loaded->world.content_id);
  line["prepared"] = nlohmann::json::array();
  for (const nav::ContinentGraph& g : graph->continents) {
    if (std::find(kept.begin(), kept.end(), g.continent) == kept.end()) {
      line["prepared"].push_back(g.continent);
    }
  }
  line["kept"] = kept;
  line["cell_columns"] = graph->cell_columns;
  line["entrance_spacing"] = graph->entrance_spacing;
  line["major_entrance_spacing"] = graph->major_entrance_spacing;
  line["profiles"] = graph->profiles;
  std::uint64_t nodes = 0, arcs = 0;
  for (const nav::ContinentGraph& g : graph->continents) {
    nodes += g.node_count();
    arcs += g.arc_count();
  }
  line["nodes"] = nodes;
  line["arcs"] = arcs;
  line["graph_mb"] = graph->MemoryBytes() / 1e6;
  line["load_s"] = load_s;
  line["prepare_s"] = prepare_s;
  line["peak_rss_mb"] = PeakResidentBytes() / 1e6;
  line["rss_before_prepare_mb"] = rss_before / 1e6;
  std::cout << line.dump() << std::endl;
  return 0;
}

struct ExportArgs {
  std::string dir;
  std::string profile = "neutral";
  std::string out;
  std::uint32_t continent = 0;
};

// DIMACS weights are integers: milliseconds, rounded (so 1 = 0.001 s).
constexpr double kDimacsUnitsPerSecond = 1000.0;

int RunExport(const ExportArgs& args) {
  auto loaded = nav::LoadWorld(args.dir);
  if (!loaded.ok()) {
    std::cerr << "walkgrid: " << loaded.status().message() << "\n";
    return 1;
  }
  auto graph = nav::LoadAbstractGraph(loaded->world, args.dir);
  if (!graph.ok()) {
    std::cerr << "walkgrid: " << graph.status().message() << "\n";
    return 1;
  }
  const int p = graph->ProfileIndex(args.profile);
  if (p < 0) {
    std::cerr << "walkgrid: --profile: \"" << args.profile << "\" was not prepared in " << args.dir
              << "\n";
    return 2;
  }
  std::size_t ci = 0;
  while (ci < loaded->world.continents.size() && loaded->world.continents[ci].id != args.continent)
    ++ci;
  if (ci == loaded->world.continents.size()) {
    std::cerr << "walkgrid: --continent: the world has no continent " << args.continent << "\n";
    return 2;
  }
  const nav::Continent& c = loaded->world.continents[ci];
  const nav::ContinentGraph& g = graph->continents[ci];
  const nav::ArcPrices& prices = g.prices[p];
  std::filesystem::create_directories(args.out);
  const std::string stem = (std::filesystem::path(args.out) / args.profile).string();
  std::uint64_t open_arcs = 0;
  for (float s : prices.seconds) open_arcs += std::isfinite(s) ? 1 : 0;
  {
    std::ofstream gr(stem + ".gr");
    gr << "c walkd abstract graph of " << args.dir << ", continent " << c.id << ", profile "
       << args.profile << "\n"
       << "c weights: band-0 seconds x " << kDimacsUnitsPerSecond << ", rounded; nodes 1-based\n"
       << "p sp " << g.node_count() << " " << open_arcs << "\n";
    for (std::uint32_t n = 0; n < g.node_count(); ++n) {
      for (std::uint32_t a = g.first_arc[n]; a < g.first_arc[n + 1]; ++a) {
        if (!std::isfinite(prices.seconds[a])) continue;
        gr << "a " << n + 1 << " " << g.arc_head[a] + 1 << " "
           << std::llround(prices.seconds[a] * kDimacsUnitsPerSecond) << "\n";
      }
    }
  }
  {
    std::ofstream co(stem + ".co");
    co << "c node coordinates: the node surface's column (x, y)\n"
       << "p aux sp co " << g.node_count() << "\n";
    for (std::uint32_t n = 0; n < g.node_count(); ++n) {
      co << "v " << n + 1 << " " << c.column_x[g.node_surface[n]] << " "
         << c.column_y[g.node_surface[n]] << "\n";
    }
  }
  {
    std::ofstream order(stem + ".order");
    // Line r + 1 names the node (1-based) of rank r: contracted first on the first line.
    for (std::uint32_t node : g.order) order << node + 1 << "\n";
  }
  nlohmann::ordered_json line;
  line["gr"] = stem + ".gr";
  line["co"] = stem + ".co";
  line["order"] = stem + ".order";
  line["nodes"] = g.node_count();
  line["arcs"] = open_arcs;
  line["units_per_second"] = kDimacsUnitsPerSecond;
  std::cout << line.dump() << std::endl;
  return 0;
}

struct CheckArgs {
  std::string dir;
  std::uint32_t pairs = 200;
  std::uint64_t seed = 1;
  std::string profile = "neutral";
  std::uint32_t band = 0;
  std::string search = "auto";
};

int RunCheck(const CheckArgs& args) {
  auto loaded = nav::LoadWorld(args.dir);
  if (!loaded.ok()) {
    std::cerr << "walkgrid: " << loaded.status().message() << "\n";
    return 1;
  }
  auto graph = nav::LoadAbstractGraph(loaded->world, args.dir);
  if (!graph.ok()) {
    std::cerr << "walkgrid: " << graph.status().message() << "\n";
    return 1;
  }
  const nav::Profile* profile = nav::FindProfile(args.profile);
  if (profile == nullptr || graph->ProfileIndex(profile->name) < 0) {
    std::cerr << "walkgrid: --profile: \"" << args.profile << "\" is unknown or was not prepared\n";
    return 2;
  }
  if (!nav::ValidateBand(args.band).ok()) {
    std::cerr << "walkgrid: --band: " << args.band << " is not a danger band\n";
    return 2;
  }
  nav::SearchMode mode;
  if (args.search == "auto")
    mode = nav::SearchMode::kAuto;
  else if (args.search == "dijkstra")
    mode = nav::SearchMode::kDijkstra;
  else if (args.search == "cch")
    mode = nav::SearchMode::kCch;
  else {
    std::cerr << "walkgrid: --search: one of auto, dijkstra, cch\n";
    return 2;
  }
  const nav::AbstractRouter router(loaded->world, *std::move(graph), 256ull << 20);
  const nav::Metric metric(loaded->world, *profile, args.band);
  const nav::ExactnessReport report =
      nav::CheckExactness(loaded->world, metric, router, args.pairs, args.seed, mode);
  for (const std::string& problem : report.problems) std::cerr << "walkgrid: " << problem << "\n";
  nlohmann::ordered_json line;
  line["grid"] = args.dir;
  line["profile"] = args.profile;
  line["band"] = args.band;
  line["search"] = args.search;
  line["pairs"] = report.pairs;
  line["compared"] = report.compared;
  line["no_walk"] = report.no_walk;
  line["disagree"] = report.disagree;
  line["mean_seconds_excess_pct"] = 100.0 * report.mean_seconds_excess;
  line["worst_seconds_excess_pct"] = 100.0 * report.worst_seconds_excess;
  line["mean_yards_excess_pct"] = 100.0 * report.mean_yards_excess;
  line["worst_yards_excess_pct"] = 100.0 * report.worst_yards_excess;
  line["least_yards_excess_pct"] = 100.0 * report.least_yards_excess;
  nlohmann::ordered_json methods;
  for (int m = 0; m < nav::kMethodCount; ++m) {
    if (report.methods[m] > 0)
      methods[nav::MethodName(static_cast<nav::Method>(m))] = report.methods[m];
  }
  line["methods"] = methods;
  line["abstract_median_us"] = Median(report.abstract_us);
  line["grid_median_us"] = Median(report.grid_us);
  std::cout << line.dump() << std::endl;
  return report.disagree == 0 ? 0 : 3;
}

}  // namespace

void AddGraphCommands(CLI::App& app) {
  auto prepare_args = std::make_shared<PrepareArgs>();
  auto* prepare = app.add_subcommand(
      "prepare", "Build the abstract graph and its CCH order beside a grid (graph.walkgraph)");
  prepare->add_option("dir", prepare_args->dir, "the world folder")->required();
  prepare->add_option("--cell", prepare_args->cell_columns, "cell side, columns (divides 256)")
      ->capture_default_str();
  prepare
      ->add_option("--spacing", prepare_args->spacing,
                   "most columns between entrances of a run (0: by the world's size)")
      ->capture_default_str();
  prepare
      ->add_option("--major-spacing", prepare_args->major_spacing,
                   "the same on major borders, every 1,024 columns (0: four times the spacing)")
      ->capture_default_str();
  prepare->add_option("--profiles", prepare_args->profiles, "profiles to price (default: all)")
      ->delimiter(',');
  prepare
      ->add_option("--continents", prepare_args->continents,
                   "continent ids to prepare (default: those without a current graph); the "
                   "others keep theirs")
      ->delimiter(',');
  prepare->add_flag("--all", prepare_args->all,
                    "prepare every continent, even those whose graph is current");
  prepare->add_option("--threads", prepare_args->threads, "threads (0: one per core)")
      ->capture_default_str();
  prepare->callback([prepare_args] {
    if (int code = RunPrepare(*prepare_args); code != 0) throw CLI::RuntimeError(code);
  });

  auto export_args = std::make_shared<ExportArgs>();
  auto* exporter = app.add_subcommand(
      "export-graph", "Write a profile's abstract graph as DIMACS .gr/.co with the CCH order");
  exporter->add_option("dir", export_args->dir, "the world folder (prepared)")->required();
  exporter->add_option("--profile", export_args->profile, "profile")->capture_default_str();
  exporter->add_option("--out", export_args->out, "output folder")->required();
  exporter->add_option("--continent", export_args->continent, "continent id")
      ->capture_default_str();
  exporter->callback([export_args] {
    if (int code = RunExport(*export_args); code != 0) throw CLI::RuntimeError(code);
  });

  auto check_args = std::make_shared<CheckArgs>();
  auto* check = app.add_subcommand(
      "abstract-check",
      "Compare abstract-graph walks with the exact fine-grid walk on random pairs");
  check->add_option("dir", check_args->dir, "the world folder (prepared)")->required();
  check->add_option("--pairs", check_args->pairs, "random pairs")->capture_default_str();
  check->add_option("--seed", check_args->seed, "the pairs' seed")->capture_default_str();
  check->add_option("--profile", check_args->profile, "profile")->capture_default_str();
  check->add_option("--band", check_args->band, "danger band")->capture_default_str();
  check->add_option("--search", check_args->search, "auto, dijkstra or cch")->capture_default_str();
  check->callback([check_args] {
    if (int code = RunCheck(*check_args); code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace walk::client
