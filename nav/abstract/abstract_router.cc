#include "nav/abstract/abstract_router.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "nav/cost/zone_cells.h"
#include "nav/cost/zone_mix.h"

namespace walk::nav {
namespace {

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

CchQuery& AbstractSearcher::QueryFor(const Cch& cch) {
  std::unique_ptr<CchQuery>& query = cch_queries[&cch];
  if (query == nullptr) query = std::make_unique<CchQuery>(cch);
  return *query;
}

AbstractRouter::AbstractRouter(const World& world, AbstractGraph graph,
                               std::uint64_t leg_cache_bytes)
    : world_(world), graph_(std::move(graph)), legs_(leg_cache_bytes) {
  for (const std::string& name : graph_.profiles) base_.emplace_back(world, *FindProfile(name), 0);
  timings_.memory_bytes = graph_.MemoryBytes();
  for (std::size_t i = 0; i < graph_.continents.size(); ++i) {
    const ContinentGraph& g = graph_.continents[i];
    ContinentIndex index;
    index.continent = &world.continents[i];
    index.graph = &g;
    auto start = std::chrono::steady_clock::now();
    index.cch = std::make_unique<Cch>(g.node_count(), g.order, g.ArcTails(), g.arc_head);
    timings_.cch_build_seconds += SecondsSince(start);
    timings_.cch_arcs += index.cch->arc_count();
    timings_.memory_bytes += index.cch->MemoryBytes();
    // One metric per profile, customized side by side: they share only the (immutable) CCH.
    start = std::chrono::steady_clock::now();
    index.metrics.resize(g.prices.size());
    index.seconds_per_column.resize(g.prices.size());
    for (std::size_t p = 0; p < g.prices.size(); ++p) {
      index.guesses.push_back(std::make_unique<CostGuess>());
      index.straight_guesses.push_back(std::make_unique<CostGuess>());
    }
    std::vector<float> node_x(g.node_count()), node_y(g.node_count());
    index.rank_x.resize(g.node_count());
    index.rank_y.resize(g.node_count());
    for (std::uint32_t n = 0; n < g.node_count(); ++n) {
      const SurfaceId s = g.node_surface[n];
      node_x[n] = static_cast<float>(world.continents[i].column_x[s]);
      node_y[n] = static_cast<float>(world.continents[i].column_y[s]);
      index.rank_x[index.cch->rank(n)] = node_x[n];
      index.rank_y[index.cch->rank(n)] = node_y[n];
    }
    const std::vector<std::uint32_t> tails = g.ArcTails();
    // Profiles side by side, and each metric's own customization on the cores left over (one
    // profile on two cores customizes on two threads).
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t threads = std::min<std::size_t>(g.prices.size(), cores);
    const unsigned threads_per_metric =
        std::max<unsigned>(1, cores / std::max<std::size_t>(1, threads));
    std::atomic<std::size_t> next{0};
    auto customize = [&] {
      for (std::size_t p; (p = next.fetch_add(1)) < g.prices.size();) {
        const std::vector<double> weights(g.prices[p].seconds.begin(), g.prices[p].seconds.end());
        index.metrics[p] =
            std::make_unique<CchMetric>(*index.cch, weights, /*perfect=*/false, threads_per_metric);
        index.seconds_per_column[p] =
            CchBound::LowestCostPerUnit(tails, g.arc_head, weights, node_x, node_y);
      }
    };
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(customize);
    customize();
    for (std::thread& t : pool) t.join();
    timings_.customize_seconds += SecondsSince(start);
    for (const auto& metric : index.metrics) timings_.memory_bytes += metric->MemoryBytes();
    timings_.memory_bytes += 2 * sizeof(float) * index.rank_x.size();
    continents_.push_back(std::move(index));
  }
}

const AbstractRouter::ContinentIndex* AbstractRouter::IndexOf(const Continent& c) const {
  for (const ContinentIndex& index : continents_) {
    if (index.continent == &c) return &index;
  }
  return nullptr;
}

std::shared_ptr<const Leg> AbstractRouter::LegOf(std::uint32_t continent_index,
                                                 const ContinentGraph& g, const Continent& c,
                                                 int profile, SurfaceId s, bool backward,
                                                 CellSearch& search, SearchStats* stats) const {
  const LegCache::Key key{continent_index, s, static_cast<std::uint16_t>(profile), backward};
  if (auto leg = legs_.Find(key)) return leg;
  auto leg = std::make_shared<const Leg>(ComputeLeg(c, world_.column_yards, g, graph_.cell_columns,
                                                    base_[profile], s, backward, search));
  stats->nodes_expanded += search.settled_count();
  legs_.Insert(key, leg);
  return leg;
}

namespace {

// The hierarchy arcs from which a query's directions go to the walk helper: the 8 x 8 demo world
// (3.4 M arcs at graph version 4, 200 µs queries) gained nothing from it, the 32 x 32 one (26.6 M
// then, 18.0 M at version 5) a quarter or more.
constexpr std::uint64_t kHelperQueryArcs = 8'000'000;
// The hierarchy arcs from which queries are pruned against a guessed upper bound: it costs a
// little on the small worlds (the oilrig mesh, 0.3 M arcs: 90 against 59 µs with the plain
// bound) and pays from the 8 x 8 demo world (3.4 M: 202 against 237 µs).
constexpr std::uint64_t kGuessArcs = 1'000'000;

}  // namespace

double StraightLineFloor(const Continent& c, SurfaceId from, SurfaceId to,
                         double seconds_per_column) {
  return seconds_per_column *
         OctileColumns(std::abs(static_cast<double>(c.column_x[from]) - c.column_x[to]),
                       std::abs(static_cast<double>(c.column_y[from]) - c.column_y[to]));
}

CchQuery::SeedArea CellArea(const Continent& c, std::uint32_t cell_columns, SurfaceId s) {
  const Cell cell = CellOf(c, cell_columns, s);
  CchQuery::SeedArea area;
  area.x0 = cell.x0 > 0 ? cell.x0 - 1 : 0;  // portals one step outside count too
  area.y0 = cell.y0 > 0 ? cell.y0 - 1 : 0;
  area.x1 = cell.x1;
  area.y1 = cell.y1;
  area.cheapest = 0.0;
  return area;
}

absl::StatusOr<AbstractWalk> AbstractRouter::Route(const Continent& c, const Metric& band,
                                                   SurfaceId from, SurfaceId to, SearchMode mode,
                                                   bool want_steps,
                                                   AbstractSearcher& searcher) const {
  const ContinentIndex* index = IndexOf(c);
  const int p = graph_.ProfileIndex(band.profile().name);
  if (index == nullptr || p < 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("search: profile \"", band.profile().name,
                     "\" has no abstract graph on this world (walkgrid prepare --profiles)"));
  }
  const bool danger = band.prices_danger();
  if (mode == SearchMode::kCch && danger) {
    return absl::FailedPreconditionError(
        "search: the CCH prices no danger; ask band 0, or search dijkstra or auto");
  }
  const ContinentGraph& g = *index->graph;
  const std::uint32_t continent_index = static_cast<std::uint32_t>(index - continents_.data());
  const std::uint16_t exempt_a = c.zone[from], exempt_b = c.zone[to];
  AbstractWalk walk;
  std::shared_ptr<const Leg> start, goal;
  std::vector<CchQuery::Seed> sources, targets;  // the legs' entrances, for the CCH
  auto seeds_of = [](const Leg& leg, std::vector<CchQuery::Seed>* seeds) {
    for (const Leg::Entry& e : leg.entries) seeds->push_back({e.node, e.seconds});
  };
  std::vector<std::uint32_t> arcs;
  std::uint32_t source = kInvalidId, target = kInvalidId;
  double seconds = kInfCost;
  const bool use_cch = mode == SearchMode::kCch || (mode == SearchMode::kAuto && !danger);
  const LegCache::Key start_key{continent_index, from, static_cast<std::uint16_t>(p), false};
  const LegCache::Key goal_key{continent_index, to, static_cast<std::uint16_t>(p), true};
  const bool cold = from != to && !legs_.Contains(start_key) && !legs_.Contains(goal_key);
  // Both legs, the goal's on the helper thread when the walk is cold and the helper idle, while
  // this thread computes the start's.
  auto legs_side_by_side = [&] {
    if (cold && start == nullptr && goal == nullptr) {
      SearchStats goal_stats;
      const std::uint64_t ticket = helper_.TryRun([&](CellSearch& search) {
        goal = LegOf(continent_index, g, c, p, to, true, search, &goal_stats);
      });
      if (ticket != 0) {
        start = LegOf(continent_index, g, c, p, from, false, searcher.cell, &walk.stats);
        helper_.Wait(ticket);
        walk.stats.nodes_expanded += goal_stats.nodes_expanded;
      }
    }
    if (start == nullptr)
      start = LegOf(continent_index, g, c, p, from, false, searcher.cell, &walk.stats);
    if (goal == nullptr)
      goal = LegOf(continent_index, g, c, p, to, true, searcher.cell, &walk.stats);
  };

  if (use_cch) {
    const CchBound bound{&index->rank_x, &index->rank_y, index->seconds_per_column[p]};
    CchQuery& query = searcher.QueryFor(*index->cch);
    const CchMetric& metric = *index->metrics[p];
    CchQuery::Result r;
    bool searched = false;
    auto on_helper = [this](absl::FunctionRef<void()> here, absl::FunctionRef<void()> there) {
      helper_.Both(here, there);
    };
    // Two pieces of the query on the helper as well when `use` holds, else one after the other.
    auto both_if = [&](bool use) {
      return use ? CchQuery::RunBoth(on_helper) : CchQuery::RunBoth(CchQuery::OneAfterTheOther);
    };
    // The guessed bound pays on hierarchies whose queries take hundreds of µs; on small ones
    // the plain bound is as quick.
    const bool guessed = index->cch->arc_count() >= kGuessArcs;
    if (cold) {
      // A cold walk, pipelined: the start leg and then the query's forward side on the helper
      // thread, when it is idle, while this thread computes the goal leg and then the backward
      // side; the two sides meet once both are done. Neither waits for the other's leg: each
      // prunes toward the other end's cell (where that leg's entrances lie), against a guessed
      // upper bound over the straight line between the ends (none on small hierarchies).
      const CchQuery::SeedArea start_area = CellArea(c, graph_.cell_columns, from);
      const CchQuery::SeedArea goal_area = CellArea(c, graph_.cell_columns, to);
      CostGuess& guess = *index->straight_guesses[p];
      const double straight = StraightLineFloor(c, from, to, bound.cost_per_unit);
      const bool guess_straight = guessed && straight > 0.0;
      const double below = guess_straight ? guess.Upper(straight) : kInfCost;
      query.SplitBegin(metric);
      SearchStats helper_stats;
      // The helper takes the start leg: forward legs are the quicker (438 against 473 µs alone
      // on the 32 x 32 world), and the helper's half finishes last more often than not.
      const std::uint64_t ticket = helper_.TryRun([&](CellSearch& search) {
        start = LegOf(continent_index, g, c, p, from, false, search, &helper_stats);
        seeds_of(*start, &sources);
        query.SplitSide(Cch::kForward, metric, sources, &bound, goal_area, below);
      });
      if (ticket != 0) {
        goal = LegOf(continent_index, g, c, p, to, true, searcher.cell, &walk.stats);
        seeds_of(*goal, &targets);
        query.SplitSide(Cch::kBackward, metric, targets, &bound, start_area, below);
        helper_.Wait(ticket);
        walk.stats.nodes_expanded += helper_stats.nodes_expanded;
        // The helper has just finished (and spins a while): the path's way down unpacks there.
        r = query.SplitEnd(metric, below, &arcs, both_if(guessed));
        if (guess_straight)
          r = RetryUnguessed(query, metric, bound, guess, straight, sources, targets, &arcs,
                             nullptr, r);
        searched = true;
      }
    }
    if (!searched) {
      legs_side_by_side();
      seeds_of(*start, &sources);
      seeds_of(*goal, &targets);
      // Its two directions side by side when the helper is idle, on hierarchies whose queries
      // take long enough to pay for waking it (tens of µs on these machines).
      if (guessed) {
        r = RunGuessed(query, metric, bound, *index->guesses[p],
                       BoundBetween(bound, *index->cch, sources, targets), sources, targets, &arcs,
                       nullptr, both_if(index->cch->arc_count() >= kHelperQueryArcs));
      } else {
        r = query.Run(metric, sources, targets, &arcs, &bound);
      }
    }
    walk.method = Method::kCch;
    if (r.found) {
      seconds = r.cost;
      source = r.source;
      target = r.target;
    }
  } else {
    legs_side_by_side();
    auto priced = [&](const Leg& leg, const Leg::Entry& e) {
      return danger ? DangerSeconds(e.seconds, leg.MixOf(e), band, exempt_a, exempt_b) : e.seconds;
    };
    std::vector<PricedNode> dijkstra_sources, dijkstra_targets;
    for (const Leg::Entry& e : start->entries)
      dijkstra_sources.push_back({e.node, priced(*start, e)});
    for (const Leg::Entry& e : goal->entries)
      dijkstra_targets.push_back({e.node, priced(*goal, e)});
    const DangerDijkstraResult r = searcher.dijkstra.Run(g, g.prices[p], band, exempt_a, exempt_b,
                                                         dijkstra_sources, dijkstra_targets, &arcs);
    walk.method = Method::kDijkstra;
    walk.stats.nodes_expanded += r.settled;
    if (r.found) {
      seconds = r.seconds;
      source = r.source;
      target = r.target;
    }
  }

  const double smoothing = band.profile().smoothing;
  const std::uint32_t cc = graph_.cell_columns;
  // Two ends in one tile: the tile's own way (an A* that stays in the tile) when it is cheaper.
  if (mode == SearchMode::kAuto && SameCell(c, kTileColumns, from, to)) {
    // Bounded by the graph's way: the A* stops once it cannot beat it, so it costs little when
    // the graph's way is good; on a tie the graph's way stands.
    searcher.cell.Run(c, CellOf(c, kTileColumns, from), band, from, false, exempt_a, exempt_b, {},
                      to, seconds);
    walk.stats.nodes_expanded += searcher.cell.settled_count();
    if (searcher.cell.Settled(to) && searcher.cell.Seconds(to) < seconds) {
      walk.found = true;
      walk.method = Method::kTile;
      walk.seconds = searcher.cell.Seconds(to);
      searcher.cell.Steps(to, &walk.steps);
      walk.yards = WalkedColumns(walk.steps) * world_.column_yards;
      walk.zone_cells = ZoneCellsOf(c, world_.column_yards, smoothing, walk.steps);
      if (!want_steps) walk.steps.clear();
      return walk;
    }
  }
  if (!(seconds < kInfCost)) return walk;

  walk.found = true;
  walk.seconds = seconds;
  const Leg::Entry& first = start->entries[source];
  const Leg::Entry& last = goal->entries[target];
  const ArcPrices& prices = g.prices[p];
  ZoneCellTally tally(c, world_.column_yards, smoothing);
  walk.yards = first.yards + last.yards;
  tally.Add(from, g.node_surface[first.node], first.yards, start->MixOf(first));
  std::uint32_t tail = first.node;
  for (std::uint32_t a : arcs) {
    const std::uint32_t head = g.arc_head[a];
    walk.yards += prices.yards[a];
    tally.Add(g.node_surface[tail], g.node_surface[head], prices.yards[a], prices.MixOf(a));
    tail = head;
  }
  tally.Add(g.node_surface[last.node], to, last.yards, goal->MixOf(last));
  walk.zone_cells = tally.Cells();
  if (!want_steps) return walk;

  // Unpack: each piece searched again inside its cell. An arc between two portals of one border
  // line was priced in both its cells: the cheaper way is taken again.
  const Metric& base = base_[p];
  std::vector<PathStep> piece;
  auto cell_piece = [&](const Cell& cell, SurfaceId a, SurfaceId b) {
    searcher.cell.Run(c, cell, base, a, false, 0, 0, {}, b);
    searcher.cell.Steps(b, &piece);
    Append(piece, &walk.steps);
  };
  std::vector<PathStep> best_piece;
  std::uint32_t shared[3];
  cell_piece(CellOf(c, cc, from), from, g.node_surface[first.node]);
  tail = first.node;
  for (std::uint32_t a : arcs) {
    const SurfaceId sa = g.node_surface[tail], sb = g.node_surface[g.arc_head[a]];
    double best = kInfCost;
    best_piece.clear();
    const int count = g.SharedCells(c, cc, sa, sb, shared);
    for (int i = 0; i < count; ++i) {
      searcher.cell.Run(c, CellAt(c, cc, shared[i] % g.cells_x * cc, shared[i] / g.cells_x * cc),
                        base, sa, false, 0, 0, {}, sb);
      if (searcher.cell.Settled(sb) && searcher.cell.Seconds(sb) < best) {
        best = searcher.cell.Seconds(sb);
        searcher.cell.Steps(sb, &best_piece);
      }
    }
    Append(best_piece, &walk.steps);
    tail = g.arc_head[a];
  }
  cell_piece(CellOf(c, cc, to), g.node_surface[last.node], to);
  // The zone cells stay the tally's: an answer is the same whether or not its path was asked for
  // (the store keeps one answer per ends and model).
  return walk;
}

}  // namespace walk::nav
