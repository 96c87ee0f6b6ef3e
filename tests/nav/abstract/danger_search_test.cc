// The danger search over random graphs: as an A* guided by band-0 CCH distances it finds what the
// plain Dijkstra finds, for every band, with zones of every level on the arcs and the ends'
// zones exempt; wanted at most some seconds, it stops short exactly when the way costs more.
// Guided by the zone bound (band-0 and band-metric distances cut at the ends' zones) it finds the
// same, and the bound never exceeds what a node's way to the goal costs. Two places' reaches
// across their zones, met over the band's metric, never cost less than the walk, and cost what it
// costs wherever MeetSides says it knows them.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "nav/abstract/band_metrics.h"
#include "nav/abstract/danger_dijkstra.h"
#include "nav/abstract/zone_bound.h"
#include "nav/abstract/zone_reach.h"
#include "nav/cch/cch.h"
#include "nav/cch/cch_metric.h"
#include "nav/cch/cch_order.h"
#include "nav/cch/cch_potential.h"
#include "nav/cost/danger.h"

namespace walk::nav {
namespace {

// A world of zones only: what a Metric needs to price danger. Zone z (1 .. 6) is for levels
// from 10 * z - 5, so every band finds zones above it, far above it and below it.
World ZonesOnly() {
  World world;
  for (std::uint16_t z = 1; z <= 6; ++z) {
    world.zones.push_back(Zone{.id = z,
                               .name = "zone " + std::to_string(z),
                               .min_level = static_cast<std::uint16_t>(10 * z - 5),
                               .max_level = static_cast<std::uint16_t>(10 * z + 5)});
  }
  return world;
}

// `nodes` nodes, arcs mostly between near ids plus a few long ones, some absent (+inf); each arc
// spends a random part of its seconds in up to two zones.
ContinentGraph RandomGraph(std::uint32_t nodes, std::uint32_t arcs, std::mt19937_64& rng) {
  std::uniform_int_distribution<std::uint32_t> any(0, nodes - 1);
  std::uniform_int_distribution<int> near(-5, 5);
  std::bernoulli_distribution far(0.1), absent(0.03);
  std::uniform_real_distribution<float> seconds(0.5f, 30.0f), part(0.0f, 1.0f);
  std::uniform_int_distribution<int> zone_count(0, 2);
  std::uniform_int_distribution<std::uint16_t> zone(1, 6);
  std::vector<std::vector<std::uint32_t>> heads(nodes);
  for (std::uint32_t a = 0; a < arcs; ++a) {
    const std::uint32_t tail = any(rng);
    const std::uint32_t head =
        far(rng) ? any(rng)
                 : static_cast<std::uint32_t>(std::clamp<std::int64_t>(
                       std::int64_t{tail} + near(rng), 0, std::int64_t{nodes} - 1));
    heads[tail].push_back(head);
  }
  ContinentGraph g;
  g.node_surface.resize(nodes);
  g.first_arc.push_back(0);
  ArcPrices prices;
  prices.mix_first.push_back(0);
  for (std::uint32_t v = 0; v < nodes; ++v) {
    g.node_surface[v] = v;
    for (const std::uint32_t h : heads[v]) {
      g.arc_head.push_back(h);
      const float s = absent(rng) ? kInfCost : seconds(rng);
      prices.seconds.push_back(s);
      prices.yards.push_back(s);
      std::vector<ZoneShare> mix;
      for (int k = zone_count(rng); k > 0; --k) {
        const std::uint16_t z = zone(rng);
        if (std::none_of(mix.begin(), mix.end(), [z](const ZoneShare& m) { return m.zone == z; }))
          mix.push_back({.zone = z, .seconds = std::isfinite(s) ? s * part(rng) / 2 : 0.0f});
      }
      std::sort(mix.begin(), mix.end(),
                [](const ZoneShare& x, const ZoneShare& y) { return x.zone < y.zone; });
      prices.mix.insert(prices.mix.end(), mix.begin(), mix.end());
      prices.mix_first.push_back(static_cast<std::uint32_t>(prices.mix.size()));
    }
    g.first_arc.push_back(static_cast<std::uint32_t>(g.arc_head.size()));
  }
  g.prices.push_back(std::move(prices));
  return g;
}

std::vector<PricedNode> RandomEnds(std::uint32_t nodes, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> count(1, 4);
  std::uniform_int_distribution<std::uint32_t> node(0, nodes - 1);
  std::uniform_real_distribution<double> seconds(0.0, 20.0);
  std::vector<PricedNode> ends(count(rng));
  for (PricedNode& e : ends) e = {node(rng), seconds(rng)};
  return ends;
}

// A Cch over `g`, its node ids laid out in rows (near ids near each other).
Cch CchOf(const ContinentGraph& g) {
  const std::uint32_t nodes = g.node_count();
  const std::vector<std::uint32_t> tails = g.ArcTails();
  std::vector<float> x(nodes), y(nodes);
  for (std::uint32_t v = 0; v < nodes; ++v) {
    x[v] = static_cast<float>(v % 32);
    y[v] = static_cast<float>(v / 32);
  }
  return Cch(nodes, NestedDissectionOrder(nodes, tails, g.arc_head, x, y), tails, g.arc_head);
}

// The random graphs' sizes: nodes and arcs.
const std::vector<std::pair<std::uint32_t, std::uint32_t>> kGraphSizes = {
    {2, 2}, {20, 50}, {200, 700}, {1000, 3500}};

// The targets at their band-0 seconds, as the potentials take them (here the ends carry no
// danger).
std::vector<CchEndpoint> BaseTargets(const std::vector<PricedNode>& targets) {
  std::vector<CchEndpoint> base;
  for (const PricedNode& t : targets) base.push_back({t.node, t.seconds});
  return base;
}

// The borders of zones 0 .. 6, by zone; all made at once, each the same as made alone.
std::vector<ZoneBorder> BordersOf(const ContinentGraph& g, const ArcPrices& prices,
                                  const ZoneArcs& zone_arcs) {
  std::vector<ZoneBorder> borders = ZoneBordersOf(g, prices, zone_arcs);
  borders.resize(7);
  for (std::uint16_t z = 0; z <= 6; ++z) {
    const ZoneBorder alone = ZoneBorderOf(g, prices, zone_arcs.Of(z), z);
    EXPECT_EQ(borders[z].exits, alone.exits) << "zone " << z;
    EXPECT_EQ(borders[z].entries, alone.entries) << "zone " << z;
    EXPECT_EQ(borders[z].heads, alone.heads) << "zone " << z;
    EXPECT_EQ(borders[z].tails, alone.tails) << "zone " << z;
    EXPECT_EQ(borders[z].inner_heads, alone.inner_heads) << "zone " << z;
    EXPECT_EQ(borders[z].inner_tails, alone.inner_tails) << "zone " << z;
  }
  return borders;
}

TEST(DangerSearchTest, TheGuidedSearchCostsWhatTheDijkstraCostsOnRandomGraphs) {
  const World world = ZonesOnly();
  std::mt19937_64 rng(41);
  std::uniform_int_distribution<std::uint16_t> exempt(0, 6);
  for (const auto& [nodes, arcs] : kGraphSizes) {
    const ContinentGraph g = RandomGraph(nodes, arcs, rng);
    const Cch cch = CchOf(g);
    const CchMetric metric(cch, {g.prices[0].seconds.begin(), g.prices[0].seconds.end()});
    DangerDijkstra plain, guided;
    CchPotential potential(cch);
    std::uint64_t plain_settled = 0, guided_settled = 0;
    int found = 0, dearer = 0;
    for (const std::uint32_t band : kDangerBands) {
      const Metric metric_band(world, *FindProfile("neutral"), band);
      for (int q = 0; q < 60; ++q) {
        const std::vector<PricedNode> sources = RandomEnds(nodes, rng);
        const std::vector<PricedNode> targets = RandomEnds(nodes, rng);
        DangerDijkstra::Request request{.graph = g,
                                        .prices = g.prices[0],
                                        .band = metric_band,
                                        .exempt_a = exempt(rng),
                                        .exempt_b = exempt(rng),
                                        .sources = sources,
                                        .targets = targets};
        const DangerDijkstraResult want = plain.Run(request);
        potential.Reset(metric, BaseTargets(targets));
        request.potential = &potential;
        const DangerDijkstraResult got = guided.Run(request);
        ASSERT_EQ(got.found, want.found) << nodes << " nodes, band " << band << ", query " << q;
        if (!want.found) continue;
        ++found;
        EXPECT_NEAR(got.seconds, want.seconds, 1e-9 * std::max(1.0, want.seconds))
            << nodes << " nodes, band " << band << ", query " << q;
        plain_settled += want.settled;
        guided_settled += got.settled;
        // Wanted at most a little less than it costs, the search says only "dearer" (or, having
        // met the way before any key above that, finds it); at most a little more, it finds it.
        request.max_seconds = want.seconds * (1.0 - 1e-6) - 1e-9;
        const DangerDijkstraResult short_of = guided.Run(request);
        if (short_of.dearer) {
          ++dearer;
          EXPECT_FALSE(short_of.found) << nodes << " nodes, query " << q;
        } else {
          ASSERT_TRUE(short_of.found) << nodes << " nodes, query " << q;
          EXPECT_EQ(short_of.seconds, got.seconds) << nodes << " nodes, query " << q;
        }
        request.max_seconds = want.seconds * (1.0 + 1e-6) + 1e-9;
        const DangerDijkstraResult enough = guided.Run(request);
        ASSERT_TRUE(enough.found && !enough.dearer) << nodes << " nodes, query " << q;
        EXPECT_EQ(enough.seconds, got.seconds);
      }
    }
    EXPECT_GT(found, 0) << nodes << " nodes";
    if (nodes >= 200) {
      EXPECT_GT(dearer, found / 2) << nodes << " nodes";
      EXPECT_LT(guided_settled, plain_settled) << nodes << " nodes";
    }
  }
}

TEST(DangerSearchTest, TheZoneBoundNeverOverestimatesAndTheSearchItGuidesStaysExact) {
  const World world = ZonesOnly();
  std::mt19937_64 rng(43);
  std::uniform_int_distribution<std::uint16_t> exempt(0, 6);
  for (const auto& [nodes, arcs] : kGraphSizes) {
    const ContinentGraph g = RandomGraph(nodes, arcs, rng);
    const ArcPrices& prices = g.prices[0];
    const Cch cch = CchOf(g);
    const CchMetric band_zero(cch, {prices.seconds.begin(), prices.seconds.end()});
    const ZoneArcs zone_arcs(prices);
    const std::vector<ZoneBorder> borders = BordersOf(g, prices, zone_arcs);
    DangerDijkstra plain, guided, from_node, resumed;
    CchPotential goal_zero(cch);
    ZoneBound bound(cch);
    int found = 0, nodes_checked = 0, gave_up = 0;
    for (const std::uint32_t band : kDangerBands) {
      const Metric metric_band(world, *FindProfile("neutral"), band);
      if (!metric_band.prices_danger()) continue;  // walkd bounds danger bands' walks alone
      const CchMetric band_metric(cch, BandWeights(prices, metric_band));
      auto border = [&](std::uint16_t z) {
        return metric_band.ZoneMultiplier(z) != 1.0 ? &borders[z] : nullptr;
      };
      for (int q = 0; q < 40; ++q) {
        const std::vector<PricedNode> sources = RandomEnds(nodes, rng);
        const std::vector<PricedNode> targets = RandomEnds(nodes, rng);
        DangerDijkstra::Request request{.graph = g,
                                        .prices = prices,
                                        .band = metric_band,
                                        .exempt_a = exempt(rng),
                                        .exempt_b = exempt(rng),
                                        .sources = sources,
                                        .targets = targets};
        const DangerDijkstraResult want = plain.Run(request);
        const std::vector<CchEndpoint> base_targets = BaseTargets(targets);
        goal_zero.Reset(band_zero, base_targets);
        bound.Reset({.band_zero = band_zero,
                     .band = band_metric,
                     .start = border(request.exempt_a),
                     .goal = border(request.exempt_b),
                     .targets = base_targets,
                     .goal_zero = goal_zero});
        // Every node's bound against its own way to the targets (the ends' zones exempt).
        for (std::uint32_t v = 0; v < nodes; v += std::max<std::uint32_t>(1, nodes / 50)) {
          const std::vector<PricedNode> at_v = {{v, 0.0}};
          const DangerDijkstraResult way = from_node.Run({.graph = g,
                                                          .prices = prices,
                                                          .band = metric_band,
                                                          .exempt_a = request.exempt_a,
                                                          .exempt_b = request.exempt_b,
                                                          .sources = at_v,
                                                          .targets = targets});
          const double b = bound.ToTargets(v);
          ++nodes_checked;
          if (way.found) {
            EXPECT_LE(b, way.seconds * (1.0 + 1e-9) + 1e-9)
                << nodes << " nodes, band " << band << ", query " << q << ", node " << v;
          }
        }
        // Given up under band-0 seconds after each number of nodes (1, 3, 7, ... on the
        // largest graph), some after a way was met, then resumed under the bound (as a walk
        // with a priced end does): the same seconds.
        DangerDijkstra::Request begin{.graph = g,
                                      .prices = prices,
                                      .band = metric_band,
                                      .exempt_a = request.exempt_a,
                                      .exempt_b = request.exempt_b,
                                      .sources = sources,
                                      .targets = targets,
                                      .potential = &goal_zero};
        const std::uint64_t all = resumed.Run(begin).settled;
        std::vector<std::uint64_t> stops = {all - 1, all - 2, all - 3};
        for (std::uint64_t k = 1; k + 3 < all; k = nodes <= 200 ? k + 1 : 2 * k + 1)
          stops.push_back(k);
        for (const std::uint64_t stop : stops) {
          if (stop == 0 || stop >= all) continue;
          begin.max_settled = stop;
          begin.zone_bound = nullptr;
          begin.resume = false;
          if (!resumed.Run(begin).gave_up) continue;
          ++gave_up;
          begin.max_settled = UINT64_MAX;
          begin.zone_bound = &bound;
          begin.resume = true;
          const DangerDijkstraResult went_on = resumed.Run(begin);
          ASSERT_EQ(went_on.found, want.found)
              << nodes << " nodes, band " << band << ", query " << q << ", stop " << stop;
          if (want.found) {
            EXPECT_NEAR(went_on.seconds, want.seconds, 1e-9 * std::max(1.0, want.seconds))
                << nodes << " nodes, band " << band << ", query " << q << ", stop " << stop;
          }
        }
        request.zone_bound = &bound;
        const DangerDijkstraResult got = guided.Run(request);
        ASSERT_EQ(got.found, want.found) << nodes << " nodes, band " << band << ", query " << q;
        if (!want.found) continue;
        ++found;
        EXPECT_NEAR(got.seconds, want.seconds, 1e-9 * std::max(1.0, want.seconds))
            << nodes << " nodes, band " << band << ", query " << q;
        request.max_seconds = want.seconds * (1.0 - 1e-6) - 1e-9;
        const DangerDijkstraResult short_of = guided.Run(request);
        EXPECT_TRUE(short_of.dearer || short_of.seconds == got.seconds)
            << nodes << " nodes, band " << band << ", query " << q;
      }
    }
    EXPECT_GT(found, 0) << nodes << " nodes";
    EXPECT_GT(nodes_checked, 0);
    if (nodes >= 200) {
      EXPECT_GT(gave_up, 0) << nodes << " nodes";
    }
  }
}

TEST(DangerSearchTest, AZoneBoundResetForTheSameGoalKeepsWhatItPricedAndBoundsAsAFreshOne) {
  const World world = ZonesOnly();
  std::mt19937_64 rng(47);
  std::uniform_int_distribution<std::uint16_t> any_zone(1, 6);
  const ContinentGraph g = RandomGraph(1000, 3500, rng);
  const ArcPrices& prices = g.prices[0];
  const Cch cch = CchOf(g);
  const CchMetric band_zero(cch, {prices.seconds.begin(), prices.seconds.end()});
  const ZoneArcs zone_arcs(prices);
  const std::vector<ZoneBorder> borders = BordersOf(g, prices, zone_arcs);
  const Metric band(world, *FindProfile("neutral"), 10);
  ASSERT_TRUE(band.prices_danger());
  const CchMetric band_metric(cch, BandWeights(prices, band));
  auto border = [&](std::uint16_t z) {
    return band.ZoneMultiplier(z) != 1.0 ? &borders[z] : nullptr;
  };
  CchPotential kept_zero(cch), fresh_zero(cch);
  ZoneBound kept(cch);
  std::vector<CchEndpoint> targets;
  std::uint16_t goal_zone = 0;
  const ZoneBorder* last_start = nullptr;
  std::uint64_t last_serial = 0, want_goals = 0, want_starts = 0;
  for (int q = 0; q < 40; ++q) {
    // Every third walk goes to a new goal (every other one in the last one's zone), the others
    // to the last one's, from its start zone or another; every seventh is under another metric
    // (made alike: only its serial differs).
    const bool new_goal = q % 3 == 0;
    if (new_goal) {
      targets = BaseTargets(RandomEnds(1000, rng));
      if (q % 6 == 3 || goal_zone == 0) goal_zone = any_zone(rng);
    }
    const ZoneBorder* start = border(q % 3 == 2 ? any_zone(rng) : goal_zone);
    const std::uint64_t serial = q % 7 == 6 ? 100 + q : 1;
    EXPECT_EQ(kept_zero.ResetUnlessSame(band_zero, targets), !new_goal) << "query " << q;
    kept.Reset({.band_zero = band_zero,
                .band = band_metric,
                .start = start,
                .goal = border(goal_zone),
                .targets = targets,
                .goal_zero = kept_zero,
                .band_serial = serial});
    if (!new_goal && serial == last_serial) {
      ++want_goals;
      if (start == last_start) ++want_starts;
    }
    last_serial = serial;
    last_start = start;
    EXPECT_EQ(kept.kept_goals(), want_goals) << "query " << q;
    EXPECT_EQ(kept.kept_starts(), want_starts) << "query " << q;
    fresh_zero.Reset(band_zero, targets);
    ZoneBound fresh(cch);
    fresh.Reset({.band_zero = band_zero,
                 .band = band_metric,
                 .start = start,
                 .goal = border(goal_zone),
                 .targets = targets,
                 .goal_zero = fresh_zero});
    for (std::uint32_t v = 0; v < 1000; v += 7)
      ASSERT_EQ(kept.ToTargets(v), fresh.ToTargets(v)) << "query " << q << ", node " << v;
  }
  EXPECT_GT(want_starts, 3u);
  EXPECT_GT(want_goals, want_starts);
}

// A random graph and what reaches read of it, for the tests below.
struct ReachGraph {
  explicit ReachGraph(ContinentGraph graph)
      : g(std::move(graph)),
        prices(g.prices[0]),
        reverse(ReverseArcs::Of(g)),
        zones(NodeZones::Of(g, prices, reverse)),
        zone_arcs(prices),
        borders(BordersOf(g, prices, zone_arcs)) {}
  const ContinentGraph g;
  const ArcPrices& prices;
  const ReverseArcs reverse;
  const NodeZones zones;
  const ZoneArcs zone_arcs;
  const std::vector<ZoneBorder> borders;
};

// Where the reaches of the test below stop short: never, or after a few settled nodes with a
// few border nodes left (which they then keep as far endpoints).
struct ReachStop {
  std::uint64_t far_after = UINT64_MAX;
  std::size_t far_left = 0;
};

// One end's side for the test below: its reach across `zone` (when the band prices it) from or
// into `node`, else the node itself.
PlaceSide ReachOf(const ContinentGraph& g, const Metric& band, const NodeZones& zones,
                  const ReverseArcs* reverse, const ZoneBorder& border, std::uint16_t zone,
                  std::uint32_t node, ReachStop stop, ZoneReachSearch& search,
                  std::vector<PricedNode>* endpoints) {
  PlaceSide side;
  side.zone = zone;
  side.entrances = {{node, 0.0}};
  side.entrance_yards = {0.0f};
  endpoints->clear();
  if (band.ZoneMultiplier(zone) == 1.0) {
    endpoints->push_back({node, 0.0});
    return side;
  }
  side.reached = true;
  side.inner = reverse == nullptr ? border.inner_heads : border.inner_tails;
  ZoneReach reach;
  const std::vector<ReachStart> starts = {{node, 0.0, 0.0f}};
  search.Run({.graph = g,
              .prices = g.prices[0],
              .band = band,
              .zones = zones,
              .zone = zone,
              .reverse = reverse,
              .border = reverse == nullptr ? border.exits : border.entries,
              .inner = side.inner,
              .starts = starts,
              .far_after = stop.far_after,
              .far_left = stop.far_left},
             &reach);
  for (const CchEndpoint& e : reach.endpoints) endpoints->push_back({e.node, e.cost});
  side.reach = std::make_shared<const ZoneReach>(std::move(reach));
  return side;
}

// Pairs met by reaches that stop as `stop` says, against the danger Dijkstra: never below it,
// equal wherever MeetSides says it knows them. Counts the pairs known and refused, those
// answered through a leg entrance inside the other's zone, and the reaches with far border
// nodes.
void MeetReachesOnRandomGraphs(ReachStop stop, int* exact, int* refused, int* with_far,
                               int* inner) {
  const World world = ZonesOnly();
  std::mt19937_64 rng(47);
  std::uniform_int_distribution<std::uint16_t> zone(0, 6);
  for (const auto& [nodes, arcs] : kGraphSizes) {
    const ReachGraph graph(RandomGraph(nodes, arcs, rng));
    const auto& [g, prices, reverse, node_zones, zone_arcs, borders] = graph;
    std::uniform_int_distribution<std::uint32_t> node(0, nodes - 1);
    DangerDijkstra walk, middle;
    ZoneReachSearch forward, backward;
    std::vector<PricedNode> sources, targets;
    for (const std::uint32_t band : kDangerBands) {
      const Metric metric_band(world, *FindProfile("neutral"), band);
      if (!metric_band.prices_danger()) continue;
      for (int q = 0; q < 60; ++q) {
        const std::uint32_t s = node(rng), t = node(rng);
        const std::uint16_t a = zone(rng), b = zone(rng);
        const std::vector<PricedNode> from = {{s, 0.0}}, to = {{t, 0.0}};
        const DangerDijkstraResult want = walk.Run({.graph = g,
                                                    .prices = prices,
                                                    .band = metric_band,
                                                    .exempt_a = a,
                                                    .exempt_b = b,
                                                    .sources = from,
                                                    .targets = to});
        const PlaceSide from_side =
            ReachOf(g, metric_band, node_zones, nullptr, borders[a], a, s, stop, forward, &sources);
        const PlaceSide to_side = ReachOf(g, metric_band, node_zones, &reverse, borders[b], b, t,
                                          stop, backward, &targets);
        *with_far += from_side.reached && !from_side.reach->far.empty();
        *with_far += to_side.reached && !to_side.reach->far.empty();
        // The middle over the band's metric (every zone priced: zone 0 exempt is none).
        const DangerDijkstraResult met = middle.Run({.graph = g,
                                                     .prices = prices,
                                                     .band = metric_band,
                                                     .sources = sources,
                                                     .targets = targets});
        const double seconds = met.found ? met.seconds : kInfCost;
        const double walk_seconds = want.found ? want.seconds : kInfCost;
        const std::uint32_t from_node = met.found ? sources[met.source].node : kInvalidId;
        const std::uint32_t to_node = met.found ? targets[met.target].node : kInvalidId;
        // Met through a far border node, the seconds are a bound; else a way's.
        auto far = [](const PlaceSide& side, std::uint32_t node) {
          return side.reached &&
                 std::binary_search(side.reach->far.begin(), side.reach->far.end(), node);
        };
        if (!far(from_side, from_node) && !far(to_side, to_node)) {
          EXPECT_GE(seconds, walk_seconds * (1.0 - 1e-9) - 1e-9)
              << nodes << " nodes, band " << band << ", query " << q;
        }
        const SidesAnswer answer = MeetSides(from_side, to_side, seconds, from_node, to_node);
        if (!answer.known) {
          ++*refused;
          continue;
        }
        ++*exact;
        *inner += answer.inner;
        ASSERT_EQ(answer.seconds < kInfCost, want.found)
            << nodes << " nodes, band " << band << ", query " << q;
        if (want.found) {
          EXPECT_NEAR(answer.seconds, want.seconds, 1e-9 * std::max(1.0, want.seconds))
              << nodes << " nodes, band " << band << ", query " << q << ", zones " << a << " " << b;
        }
      }
    }
  }
}

// The seconds of every node from `start` (backward: to it, over `reverse`) with `zone` exempt,
// by a plain Dijkstra over every arc.
std::vector<double> SecondsOfEveryNode(const ContinentGraph& g, const ReverseArcs* reverse,
                                       const Metric& band, std::uint16_t zone,
                                       std::uint32_t start) {
  std::vector<double> seconds(g.node_count(), kInfCost);
  std::vector<bool> done(g.node_count(), false);
  seconds[start] = 0.0;
  for (;;) {
    std::uint32_t v = kInvalidId;
    for (std::uint32_t u = 0; u < g.node_count(); ++u)
      if (!done[u] && seconds[u] < kInfCost && (v == kInvalidId || seconds[u] < seconds[v])) v = u;
    if (v == kInvalidId) return seconds;
    done[v] = true;
    auto relax = [&](std::uint32_t arc, std::uint32_t other) {
      const double price = g.prices[0].DangerSecondsOf(arc, band, zone, 0);
      if (price < kInfCost) seconds[other] = std::min(seconds[other], seconds[v] + price);
    };
    if (reverse == nullptr) {
      for (std::uint32_t a = g.first_arc[v]; a < g.first_arc[v + 1]; ++a) relax(a, g.arc_head[a]);
    } else {
      for (std::uint32_t i = reverse->first_in[v]; i < reverse->first_in[v + 1]; ++i)
        relax(reverse->in_arc[i], reverse->in_tail[i]);
    }
  }
}

// Every zone a reach touched is no nearer than it says: each arc through the zone is reached no
// sooner than its `seconds`, and its other end (priced with the zone exempt too) no sooner than
// its `through`, whether the reach ran to its border or stopped short.
TEST(DangerSearchTest, AReachsTouchesBoundEveryWayThroughTheZone) {
  const World world = ZonesOnly();
  std::mt19937_64 rng(53);
  std::uniform_int_distribution<std::uint16_t> zone(1, 6);
  int checked = 0;
  for (const auto& [nodes, arcs] : kGraphSizes) {
    if (nodes > 200) continue;  // the Dijkstra here is quadratic
    const ReachGraph graph(RandomGraph(nodes, arcs, rng));
    const auto& [g, prices, reverse, node_zones, zone_arcs, borders] = graph;
    std::uniform_int_distribution<std::uint32_t> node(0, nodes - 1);
    ZoneReachSearch search;
    for (const std::uint32_t band : kDangerBands) {
      const Metric metric(world, *FindProfile("neutral"), band);
      if (!metric.prices_danger()) continue;
      for (int q = 0; q < 40; ++q) {
        const std::uint16_t own = zone(rng);
        const std::uint32_t start = node(rng);
        const ZoneBorder& border = borders[own];
        const std::vector<ReachStart> starts = {{start, 0.0, 0.0f}};
        for (const bool backward : {false, true}) {
          const ReverseArcs* by_head = backward ? &reverse : nullptr;
          ZoneReach reach;
          search.Run({.graph = g,
                      .prices = prices,
                      .band = metric,
                      .zones = node_zones,
                      .zone = own,
                      .reverse = by_head,
                      .border = backward ? border.entries : border.exits,
                      .inner = backward ? border.inner_tails : border.inner_heads,
                      .starts = starts,
                      .far_after = q % 2 == 0 ? UINT64_MAX : 4,
                      .far_left = 4},
                     &reach);
          const std::vector<double> seconds = SecondsOfEveryNode(g, by_head, metric, own, start);
          for (const ZoneTouch& touch : reach.touched) {
            for (const std::uint32_t arc : zone_arcs.Of(touch.zone)) {
              const std::uint32_t tail = static_cast<std::uint32_t>(
                  std::upper_bound(g.first_arc.begin(), g.first_arc.end(), arc) -
                  g.first_arc.begin() - 1);
              const std::uint32_t near = backward ? g.arc_head[arc] : tail;
              const double price = prices.DangerSecondsOf(arc, metric, own, touch.zone);
              if (!(seconds[near] < kInfCost) || !(price < kInfCost)) continue;
              EXPECT_LE(touch.seconds, seconds[near] + 1e-9) << "zone " << touch.zone;
              if (metric.ZoneMultiplier(touch.zone) != 1.0 && touch.zone != own) {
                EXPECT_LE(touch.through, seconds[near] + price + 1e-9) << "zone " << touch.zone;
                ++checked;
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST(DangerSearchTest, ReachesAcrossTheEndsZonesMeetAtTheWalksSecondsWhereTheySayTheyDo) {
  int exact = 0, refused = 0, with_far = 0, inner = 0;
  MeetReachesOnRandomGraphs({}, &exact, &refused, &with_far, &inner);
  EXPECT_GT(exact, refused);
  EXPECT_GT(refused, 0);
  EXPECT_GT(inner, 0);
  EXPECT_EQ(with_far, 0);
  std::printf("%d pairs met exactly (%d through an inner entrance), %d refused\n", exact, inner,
              refused);
}

// Reaches stopped short keep the border nodes left as far endpoints, at where they stopped: the
// pairs they meet through those are refused, the others still exact.
TEST(DangerSearchTest, ReachesStoppedShortMeetExactlyWhereTheySayTheyDo) {
  int exact = 0, refused = 0, with_far = 0, inner = 0;
  MeetReachesOnRandomGraphs({.far_after = 8, .far_left = 6}, &exact, &refused, &with_far, &inner);
  EXPECT_GT(exact, refused);
  EXPECT_GT(with_far, 100);
  std::printf("%d pairs met exactly, %d refused; %d reaches with far border nodes\n", exact,
              refused, with_far);
}

}  // namespace
}  // namespace walk::nav
