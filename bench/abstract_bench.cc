// abstract_bench: what the abstract graph costs and buys on one prepared world, in one run.
//
//  - order, CCH build, customization: seconds (customization: one profile's metric, in memory;
//    first, and again on its arrays);
//  - legs: µs per leg search (one cell, outward or backward);
//  - CCH / Dijkstra / danger Dijkstra / danger A* (guided by band-0 CCH distances, walkd's):
//    µs per query (median, p99) over the same random pairs and the same legs, and the
//    Dijkstra / CCH ratio of medians; the A*'s costs checked against the danger Dijkstra's;
//  - whole walk, cold and warm: µs per AnswerWalk (auto), first with no leg cached, then the
//    same pairs again with their legs cached; both after 16 walks between other places (buffers
//    sized, as in a running walkd); then cold whole walks in the danger band on other pairs
//    of the same kind, against cold band-0 walks on a third set (the band's cost over band 0's);
//  - band metrics (nav/abstract/band_metrics.h): the band's metric customized by a first walk,
//    then cold whole walks in the band with band metrics on, with them off (the A* alone) and
//    in band 0, each on pairs of its own: medians, means and p99s, over all pairs and over
//    those whose ends' zones the band does not price (the walks the band's metric answers);
//    then those ends-unpriced pairs again, legs cached, in the band and in band 0 (the same
//    pairs: the search alone compared), and the band walks' auto answers checked against the
//    danger Dijkstra.
//
// Each CCH variant (tree, bound, walkd's bound + guessed upper bound, landmarks, perfect,
// bidirectional Dijkstra) runs in its own pass over all pairs, after the legs of all pairs.
//
// --only legs times leg searches alone (one cell each, as a table's places take them): forward
// and backward over the same random surfaces, each searched twice in a row (the second run finds
// the cell in cache), medians and means.
//
// --only table-yards times the yards of 100 x 100 tables' cells summed down their sides' labels
// (CchSide::SumTo), against one slot at a time (--pairs N: N tables).
//
// --only potentials times CH potentials priced at eight lanes against four (--pairs N: N rounds).
//
// --only zone-order prints the hierarchy's size under an order that respects zones, beside the
// prepared order's.
//
// --only zone-patches times patches over the band's metric exempting one zone, then pairs of
// zones (--pairs N: N zones the band prices).
//
// --only customize times the band's metric customized on one thread, alone and with a thread
// joining it (CustomizeCrew), and on two threads (--pairs N: N rounds).
//
// Usage: abstract_bench DIR [--pairs N] [--profile P] [--band B] [--seed N]
//                       [--only
//                       priced-ends|legs|table-yards|potentials|zone-order|zone-patches|customize]
// DIR holds grid.walkgrid and graph.walkgraph (walkgrid prepare). Prints a JSON line too.
// WALK_BENCH_QUICK=1 skips perfect customization, landmarks, the bidirectional query and the
// danger band's searches on legs and its first cold walks (their lines print zeros, and the
// landmarks line times the bound alone); the band metrics' walks run in every mode;
// WALK_BENCH_LANDMARKS=N sets the landmarks (16).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "nav/abstract/abstract_graph_format.h"
#include "nav/abstract/abstract_router.h"
#include "nav/abstract/helper_thread.h"
#include "nav/cch/cch.h"
#include "nav/cch/cch_bound.h"
#include "nav/cch/cch_dijkstra_query.h"
#include "nav/cch/cch_landmarks.h"
#include "nav/cch/cch_many_to_many.h"
#include "nav/cch/cch_metric.h"
#include "nav/cch/cch_order.h"
#include "nav/cch/cch_potential.h"
#include "nav/cch/cch_query.h"
#include "nav/cch/cch_rank_relax.h"
#include "nav/cch/cch_slot_sum.h"
#include "nav/cch/cch_split_query.h"
#include "nav/cch/cost_guess.h"
#include "nav/cch/customize_crew.h"
#include "nav/cch/guessed_query.h"
#include "nav/cost/cost_model.h"
#include "nav/grid/grid_format.h"
#include "nav/query/snap.h"
#include "nav/query/walk_pipeline.h"
#include "nlohmann/json.hpp"

namespace walk::nav {
namespace {

using Clock = std::chrono::steady_clock;

double MicrosSince(Clock::time_point t) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t).count();
}

double Percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))];
}

double Mean(const std::vector<double>& v) {
  return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

using Pairs = std::vector<std::pair<SurfaceId, SurfaceId>>;

// Cold whole walks (auto) in one band, each pair's legs not cached before.
struct ColdWalks {
  std::vector<double> us;           // every walk
  std::vector<double> unpriced_us;  // walks whose ends' zones the band does not price
  std::array<std::uint32_t, kMethodCount> methods{};
};

ColdWalks WalkCold(const World& world, const Metric& band, const Pairs& pairs, Searchers& searchers,
                   const WalkOptions& options) {
  const Continent& c = world.continents.at(0);
  ColdWalks walks;
  for (const auto& [a, b] : pairs) {
    const auto t = Clock::now();
    auto answer = AnswerWalk(world, band, PlaceOf(c, world.FrameOf(c), a),
                             PlaceOf(c, world.FrameOf(c), b), searchers, options);
    const double us = MicrosSince(t);
    walks.us.push_back(us);
    if (band.ZoneMultiplier(c.zone[a]) == 1.0 && band.ZoneMultiplier(c.zone[b]) == 1.0)
      walks.unpriced_us.push_back(us);
    if (answer.ok()) ++walks.methods[static_cast<int>(answer->method)];
  }
  return walks;
}

void PrintCold(const char* what, const ColdWalks& walks) {
  std::printf(
      "%-34s median %8.1f us  mean %8.1f us  p99 %8.1f us; ends unpriced (%zu): median %8.1f "
      "us  mean %8.1f us  p99 %8.1f us\n",
      what, Percentile(walks.us, 0.5), Mean(walks.us), Percentile(walks.us, 0.99),
      walks.unpriced_us.size(), Percentile(walks.unpriced_us, 0.5), Mean(walks.unpriced_us),
      Percentile(walks.unpriced_us, 0.99));
}

nlohmann::ordered_json ColdJson(const ColdWalks& walks) {
  nlohmann::ordered_json line;
  line["median_us"] = Percentile(walks.us, 0.5);
  line["mean_us"] = Mean(walks.us);
  line["p99_us"] = Percentile(walks.us, 0.99);
  line["unpriced_pairs"] = walks.unpriced_us.size();
  line["unpriced_median_us"] = Percentile(walks.unpriced_us, 0.5);
  line["unpriced_mean_us"] = Mean(walks.unpriced_us);
  line["unpriced_p99_us"] = Percentile(walks.unpriced_us, 0.99);
  for (int m = 0; m < kMethodCount; ++m) {
    if (walks.methods[m] > 0)
      line["methods"][MethodName(static_cast<Method>(m))] = walks.methods[m];
  }
  return line;
}

// The pairs of `pairs` whose ends' zones `band` does not price, walked again (auto, their legs
// cached by now) in `band` and in band 0 (`base`), one after the other: µs of each, by band.
std::array<std::vector<double>, 2> WalkWarmUnpriced(const World& world, const Metric& band,
                                                    const Metric& base, const Pairs& pairs,
                                                    Searchers& searchers,
                                                    const WalkOptions& options) {
  const Continent& c = world.continents.at(0);
  std::array<std::vector<double>, 2> us;
  for (const auto& [a, b] : pairs) {
    if (band.ZoneMultiplier(c.zone[a]) != 1.0 || band.ZoneMultiplier(c.zone[b]) != 1.0) continue;
    for (int i = 0; i < 2; ++i) {
      const auto t = Clock::now();
      (void)AnswerWalk(world, i == 0 ? band : base, PlaceOf(c, world.FrameOf(c), a),
                       PlaceOf(c, world.FrameOf(c), b), searchers, options);
      us[i].push_back(MicrosSince(t));
    }
  }
  return us;
}

// Pairs of `pairs` whose auto answer in `band` (legs cached by now) costs other than the plain
// danger Dijkstra's (1e-9 relative), or finds a walk where it finds none or the reverse.
std::uint32_t DangerMismatches(const World& world, const AbstractRouter& router, const Metric& band,
                               const Pairs& pairs) {
  const Continent& c = world.continents.at(0);
  AbstractSearcher searcher;
  std::uint32_t mismatches = 0;
  for (const auto& [a, b] : pairs) {
    auto walk = router.Route(c, band, a, b, SearchMode::kAuto, false, searcher);
    auto dijkstra = router.Route(c, band, a, b, SearchMode::kDijkstra, false, searcher);
    if (!walk.ok() || !dijkstra.ok() || walk->method == Method::kTile) continue;
    if (walk->found != dijkstra->found ||
        (walk->found &&
         std::abs(walk->seconds - dijkstra->seconds) > 1e-9 * std::max(1.0, dijkstra->seconds)))
      ++mismatches;
  }
  return mismatches;
}

// Percentiles and mean of `us` as "median / mean / p99".
std::string Figures(const std::vector<double>& us) {
  char text[96];
  std::snprintf(text, sizeof(text), "median %9.1f us  mean %9.1f us  p99 %9.1f us",
                Percentile(us, 0.5), Mean(us), Percentile(us, 0.99));
  return text;
}

nlohmann::ordered_json FiguresJson(const std::vector<double>& us) {
  nlohmann::ordered_json line;
  line["median_us"] = Percentile(us, 0.5);
  line["mean_us"] = Mean(us);
  line["p99_us"] = Percentile(us, 0.99);
  return line;
}

// --only priced-ends: walks with an end in a zone `band` prices, on one router with band metrics
// on. Each pair is walked cold (the leg cache emptied first) in band 0, cold in the band by the
// A* (patches off), cold in the band with patches made at the first walk of a key (the patch
// made by the walk when its zone pair is new), cold again (the patch cached), then warm in the
// band and in band 0: the same pairs throughout. Every band answer is checked against the
// danger Dijkstra.
// --only legs: `count` random surfaces of regions of 1,000 or more, each one's forward leg and
// backward leg searched cold (every other surface's leg in that direction searched since), then
// again at once.
int RunLegs(const World& world, AbstractGraph graph, const Profile& profile, std::uint32_t count,
            std::uint64_t seed) {
  const Continent& c = world.continents.at(0);
  const AbstractRouter router(world, std::move(graph), 1ull << 30, /*band_metric_bytes=*/0);
  const Metric base(world, profile, 0);
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  std::vector<SurfaceId> surfaces;
  for (int tries = 0; surfaces.size() < count && tries < 1000000; ++tries) {
    const SurfaceId s = any(random);
    if (c.region_size[c.region[s]] >= 1000) surfaces.push_back(s);
  }
  CellSearch search;
  std::vector<double> us[2][2];  // [backward][again]
  double entries = 0, settled = 0;
  // All forward legs, then all backward ones: a surface's backward leg then finds its cell as
  // cold as its forward leg did (thousands of cells searched since).
  for (const bool backward : {false, true}) {
    for (const SurfaceId s : surfaces) {
      const LegRequest request{.c = c,
                               .column_yards = world.column_yards,
                               .graph = router.graph().continents.at(0),
                               .cell_columns = router.graph().cell_columns,
                               .base = base,
                               .surface = s,
                               .backward = backward};
      for (const bool again : {false, true}) {
        const auto t = Clock::now();
        const Leg leg = ComputeLeg(request, search);
        us[backward][again].push_back(MicrosSince(t));
        if (!again) {
          entries += static_cast<double>(leg.entries.size());
          settled += static_cast<double>(search.settled_count());
        }
      }
    }
  }
  const double legs = 2.0 * static_cast<double>(surfaces.size());
  std::printf("legs: %zu surfaces, %.1f entrances and %.0f surfaces settled a leg\n",
              surfaces.size(), entries / legs, settled / legs);
  const char* names[2][2] = {{"forward", "forward again"}, {"backward", "backward again"}};
  for (int b = 0; b < 2; ++b) {
    for (int a = 0; a < 2; ++a) {
      std::printf("leg %-15s median %8.1f us  mean %8.1f us  p99 %8.1f us\n", names[b][a],
                  Percentile(us[b][a], 0.5), Mean(us[b][a]), Percentile(us[b][a], 0.99));
    }
  }
  return 0;
}

// A slot's yards unpacked one slot at a time, each half searched after the other (CchSlotSum
// before it unpacked a level of slots at once): the baseline of RunTableYards.
double YardsOneByOne(const CchMetric& metric, const std::vector<float>& yards, std::uint32_t slot,
                     std::uint32_t tail, absl::flat_hash_map<std::uint32_t, double>& memo) {
  const std::uint32_t input = metric.InputOf(slot, tail);
  if (input != kInvalidId) return yards[input];
  if (auto it = memo.find(slot); it != memo.end()) return it->second;
  const CchStep step = metric.StepOf(slot, tail);
  const std::uint32_t m = step.middle;
  const double sum =
      (slot & 1) == Cch::kForward
          ? YardsOneByOne(metric, yards, 2 * step.to_lower + Cch::kBackward, m, memo) +
                YardsOneByOne(metric, yards, 2 * step.to_upper + Cch::kForward, m, memo)
          : YardsOneByOne(metric, yards, 2 * step.to_upper + Cch::kBackward, m, memo) +
                YardsOneByOne(metric, yards, 2 * step.to_lower + Cch::kForward, m, memo);
  memo.emplace(slot, sum);
  return sum;
}

// The same down a side's labels, memoized per label as CchSide::SumTo is.
double SideYardsOneByOne(const CchSide& side, std::uint32_t label, const CchMetric& metric,
                         const std::vector<float>& yards, std::vector<double>& label_sums,
                         absl::flat_hash_map<std::uint32_t, double>& memo) {
  if (side.from[label] == kInvalidId) return 0.0;
  if (label_sums[label] >= 0.0) return label_sums[label];
  const std::uint32_t from = side.from[label];
  label_sums[label] = SideYardsOneByOne(side, from, metric, yards, label_sums, memo) +
                      YardsOneByOne(metric, yards, side.slot[label], side.rank[from], memo);
  return label_sums[label];
}

// --only table-yards: the yards of every cell of `tables` tables of size x size random nodes,
// as a table's rows sum them (CchSide::SumTo, both sides' labels down from the meeting),
// against one slot at a time, each table's memos empty (fresh places): ms a table.
int RunTableYards(const AbstractGraph& graph, int p, std::uint32_t tables, std::uint32_t size,
                  std::uint64_t seed) {
  const ContinentGraph& g = graph.continents.at(0);
  const Cch cch(g.node_count(), g.order, g.ArcTails(), g.arc_head);
  const std::vector<double> weights(g.prices[p].seconds.begin(), g.prices[p].seconds.end());
  const CchMetric metric(cch, weights, /*perfect=*/false,
                         std::max(1u, std::thread::hardware_concurrency()));
  const std::vector<float>& yards = g.prices[p].yards;
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::uint32_t> node(0, cch.node_count() - 1);
  CchSplitQuery query(cch);
  CchSideSweep sweep;
  std::vector<double> level_ms, one_ms;
  double cells = 0, worst = 0;
  for (std::uint32_t round = 0; round < tables; ++round) {
    std::vector<CchSide> sources(size), targets(size);
    std::vector<const CchSide*> filed;
    for (std::uint32_t i = 0; i < size; ++i) {
      sweep.Run(query, metric, Cch::kForward, {{node(random), 0.0}}, &sources[i]);
      sweep.Run(query, metric, Cch::kBackward, {{node(random), 0.0}}, &targets[i]);
      filed.push_back(&targets[i]);
    }
    const CchBuckets buckets(cch, filed);
    std::vector<std::vector<CchMeeting>> rows(size);
    for (std::uint32_t i = 0; i < size; ++i) buckets.Scan(sources[i], &rows[i]);
    // One slot at a time first, then by levels, each from empty memos.
    std::vector<double> one_by_one;
    absl::flat_hash_map<std::uint32_t, double> memo;
    std::vector<std::vector<double>> source_sums(size), target_sums(size);
    for (std::uint32_t i = 0; i < size; ++i) {
      source_sums[i].assign(sources[i].size(), -1.0);
      target_sums[i].assign(targets[i].size(), -1.0);
    }
    auto t = Clock::now();
    for (std::uint32_t i = 0; i < size; ++i) {
      for (std::uint32_t j = 0; j < size; ++j) {
        const CchMeeting& m = rows[i][j];
        if (!m.found()) continue;
        one_by_one.push_back(
            SideYardsOneByOne(sources[i], m.source_label, metric, yards, source_sums[i], memo) +
            SideYardsOneByOne(targets[j], m.target_label, metric, yards, target_sums[j], memo));
      }
    }
    one_ms.push_back(MicrosSince(t) / 1e3);
    CchSlotSum sum(metric, yards);
    std::size_t k = 0;
    t = Clock::now();
    for (std::uint32_t i = 0; i < size; ++i) {
      for (std::uint32_t j = 0; j < size; ++j) {
        const CchMeeting& m = rows[i][j];
        if (!m.found()) continue;
        const double y =
            sources[i].SumTo(m.source_label, sum) + targets[j].SumTo(m.target_label, sum);
        worst = std::max(worst, std::abs(y - one_by_one[k++]));
      }
    }
    level_ms.push_back(MicrosSince(t) / 1e3);
    cells += static_cast<double>(k);
  }
  std::printf(
      "table yards (%u tables of %u x %u random nodes, %.0f cells found a table): by levels / "
      "one slot at a time, medians %.2f / %.2f ms (%.3fx), means %.2f / %.2f ms (%.3fx); "
      "largest difference %.3g yards\n",
      tables, size, size, cells / tables, Percentile(level_ms, 0.5), Percentile(one_ms, 0.5),
      Percentile(level_ms, 0.5) / Percentile(one_ms, 0.5), Mean(level_ms), Mean(one_ms),
      Mean(level_ms) / Mean(one_ms), worst);
  return 0;
}

int RunPricedEnds(const World& world, AbstractGraph graph, int p, const Profile& profile,
                  std::uint32_t band_number, std::uint32_t pairs, std::uint64_t seed) {
  const Continent& c = world.continents.at(0);
  const AbstractRouter router(world, std::move(graph), 1ull << 30, std::uint64_t{6} << 30);
  router.SetBandMetricAfter(1);  // the band's metric customized by its first walk
  const Metric base(world, profile, 0), band(world, profile, band_number);
  const ArcPrices& prices = router.graph().continents.at(0).prices[p];
  // The zones the band prices, and the arcs a patch exempting each lowers.
  const ZoneArcs zone_arcs(prices);
  std::vector<double> arcs_per_zone;
  for (std::uint32_t z = 1; z < 65536; ++z) {
    if (band.ZoneMultiplier(static_cast<std::uint16_t>(z)) != 1.0 &&
        !zone_arcs.Of(static_cast<std::uint16_t>(z)).empty())
      arcs_per_zone.push_back(
          static_cast<double>(zone_arcs.Of(static_cast<std::uint16_t>(z)).size()));
  }
  auto place_of = [&](SurfaceId s) { return PlaceOf(c, world.FrameOf(c), s); };
  auto priced = [&](SurfaceId a, SurfaceId b) {
    return band.ZoneMultiplier(c.zone[a]) != 1.0 || band.ZoneMultiplier(c.zone[b]) != 1.0;
  };
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  Pairs chosen, unpriced;
  for (int tries = 0; chosen.size() < pairs + 17 && tries < 10000000; ++tries) {
    const SurfaceId a = any(random), b = any(random);
    if (c.region[a] != c.region[b] || c.region_size[c.region[a]] < 1000) continue;
    const double dx = std::abs(double(c.column_x[a]) - c.column_x[b]),
                 dy = std::abs(double(c.column_y[a]) - c.column_y[b]);
    if (std::max(dx, dy) <= router.near_columns()) continue;
    (priced(a, b) ? chosen : unpriced).push_back({a, b});
  }
  Searchers searchers;
  WalkOptions options;
  options.router = &router;
  // Buffers sized by 16 band-0 walks, then the band's metric customized by a walk whose ends it
  // does not price.
  for (int i = 0; i < 16; ++i) {
    (void)AnswerWalk(world, base, place_of(chosen[pairs + i].first),
                     place_of(chosen[pairs + i].second), searchers, options);
  }
  auto t = Clock::now();
  (void)AnswerWalk(world, band, place_of(unpriced.at(0).first), place_of(unpriced.at(0).second),
                   searchers, options);
  const double customize_s = MicrosSince(t) / 1e6;
  chosen.resize(pairs);
  std::vector<double> zero_cold, astar_cold, made_cold, cached_cold, band_warm, zero_warm, patch_mb;
  auto walk = [&](const Metric& metric, SurfaceId a, SurfaceId b, bool cold) {
    if (cold) router.leg_cache().Clear();
    const auto start = Clock::now();
    (void)AnswerWalk(world, metric, place_of(a), place_of(b), searchers, options);
    return MicrosSince(start);
  };
  std::uint32_t made = 0;
  // WALK_BENCH_NO_PATCHES=1: the A* and band 0 alone.
  const bool no_patches = std::getenv("WALK_BENCH_NO_PATCHES") != nullptr;
  std::vector<double> astar_warm;
  for (const auto& [a, b] : chosen) {
    zero_cold.push_back(walk(base, a, b, true));
    router.SetExemptPatchAfter(0);  // the A*, walkd's default for a key asked rarely
    astar_cold.push_back(walk(band, a, b, true));
    astar_warm.push_back(walk(band, a, b, false));
    if (no_patches) {
      zero_warm.push_back(walk(base, a, b, false));
      continue;
    }
    router.SetExemptPatchAfter(1);
    const std::uint64_t patches = router.band_metrics().patches();
    const std::uint64_t bytes = router.band_metrics().bytes();
    const double us = walk(band, a, b, true);
    if (router.band_metrics().patches() > patches) {
      ++made;
      made_cold.push_back(us);
      patch_mb.push_back((static_cast<double>(router.band_metrics().bytes()) - bytes) / 1e6);
    }
    cached_cold.push_back(walk(band, a, b, true));
    band_warm.push_back(walk(band, a, b, false));
    zero_warm.push_back(walk(base, a, b, false));
  }
  const std::uint32_t mismatches = DangerMismatches(world, router, band, chosen);
  std::printf("priced ends, band %u: %zu zones priced, arcs a zone lowers median %.0f max %.0f\n",
              band_number, arcs_per_zone.size(), Percentile(arcs_per_zone, 0.5),
              Percentile(arcs_per_zone, 1.0));
  std::printf(
      "band %u's metric customized by a first walk in %.3f s; %u patches made by %zu "
      "walks, MB a patch median %.1f max %.1f; band metrics %.0f MB, evictions %llu\n",
      band_number, customize_s, made, chosen.size(), Percentile(patch_mb, 0.5),
      Percentile(patch_mb, 1.0), router.band_metrics().bytes() / 1e6,
      static_cast<unsigned long long>(router.band_metrics().evictions()));
  std::printf("cold band 0                    %s\n", Figures(zero_cold).c_str());
  std::printf("cold band %-3u, A*              %s\n", band_number, Figures(astar_cold).c_str());
  std::printf("cold band %-3u, patch made      %s (%zu walks)\n", band_number,
              Figures(made_cold).c_str(), made_cold.size());
  std::printf("cold band %-3u, patch cached    %s\n", band_number, Figures(cached_cold).c_str());
  std::printf("warm band %-3u, patch cached    %s\n", band_number, Figures(band_warm).c_str());
  std::printf("warm band %-3u, A*              %s\n", band_number, Figures(astar_warm).c_str());
  std::printf("warm band 0                    %s\n", Figures(zero_warm).c_str());
  std::printf(
      "band %u / band 0, same pairs: cold A* medians %.2fx, p99s %.2fx; cold (patch cached) "
      "medians %.2fx, p99s %.2fx; warm medians %.2fx, p99s %.2fx; cost mismatches against the "
      "danger Dijkstra %u of %zu\n",
      band_number, Percentile(astar_cold, 0.5) / Percentile(zero_cold, 0.5),
      Percentile(astar_cold, 0.99) / Percentile(zero_cold, 0.99),
      Percentile(cached_cold, 0.5) / Percentile(zero_cold, 0.5),
      Percentile(cached_cold, 0.99) / Percentile(zero_cold, 0.99),
      Percentile(band_warm, 0.5) / Percentile(zero_warm, 0.5),
      Percentile(band_warm, 0.99) / Percentile(zero_warm, 0.99), mismatches, chosen.size());
  nlohmann::ordered_json line;
  line["band"] = band_number;
  line["zones_priced"] = arcs_per_zone.size();
  line["customize_s"] = customize_s;
  line["patches_made"] = made;
  line["patch_mb_median"] = Percentile(patch_mb, 0.5);
  line["zero_cold"] = FiguresJson(zero_cold);
  line["astar_cold"] = FiguresJson(astar_cold);
  line["made_cold"] = FiguresJson(made_cold);
  line["cached_cold"] = FiguresJson(cached_cold);
  line["band_warm"] = FiguresJson(band_warm);
  line["zero_warm"] = FiguresJson(zero_warm);
  line["astar_warm"] = FiguresJson(astar_warm);
  line["mismatches"] = mismatches;
  std::printf("%s\n", line.dump().c_str());
  return 0;
}

// A table's sides as tables sweep them (CchSideSweep) against the split query's unpruned side
// (how they were swept before, its labels not collected), side by side on `count` random nodes,
// three rounds, both directions: microseconds a side.
void PrintTableSides(const Cch& cch, const CchMetric& metric, int count) {
  std::mt19937_64 rng(2026);
  std::uniform_int_distribution<std::uint32_t> node(0, cch.node_count() - 1);
  std::vector<std::vector<CchEndpoint>> ends(count);
  for (auto& e : ends) e = {{node(rng), 0.0}};
  CchSplitQuery query(cch);
  CchSideSweep sweep;
  CchSide side;
  std::vector<double> sweep_us, side_us;
  std::uint64_t arcs = 0;
  for (int round = 0; round < 3; ++round) {
    for (const auto& e : ends) {
      for (const std::uint32_t d : {Cch::kForward, Cch::kBackward}) {
        auto t = Clock::now();
        sweep.Run(query, metric, d, e, &side);
        sweep_us.push_back(MicrosSince(t));
        t = Clock::now();
        query.Begin(metric);
        query.Side(d, metric, {.endpoints = e});
        side_us.push_back(MicrosSince(t));
        if (round == 0) {
          for (const std::uint32_t r : query.visited(d)) {
            arcs += cch.first_out()[r + 1] - cch.first_out()[r];
          }
        }
      }
    }
  }
  std::printf(
      "table sides (%.0f arcs a side): swept / the split query's side, medians %.1f / %.1f us "
      "(%.3fx), means %.1f / %.1f us (%.3fx)\n",
      static_cast<double>(arcs) / (2.0 * count), Percentile(sweep_us, 0.5),
      Percentile(side_us, 0.5), Percentile(sweep_us, 0.5) / Percentile(side_us, 0.5),
      Mean(sweep_us), Mean(side_us), Mean(sweep_us) / Mean(side_us));
}

// --only potentials: CH potentials priced as a priced end's A* prices them (CchPotential: a
// Reset to 32 random target nodes, then ToTargets of 5,000 nodes of consecutive ids, a region
// of the graph as a search's, the memo entered from below), at four lanes (AVX2, the baseline)
// and at eight (AVX-512) in turns on the same targets and nodes, every value compared.
int RunPotentials(const AbstractGraph& graph, int p, std::uint32_t rounds, std::uint64_t seed) {
  const ContinentGraph& g = graph.continents.at(0);
  const Cch cch(g.node_count(), g.order, g.ArcTails(), g.arc_head);
  const std::vector<double> weights(g.prices[p].seconds.begin(), g.prices[p].seconds.end());
  const CchMetric metric(cch, weights, /*perfect=*/false,
                         std::max(1u, std::thread::hardware_concurrency()));
  if (UseRankRelaxLanes(8) != 8) {
    std::printf("potentials: this processor has no AVX-512, nothing to compare\n");
    return 0;
  }
  const std::uint32_t asked = std::min<std::uint32_t>(5000, cch.node_count());
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::uint32_t> node(0, cch.node_count() - 1),
      first(0, cch.node_count() - asked);
  CchPotential four(cch), eight(cch);
  std::vector<double> us[2], values[2];
  std::uint64_t differ = 0, priced = 0;
  for (std::uint32_t round = 0; round < rounds; ++round) {
    std::vector<CchEndpoint> targets;
    for (int i = 0; i < 32; ++i)
      targets.push_back({node(random), static_cast<double>(random() % 1024)});
    const std::uint32_t from = first(random);
    for (const std::uint32_t k : {round % 2, 1 - round % 2}) {
      UseRankRelaxLanes(k == 1 ? 8 : 4);
      CchPotential& potential = k == 1 ? eight : four;
      values[k].assign(asked, 0.0);
      const auto t = Clock::now();
      potential.Reset(metric, targets);
      for (std::uint32_t i = 0; i < asked; ++i) values[k][i] = potential.ToTargets(from + i);
      us[k].push_back(MicrosSince(t));
      if (k == 1) priced += potential.priced();
    }
    for (std::uint32_t i = 0; i < asked; ++i) differ += values[0][i] != values[1][i];
  }
  UseRankRelaxLanes(8);
  std::printf(
      "potentials (%u rounds, %.0f ranks priced a round): eight lanes / four, medians %.0f / "
      "%.0f us (%.3fx), means %.0f / %.0f us (%.3fx); values differing %llu\n",
      rounds, static_cast<double>(priced) / rounds, Percentile(us[1], 0.5), Percentile(us[0], 0.5),
      Percentile(us[1], 0.5) / Percentile(us[0], 0.5), Mean(us[1]), Mean(us[0]),
      Mean(us[1]) / Mean(us[0]), static_cast<unsigned long long>(differ));
  return differ == 0 ? 0 : 1;
}

// Continent 0's prices in profile `p`, band `band_number` and the continent's hierarchy: what
// the band-metric modes customize.
struct BandOnGraph {
  BandOnGraph(const World& world, const AbstractGraph& graph, int p, const Profile& profile,
              std::uint32_t band_number)
      : prices(graph.continents.at(0).prices[p]),
        band(world, profile, band_number),
        cch(graph.continents.at(0).node_count(), graph.continents.at(0).order,
            graph.continents.at(0).ArcTails(), graph.continents.at(0).arc_head) {}
  const ArcPrices& prices;
  const Metric band;
  const Cch cch;
};

// --only zone-patches: the patches over band `band_number`'s metric that exempt one zone each
// (`pairs` of the zones it prices, in order), then pairs of those zones: bytes and seconds to
// make each on one thread, beside the whole metric's customization on one thread.
int RunZonePatches(const World& world, const AbstractGraph& graph, int p, const Profile& profile,
                   std::uint32_t band_number, std::uint32_t zones_asked) {
  const BandOnGraph on(world, graph, p, profile, band_number);
  const auto& [prices, band, cch] = on;
  auto t = Clock::now();
  const BandMetric metric(cch, prices, band, /*threads=*/1);
  const double customize_s = MicrosSince(t) / 1e6;
  const ZoneArcs zone_arcs(prices);
  std::vector<std::uint16_t> zones;
  for (std::uint32_t z = 1; z < zone_arcs.zone_count() && zones.size() < zones_asked; ++z) {
    const auto zone = static_cast<std::uint16_t>(z);
    if (band.ZoneMultiplier(zone) != 1.0 && !zone_arcs.Of(zone).empty()) zones.push_back(zone);
  }
  auto make = [&](std::uint16_t a, std::uint16_t b, std::vector<double>* mb,
                  std::vector<double>* s) {
    const auto start = Clock::now();
    const CchMetricPatch patch =
        CchMetricPatch::Lower(metric.metric, ExemptWeights(prices, zone_arcs, band, a, b));
    s->push_back(MicrosSince(start) / 1e6);
    mb->push_back(static_cast<double>(patch.MemoryBytes()) / 1e6);
  };
  std::vector<double> one_mb, one_s, pair_mb, pair_s;
  for (const std::uint16_t z : zones) make(z, 0, &one_mb, &one_s);
  for (std::size_t i = 0; i + 1 < zones.size(); i += 2)
    make(zones[i], zones[i + 1], &pair_mb, &pair_s);
  std::printf(
      "band %u's metric: %.0f MB, customized on one thread in %.2f s; %zu zones priced asked\n",
      band_number, static_cast<double>(metric.metric.MemoryBytes()) / 1e6, customize_s,
      zones.size());
  std::printf("patch exempting one zone: MB median %.1f max %.1f, s median %.2f max %.2f\n",
              Percentile(one_mb, 0.5), Percentile(one_mb, 1.0), Percentile(one_s, 0.5),
              Percentile(one_s, 1.0));
  std::printf("patch exempting a pair:   MB median %.1f max %.1f, s median %.2f max %.2f\n",
              Percentile(pair_mb, 0.5), Percentile(pair_mb, 1.0), Percentile(pair_s, 0.5),
              Percentile(pair_s, 1.0));
  return 0;
}

// --only customize: band `band_number`'s metric made `rounds` times each way, the ways taking
// turns: on one thread in rank order (no crew); on one thread with a crew no one joins (the
// elimination tree leaf by leaf, as a walk makes it); on one thread with a crew another thread
// joins at once (a walk making it while another walk wants it); on two threads (a Table's).
// Each metric is freed before the next is made, so each takes its arrays' page faults, as a
// metric customized again after eviction does. Seconds, medians and means.
int RunCustomize(const World& world, const AbstractGraph& graph, int p, const Profile& profile,
                 std::uint32_t band_number, std::uint32_t rounds) {
  const BandOnGraph on(world, graph, p, profile, band_number);
  const auto& [prices, band, cch] = on;
  const char* const ways[] = {"one thread, rank order", "one thread, leaf by leaf",
                              "one thread, one joiner", "two threads"};
  std::vector<double> seconds[4];
  std::uint64_t joined = 0;
  for (std::uint32_t r = 0; r < std::max(1u, rounds); ++r) {
    for (int way = 0; way < 4; ++way) {
      CustomizeCrew crew;
      std::atomic<bool> made{false};
      std::thread joiner;
      if (way == 2) {
        joiner = std::thread([&] {
          while (!made.load()) crew.Join();
        });
      }
      const auto start = Clock::now();
      {
        const BandMetric metric(cch, prices, band, /*threads=*/way == 3 ? 2 : 1,
                                way == 1 || way == 2 ? &crew : nullptr);
        seconds[way].push_back(MicrosSince(start) / 1e6);
      }
      made = true;
      if (joiner.joinable()) joiner.join();
      joined += crew.joined();
    }
  }
  std::printf("band %u's metric customized, %u rounds (seconds, median and mean):\n", band_number,
              std::max(1u, rounds));
  for (int way = 0; way < 4; ++way) {
    std::printf("  %-26s %.3f %.3f (%.2f x one thread in rank order)\n", ways[way],
                Percentile(seconds[way], 0.5), Mean(seconds[way]),
                Percentile(seconds[way], 0.5) / Percentile(seconds[0], 0.5));
  }
  std::printf("  the joiner joined %llu of %u customizations\n",
              static_cast<unsigned long long>(joined), std::max(1u, rounds));
  return 0;
}

// --only zone-order: the hierarchy's size under an order that respects zones, beside the
// prepared order's. Each node whose arcs all go through one zone (or through none) is ranked
// below every node where zones meet, by a nested dissection of its zone's nodes; the nodes where
// zones meet come last, by their own. Exempting a zone would then change only its nodes' part of
// the hierarchy and the arcs among the nodes above it: what that order costs in arcs.
int RunZoneOrder(const World& world, const AbstractGraph& graph, int p) {
  const Continent& c = world.continents.at(0);
  const ContinentGraph& g = graph.continents.at(0);
  const ArcPrices& prices = g.prices[p];
  const std::vector<std::uint32_t> tails = g.ArcTails();
  const std::uint32_t n = g.node_count();
  // A node's zone: the one zone all its arcs go through (0: none), or kMixed.
  constexpr std::uint32_t kUnset = UINT32_MAX, kMixed = UINT32_MAX - 1;
  std::vector<std::uint32_t> zone(n, kUnset);
  auto meet = [&](std::uint32_t v, std::uint32_t z) {
    zone[v] = zone[v] == kUnset || zone[v] == z ? z : kMixed;
  };
  for (std::uint32_t a = 0; a < g.arc_count(); ++a) {
    const std::span<const ZoneShare> mix = prices.MixOf(a);
    const std::uint32_t z = mix.empty() ? 0 : mix.size() == 1 ? mix[0].zone : kMixed;
    meet(tails[a], z);
    meet(g.arc_head[a], z);
  }
  struct Group {
    std::vector<std::uint32_t> nodes, tails, heads;  // its arcs' ends by their place in nodes
  };
  std::map<std::uint32_t, Group> groups;  // by zone, kMixed's last
  std::vector<Group*> group_of(n);
  std::vector<std::uint32_t> local(n);
  for (std::uint32_t v = 0; v < n; ++v) {
    Group& group = groups[zone[v] == kUnset ? 0 : zone[v]];
    group_of[v] = &group;
    local[v] = static_cast<std::uint32_t>(group.nodes.size());
    group.nodes.push_back(v);
  }
  for (std::uint32_t a = 0; a < g.arc_count(); ++a) {  // each arc within a group, filed there
    Group* const group = group_of[tails[a]];
    if (group != group_of[g.arc_head[a]]) continue;
    group->tails.push_back(local[tails[a]]);
    group->heads.push_back(local[g.arc_head[a]]);
  }
  std::vector<std::uint32_t> order;
  for (const auto& [z, group] : groups) {
    std::vector<float> x, y;
    for (const std::uint32_t v : group.nodes) {
      x.push_back(c.column_x[g.node_surface[v]]);
      y.push_back(c.column_y[g.node_surface[v]]);
    }
    const auto sub_order = NestedDissectionOrder(static_cast<std::uint32_t>(group.nodes.size()),
                                                 group.tails, group.heads, x, y);
    for (const std::uint32_t i : sub_order) order.push_back(group.nodes[i]);
  }
  auto t = Clock::now();
  const Cch prepared(n, g.order, tails, g.arc_head);
  const double prepared_s = MicrosSince(t) / 1e6;
  t = Clock::now();
  const Cch zoned(n, order, tails, g.arc_head);
  const double zoned_s = MicrosSince(t) / 1e6;
  std::printf(
      "zone order: %zu groups, %zu nodes where zones meet of %u; hierarchy arcs %llu against the "
      "prepared order's %llu (%.2fx), built in %.2f s against %.2f s\n",
      groups.size() - groups.count(kMixed),
      groups.count(kMixed) ? groups.at(kMixed).nodes.size() : 0, n,
      static_cast<unsigned long long>(zoned.arc_count()),
      static_cast<unsigned long long>(prepared.arc_count()),
      static_cast<double>(zoned.arc_count()) / prepared.arc_count(), zoned_s, prepared_s);
  return 0;
}

int Run(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(
        stderr,
        "usage: abstract_bench DIR [--pairs N] [--profile P] [--band B] [--seed N] "
        "[--only priced-ends|legs|table-yards|potentials|zone-order|zone-patches|customize]\n");
    return 2;
  }
  std::string dir = argv[1], profile_name = "neutral";
  std::uint32_t pairs = 1000, band = 20;
  std::uint64_t seed = 7;
  std::string only;  // "priced-ends": RunPricedEnds alone; "legs": RunLegs alone
  for (int i = 2; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--pairs"))
      pairs = static_cast<std::uint32_t>(std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--profile"))
      profile_name = argv[i + 1];
    else if (!std::strcmp(argv[i], "--band"))
      band = static_cast<std::uint32_t>(std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--seed"))
      seed = std::strtoull(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--only"))
      only = argv[i + 1];
  }
  auto t = Clock::now();
  auto loaded = LoadWorld(dir);
  if (!loaded.ok()) {
    std::fprintf(stderr, "abstract_bench: %s\n", std::string(loaded.status().message()).c_str());
    return 1;
  }
  const World& world = loaded->world;
  const double load_world_s = MicrosSince(t) / 1e6;
  t = Clock::now();
  auto graph = LoadAbstractGraph(world, dir);
  if (!graph.ok()) {
    std::fprintf(stderr, "abstract_bench: %s\n", std::string(graph.status().message()).c_str());
    return 1;
  }
  const double load_graph_s = MicrosSince(t) / 1e6;
  const int p = graph->ProfileIndex(profile_name);
  const Profile* profile = FindProfile(profile_name);
  if (p < 0 || profile == nullptr) {
    std::fprintf(stderr, "abstract_bench: profile %s was not prepared\n", profile_name.c_str());
    return 2;
  }
  if (only == "priced-ends") {
    return RunPricedEnds(world, *std::move(graph), p, *profile, band, pairs, seed);
  }
  if (only == "legs") return RunLegs(world, *std::move(graph), *profile, pairs, seed);
  if (only == "table-yards") return RunTableYards(*graph, p, pairs, 100, seed);
  if (only == "potentials") return RunPotentials(*graph, p, pairs, seed);
  if (only == "zone-order") return RunZoneOrder(world, *graph, p);
  if (only == "zone-patches") return RunZonePatches(world, *graph, p, *profile, band, pairs);
  if (only == "customize") return RunCustomize(world, *graph, p, *profile, band, pairs);
  const Continent& c = world.continents.at(0);
  const ContinentGraph& g = graph->continents.at(0);

  // Order, hierarchy and one customization, timed on their own.
  const std::vector<std::uint32_t> tails = g.ArcTails();
  std::vector<float> x(g.node_count()), y(g.node_count());
  for (std::uint32_t n = 0; n < g.node_count(); ++n) {
    x[n] = c.column_x[g.node_surface[n]];
    y[n] = c.column_y[g.node_surface[n]];
  }
  t = Clock::now();
  const std::vector<std::uint32_t> order =
      NestedDissectionOrder(g.node_count(), tails, g.arc_head, x, y);
  const double order_s = MicrosSince(t) / 1e6;
  t = Clock::now();
  const Cch cch(g.node_count(), g.order, tails, g.arc_head);
  const double cch_build_s = MicrosSince(t) / 1e6;
  const std::vector<double> weights(g.prices[p].seconds.begin(), g.prices[p].seconds.end());
  // Customization on one thread, then on one per core (the metric the queries use).
  t = Clock::now();
  { const CchMetric one_thread(cch, weights, /*perfect=*/false, /*threads=*/1); }
  const double customize_one_thread_s = MicrosSince(t) / 1e6;
  const unsigned customize_threads = std::max(1u, std::thread::hardware_concurrency());
  t = Clock::now();
  CchMetric cch_metric(cch, weights, /*perfect=*/false, customize_threads);
  const double customize_s = MicrosSince(t) / 1e6;
  // Again onto the same arrays: the work without the first customization's page faults.
  t = Clock::now();
  cch_metric.Customize(weights, customize_threads);
  const double customize_again_s = MicrosSince(t) / 1e6;
  // Customization again, in floats (walkd's, the weights being whole ticks) and in doubles, each
  // onto its own metric's arrays, alternating: 3 rounds each.
  std::vector<double> again_floats_s, again_doubles_s;
  if (cch_metric.in_ticks()) {
    CchMetric::CustomizeTicksInFloats(false);
    CchMetric in_doubles(cch, weights, /*perfect=*/false, customize_threads);
    for (int round = 0; round < 3; ++round) {
      CchMetric::CustomizeTicksInFloats(true);
      t = Clock::now();
      cch_metric.Customize(weights, customize_threads);
      again_floats_s.push_back(MicrosSince(t) / 1e6);
      CchMetric::CustomizeTicksInFloats(false);
      t = Clock::now();
      in_doubles.Customize(weights, customize_threads);
      again_doubles_s.push_back(MicrosSince(t) / 1e6);
    }
    CchMetric::CustomizeTicksInFloats(true);
  }
  // The same weights perfectly customized (basic pass, then the perfect pass and arc removal),
  // unless WALK_BENCH_QUICK is set (then neither it nor landmarks are measured).
  const bool quick = std::getenv("WALK_BENCH_QUICK") != nullptr;
  t = Clock::now();
  const CchMetric perfect_metric(cch,
                                 quick ? std::vector<double>(weights.size(), kInfCost) : weights,
                                 /*perfect=*/!quick);
  const double perfect_customize_s = MicrosSince(t) / 1e6;
  // A geometric bound for pruning queries: node columns (by rank for the query) and the lowest
  // seconds per octile column of any arc.
  std::vector<float> node_x(g.node_count()), node_y(g.node_count()), rank_x(g.node_count()),
      rank_y(g.node_count());
  for (std::uint32_t n = 0; n < g.node_count(); ++n) {
    node_x[n] = static_cast<float>(c.column_x[g.node_surface[n]]);
    node_y[n] = static_cast<float>(c.column_y[g.node_surface[n]]);
    rank_x[cch.rank(n)] = node_x[n];
    rank_y[cch.rank(n)] = node_y[n];
  }
  const CchBound bound{&rank_x, &rank_y,
                       CchBound::LowestCostPerUnit(tails, g.arc_head, weights, node_x, node_y)};
  // And landmarks (ALT) on top of it.
  const char* marks_env = std::getenv("WALK_BENCH_LANDMARKS");
  const std::uint32_t landmark_count = quick ? 0
                                       : marks_env != nullptr
                                           ? static_cast<std::uint32_t>(std::atoi(marks_env))
                                           : 16;
  t = Clock::now();
  const CchLandmarks landmarks =
      CchLandmarks::Compute(cch, tails, g.arc_head, weights, landmark_count);
  const double landmarks_s = MicrosSince(t) / 1e6;
  CchBound alt_bound = bound;
  alt_bound.landmarks = &landmarks;

  // Band metrics off until their own walks (at the end): the others run as without them.
  const AbstractRouter router(world, *std::move(graph), 1ull << 30, /*band_metric_bytes=*/0);
  const ContinentGraph& rg = router.graph().continents.at(0);
  const Metric base(world, *profile, 0), danger(world, *profile, band);

  // Random pairs of surfaces in one region, far enough apart for the abstract graph to answer.
  const double near = router.near_columns();
  auto far_pairs = [&](std::uint64_t pair_seed, std::size_t count) {
    std::mt19937_64 random(pair_seed);
    std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
    std::vector<std::pair<SurfaceId, SurfaceId>> found;
    for (int tries = 0; found.size() < count && tries < 1000000; ++tries) {
      const SurfaceId a = any(random), b = any(random);
      if (c.region[a] != c.region[b] || c.region_size[c.region[a]] < 1000) continue;
      const double dx = std::abs(double(c.column_x[a]) - c.column_x[b]),
                   dy = std::abs(double(c.column_y[a]) - c.column_y[b]);
      if (std::max(dx, dy) <= near) continue;
      found.push_back({a, b});
    }
    return found;
  };
  const std::vector<std::pair<SurfaceId, SurfaceId>> chosen = far_pairs(seed, pairs);

  // Legs, then the searches over the same endpoints.
  CellSearch search;
  CostGuess guess;
  std::uint32_t guess_retries = 0;
  std::vector<double> cch_guess_two_us;
  std::vector<double> leg_us, cch_us, cch_bound_us, cch_guess_us, cch_alt_us, cch_perfect_us,
      cch_dijkstra_us, dijkstra_us, danger_us, danger_astar_us;
  double danger_settled = 0, danger_astar_settled = 0, danger_astar_priced = 0;
  std::uint32_t danger_mismatches = 0;
  std::vector<double> danger_over_base;  // a pair's band cost over its band-0 cost
  std::uint32_t ends_unpriced = 0;       // pairs whose ends' zones the band does not price
  std::uint32_t mismatches = 0, found = 0;
  // The tree and the split query on one set of labels, as walkd's search threads hold them.
  CchAncestorWalk labels(cch);
  CchQuery query(labels);
  CchSplitQuery split_query(labels);
  DangerDijkstra dijkstra;
  CchPotential potential(cch);
  double dijkstra_settled = 0;
  // Legs first; then each search in its own pass over all pairs, so none finds the arcs of a
  // pair in cache because another search of the same pair just read them.
  struct PairEndpoints {
    SurfaceId a, b;
    std::vector<CchEndpoint> cs, ct;
    std::vector<PricedNode> ds, dt, zs, zt;
  };
  std::vector<PairEndpoints> endpoints;
  auto leg_of = [&](SurfaceId s, bool backward) -> LegRequest {
    return {.c = c,
            .column_yards = world.column_yards,
            .graph = rg,
            .cell_columns = router.graph().cell_columns,
            .base = base,
            .surface = s,
            .backward = backward};
  };
  for (const auto& [a, b] : chosen) {
    PairEndpoints ps{a, b, {}, {}, {}, {}, {}, {}};
    t = Clock::now();
    const Leg start = ComputeLeg(leg_of(a, /*backward=*/false), search);
    leg_us.push_back(MicrosSince(t));
    t = Clock::now();
    const Leg goal = ComputeLeg(leg_of(b, /*backward=*/true), search);
    leg_us.push_back(MicrosSince(t));
    for (const Leg::Entry& e : start.entries) {
      ps.cs.push_back({e.node, e.seconds});
      ps.ds.push_back({e.node, e.seconds});
      ps.zs.push_back(
          {e.node, DangerSeconds(e.seconds, start.MixOf(e), danger, c.zone[a], c.zone[b])});
    }
    for (const Leg::Entry& e : goal.entries) {
      ps.ct.push_back({e.node, e.seconds});
      ps.dt.push_back({e.node, e.seconds});
      ps.zt.push_back(
          {e.node, DangerSeconds(e.seconds, goal.MixOf(e), danger, c.zone[a], c.zone[b])});
    }
    endpoints.push_back(std::move(ps));
  }
  // The tree query's answers are the reference the others are checked against.
  std::vector<CchResult> reference;
  auto check = [&](std::size_t i, bool ok, double cost) {
    const CchResult& rc = reference[i];
    if (ok != rc.found || (rc.found && std::abs(rc.cost - cost) > 1e-9 * std::max(1.0, rc.cost)))
      ++mismatches;
  };
  for (const PairEndpoints& ps : endpoints) {
    t = Clock::now();
    reference.push_back(query.Run(cch_metric, {.sources = ps.cs, .targets = ps.ct}));
    cch_us.push_back(MicrosSince(t));
    found += reference.back().found ? 1 : 0;
  }
  // What walkd's guess is a multiple of, once both legs are known: the endpoints' bound.
  auto lower_of = [&](std::size_t i) {
    return BoundBetween(bound, cch, endpoints[i].cs, endpoints[i].ct);
  };
  auto guessed = [&](std::size_t i, CchRunBoth both,
                     const CchMetric* metric = nullptr) -> GuessedCchRequest {
    return {.metric = metric != nullptr ? *metric : cch_metric,
            .bound = bound,
            .guess = guess,
            .lower = lower_of(i),
            .sources = endpoints[i].cs,
            .targets = endpoints[i].ct,
            .both = both};
  };
  // walkd's query: the bound, pruned from the start against a learnt likely upper bound, each
  // direction on its own, asked again without it when no way is that cheap. First on one
  // thread (the figure compared with Dijkstra's, also on one), then with its directions on two
  // (walkd's helper thread, as a walk with nothing else running gets).
  for (std::size_t i = 0; i < endpoints.size(); ++i) {
    t = Clock::now();
    bool asked_twice = false;
    const CchResult r =
        RunGuessed(split_query, query, guessed(i, CchOneAfterTheOther), nullptr, &asked_twice);
    cch_guess_us.push_back(MicrosSince(t));
    guess_retries += asked_twice ? 1 : 0;
    check(i, r.found, r.cost);
  }
  HelperThread helper;
  auto on_helper = [&](absl::FunctionRef<void()> here, absl::FunctionRef<void()> there) {
    helper.Both(here, there);
  };
  for (std::size_t i = 0; i < endpoints.size(); ++i) {
    t = Clock::now();
    const CchResult r = RunGuessed(split_query, query, guessed(i, on_helper));
    cch_guess_two_us.push_back(MicrosSince(t));
    check(i, r.found, r.cost);
  }
  for (std::size_t i = 0; i < endpoints.size(); ++i) {
    t = Clock::now();
    const CchResult r = query.Run(
        cch_metric, {.sources = endpoints[i].cs, .targets = endpoints[i].ct, .bound = &bound});
    cch_bound_us.push_back(MicrosSince(t));
    check(i, r.found, r.cost);
  }
  for (std::size_t i = 0; i < endpoints.size(); ++i) {
    t = Clock::now();
    const CchResult r = query.Run(
        cch_metric, {.sources = endpoints[i].cs, .targets = endpoints[i].ct, .bound = &alt_bound});
    cch_alt_us.push_back(MicrosSince(t));
    check(i, r.found, r.cost);
  }
  if (!quick) {
    for (std::size_t i = 0; i < endpoints.size(); ++i) {
      t = Clock::now();
      const CchResult r =
          query.Run(perfect_metric, {.sources = endpoints[i].cs, .targets = endpoints[i].ct});
      cch_perfect_us.push_back(MicrosSince(t));
      check(i, r.found, r.cost);
    }
    CchDijkstraQuery dijkstra_query(cch);
    for (std::size_t i = 0; i < endpoints.size(); ++i) {
      t = Clock::now();
      const CchResult r = dijkstra_query.Run(cch_metric, endpoints[i].cs, endpoints[i].ct);
      cch_dijkstra_us.push_back(MicrosSince(t));
      check(i, r.found, r.cost);
    }
  }
  // The metric's weights in floats against the same weights in doubles (one arc's nudged by an
  // ulp off the tick grid keeps a metric in doubles): walkd's query with its path, alternating
  // pair by pair so that the host's load falls on both alike.
  std::vector<double> ticks_us, doubles_us;
  if (cch_metric.in_ticks()) {
    std::vector<double> nudged = weights;
    for (double& w : nudged) {
      if (w > 0.0 && w < kInfCost) {
        w = std::nextafter(w, kInfCost);
        break;
      }
    }
    const CchMetric in_doubles(cch, nudged, /*perfect=*/false, customize_threads);
    std::vector<std::uint32_t> path;
    for (int round = 0; round < 3; ++round) {
      for (std::size_t i = 0; i < endpoints.size(); ++i) {
        // Which goes first alternates too: the second finds the pair's ranks in the cache.
        const CchMetric* first = (i + round) % 2 == 0 ? &cch_metric : &in_doubles;
        const CchMetric* second = first == &cch_metric ? &in_doubles : &cch_metric;
        for (const CchMetric* m : {first, second}) {
          t = Clock::now();
          const CchResult r =
              RunGuessed(split_query, query, guessed(i, CchOneAfterTheOther, m), &path);
          (m == &cch_metric ? ticks_us : doubles_us).push_back(MicrosSince(t));
          if (m == &cch_metric) check(i, r.found, r.cost);
        }
      }
    }
  }
  for (std::size_t i = 0; i < endpoints.size(); ++i) {
    const PairEndpoints& ps = endpoints[i];
    t = Clock::now();
    const DangerDijkstraResult rd = dijkstra.Run({.graph = rg,
                                                  .prices = rg.prices[p],
                                                  .band = base,
                                                  .exempt_a = c.zone[ps.a],
                                                  .exempt_b = c.zone[ps.b],
                                                  .sources = ps.ds,
                                                  .targets = ps.dt});
    dijkstra_us.push_back(MicrosSince(t));
    dijkstra_settled += rd.settled;
    check(i, rd.found, rd.seconds);
    if (!quick) {
      const DangerDijkstra::Request request{.graph = rg,
                                            .prices = rg.prices[p],
                                            .band = danger,
                                            .exempt_a = c.zone[ps.a],
                                            .exempt_b = c.zone[ps.b],
                                            .sources = ps.zs,
                                            .targets = ps.zt};
      t = Clock::now();
      const DangerDijkstraResult plain = dijkstra.Run(request);
      danger_us.push_back(MicrosSince(t));
      danger_settled += plain.settled;
      DangerDijkstra::Request guided = request;
      guided.potential = &potential;
      t = Clock::now();
      potential.Reset(cch_metric, ps.ct);
      const DangerDijkstraResult astar = dijkstra.Run(guided);
      danger_astar_us.push_back(MicrosSince(t));
      danger_astar_settled += astar.settled;
      danger_astar_priced += potential.priced();
      ends_unpriced +=
          danger.ZoneMultiplier(c.zone[ps.a]) == 1.0 && danger.ZoneMultiplier(c.zone[ps.b]) == 1.0;
      if (astar.found && reference[i].found && reference[i].cost > 0)
        danger_over_base.push_back(astar.seconds / reference[i].cost);
      if (astar.found != plain.found || (plain.found && std::abs(astar.seconds - plain.seconds) >
                                                            1e-9 * std::max(1.0, plain.seconds))) {
        ++danger_mismatches;
      }
    }
  }

  // Whole walks through AnswerWalk (auto): cold (no leg cached), then warm (the same pairs).
  auto place_of = [&](SurfaceId s) { return PlaceOf(c, world.FrameOf(c), s); };
  Searchers searchers;
  WalkOptions options;
  options.router = &router;
  std::vector<double> cold_us, warm_us;
  std::array<std::uint32_t, kMethodCount> methods{};
  // First a few walks between other places: a thread's search buffers (the CCH queries' labels,
  // the cell search's states, the helper's) are sized and first touched by its first walks,
  // which a running walkd has long paid. Cold means no leg cached, as in a
  // daemon asked about new places.
  std::vector<double> first_us;
  for (const auto& [a, b] : far_pairs(seed + 1, 16)) {
    t = Clock::now();
    (void)AnswerWalk(world, base, place_of(a), place_of(b), searchers, options);
    first_us.push_back(MicrosSince(t));
  }
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& [a, b] : chosen) {
      t = Clock::now();
      auto answer = AnswerWalk(world, base, place_of(a), place_of(b), searchers, options);
      (pass == 0 ? cold_us : warm_us).push_back(MicrosSince(t));
      if (pass == 0 && answer.ok()) ++methods[static_cast<int>(answer->method)];
    }
  }

  // Cold walks in the danger band and in band 0, each on pairs of its own (a walk's legs are
  // cached for every band of its profile): what a band costs over band 0, end to end.
  std::vector<double> danger_cold_us, base_cold_us;
  std::array<std::uint32_t, kMethodCount> danger_methods{};
  if (!quick) {
    for (const auto& [a, b] : far_pairs(seed + 2, pairs)) {
      t = Clock::now();
      auto answer = AnswerWalk(world, danger, place_of(a), place_of(b), searchers, options);
      danger_cold_us.push_back(MicrosSince(t));
      if (answer.ok()) ++danger_methods[static_cast<int>(answer->method)];
    }
    for (const auto& [a, b] : far_pairs(seed + 3, pairs)) {
      t = Clock::now();
      (void)AnswerWalk(world, base, place_of(a), place_of(b), searchers, options);
      base_cold_us.push_back(MicrosSince(t));
    }
  }

  // Band metrics: cold walks in the band with them off (the A*), in band 0, then with them on,
  // after one walk between ends the band does not price has customized the band's metric.
  const ColdWalks astar_cold =
      WalkCold(world, danger, far_pairs(seed + 4, pairs), searchers, options);
  const ColdWalks zero_cold = WalkCold(world, base, far_pairs(seed + 5, pairs), searchers, options);
  router.band_metrics().SetCapacity(std::uint64_t{4} << 30);
  router.SetBandMetricAfter(1);  // the band's metric customized by its first walk
  double band_customize_s = 0.0;
  for (const auto& [a, b] : far_pairs(seed + 6, 1000)) {
    if (danger.ZoneMultiplier(c.zone[a]) != 1.0 || danger.ZoneMultiplier(c.zone[b]) != 1.0)
      continue;
    t = Clock::now();
    (void)AnswerWalk(world, danger, place_of(a), place_of(b), searchers, options);
    band_customize_s = MicrosSince(t) / 1e6;
    break;
  }
  const Pairs band_pairs = far_pairs(seed + 7, pairs);
  const ColdWalks band_cold = WalkCold(world, danger, band_pairs, searchers, options);
  const std::array<std::vector<double>, 2> warm_unpriced =
      WalkWarmUnpriced(world, danger, base, band_pairs, searchers, options);
  const std::uint32_t band_mismatches = DangerMismatches(world, router, danger, band_pairs);

  const double cch_median = Percentile(cch_us, 0.5), dijkstra_median = Percentile(dijkstra_us, 0.5);
  std::printf("world %s: %u surfaces; abstract graph %u nodes, %u arcs (cell %u, spacing %u)\n",
              dir.c_str(), c.surface_count(), g.node_count(), g.arc_count(),
              router.graph().cell_columns, router.graph().entrance_spacing);
  std::printf("load: grid %.2f s, graph %.2f s\n", load_world_s, load_graph_s);
  std::printf("order %.3f s, CCH build %.3f s (%llu arcs, tree height %u)\n", order_s, cch_build_s,
              static_cast<unsigned long long>(cch.arc_count()), cch.elimination_tree_height());
  std::printf(
      "customization %.3f s per metric on %u threads (%.3f s again on its arrays), %.3f s on one "
      "(%.2fx)\n",
      customize_s, customize_threads, customize_again_s, customize_one_thread_s,
      customize_one_thread_s / customize_s);
  if (!again_floats_s.empty()) {
    std::printf(
        "customization again on its arrays, in floats / in doubles, alternating, 3 rounds: "
        "medians %.3f / %.3f s (%.3fx), means %.3f / %.3f s (%.3fx)\n",
        Percentile(again_floats_s, 0.5), Percentile(again_doubles_s, 0.5),
        Percentile(again_floats_s, 0.5) / Percentile(again_doubles_s, 0.5), Mean(again_floats_s),
        Mean(again_doubles_s), Mean(again_floats_s) / Mean(again_doubles_s));
  }
  const double metric_bytes_per_arc =
      static_cast<double>(cch_metric.MemoryBytes()) / static_cast<double>(cch.arc_count());
  std::printf("metric %.2f bytes per CCH arc (%s), hierarchy %.2f bytes per CCH arc\n",
              metric_bytes_per_arc,
              cch_metric.in_ticks() ? "weights in whole ticks, floats" : "weights in doubles",
              static_cast<double>(cch.MemoryBytes()) / static_cast<double>(cch.arc_count()));
  std::printf("steps naming a block of triangles (searched when unpacked): %.2f %% of slots\n",
              100.0 * static_cast<double>(cch_metric.searched_steps()) /
                  (2.0 * static_cast<double>(cch.arc_count())));
  PrintTableSides(cch, cch_metric, 300);
  std::printf(
      "perfect customization %.3f s per metric (both passes), arcs kept for queries %llu of %llu\n",
      perfect_customize_s, static_cast<unsigned long long>(perfect_metric.kept_count()),
      static_cast<unsigned long long>(2 * cch.arc_count()));
  if (!ticks_us.empty()) {
    std::printf(
        "walkd's CCH query with its path, weights in floats / in doubles, pair by pair, 3 rounds: "
        "medians %.1f / %.1f us (%.3fx), means %.1f / %.1f us (%.3fx)\n",
        Percentile(ticks_us, 0.5), Percentile(doubles_us, 0.5),
        Percentile(ticks_us, 0.5) / Percentile(doubles_us, 0.5), Mean(ticks_us), Mean(doubles_us),
        Mean(ticks_us) / Mean(doubles_us));
  }
  std::printf("pairs %zu (found %u, CCH/Dijkstra cost mismatches %u)\n", chosen.size(), found,
              mismatches);
  std::printf("leg               median %8.1f us  p99 %8.1f us\n", Percentile(leg_us, 0.5),
              Percentile(leg_us, 0.99));
  std::printf("CCH query (tree)  median %8.1f us  p99 %8.1f us\n", cch_median,
              Percentile(cch_us, 0.99));
  const double perfect_median = Percentile(cch_perfect_us, 0.5);
  const double bound_median = Percentile(cch_bound_us, 0.5);
  const double alt_median = Percentile(cch_alt_us, 0.5);
  std::printf(
      "CCH query (bound + %u landmarks) median %8.1f us  p99 %8.1f us  (landmarks %.2f s, %.0f "
      "MB)\n",
      landmark_count, alt_median, Percentile(cch_alt_us, 0.99), landmarks_s,
      landmarks.MemoryBytes() / 1e6);
  std::printf("Dijkstra / CCH with landmarks %.1fx\n",
              alt_median > 0 ? Percentile(dijkstra_us, 0.5) / alt_median : 0.0);
  std::printf("CCH query (bound) median %8.1f us  p99 %8.1f us  (%.4f s per column at least)\n",
              bound_median, Percentile(cch_bound_us, 0.99), bound.cost_per_unit);
  const double guess_median = Percentile(cch_guess_us, 0.5);
  std::printf(
      "CCH query (bound + guess, walkd's) median %8.1f us  p99 %8.1f us  (asked twice %u of %zu; "
      "factor %.3f)\n",
      guess_median, Percentile(cch_guess_us, 0.99), guess_retries, chosen.size(), guess.factor());
  std::printf("  the same, directions on two threads: median %8.1f us  p99 %8.1f us\n",
              Percentile(cch_guess_two_us, 0.5), Percentile(cch_guess_two_us, 0.99));
  std::printf("CCH query (perfect) median %8.1f us  p99 %8.1f us\n", perfect_median,
              Percentile(cch_perfect_us, 0.99));
  std::printf("CCH query (bidi)  median %8.1f us  p99 %8.1f us\n", Percentile(cch_dijkstra_us, 0.5),
              Percentile(cch_dijkstra_us, 0.99));
  std::printf("Dijkstra band 0   median %8.1f us  p99 %8.1f us  (%.0f nodes settled on average)\n",
              dijkstra_median, Percentile(dijkstra_us, 0.99),
              chosen.empty() ? 0.0 : dijkstra_settled / chosen.size());
  const double danger_count = std::max<double>(1.0, static_cast<double>(danger_us.size()));
  std::printf("Dijkstra band %-3u median %8.1f us  p99 %8.1f us  (%.0f nodes settled on average)\n",
              band, Percentile(danger_us, 0.5), Percentile(danger_us, 0.99),
              danger_settled / danger_count);
  std::printf(
      "A* band %-3u      median %8.1f us  p99 %8.1f us  (%.0f nodes settled, %.0f ranks priced on "
      "average; cost mismatches %u; Dijkstra / A* %.1fx)\n",
      band, Percentile(danger_astar_us, 0.5), Percentile(danger_astar_us, 0.99),
      danger_astar_settled / danger_count, danger_astar_priced / danger_count, danger_mismatches,
      Percentile(danger_astar_us, 0.5) > 0
          ? Percentile(danger_us, 0.5) / Percentile(danger_astar_us, 0.5)
          : 0.0);
  std::printf(
      "band %u cost / band-0 cost of a pair: median %.3f, p90 %.3f, max %.3f; pairs whose ends' "
      "zones band %u does not price: %u of %zu\n",
      band, Percentile(danger_over_base, 0.5), Percentile(danger_over_base, 0.9),
      Percentile(danger_over_base, 1.0), band, ends_unpriced, danger_us.size());
  std::printf(
      "Dijkstra / CCH    %.1fx (medians); Dijkstra / walkd's CCH (bound + guess) %.1fx; Dijkstra / "
      "bounded CCH %.1fx; Dijkstra / perfect CCH %.1fx\n",
      cch_median > 0 ? dijkstra_median / cch_median : 0.0,
      guess_median > 0 ? dijkstra_median / guess_median : 0.0,
      bound_median > 0 ? dijkstra_median / bound_median : 0.0,
      perfect_median > 0 ? dijkstra_median / perfect_median : 0.0);
  std::printf("first walks (buffers sized): the first %.1f us, the 16 %.1f us in all\n",
              first_us.empty() ? 0.0 : first_us[0],
              std::accumulate(first_us.begin(), first_us.end(), 0.0));
  std::printf("whole walk cold   median %8.1f us  p99 %8.1f us\n", Percentile(cold_us, 0.5),
              Percentile(cold_us, 0.99));
  std::printf("whole walk warm   median %8.1f us  p99 %8.1f us\n", Percentile(warm_us, 0.5),
              Percentile(warm_us, 0.99));
  const double danger_cold_median = Percentile(danger_cold_us, 0.5);
  const double base_cold_median = Percentile(base_cold_us, 0.5);
  std::printf(
      "whole walk cold, band %u median %8.1f us  p99 %8.1f us; band 0 on other pairs median %8.1f "
      "us  p99 %8.1f us; band %u / band 0 %.2fx (medians)\n",
      band, danger_cold_median, Percentile(danger_cold_us, 0.99), base_cold_median,
      Percentile(base_cold_us, 0.99), band,
      base_cold_median > 0 ? danger_cold_median / base_cold_median : 0.0);
  std::printf(
      "band metrics: band %u's metric customized by a first walk in %.3f s (one thread), %.0f MB; "
      "customizations %llu, evictions %llu\n",
      band, band_customize_s, router.band_metrics().bytes() / 1e6,
      static_cast<unsigned long long>(router.band_metrics().customizations()),
      static_cast<unsigned long long>(router.band_metrics().evictions()));
  const std::string band_label = "whole walk cold, band " + std::to_string(band);
  PrintCold((band_label + ", band metric").c_str(), band_cold);
  PrintCold((band_label + ", A* alone").c_str(), astar_cold);
  PrintCold("whole walk cold, band 0", zero_cold);
  std::printf(
      "band %u with band metric / band 0: medians %.2fx, means %.2fx, p99s %.2fx; ends unpriced: "
      "medians %.2fx, p99s %.2fx; pairs whose ends' zones band %u prices: %zu of %zu (%.0f %%); "
      "cost mismatches against the danger Dijkstra %u\n",
      band, Percentile(band_cold.us, 0.5) / Percentile(zero_cold.us, 0.5),
      Mean(band_cold.us) / Mean(zero_cold.us),
      Percentile(band_cold.us, 0.99) / Percentile(zero_cold.us, 0.99),
      Percentile(band_cold.unpriced_us, 0.5) / Percentile(zero_cold.us, 0.5),
      Percentile(band_cold.unpriced_us, 0.99) / Percentile(zero_cold.us, 0.99), band,
      band_cold.us.size() - band_cold.unpriced_us.size(), band_cold.us.size(),
      100.0 * (band_cold.us.size() - band_cold.unpriced_us.size()) /
          std::max<double>(1.0, band_cold.us.size()),
      band_mismatches);
  std::printf(
      "the same ends-unpriced pairs warm (legs cached), band %u with band metric median %8.1f us  "
      "p99 %8.1f us; band 0 median %8.1f us  p99 %8.1f us; band %u / band 0 %.2fx (medians)\n",
      band, Percentile(warm_unpriced[0], 0.5), Percentile(warm_unpriced[0], 0.99),
      Percentile(warm_unpriced[1], 0.5), Percentile(warm_unpriced[1], 0.99), band,
      Percentile(warm_unpriced[0], 0.5) / Percentile(warm_unpriced[1], 0.5));
  nlohmann::ordered_json line;
  line["nodes"] = g.node_count();
  line["arcs"] = g.arc_count();
  line["order_s"] = order_s;
  line["cch_build_s"] = cch_build_s;
  line["cch_arcs"] = cch.arc_count();
  line["customize_s"] = customize_s;
  line["customize_again_s"] = customize_again_s;
  line["customize_threads"] = customize_threads;
  line["customize_one_thread_s"] = customize_one_thread_s;
  line["metric_bytes_per_cch_arc"] = metric_bytes_per_arc;
  line["searched_steps"] = cch_metric.searched_steps();
  line["metric_in_ticks"] = cch_metric.in_ticks();
  line["leg_median_us"] = Percentile(leg_us, 0.5);
  line["cch_median_us"] = cch_median;
  line["cch_bound_median_us"] = bound_median;
  line["cch_guess_median_us"] = guess_median;
  line["cch_guess_p99_us"] = Percentile(cch_guess_us, 0.99);
  line["cch_guess_retries"] = guess_retries;
  line["cch_guess_two_threads_median_us"] = Percentile(cch_guess_two_us, 0.5);
  line["dijkstra_over_walkd_cch"] = guess_median > 0 ? dijkstra_median / guess_median : 0.0;
  line["landmarks"] = landmark_count;
  line["landmarks_s"] = landmarks_s;
  line["cch_alt_median_us"] = alt_median;
  line["cch_alt_p99_us"] = Percentile(cch_alt_us, 0.99);
  line["cch_bound_p99_us"] = Percentile(cch_bound_us, 0.99);
  line["bound_seconds_per_column"] = bound.cost_per_unit;
  line["perfect_customize_s"] = perfect_customize_s;
  line["perfect_kept_arcs"] = perfect_metric.kept_count();
  line["cch_perfect_median_us"] = perfect_median;
  line["cch_perfect_p99_us"] = Percentile(cch_perfect_us, 0.99);
  line["cch_p99_us"] = Percentile(cch_us, 0.99);
  line["cch_bidi_median_us"] = Percentile(cch_dijkstra_us, 0.5);
  line["cch_bidi_p99_us"] = Percentile(cch_dijkstra_us, 0.99);
  line["dijkstra_median_us"] = dijkstra_median;
  line["dijkstra_p99_us"] = Percentile(dijkstra_us, 0.99);
  line["danger_median_us"] = Percentile(danger_us, 0.5);
  line["danger_p99_us"] = Percentile(danger_us, 0.99);
  line["danger_astar_median_us"] = Percentile(danger_astar_us, 0.5);
  line["danger_astar_p99_us"] = Percentile(danger_astar_us, 0.99);
  line["danger_mismatches"] = danger_mismatches;
  line["danger_over_base_cost_median"] = Percentile(danger_over_base, 0.5);
  line["danger_over_base_cost_p90"] = Percentile(danger_over_base, 0.9);
  line["danger_cold_median_us"] = danger_cold_median;
  line["danger_cold_p99_us"] = Percentile(danger_cold_us, 0.99);
  line["base_cold_other_median_us"] = base_cold_median;
  line["danger_over_base_cold"] =
      base_cold_median > 0 ? danger_cold_median / base_cold_median : 0.0;
  line["dijkstra_over_cch"] = cch_median > 0 ? dijkstra_median / cch_median : 0.0;
  line["cold_median_us"] = Percentile(cold_us, 0.5);
  line["cold_p99_us"] = Percentile(cold_us, 0.99);
  line["warm_median_us"] = Percentile(warm_us, 0.5);
  line["warm_p99_us"] = Percentile(warm_us, 0.99);
  nlohmann::ordered_json method_counts;
  for (int m = 0; m < kMethodCount; ++m) {
    if (methods[m] > 0) method_counts[MethodName(static_cast<Method>(m))] = methods[m];
  }
  line["methods"] = method_counts;
  nlohmann::ordered_json danger_method_counts;
  for (int m = 0; m < kMethodCount; ++m) {
    if (danger_methods[m] > 0)
      danger_method_counts[MethodName(static_cast<Method>(m))] = danger_methods[m];
  }
  line["danger_methods"] = danger_method_counts;
  line["mismatches"] = mismatches;
  line["band_metric_customize_s"] = band_customize_s;
  line["band_metric_bytes"] = router.band_metrics().bytes();
  line["band_metric_cold"] = ColdJson(band_cold);
  line["astar_cold"] = ColdJson(astar_cold);
  line["band_zero_cold"] = ColdJson(zero_cold);
  line["band_metric_mismatches"] = band_mismatches;
  line["unpriced_warm_band_median_us"] = Percentile(warm_unpriced[0], 0.5);
  line["unpriced_warm_zero_median_us"] = Percentile(warm_unpriced[1], 0.5);
  std::printf("%s\n", line.dump().c_str());
  return 0;
}

}  // namespace
}  // namespace walk::nav

int main(int argc, char** argv) { return walk::nav::Run(argc, argv); }
