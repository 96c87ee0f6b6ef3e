#include "nav/abstract/abstract_router.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <optional>
#include <thread>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "nav/cch/guessed_query.h"
#include "nav/cost/zone_cells.h"
#include "nav/cost/zone_mix.h"

namespace walk::nav {
namespace {

// The threads a profile's metric is customized on: every core, at load (one profile after
// another) and on first use alike (the walk that needs it waits for it).
const unsigned kCustomizeThreads = std::max(1u, std::thread::hardware_concurrency());

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

bool SameCell(const Continent& c, std::uint32_t cell_columns, SurfaceId a, SurfaceId b) {
  return c.column_x[a] / cell_columns == c.column_x[b] / cell_columns &&
         c.column_y[a] / cell_columns == c.column_y[b] / cell_columns;
}

// Appends the steps of `more` (which starts where `steps` ends) to `steps`.
void Append(const std::vector<PathStep>& more, std::vector<PathStep>* steps) {
  if (more.empty()) return;
  if (steps->empty()) {
    *steps = more;
    return;
  }
  steps->insert(steps->end(), more.begin() + 1, more.end());
}

}  // namespace

AbstractRouter::AbstractRouter(const World& world, AbstractGraph graph,
                               std::uint64_t leg_cache_bytes, std::uint64_t band_metric_bytes,
                               Unindexed)
    : world_(world),
      graph_(std::move(graph)),
      legs_(leg_cache_bytes),
      band_metrics_(band_metric_bytes) {
  for (const std::string& name : graph_.profiles) base_.emplace_back(world, *FindProfile(name), 0);
  timings_.memory_bytes = graph_.MemoryBytes();
}

AbstractRouter::AbstractRouter(const World& world, AbstractGraph graph,
                               std::uint64_t leg_cache_bytes, std::uint64_t band_metric_bytes)
    : AbstractRouter(world, std::move(graph), leg_cache_bytes, band_metric_bytes, Unindexed()) {
  const std::vector<bool> every(graph_.profiles.size(), true);
  for (std::size_t i = 0; i < graph_.continents.size(); ++i) {
    IndexContinent(i, every, BuildStop()).IgnoreError();  // a default BuildStop never stops
  }
}

absl::StatusOr<std::unique_ptr<AbstractRouter>> AbstractRouter::Build(
    const World& world, AbstractGraph graph, std::uint64_t leg_cache_bytes, const BuildStop& stop,
    std::uint64_t band_metric_bytes, const std::vector<std::string>& profiles_at_load) {
  std::unique_ptr<AbstractRouter> router(
      new AbstractRouter(world, std::move(graph), leg_cache_bytes, band_metric_bytes, Unindexed()));
  std::vector<bool> at_load(router->graph_.profiles.size(), false);
  for (const std::string& name : profiles_at_load) {
    const int p = router->graph_.ProfileIndex(name);
    if (p >= 0) at_load[p] = true;
  }
  for (std::size_t i = 0; i < router->graph_.continents.size(); ++i) {
    if (absl::Status indexed = router->IndexContinent(i, at_load, stop); !indexed.ok()) {
      return indexed;
    }
  }
  return router;
}

RouterTimings AbstractRouter::timings() const {
  RouterTimings now = timings_;
  now.customize_seconds += 1e-9 * static_cast<double>(customize_nanos_.load());
  now.memory_bytes += metric_bytes_.load();
  now.profile_metrics = profile_metrics_.load();
  return now;
}

absl::StatusOr<std::unique_ptr<const AbstractRouter::ProfileMetric>> AbstractRouter::MakeProfile(
    const ContinentIndex& index, int p, const BuildStop& stop) const {
  const ContinentGraph& g = *index.graph;
  const auto start = std::chrono::steady_clock::now();
  auto made = std::make_unique<ProfileMetric>();
  absl::StatusOr<std::shared_ptr<const ArcPrices>> prices = g.PricesOf(p);
  if (!prices.ok()) return prices.status();
  made->prices = *std::move(prices);
  const std::vector<double> weights(made->prices->seconds.begin(), made->prices->seconds.end());
  absl::StatusOr<std::unique_ptr<CchMetric>> metric =
      CchMetric::Create(*index.cch, weights, /*perfect=*/false, kCustomizeThreads, stop);
  if (!metric.ok()) return metric.status();  // only a stop fails it
  made->metric = *std::move(metric);
  std::vector<float> node_x(g.node_count()), node_y(g.node_count());
  for (std::uint32_t n = 0; n < g.node_count(); ++n) {
    node_x[n] = index.rank_x[index.cch->rank(n)];
    node_y[n] = index.rank_y[index.cch->rank(n)];
  }
  made->seconds_per_column =
      CchBound::LowestCostPerUnit(g.ArcTails(), g.arc_head, weights, node_x, node_y);
  made->zone_arcs = ZoneArcs(*made->prices);
  customize_nanos_ += static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count());
  // Prices read from the file on first use are held here; those the graph holds it counts.
  const std::uint64_t read = g.prices.empty() ? made->prices->MemoryBytes() : 0;
  metric_bytes_ += made->metric->MemoryBytes() + made->zone_arcs.MemoryBytes() + read;
  // For walkd's memory governor: a band's metric is as large, and its making holds the band's
  // input weights and the customization's scratch besides.
  band_metrics_.Expect(made->metric->MemoryBytes(),
                       BandMakingBytes(*index.cch, weights.size(), kCustomizeThreads));
  ++profile_metrics_;
  return made;
}

absl::StatusOr<const AbstractRouter::ProfileMetric*> AbstractRouter::ProfileOf(
    const ContinentIndex& index, int p, const BuildStop& stop) const {
  LazyProfile& lazy = *index.profiles[p];
  if (const ProfileMetric* ready = lazy.ready.load(std::memory_order_acquire)) return ready;
  std::lock_guard<std::mutex> lock(lazy.mu);
  if (lazy.made != nullptr) return lazy.made.get();
  if (!lazy.failed.ok()) return lazy.failed;
  absl::StatusOr<std::unique_ptr<const ProfileMetric>> made = MakeProfile(index, p, stop);
  if (!made.ok()) {
    if (!absl::IsCancelled(made.status())) lazy.failed = made.status();
    return made.status();
  }
  lazy.made = *std::move(made);
  lazy.ready.store(lazy.made.get(), std::memory_order_release);
  return lazy.made.get();
}

absl::Status AbstractRouter::IndexContinent(std::size_t i, const std::vector<bool>& at_load,
                                            const BuildStop& stop) {
  if (absl::Status stopped = stop.Check("building the CCH"); !stopped.ok()) return stopped;
  const ContinentGraph& g = graph_.continents[i];
  const Continent& c = *world_.FindContinent(g.continent);  // the graph's loader checked it
  ContinentIndex index;
  index.continent = &c;
  index.graph = &g;
  const auto start = std::chrono::steady_clock::now();
  index.cch = std::make_unique<Cch>(g.node_count(), g.order, g.ArcTails(), g.arc_head);
  timings_.cch_build_seconds += SecondsSince(start);
  timings_.cch_arcs += index.cch->arc_count();
  timings_.memory_bytes += index.cch->MemoryBytes();
  for (std::size_t p = 0; p < graph_.profiles.size(); ++p) {
    index.profiles.push_back(std::make_unique<LazyProfile>());
    index.guesses.push_back(std::make_unique<CostGuess>());
    index.straight_guesses.push_back(std::make_unique<CostGuess>());
    index.yard_sums.push_back(std::make_unique<LeasePool<CchSlotSum>>());
  }
  index.rank_x.resize(g.node_count());
  index.rank_y.resize(g.node_count());
  for (std::uint32_t n = 0; n < g.node_count(); ++n) {
    const SurfaceId s = g.node_surface[n];
    index.rank_x[index.cch->rank(n)] = static_cast<float>(c.column_x[s]);
    index.rank_y[index.cch->rank(n)] = static_cast<float>(c.column_y[s]);
  }
  timings_.memory_bytes += 2 * sizeof(float) * index.rank_x.size();
  for (std::size_t p = 0; p < at_load.size(); ++p) {
    if (!at_load[p]) continue;
    absl::StatusOr<const ProfileMetric*> made = ProfileOf(index, static_cast<int>(p), stop);
    if (!made.ok()) return made.status();
  }
  continents_.push_back(std::move(index));
  return absl::OkStatus();
}

const AbstractRouter::ContinentIndex* AbstractRouter::IndexOf(const Continent& c) const {
  for (const ContinentIndex& index : continents_) {
    if (index.continent == &c) return &index;
  }
  return nullptr;
}

struct AbstractRouter::RouteState {
  const Continent& c;
  const Metric& band;
  SurfaceId from, to;
  SearchMode mode;
  AbstractSearcher& searcher;
  const ContinentIndex& index;
  const ContinentGraph& g;
  const ProfileMetric& profile;
  int p;  // the profile's index in the graph
  std::uint32_t continent_index;
  std::uint16_t exempt_a, exempt_b;  // the ends' zones, free of danger
  // Whether the walk may hand half its work to the helper thread: not a table's row's, whose
  // rows keep every search thread busy.
  bool helper;
  // Neither leg cached, for a walk that may use the helper (the only one that asks: a table's
  // cells would lock the leg cache's shards twice each for nothing).
  bool cold;
  AbstractWalk walk = {};
  std::shared_ptr<const Leg> start = nullptr, goal = nullptr;
  std::vector<CchEndpoint> sources = {}, targets = {};  // the legs' entrances, for the CCH
  // The way found: its arcs, the indices of its first and last entrance in the legs, its cost.
  std::vector<std::uint32_t> arcs = {};
  std::uint32_t source = kInvalidId, target = kInvalidId;
  double seconds = kInfCost;
  absl::Status stopped = absl::OkStatus();  // the search was told to stop (SearchStop)
  // What the CCH search reads: the profile's band-0 metric and guesses, or a band's metric
  // and guesses (then `priced` is that band, which prices the legs' entrances; else null).
  const CchMetric* metric = nullptr;
  CostGuess* guess = nullptr;
  CostGuess* straight_guess = nullptr;
  const Metric* priced = nullptr;
  // With `priced`, when the band prices an end's zone: the patch over the band's metric that
  // exempts the ends' zones (held here while the walk searches it).
  std::shared_ptr<const ExemptPatch> exempt = nullptr;
};

namespace {

// The patch the CCH search of `route` reads over its metric, or null.
template <typename Route>
const CchMetricPatch* PatchOf(const Route& route) {
  return route.exempt != nullptr ? &route.exempt->patch : nullptr;
}

}  // namespace

std::shared_ptr<const Leg> AbstractRouter::LegOf(const RouteState& route, bool backward,
                                                 CellSearch& search, SearchStats* stats) const {
  return LegAt(route.index, route.p, backward ? route.to : route.from, backward, search, stats);
}

std::shared_ptr<const Leg> AbstractRouter::LegAt(const ContinentIndex& index, int p, SurfaceId s,
                                                 bool backward, CellSearch& search,
                                                 SearchStats* stats) const {
  const std::uint32_t continent_index = static_cast<std::uint32_t>(&index - continents_.data());
  const LegCache::Key key{continent_index, s, static_cast<std::uint16_t>(p), backward};
  if (auto leg = legs_.Find(key)) return leg;
  auto leg = std::make_shared<const Leg>(ComputeLeg({.c = *index.continent,
                                                     .column_yards = world_.column_yards,
                                                     .graph = *index.graph,
                                                     .cell_columns = graph_.cell_columns,
                                                     .base = base_[p],
                                                     .surface = s,
                                                     .backward = backward},
                                                    search));
  stats->nodes_expanded += search.settled_count();
  legs_.Insert(key, leg);
  return leg;
}

std::shared_ptr<const Leg> AbstractRouter::LegFor(const Continent& c, int profile, SurfaceId s,
                                                  bool backward, CellSearch& search,
                                                  SearchStats* stats) const {
  return LegAt(*IndexOf(c), profile, s, backward, search, stats);
}

absl::StatusOr<std::optional<AbstractRouter::Hierarchy>> AbstractRouter::HierarchyOf(
    const Continent& c, const Metric& band, std::uint32_t walks) const {
  const ContinentIndex* index = IndexOf(c);
  const int p = graph_.ProfileIndex(band.profile().name);
  if (index == nullptr || p < 0) return std::nullopt;
  absl::StatusOr<const ProfileMetric*> profile = ProfileOf(*index, p);
  if (!profile.ok()) return profile.status();
  Hierarchy hierarchy{.cch = index->cch.get(),
                      .metric = (*profile)->metric.get(),
                      .graph = index->graph,
                      .prices = (*profile)->prices.get(),
                      .profile = p,
                      .queries = index->queries.get(),
                      .yard_sums = index->yard_sums[p].get(),
                      .band_metric = nullptr,
                      .priced = nullptr};
  if (band.prices_danger()) {
    const BandMetricCache::Key key{static_cast<std::uint32_t>(index - continents_.data()),
                                   static_cast<std::uint16_t>(p), band.band()};
    const std::uint32_t after =
        std::max<std::uint32_t>(1, band_metric_after_.load(std::memory_order_relaxed));
    if (!WantsMade(key, after, walks)) return std::nullopt;
    // A table (kAtOnce) waits for the metric with every core it would otherwise search on; a
    // walk customizes on its own search thread.
    hierarchy.band_metric = BandMetricOf(*index, p, **profile, band, walks == kAtOnce ? 0 : 1);
    if (hierarchy.band_metric == nullptr) return std::nullopt;
    hierarchy.metric = &hierarchy.band_metric->metric;
    hierarchy.yard_sums = nullptr;
    hierarchy.priced = &band;
  }
  return hierarchy;
}

std::shared_ptr<const BandMetric> AbstractRouter::BandMetricOf(const ContinentIndex& index, int p,
                                                               const ProfileMetric& profile,
                                                               const Metric& band,
                                                               unsigned threads) const {
  const BandMetricCache::Key key{static_cast<std::uint32_t>(&index - continents_.data()),
                                 static_cast<std::uint16_t>(p), band.band()};
  // A band's metric is as large as band 0's.
  if (!band_metrics_.Admits(key, profile.metric->MemoryBytes())) return nullptr;
  return band_metrics_.Get(key, [&](CustomizeCrew& crew) {
    auto metric = std::make_unique<BandMetric>(*index.cch, *profile.prices, band, threads, &crew);
    // The zones' borders too (once per continent and profile), which the zone bound and the
    // reaches read beside a band's metric: made here, their fraction of a second goes with the
    // customization rather than with the first walk that has a priced end.
    (void)ZoneBorderAt(index, p, profile, 0);
    return metric;
  });
}

namespace {

// The hierarchy arcs from which a query's directions go to the walk helper: a smaller
// hierarchy's query is too quick to pay for waking it.
constexpr std::uint64_t kHelperQueryArcs = 8'000'000;
// The hierarchy arcs from which queries are pruned against a guessed upper bound: on smaller
// hierarchies the guess costs about as much as it saves.
constexpr std::uint64_t kGuessArcs = 1'000'000;

}  // namespace

double StraightLineFloor(const Continent& c, SurfaceId from, SurfaceId to,
                         double seconds_per_column) {
  return seconds_per_column *
         OctileColumns(std::abs(static_cast<double>(c.column_x[from]) - c.column_x[to]),
                       std::abs(static_cast<double>(c.column_y[from]) - c.column_y[to]));
}

CchEndpointArea CellArea(const Continent& c, std::uint32_t cell_columns, SurfaceId s) {
  const Cell cell = CellOf(c, cell_columns, s);
  CchEndpointArea area;
  area.x0 = cell.x0 > 0 ? cell.x0 - 1 : 0;  // portals one step outside count too
  area.y0 = cell.y0 > 0 ? cell.y0 - 1 : 0;
  area.x1 = cell.x1;
  area.y1 = cell.y1;
  area.cheapest = 0.0;
  return area;
}

namespace {

// Appends the entrances of `leg` as CCH endpoints, its seconds their costs: band-0 seconds, or
// priced by `band` when given (the ends' zones exempt, as the danger Dijkstra prices them).
void AddEndpoints(const Leg& leg, std::vector<CchEndpoint>* endpoints, const Metric* band = nullptr,
                  std::uint16_t exempt_a = 0, std::uint16_t exempt_b = 0) {
  for (const Leg::Entry& e : leg.entries) {
    endpoints->push_back({e.node, band == nullptr ? e.seconds
                                                  : DangerSeconds(e.seconds, leg.MixOf(e), *band,
                                                                  exempt_a, exempt_b)});
  }
}

}  // namespace

absl::StatusOr<AbstractWalk> AbstractRouter::Route(const Continent& c, const Metric& band,
                                                   SurfaceId from, SurfaceId to, SearchMode mode,
                                                   bool want_steps,
                                                   AbstractSearcher& searcher) const {
  const ContinentIndex* index = IndexOf(c);
  const int p = graph_.ProfileIndex(band.profile().name);
  if (index == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("search: continent ", c.id,
                     " has no abstract graph (walkgrid prepare --continents ", c.id, ")"));
  }
  if (p < 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("search: profile \"", band.profile().name,
                     "\" has no abstract graph on this world (walkgrid prepare --profiles)"));
  }
  const bool danger = band.prices_danger();
  if (mode == SearchMode::kCch && danger) {
    return absl::FailedPreconditionError(
        "search: the CCH prices no danger; ask band 0, or search dijkstra or auto");
  }
  absl::StatusOr<const ProfileMetric*> profile = ProfileOf(*index, p);
  if (!profile.ok()) return profile.status();
  const std::uint32_t continent_index = static_cast<std::uint32_t>(index - continents_.data());
  const LegCache::Key start_key{continent_index, from, static_cast<std::uint16_t>(p), false};
  const LegCache::Key goal_key{continent_index, to, static_cast<std::uint16_t>(p), true};
  RouteState route{.c = c,
                   .band = band,
                   .from = from,
                   .to = to,
                   .mode = mode,
                   .searcher = searcher,
                   .index = *index,
                   .g = *index->graph,
                   .profile = **profile,
                   .p = p,
                   .continent_index = continent_index,
                   .exempt_a = c.zone[from],
                   .exempt_b = c.zone[to],
                   .helper = searcher.known == nullptr,
                   .cold = searcher.known == nullptr && from != to && !legs_.Contains(start_key) &&
                           !legs_.Contains(goal_key),
                   .metric = (*profile)->metric.get(),
                   .guess = index->guesses[p].get(),
                   .straight_guess = index->straight_guesses[p].get()};
  const bool use_cch = mode == SearchMode::kCch || (mode == SearchMode::kAuto && !danger);
  double known_yards = 0.0;
  // A table's row knows band 0's walks, and a danger band's whose ends' zones it does not price:
  // their seconds and yards, or (Whole) the walks whole, tallied below as searched ones are.
  const bool may_know =
      (use_cch || mode == SearchMode::kAuto) && !want_steps && searcher.known != nullptr;
  const bool whole = may_know && searcher.known->Whole();
  const bool known =
      may_know && (whole ? KnownWayOf(route)
                         : searcher.known->Find(c, band, from, to, &route.seconds, &known_yards));
  // Held while the walk searches it: evicting it meanwhile frees nothing.
  const std::shared_ptr<const BandMetric> band_metric = known ? nullptr : UseBandMetric(route);
  if (known) {
    route.walk.method = Method::kCch;
  } else if (use_cch || band_metric != nullptr) {
    SearchCch(route);
  } else {
    SearchDijkstra(route);
    if (!route.stopped.ok()) return route.stopped;
    if (route.walk.dearer) return std::move(route.walk);
  }
  // Two ends in one tile: the tile's own way when it is cheaper.
  if (mode == SearchMode::kAuto && SameCell(c, kTileColumns, from, to) &&
      WalkInTile(route, want_steps)) {
    return std::move(route.walk);
  }
  if (!(route.seconds < kInfCost)) return std::move(route.walk);
  route.walk.found = true;
  route.walk.seconds = route.seconds;
  if (known && !whole) {
    route.walk.yards = known_yards;
    route.walk.zone_cells_left_out = true;
    return std::move(route.walk);
  }
  TallyPieces(route);
  if (want_steps) UnpackSteps(route);
  return std::move(route.walk);
}

bool AbstractRouter::KnownWayOf(RouteState& route) const {
  KnownWay way;
  if (!route.searcher.known->FindWay(route.c, route.band, route.from, route.to, &way)) {
    return false;
  }
  route.seconds = way.seconds;
  route.start = std::move(way.start);
  route.goal = std::move(way.goal);
  route.source = way.source;
  route.target = way.target;
  route.arcs = std::move(way.arcs);
  return true;
}

std::shared_ptr<const BandMetric> AbstractRouter::UseBandMetric(RouteState& route) const {
  // Exempting an end's zone changes nothing where the band does not price it: then the band's
  // metric, every zone priced, prices each arc as the danger Dijkstra would.
  // Where it does price one, a patch over that metric exempts the ends' zones (UseExemptPatch).
  const Metric& band = route.band;
  if (route.mode != SearchMode::kAuto || !band.prices_danger() ||
      !band_metrics_.Admits(BandKey(route), route.metric->MemoryBytes())) {  // as large
    return nullptr;
  }
  const BandMetricCache::Key exempt = ExemptKey(route);
  const bool ends_priced = exempt.exempt_b != 0;
  if (ends_priced && !WantsMade(exempt, exempt_patch_after_.load(std::memory_order_relaxed))) {
    return nullptr;
  }
  if (!ends_priced &&
      !WantsMade(exempt,
                 std::max<std::uint32_t>(1, band_metric_after_.load(std::memory_order_relaxed)))) {
    return nullptr;
  }
  // Being made by another walk (a metric takes seconds, a patch about one): this walk helps
  // make the metric where a core is left for it (CustomizeCrew), else goes on by the A*, exact
  // and slower, rather than wait idle for it.
  if (ends_priced && band_metrics_.Making(exempt)) return nullptr;
  if (band_metrics_.MakingElsewhere(BandKey(route))) return nullptr;
  std::shared_ptr<const BandMetric> metric =
      BandMetricOf(route.index, route.p, route.profile, band);
  if (metric == nullptr) return nullptr;
  route.metric = &metric->metric;
  route.guess = &metric->guess;
  route.straight_guess = &metric->straight_guess;
  route.priced = &band;
  if (ends_priced) UseExemptPatch(route, exempt);
  return metric;
}

BandMetricCache::Key AbstractRouter::ExemptKey(const RouteState& route) const {
  // Zones the band does not price need no exemption: the key names only the priced ones, so
  // walks from a priced zone to anywhere unpriced share one patch.
  const Metric& band = route.band;
  auto priced = [&band](std::uint16_t zone) -> std::uint16_t {
    return band.ZoneMultiplier(zone) != 1.0 ? zone : 0;
  };
  const std::uint16_t a = priced(route.exempt_a), b = priced(route.exempt_b);
  return {.continent_index = route.continent_index,
          .profile_index = static_cast<std::uint16_t>(route.p),
          .band = band.band(),
          .exempt_a = std::min(a, b),
          .exempt_b = std::max(a, b)};
}

bool AbstractRouter::WantsMade(const BandMetricCache::Key& key, std::uint32_t after,
                               std::uint32_t walks) const {
  // A metric, or a patch (about a customization of the band's metric on a large world: its
  // zones lower a large share of the hierarchy's arcs), is made only for keys asked often
  // enough that the A* has spent about what making it costs; the others stay with the A*.
  if (band_metrics_.Has(key)) return true;
  if (after == 0 || walks == 0) return false;
  constexpr std::size_t kCountedKeys = 4096;
  std::lock_guard<std::mutex> lock(wanted_walks_mu_);
  if (wanted_walks_.size() >= kCountedKeys) wanted_walks_.clear();
  WantedWalks& wanted = wanted_walks_[key];
  const auto now = std::chrono::steady_clock::now();
  if (wanted.asked == 0 ||
      now - wanted.since > std::chrono::nanoseconds(wanted_within_nanos_.load())) {
    wanted = {.asked = 0, .since = now};
  }
  std::uint32_t& asked = wanted.asked;
  asked = walks >= after - asked ? after : asked + walks;
  if (asked < after) return false;
  wanted_walks_.erase(key);
  return true;
}

void AbstractRouter::UseExemptPatch(RouteState& route, const BandMetricCache::Key& key) const {
  const Metric& band = route.band;
  route.exempt = band_metrics_.GetPatch(key, [&] {
    const std::vector<CchMetricPatch::Lowered> lowered = ExemptWeights(
        *route.profile.prices, route.profile.zone_arcs, band, key.exempt_a, key.exempt_b);
    return std::make_unique<ExemptPatch>(
        ExemptPatch{CchMetricPatch::Lower(*route.metric, lowered)});
  });
}

void AbstractRouter::FindLegs(RouteState& route) const {
  if (route.cold && route.helper && route.start == nullptr && route.goal == nullptr) {
    SearchStats goal_stats;
    const std::uint64_t ticket = helper_.TryRun([&](CellSearch& search) {
      route.goal = LegOf(route, /*backward=*/true, search, &goal_stats);
    });
    if (ticket != 0) {
      route.start = LegOf(route, /*backward=*/false, route.searcher.cell, &route.walk.stats);
      helper_.Wait(ticket);
      route.walk.stats.nodes_expanded += goal_stats.nodes_expanded;
    }
  }
  if (route.start == nullptr) {
    route.start = LegOf(route, /*backward=*/false, route.searcher.cell, &route.walk.stats);
  }
  if (route.goal == nullptr) {
    route.goal = LegOf(route, /*backward=*/true, route.searcher.cell, &route.walk.stats);
  }
}

void AbstractRouter::SearchCch(RouteState& route) const {
  const ContinentIndex& index = route.index;
  const CchBound bound{&index.rank_x, &index.rank_y, route.profile.seconds_per_column};
  LeasePool<CchQueries>::Lease lease =
      index.queries->Take([&index] { return std::make_unique<CchQueries>(*index.cch); });
  CchQueries& queries = *lease;
  const CchMetric& metric = *route.metric;
  // The guessed bound pays on hierarchies whose queries take hundreds of µs; on small ones the
  // plain bound is as quick.
  const bool guessed = index.cch->arc_count() >= kGuessArcs;
  route.walk.method = Method::kCch;
  if (route.cold && route.helper && SearchColdCch(route, bound, queries, guessed)) return;
  FindLegs(route);
  AddEndpoints(*route.start, &route.sources, route.priced, route.exempt_a, route.exempt_b);
  AddEndpoints(*route.goal, &route.targets, route.priced, route.exempt_a, route.exempt_b);
  CchResult result;
  if (guessed) {
    // Its two directions side by side when the helper is idle, on hierarchies whose queries
    // take long enough to pay for waking it.
    const bool two_threads = route.helper && index.cch->arc_count() >= kHelperQueryArcs;
    result =
        RunGuessed(queries.split, queries.tree,
                   {.metric = metric,
                    .bound = bound,
                    .guess = *route.guess,
                    .lower = BoundBetween(bound, *index.cch, route.sources, route.targets),
                    .sources = route.sources,
                    .targets = route.targets,
                    .both = two_threads ? CchRunBoth(on_helper_) : CchRunBoth(CchOneAfterTheOther),
                    .patch = PatchOf(route)},
                   &route.arcs);
  } else {
    result = queries.tree.Run(metric,
                              {.sources = route.sources,
                               .targets = route.targets,
                               .bound = &bound,
                               .patch = PatchOf(route)},
                              &route.arcs);
  }
  if (result.found) {
    route.seconds = result.cost;
    route.source = result.source;
    route.target = result.target;
  }
}

bool AbstractRouter::SearchColdCch(RouteState& route, const CchBound& bound, CchQueries& queries,
                                   bool guessed) const {
  // Pipelined: the start leg and then the query's forward side on the helper thread, when it is
  // idle, while this thread computes the goal leg and then the backward side; the two sides
  // meet once both are done. Neither waits for the other's leg: each prunes toward the other
  // end's cell (where that leg's entrances lie), against a guessed upper bound over the
  // straight line between the ends (none on small hierarchies).
  const CchMetric& metric = *route.metric;
  CchSplitQuery& split = queries.split;
  const CchEndpointArea start_area = CellArea(route.c, graph_.cell_columns, route.from);
  const CchEndpointArea goal_area = CellArea(route.c, graph_.cell_columns, route.to);
  CostGuess& guess = *route.straight_guess;
  const double straight = StraightLineFloor(route.c, route.from, route.to, bound.cost_per_unit);
  const bool guess_straight = guessed && straight > 0.0;
  const double below = guess_straight ? guess.Upper(straight) : kInfCost;
  split.Begin(metric);
  SearchStats helper_stats;
  // The helper takes the start leg: forward legs are the quicker, and the helper's half
  // finishes last more often than not.
  const std::uint64_t ticket = helper_.TryRun([&](CellSearch& search) {
    route.start = LegOf(route, /*backward=*/false, search, &helper_stats);
    AddEndpoints(*route.start, &route.sources, route.priced, route.exempt_a, route.exempt_b);
    split.Side(Cch::kForward, metric,
               {.endpoints = route.sources,
                .bound = &bound,
                .other = goal_area,
                .below = below,
                .patch = PatchOf(route)});
  });
  if (ticket == 0) return false;
  route.goal = LegOf(route, /*backward=*/true, route.searcher.cell, &route.walk.stats);
  AddEndpoints(*route.goal, &route.targets, route.priced, route.exempt_a, route.exempt_b);
  split.Side(Cch::kBackward, metric,
             {.endpoints = route.targets,
              .bound = &bound,
              .other = start_area,
              .below = below,
              .patch = PatchOf(route)});
  helper_.Wait(ticket);
  route.walk.stats.nodes_expanded += helper_stats.nodes_expanded;
  // The helper has just finished (and spins a while): the path's way down unpacks there.
  CchResult result =
      split.End(metric, below, &route.arcs,
                guessed ? CchRunBoth(on_helper_) : CchRunBoth(CchOneAfterTheOther), PatchOf(route));
  if (guess_straight) {
    result = RetryUnguessed(queries.tree,
                            {.metric = metric,
                             .bound = bound,
                             .guess = guess,
                             .lower = straight,
                             .sources = route.sources,
                             .targets = route.targets,
                             .patch = PatchOf(route)},
                            result, &route.arcs);
  }
  if (result.found) {
    route.seconds = result.cost;
    route.source = result.source;
    route.target = result.target;
  }
  return true;
}

void AbstractRouter::SearchDijkstra(RouteState& route) const {
  FindLegs(route);
  const bool danger = route.band.prices_danger();
  auto priced = [&](const Leg& leg, const Leg::Entry& e) {
    return danger
               ? DangerSeconds(e.seconds, leg.MixOf(e), route.band, route.exempt_a, route.exempt_b)
               : e.seconds;
  };
  std::vector<PricedNode> sources, targets;
  for (const Leg::Entry& e : route.start->entries)
    sources.push_back({e.node, priced(*route.start, e)});
  for (const Leg::Entry& e : route.goal->entries)
    targets.push_back({e.node, priced(*route.goal, e)});
  // Unless the plain Dijkstra is asked for: an A* guided by band-0 distances to the goal leg's
  // entrances (their band-0 seconds), which no band's danger can undercut.
  CchPotential* potential = nullptr;
  std::shared_ptr<const BandMetric> band_metric;  // held while the zone bound reads it
  std::optional<LeasePool<CchQueries>::Lease> lease;
  // Ends in one tile may walk cheaper inside it (WalkInTile): their search is never cut short.
  // Under auto, a node is queued only when a goal entrance is reachable from it (its band-0
  // potential is finite, and danger never cuts an arc), so a search cut short had a way to find:
  // the walk is dearer, and the fine grid, which answers when the graph has no way, would not.
  const double max_seconds =
      SameCell(route.c, kTileColumns, route.from, route.to) ? kInfCost : route.searcher.max_seconds;
  if (route.mode == SearchMode::kAuto) {
    const ContinentIndex& index = route.index;
    lease.emplace(
        index.queries->Take([&index] { return std::make_unique<CchQueries>(*index.cch); }));
    potential = &(*lease)->potential;
    AddEndpoints(*route.goal, &route.targets);
    // A walk to the last one's goal (a trip's walks from its stations) reads what it priced.
    potential->ResetUnlessSame(*route.profile.metric, route.targets);
  }
  DangerDijkstra::Request request{.graph = route.g,
                                  .prices = *route.profile.prices,
                                  .band = route.band,
                                  .exempt_a = route.exempt_a,
                                  .exempt_b = route.exempt_b,
                                  .sources = sources,
                                  .targets = targets,
                                  .stop = route.searcher.stop,
                                  .max_seconds = max_seconds,
                                  .potential = potential};
  // A priced end's walk with the band's metric at hand first takes band-0 seconds for a few
  // hundred nodes, which short walks need no more than: the zone bound costs milliseconds to
  // set up. Past them it goes on guided by the zone bound. Without the metric the walk
  // counts toward it, and takes the zone bound at once when it makes it.
  const bool priced_end = potential != nullptr && danger &&
                          (route.band.ZoneMultiplier(route.exempt_a) != 1.0 ||
                           route.band.ZoneMultiplier(route.exempt_b) != 1.0);
  const std::uint64_t band_zero_first = zone_bound_after_.load(std::memory_order_relaxed);
  if (priced_end && band_zero_first > 0 && band_metrics_.Has(BandKey(route))) {
    request.max_settled = band_zero_first;
  } else if (priced_end) {
    request.zone_bound = ZoneBoundFor(route, **lease, &band_metric);
  }
  DangerDijkstraResult result = route.searcher.dijkstra.Run(request, &route.arcs);
  // Unguided, it counts toward the metric by the nodes it settled; stopped by its call, it
  // makes no metric on the call's time.
  if (priced_end && request.zone_bound == nullptr && !result.gave_up && result.stopped.ok()) {
    CountUnguided(route, result.settled);
  }
  if (result.gave_up) {
    // On from the nodes band-0 seconds settled, their queue keyed by the zone bound.
    request.max_settled = UINT64_MAX;
    request.zone_bound = ZoneBoundFor(route, **lease, &band_metric);
    request.resume = true;
    const std::uint64_t settled_before = result.settled;
    result = route.searcher.dijkstra.Run(request, &route.arcs);
    result.settled += settled_before;
  }
  route.walk.method = potential != nullptr ? Method::kCchAStar : Method::kDijkstra;
  route.walk.stats.nodes_expanded += result.settled;
  route.stopped = result.stopped;
  route.walk.dearer = result.dearer;
  if (result.found) {
    route.seconds = result.seconds;
    route.source = result.source;
    route.target = result.target;
  }
}

BandMetricCache::Key AbstractRouter::BandKey(const RouteState& route) const {
  return {route.continent_index, static_cast<std::uint16_t>(route.p), route.band.band()};
}

ZoneBound* AbstractRouter::ZoneBoundFor(const RouteState& route, CchQueries& queries,
                                        std::shared_ptr<const BandMetric>* held) const {
  const Metric& band = route.band;
  const bool start_priced = band.ZoneMultiplier(route.exempt_a) != 1.0;
  const bool goal_priced = band.ZoneMultiplier(route.exempt_b) != 1.0;
  if (!band.prices_danger() || (!start_priced && !goal_priced)) return nullptr;
  // The band's metric, made once the band is walked often enough: this walk counts as one, as
  // a walk whose ends the band does not price does (counted for more, the metric was made
  // again and again in the routes stage as the memory target evicted it).
  *held = CountedBandMetric(route, 1);
  if (*held == nullptr) return nullptr;
  const std::shared_ptr<const ZoneBorder> start =
      start_priced ? ZoneBorderAt(route.index, route.p, route.profile, route.exempt_a) : nullptr;
  const std::shared_ptr<const ZoneBorder> goal =
      goal_priced ? ZoneBorderAt(route.index, route.p, route.profile, route.exempt_b) : nullptr;
  queries.zone_bound.Reset({.band_zero = *route.profile.metric,
                            .band = (*held)->metric,
                            .start = start.get(),
                            .goal = goal.get(),
                            .targets = route.targets,
                            .goal_zero = queries.potential,
                            .band_serial = (*held)->serial});
  return &queries.zone_bound;
}

void AbstractRouter::CountUnguided(const RouteState& route, std::uint64_t settled) const {
  // The count of walks stands for the A*'s time spent without the metric, so that the metric
  // is made once that time is about what making it costs; an unguided priced end settles tens
  // of thousands of nodes where the walks counted settle a few thousand.
  const std::uint64_t more =
      settled /
      std::max<std::uint64_t>(1, settled_per_counted_walk_.load(std::memory_order_relaxed));
  if (more > 0) CountedBandMetric(route, more);
}

std::shared_ptr<const BandMetric> AbstractRouter::CountedBandMetric(const RouteState& route,
                                                                    std::uint64_t walks) const {
  if (!band_metrics_.Admits(BandKey(route), route.profile.metric->MemoryBytes())) return nullptr;
  // Being customized by another walk: this one helps make it where a core is left for it
  // (CustomizeCrew; then WantsMade finds it), else goes on unguided rather than wait idle for it.
  if (band_metrics_.MakingElsewhere(BandKey(route))) return nullptr;
  const std::uint32_t after =
      std::max<std::uint32_t>(1, band_metric_after_.load(std::memory_order_relaxed));
  const auto counted = static_cast<std::uint32_t>(std::min<std::uint64_t>(walks, after));
  if (!WantsMade(BandKey(route), after, counted)) return nullptr;
  return BandMetricOf(route.index, route.p, route.profile, route.band);
}

std::shared_ptr<const ZoneBorder> AbstractRouter::ZoneBorderAt(const ContinentIndex& index, int p,
                                                               const ProfileMetric& profile,
                                                               std::uint16_t zone) const {
  const std::uint64_t key_of_zone0 =
      (std::uint64_t(&index - continents_.data()) << 32) | (std::uint64_t(p) << 16);
  auto find = [&]() -> std::shared_ptr<const ZoneBorder> {
    std::lock_guard<std::mutex> lock(zone_borders_mu_);
    auto it = zone_borders_.find(key_of_zone0 | zone);
    if (it != zone_borders_.end()) return it->second;
    if (!zone_borders_made_.contains(key_of_zone0)) return nullptr;
    // Made without it: the zone has no arcs here.
    return zone_borders_.emplace(key_of_zone0 | zone, std::make_shared<const ZoneBorder>())
        .first->second;
  };
  if (std::shared_ptr<const ZoneBorder> border = find()) return border;
  // Every zone's border at once (one pass over the arcs, where one zone's took one), made by
  // one thread while the others wait for it.
  std::lock_guard<std::mutex> making(zone_borders_making_mu_);
  if (std::shared_ptr<const ZoneBorder> border = find()) return border;
  std::vector<ZoneBorder> borders = ZoneBordersOf(*index.graph, *profile.prices, profile.zone_arcs);
  if (borders.size() <= zone) borders.resize(zone + 1u);  // a zone with no arcs: no border
  std::lock_guard<std::mutex> lock(zone_borders_mu_);
  for (std::uint32_t z = 0; z < borders.size(); ++z) {
    zone_borders_.emplace(key_of_zone0 | z,
                          std::make_shared<const ZoneBorder>(std::move(borders[z])));
  }
  zone_borders_made_.insert(key_of_zone0);
  return zone_borders_.at(key_of_zone0 | zone);
}

absl::StatusOr<std::shared_ptr<const ZoneBorder>> AbstractRouter::ZoneBorderOf(
    const Continent& c, int p, std::uint16_t zone) const {
  const ContinentIndex* index = IndexOf(c);
  if (index == nullptr || p < 0 || p >= static_cast<int>(graph_.profiles.size())) return nullptr;
  absl::StatusOr<const ProfileMetric*> profile = ProfileOf(*index, p);
  if (!profile.ok()) return profile.status();
  return ZoneBorderAt(*index, p, **profile, zone);
}

const ReverseArcs* AbstractRouter::ReverseArcsOf(const Continent& c) const {
  const ContinentIndex* index = IndexOf(c);
  if (index == nullptr) return nullptr;
  const std::size_t i = index - continents_.data();
  std::lock_guard<std::mutex> lock(reverse_arcs_mu_);
  if (reverse_arcs_.size() <= i) reverse_arcs_.resize(continents_.size());
  if (reverse_arcs_[i] == nullptr) {
    reverse_arcs_[i] = std::make_unique<const ReverseArcs>(ReverseArcs::Of(*index->graph));
    metric_bytes_ += reverse_arcs_[i]->MemoryBytes();
  }
  return reverse_arcs_[i].get();
}

const ReachMaps* AbstractRouter::ReachMapsOf(const Continent& c, int p) const {
  const ContinentIndex* index = IndexOf(c);
  if (index == nullptr || p < 0 || p >= static_cast<int>(graph_.profiles.size())) return nullptr;
  const absl::StatusOr<const ProfileMetric*> profile = ProfileOf(*index, p);
  const ReverseArcs* reverse = ReverseArcsOf(c);
  if (!profile.ok() || reverse == nullptr) return nullptr;
  const std::uint64_t key = (std::uint64_t(index - continents_.data()) << 32) | std::uint64_t(p);
  std::lock_guard<std::mutex> lock(reach_maps_mu_);
  std::unique_ptr<const ReachMaps>& maps = reach_maps_[key];
  if (maps == nullptr) {
    const ArcPrices& prices = *(*profile)->prices;
    maps = std::make_unique<const ReachMaps>(
        ReachMaps{.giant = GiantPart::Of(c, *index->graph, prices, *reverse),
                  .zones = NodeZones::Of(*index->graph, prices, *reverse)});
    metric_bytes_ += maps->MemoryBytes();
  }
  return maps.get();
}

bool AbstractRouter::WalkInTile(RouteState& route, bool want_steps) const {
  CellSearch& search = route.searcher.cell;
  AbstractWalk& walk = route.walk;
  // Bounded by the graph's way: the A* stops once it cannot beat it, so it costs little when
  // the graph's way is good; on a tie the graph's way stands.
  search.Run(route.c, CellOf(route.c, kTileColumns, route.from), route.band,
             {.origin = route.from,
              .exempt_a = route.exempt_a,
              .exempt_b = route.exempt_b,
              .stop_at = route.to,
              .bound = route.seconds});
  walk.stats.nodes_expanded += search.settled_count();
  if (!search.Settled(route.to) || !(search.Seconds(route.to) < route.seconds)) return false;
  walk.found = true;
  walk.method = Method::kTile;
  walk.seconds = search.Seconds(route.to);
  search.Steps(route.to, &walk.steps);
  walk.yards = WalkedColumns(walk.steps) * world_.column_yards;
  walk.zone_cells =
      ZoneCellsOf(route.c, world_.FrameOf(route.c), route.band.profile().smoothing, walk.steps);
  if (!want_steps) walk.steps.clear();
  return true;
}

void AbstractRouter::TallyPieces(RouteState& route) const {
  const ContinentGraph& g = route.g;
  const Leg::Entry& first = route.start->entries[route.source];
  const Leg::Entry& last = route.goal->entries[route.target];
  const ArcPrices& prices = *route.profile.prices;
  ZoneCellTally tally(route.c, world_.FrameOf(route.c), route.band.profile().smoothing);
  route.walk.yards = first.yards + last.yards;
  tally.Add(route.from, g.node_surface[first.node], first.yards, route.start->MixOf(first));
  std::uint32_t tail = first.node;
  for (std::uint32_t a : route.arcs) {
    const std::uint32_t head = g.arc_head[a];
    route.walk.yards += prices.yards[a];
    tally.Add(g.node_surface[tail], g.node_surface[head], prices.yards[a], prices.MixOf(a));
    tail = head;
  }
  tally.Add(g.node_surface[last.node], route.to, last.yards, route.goal->MixOf(last));
  route.walk.zone_cells = tally.Cells();
}

void AbstractRouter::UnpackSteps(RouteState& route) const {
  // An arc between two portals of one border line was priced in both its cells: the cheaper way
  // is taken again; a lift arc is its ride. The zone cells stay the tally's: an answer is the same
  // whether or not its path was asked for (the store keeps one answer per ends and model).
  const Continent& c = route.c;
  const ContinentGraph& g = route.g;
  const std::uint32_t cc = graph_.cell_columns;
  const Metric& base = base_[route.p];
  CellSearch& search = route.searcher.cell;
  std::vector<PathStep>& steps = route.walk.steps;
  const Leg::Entry& first = route.start->entries[route.source];
  const Leg::Entry& last = route.goal->entries[route.target];
  std::vector<PathStep> piece;
  auto cell_piece = [&](const Cell& cell, SurfaceId a, SurfaceId b) {
    search.Run(c, cell, base, {.origin = a, .stop_at = b});
    search.Steps(b, &piece);
    Append(piece, &steps);
  };
  std::vector<PathStep> best_piece;
  std::uint32_t shared[3];
  cell_piece(CellOf(c, cc, route.from), route.from, g.node_surface[first.node]);
  std::uint32_t tail = first.node;
  for (std::uint32_t a : route.arcs) {
    const SurfaceId sa = g.node_surface[tail], sb = g.node_surface[g.arc_head[a]];
    double best = kInfCost;
    best_piece.clear();
    const int count = g.SharedCells(c, cc, sa, sb, shared);
    for (int i = 0; i < count; ++i) {
      search.Run(c, CellAt(c, cc, shared[i] % g.cells_x * cc, shared[i] / g.cells_x * cc), base,
                 {.origin = sa, .stop_at = sb});
      if (search.Settled(sb) && search.Seconds(sb) < best) {
        best = search.Seconds(sb);
        search.Steps(sb, &best_piece);
      }
    }
    // A lift arc: the ride itself, where it is the cheaper way (the arc kept the cheaper).
    if (const LiftRide* ride = c.FindRide(sa, sb); ride != nullptr &&
                                                   RideLeavesCell(c, cc, *ride) &&
                                                   base.LiftSeconds(c, *ride, 0, 0) < best) {
      best_piece = {{sa, PathStep::kViaStart}, {sb, PathStep::kViaLift}};
    }
    Append(best_piece, &steps);
    tail = g.arc_head[a];
  }
  cell_piece(CellOf(c, cc, route.to), g.node_surface[last.node], route.to);
}

}  // namespace walk::nav
