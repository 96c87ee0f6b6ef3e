// Band metrics: a walk in a danger band is a CCH query on the band's metric (through a patch
// exempting its ends' zones where the band prices one) and costs what the danger Dijkstra costs;
// with the band metrics off or too small, the A* answers; the cache of band metrics and patches
// keeps within its bytes, never frees a metric in use, and customizes a metric once however many
// ask for it at once.
#include "nav/abstract/band_metrics.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <latch>
#include <random>
#include <set>
#include <thread>
#include <tuple>

#include "gtest/gtest.h"
#include "nav/abstract/abstract_router.h"
#include "nav/cost/danger.h"
#include "nav/demo/demo_world.h"
#include "tests/nav/abstract/demo_abstract.h"

namespace walk::nav {
namespace {

using testing::DemoWorld;
using testing::Prepare;

// Both ends in one tile: the tile's own way may answer instead of the graph.
bool SameCell(const Continent& c, SurfaceId a, SurfaceId b) {
  return c.column_x[a] / kTileColumns == c.column_x[b] / kTileColumns &&
         c.column_y[a] / kTileColumns == c.column_y[b] / kTileColumns;
}

// `zone` when `band` prices it, else 0 (what a patch's key names).
std::uint16_t Priced(const Metric& band, std::uint16_t zone) {
  return band.ZoneMultiplier(zone) != 1.0 ? zone : 0;
}

bool EndsUnpriced(const Continent& c, const Metric& band, SurfaceId a, SurfaceId b) {
  return band.ZoneMultiplier(c.zone[a]) == 1.0 && band.ZoneMultiplier(c.zone[b]) == 1.0;
}

// Pairs of one band compared: by the band's metric alone (ends unpriced), through a patch.
struct Compared {
  int by_metric = 0;
  int by_patch = 0;
};

// Random pairs of one region, auto against the plain danger Dijkstra, up to `pairs` of each kind
// (ends the band does not price, and the others). Every pair compared is printed on failure.
Compared CompareWithDijkstra(const AbstractRouter& router, const Metric& band, int pairs,
                             std::uint64_t seed) {
  const Continent& c = DemoWorld().continents.at(0);
  AbstractSearcher searcher;
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  Compared compared;
  for (int i = 0; i < 200 * pairs && std::min(compared.by_metric, compared.by_patch) < pairs; ++i) {
    const SurfaceId a = any(random), b = any(random);
    if (a == b || c.region[a] != c.region[b]) continue;
    const bool unpriced = EndsUnpriced(c, band, a, b);
    if ((unpriced ? compared.by_metric : compared.by_patch) >= pairs) continue;
    auto dijkstra = router.Route(c, band, a, b, SearchMode::kDijkstra, false, searcher);
    auto walk = router.Route(c, band, a, b, SearchMode::kAuto, /*want_steps=*/i % 8 == 0, searcher);
    EXPECT_TRUE(walk.ok() && dijkstra.ok());
    if (!walk.ok() || !dijkstra.ok() || walk->method == Method::kTile) continue;
    EXPECT_EQ(walk->found, dijkstra->found) << band.band() << " " << a << " -> " << b;
    if (!walk->found || !dijkstra->found) continue;
    EXPECT_EQ(walk->method, Method::kCch);
    (unpriced ? compared.by_metric : compared.by_patch) += 1;
    EXPECT_NEAR(walk->seconds, dijkstra->seconds, 1e-9 * std::max(1.0, dijkstra->seconds))
        << "band " << band.band() << " " << a << " -> " << b;
    if (!walk->steps.empty()) {  // unpacked as the Dijkstra's ways are: from one end to the other
      EXPECT_EQ(walk->steps.front().surface, a);
      EXPECT_EQ(walk->steps.back().surface, b);
    }
  }
  return compared;
}

// Every slot's weight and step of `a` and `b`.
void ExpectSameMetric(const Cch& cch, const CchMetric& a, const CchMetric& b, std::uint32_t band) {
  EXPECT_EQ(a.in_ticks(), b.in_ticks()) << "band " << band;
  for (std::uint32_t tail = 0; tail < cch.node_count(); ++tail) {
    for (std::uint32_t arc = cch.first_out()[tail]; arc < cch.first_out()[tail + 1]; ++arc) {
      for (const std::uint32_t slot : {2 * arc, 2 * arc + 1}) {
        ASSERT_EQ(a.weight(slot), b.weight(slot)) << "band " << band << ", slot " << slot;
        const CchStep x = a.StepOf(slot, tail), y = b.StepOf(slot, tail);
        ASSERT_TRUE(x.input == y.input && x.to_lower == y.to_lower && x.middle == y.middle &&
                    x.to_upper == y.to_upper)
            << "band " << band << ", slot " << slot;
      }
    }
  }
}

// A band's metric is customized from its weights in floats (half the bytes while it is made):
// the same weights and steps as from doubles; an arc too dear for a float's whole ticks leaves
// it to doubles.
TEST(BandMetricsTest, AMetricMadeFromFloatTicksIsTheOneDoublesMake) {
  const World& world = DemoWorld();
  const AbstractGraph graph = Prepare(world, {"faction-a-heavy"});
  ASSERT_FALSE(graph.continents.empty());
  const ContinentGraph& g = graph.continents.at(0);
  const Cch cch(g.node_count(), g.order, g.ArcTails(), g.arc_head);
  ArcPrices prices = g.prices.at(0);
  int bands = 0;
  for (const std::uint32_t b : kDangerBands) {
    const Metric band(world, *FindProfile("faction-a-heavy"), b);
    if (!band.prices_danger()) continue;
    ++bands;
    ASSERT_TRUE(BandTicks(prices, band).has_value()) << "band " << b;
    const BandMetric from_ticks(cch, prices, band);
    EXPECT_TRUE(from_ticks.metric.in_ticks());
    ExpectSameMetric(cch, from_ticks.metric, CchMetric(cch, BandWeights(prices, band)), b);
  }
  EXPECT_GT(bands, 0);
  const Metric band(world, *FindProfile("faction-a-heavy"), kDangerBands.back());
  prices.seconds.front() = static_cast<float>(2 * CchWeights::kMostFloatSeconds);
  EXPECT_FALSE(BandTicks(prices, band).has_value());
  const BandMetric from_doubles(cch, prices, band);
  EXPECT_FALSE(from_doubles.metric.in_ticks());
  ExpectSameMetric(cch, from_doubles.metric, CchMetric(cch, BandWeights(prices, band)), 0);
}

TEST(BandMetricsTest, EveryBandCostsWhatTheDangerDijkstraCosts) {
  const World& world = DemoWorld();
  const std::vector<std::string> profiles = {"neutral", "faction-a-heavy"};
  const AbstractRouter router(world, Prepare(world, profiles), 64 << 20, 1ull << 30);
  router.SetBandMetricAfter(1);   // each band's metric customized by its first walk
  router.SetExemptPatchAfter(1);  // every priced-end walk through its patch
  std::uint64_t bands = 0;
  for (const std::string& profile : profiles) {
    for (const std::uint32_t b : kDangerBands) {
      const Metric band(world, *FindProfile(profile), b);
      if (!band.prices_danger()) continue;
      ++bands;
      const Compared compared = CompareWithDijkstra(router, band, 60, 31 + b);
      EXPECT_GE(compared.by_metric, 50) << profile << " band " << b;
      EXPECT_GE(compared.by_patch, 50) << profile << " band " << b;
    }
  }
  EXPECT_EQ(router.band_metrics().customizations(), bands) << "one metric a (profile, band)";
  EXPECT_GT(router.band_metrics().patches(), 0u);
  EXPECT_GT(router.band_metrics().hits(), 0u);
  EXPECT_EQ(router.band_metrics().evictions(), 0u);
}

// Walks with an end in a zone the band prices, no patch made: the A* guided by the zone bound
// (the band's metric at hand) costs what the danger Dijkstra costs, and settles fewer nodes than
// the A* guided by band-0 seconds (band metrics off) on the same pairs.
TEST(BandMetricsTest, PricedEndsGuidedByTheZoneBoundCostWhatTheDangerDijkstraCosts) {
  const World& world = DemoWorld();
  const Continent& c = world.continents.at(0);
  const AbstractRouter bounded(world, Prepare(world, {"neutral"}), 64 << 20, 1ull << 30);
  const AbstractRouter band_zero(world, Prepare(world, {"neutral"}), 64 << 20, 0);
  bounded.SetBandMetricAfter(1);
  bounded.SetExemptPatchAfter(0);
  bounded.SetZoneBoundAfter(0);  // guided by the zone bound from its first node
  band_zero.SetExemptPatchAfter(0);
  std::uint64_t settled_bounded = 0, settled_band_zero = 0;
  for (const std::uint32_t b : {10u, 20u}) {
    const Metric band(world, *FindProfile("neutral"), b);
    AbstractSearcher searcher;
    std::mt19937_64 random(70 + b);
    std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
    int walks = 0;
    for (int i = 0; i < 20000 && walks < 40; ++i) {
      const SurfaceId from = any(random), to = any(random);
      if (from == to || c.region[from] != c.region[to] || EndsUnpriced(c, band, from, to)) continue;
      auto dijkstra = bounded.Route(c, band, from, to, SearchMode::kDijkstra, false, searcher);
      auto walk = bounded.Route(c, band, from, to, SearchMode::kAuto, false, searcher);
      // Asked twice: the second finds its legs cached, as `walk` does after the Dijkstra.
      auto guided = band_zero.Route(c, band, from, to, SearchMode::kAuto, false, searcher);
      guided = band_zero.Route(c, band, from, to, SearchMode::kAuto, false, searcher);
      ASSERT_TRUE(walk.ok() && dijkstra.ok() && guided.ok());
      ASSERT_EQ(walk->found, dijkstra->found) << b << ": " << from << " -> " << to;
      if (!walk->found || walk->method == Method::kTile) continue;
      ++walks;
      EXPECT_EQ(walk->method, Method::kCchAStar);
      EXPECT_NEAR(walk->seconds, dijkstra->seconds, 1e-9 * std::max(1.0, dijkstra->seconds))
          << "band " << b << ": " << from << " -> " << to;
      settled_bounded += walk->stats.nodes_expanded;
      settled_band_zero += guided->stats.nodes_expanded;
    }
    EXPECT_EQ(walks, 40) << "band " << b;
  }
  EXPECT_LT(settled_bounded, settled_band_zero);
  EXPECT_EQ(bounded.band_metrics().patches(), 0u);
}

TEST(BandMetricsTest, OffOrTooSmallTheAStarAnswersAsBefore) {
  const World& world = DemoWorld();
  const Continent& c = world.continents.at(0);
  for (const std::uint64_t bytes : {std::uint64_t{0}, std::uint64_t{4096}}) {
    const AbstractRouter router(world, Prepare(world, {"neutral"}), 64 << 20, bytes);
    const Metric band(world, *FindProfile("neutral"), 20);
    AbstractSearcher searcher;
    std::mt19937_64 random(5);
    std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
    int walks = 0;
    for (int i = 0; i < 4000 && walks < 30; ++i) {
      const SurfaceId a = any(random), b = any(random);
      if (a == b || c.region[a] != c.region[b] || !EndsUnpriced(c, band, a, b)) continue;
      auto walk = router.Route(c, band, a, b, SearchMode::kAuto, false, searcher);
      ASSERT_TRUE(walk.ok()) << walk.status();
      if (!walk->found || walk->method == Method::kTile) continue;
      ++walks;
      EXPECT_EQ(walk->method, Method::kCchAStar) << bytes << " bytes";
    }
    EXPECT_GE(walks, 20);
    EXPECT_EQ(router.band_metrics().customizations(), 0u);
  }
}

// `pairs` walked `rounds` times in `band` (the last round asking for steps where `steps_last`),
// each walk's cost equal to the danger Dijkstra's; `compared` counts the walks compared.
void WalkAgainstDijkstra(const AbstractRouter& router, const Continent& c, const Metric& band,
                         const std::vector<std::pair<SurfaceId, SurfaceId>>& pairs, int rounds,
                         bool steps_last, std::atomic<int>* compared) {
  AbstractSearcher searcher;
  for (int round = 0; round < rounds; ++round) {
    const bool steps = steps_last && round == rounds - 1;
    for (const auto& [a, b] : pairs) {
      auto walk = router.Route(c, band, a, b, SearchMode::kAuto, steps, searcher);
      auto dijkstra = router.Route(c, band, a, b, SearchMode::kDijkstra, false, searcher);
      ASSERT_TRUE(walk.ok() && dijkstra.ok());
      ASSERT_EQ(walk->found, dijkstra->found);
      if (!walk->found || walk->method == Method::kTile) continue;
      EXPECT_NEAR(walk->seconds, dijkstra->seconds, 1e-9 * std::max(1.0, dijkstra->seconds));
      ++*compared;
    }
  }
}

// Two threads walk two bands whose metrics do not both fit: each band's metric evicts the other's,
// often while the other thread's query reads it, and every answer still costs what the danger
// Dijkstra costs.
TEST(BandMetricsTest, WalksStayExactWhileTheirMetricsAreEvicted) {
  const World& world = DemoWorld();
  const Continent& c = world.continents.at(0);
  const AbstractRouter router(world, Prepare(world, {"neutral"}), 64 << 20, 1ull << 30);
  router.SetBandMetricAfter(1);  // each band's metric customized by its first walk
  const Metric band20(world, *FindProfile("neutral"), 20),
      band30(world, *FindProfile("neutral"), 30);
  // Pairs whose ends neither band prices.
  std::vector<std::pair<SurfaceId, SurfaceId>> pairs;
  std::mt19937_64 random(17);
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  // (About half walk inside one tile, by the tile's A*, and are not compared.)
  for (int i = 0; i < 20000 && pairs.size() < 40; ++i) {
    const SurfaceId a = any(random), b = any(random);
    if (a != b && c.region[a] == c.region[b] && EndsUnpriced(c, band20, a, b) &&
        EndsUnpriced(c, band30, a, b))
      pairs.push_back({a, b});
  }
  ASSERT_EQ(pairs.size(), 40u);
  AbstractSearcher first;
  ASSERT_TRUE(
      router.Route(c, band20, pairs[0].first, pairs[0].second, SearchMode::kAuto, false, first)
          .ok());
  const std::uint64_t one = router.band_metrics().bytes();
  ASSERT_GT(one, 0u);
  router.band_metrics().SetCapacity(one + one / 2);
  std::atomic<int> compared{0};
  auto walk = [&](const Metric& band) {
    WalkAgainstDijkstra(router, c, band, pairs, 3, /*steps_last=*/false, &compared);
  };
  std::thread other([&] { walk(band30); });
  walk(band20);
  other.join();
  EXPECT_GT(compared.load(), 100);
  EXPECT_GT(router.band_metrics().evictions(), 0u);
  EXPECT_LE(router.band_metrics().bytes(), router.band_metrics().capacity());
  std::printf("customizations %llu, evictions %llu\n",
              static_cast<unsigned long long>(router.band_metrics().customizations()),
              static_cast<unsigned long long>(router.band_metrics().evictions()));
}

// Walks with an end in a zone the band prices, in every danger band of one profile: each costs
// what the danger Dijkstra costs; one patch a (band, pair of priced zones), made once while it
// stays cached.
TEST(BandMetricsTest, PricedEndsCostWhatTheDangerDijkstraCostsThroughPatches) {
  const World& world = DemoWorld();
  const Continent& c = world.continents.at(0);
  const AbstractRouter router(world, Prepare(world, {"neutral"}), 64 << 20, 1ull << 30);
  router.SetBandMetricAfter(1);  // each band's metric customized by its first walk
  router.SetExemptPatchAfter(1);
  std::mt19937_64 random(23);
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  std::set<std::tuple<std::uint32_t, std::uint16_t, std::uint16_t>> keys;
  AbstractSearcher searcher;
  int compared = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const std::uint32_t b : kDangerBands) {
    const Metric band(world, *FindProfile("neutral"), b);
    if (!band.prices_danger()) continue;
    for (int i = 0, walks = 0; i < 20000 && walks < 12; ++i) {
      const SurfaceId x = any(random), y = any(random);
      if (x == y || c.region[x] != c.region[y] || EndsUnpriced(c, band, x, y)) continue;
      auto walk = router.Route(c, band, x, y, SearchMode::kAuto, false, searcher);
      keys.insert({b, std::min(Priced(band, c.zone[x]), Priced(band, c.zone[y])),
                   std::max(Priced(band, c.zone[x]), Priced(band, c.zone[y]))});
      auto dijkstra = router.Route(c, band, x, y, SearchMode::kDijkstra, false, searcher);
      ASSERT_TRUE(walk.ok() && dijkstra.ok());
      ASSERT_EQ(walk->found, dijkstra->found) << "band " << b << " " << x << " -> " << y;
      if (!walk->found || walk->method == Method::kTile) continue;
      ++walks, ++compared;
      EXPECT_EQ(walk->method, Method::kCch);
      EXPECT_NEAR(walk->seconds, dijkstra->seconds, 1e-9 * std::max(1.0, dijkstra->seconds))
          << "band " << b << " " << x << " -> " << y;
    }
  }
  std::printf("%d priced-end walks in %.2f s, %llu patches, %.1f MB\n", compared,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
              static_cast<unsigned long long>(router.band_metrics().patches()),
              router.band_metrics().bytes() / 1e6);
  EXPECT_GE(compared, 40);
  EXPECT_EQ(router.band_metrics().patches(), keys.size()) << "one patch a (band, zone pair)";
  EXPECT_EQ(router.band_metrics().evictions(), 0u);
}

// The method of the walk from `a` to `b` in `band` under auto, which must cost `want` (the
// danger Dijkstra's); kTrivial when it fails.
Method AutoMethod(const AbstractRouter& router, const Continent& c, const Metric& band, SurfaceId a,
                  SurfaceId b, double want, AbstractSearcher& searcher) {
  auto answer = router.Route(c, band, a, b, SearchMode::kAuto, false, searcher);
  EXPECT_TRUE(answer.ok()) << answer.status();
  if (!answer.ok()) return Method::kTrivial;
  EXPECT_NEAR(answer->seconds, want, 1e-9 * std::max(1.0, want));
  return answer->method;
}

// A patch is made by the walk that asks for its key the set number of times; the walks before
// take the A*, the walks after read the patch; 0 turns patches off.
TEST(BandMetricsTest, PatchesAreMadeForKeysAskedOftenEnough) {
  const World& world = DemoWorld();
  const Continent& c = world.continents.at(0);
  const AbstractRouter router(world, Prepare(world, {"neutral"}), 64 << 20, 1ull << 30);
  router.SetBandMetricAfter(1);  // each band's metric customized by its first walk
  const Metric band(world, *FindProfile("neutral"), 20);
  std::mt19937_64 random(31);
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  AbstractSearcher searcher;
  for (int i = 0; i < 20000; ++i) {
    const SurfaceId a = any(random), b = any(random);
    if (a == b || c.region[a] != c.region[b] || EndsUnpriced(c, band, a, b)) continue;
    auto probe = router.Route(c, band, a, b, SearchMode::kDijkstra, false, searcher);
    ASSERT_TRUE(probe.ok());
    if (!probe->found || SameCell(c, a, b)) continue;
    router.SetExemptPatchAfter(0);
    auto off = router.Route(c, band, a, b, SearchMode::kAuto, false, searcher);
    ASSERT_TRUE(off.ok());
    EXPECT_EQ(off->method, Method::kCchAStar);
    router.SetExemptPatchAfter(3);
    std::vector<Method> methods;
    for (int walk = 0; walk < 4; ++walk) {
      methods.push_back(AutoMethod(router, c, band, a, b, probe->seconds, searcher));
    }
    EXPECT_EQ(methods, (std::vector<Method>{Method::kCchAStar, Method::kCchAStar, Method::kCch,
                                            Method::kCch}));
    EXPECT_EQ(router.band_metrics().patches(), 1u);
    return;
  }
  FAIL() << "no pair with a priced end";
}

// The methods `router` answers `count` walks with under auto, between random ends in two cells
// whose zones `band` does not price (the same ends for the same arguments).
std::vector<Method> UnpricedWalkMethods(const AbstractRouter& router, const Continent& c,
                                        const Metric& band, std::size_t count) {
  std::mt19937_64 random(37);
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  AbstractSearcher searcher;
  std::vector<Method> methods;
  for (int i = 0; i < 20000 && methods.size() < count; ++i) {
    const SurfaceId a = any(random), b = any(random);
    if (a == b || c.region[a] != c.region[b] || !EndsUnpriced(c, band, a, b)) continue;
    auto probe = router.Route(c, band, a, b, SearchMode::kDijkstra, false, searcher);
    EXPECT_TRUE(probe.ok());
    if (!probe.ok() || !probe->found || SameCell(c, a, b)) continue;
    methods.push_back(AutoMethod(router, c, band, a, b, probe->seconds, searcher));
  }
  return methods;
}

// A band's metric is customized by the walk that needs it the kBandMetricAfterWalks-th time (here
// the third): the walks before take the A*, the later ones read the metric; each costs what the
// danger Dijkstra finds.
TEST(BandMetricsTest, MetricsAreCustomizedForBandsWalkedOftenEnough) {
  const World& world = DemoWorld();
  const Continent& c = world.continents.at(0);
  const AbstractRouter router(world, Prepare(world, {"neutral"}), 64 << 20, 1ull << 30);
  EXPECT_EQ(AbstractRouter::kBandMetricAfterWalks, 256u);
  router.SetBandMetricAfter(3);
  const Metric band(world, *FindProfile("neutral"), 20);
  EXPECT_EQ(
      UnpricedWalkMethods(router, c, band, 4),
      (std::vector<Method>{Method::kCchAStar, Method::kCchAStar, Method::kCch, Method::kCch}));
  EXPECT_EQ(router.band_metrics().customizations(), 1u);
}

// Walks counted toward a metric are forgotten once older than the window: with a window shorter
// than the time between two walks, no count reaches three and every walk takes the A*.
TEST(BandMetricsTest, WalksOlderThanTheWindowAreForgotten) {
  const World& world = DemoWorld();
  const Continent& c = world.continents.at(0);
  const AbstractRouter router(world, Prepare(world, {"neutral"}), 64 << 20, 1ull << 30);
  EXPECT_EQ(AbstractRouter::kWantedWithin, std::chrono::seconds(60));
  router.SetBandMetricAfter(3);
  router.SetWantedWithin(std::chrono::nanoseconds(1));
  const Metric band(world, *FindProfile("neutral"), 20);
  EXPECT_EQ(UnpricedWalkMethods(router, c, band, 5), std::vector<Method>(5, Method::kCchAStar));
  EXPECT_EQ(router.band_metrics().customizations(), 0u);
}

// A walk with a priced end that no band metric guides counts toward the metric by the nodes it
// settles (here one a node): one walk that settles a few nodes brings a count of 4 to it, where
// counted as one walk it would not.
TEST(BandMetricsTest, UnguidedPricedEndsCountByTheNodesTheySettle) {
  const World& world = DemoWorld();
  const Continent& c = world.continents.at(0);
  const Metric band(world, *FindProfile("neutral"), 20);
  EXPECT_EQ(AbstractRouter::kSettledPerCountedWalk, 4096u);
  // A pair with a priced end in cells apart (band metrics off: the A* settles nodes).
  const AbstractRouter scout(world, Prepare(world, {"neutral"}), 64 << 20, 0);
  AbstractSearcher searcher;
  std::mt19937_64 random(35);
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  SurfaceId from = kInvalidId, to = kInvalidId;
  for (int i = 0; i < 20000 && from == kInvalidId; ++i) {
    const SurfaceId a = any(random), b = any(random);
    if (a == b || c.region[a] != c.region[b] || SameCell(c, a, b) || EndsUnpriced(c, band, a, b))
      continue;
    auto walk = scout.Route(c, band, a, b, SearchMode::kAuto, false, searcher);
    ASSERT_TRUE(walk.ok());
    if (walk->found && walk->method == Method::kCchAStar) {
      from = a;
      to = b;
    }
  }
  ASSERT_NE(from, kInvalidId) << "no walk with a priced end";
  const auto dijkstra = scout.Route(c, band, from, to, SearchMode::kDijkstra, false, searcher);
  ASSERT_TRUE(dijkstra.ok() && dijkstra->found);
  for (const bool by_nodes : {false, true}) {
    const AbstractRouter router(world, Prepare(world, {"neutral"}), 64 << 20, 1ull << 30);
    router.SetBandMetricAfter(4);
    router.SetExemptPatchAfter(0);
    router.SetSettledPerCountedWalk(by_nodes ? 1 : UINT64_MAX);
    auto walk = router.Route(c, band, from, to, SearchMode::kAuto, false, searcher);
    ASSERT_TRUE(walk.ok() && walk->found);
    EXPECT_EQ(walk->method, Method::kCchAStar);
    EXPECT_NEAR(walk->seconds, dijkstra->seconds, 1e-9 * std::max(1.0, dijkstra->seconds));
    EXPECT_EQ(router.band_metrics().customizations(), by_nodes ? 1u : 0u) << by_nodes;
    // The walk again: guided by the zone bound where the metric was made, else by band 0 (its
    // count now 2 of 4 counted as walks), at the same seconds.
    walk = router.Route(c, band, from, to, SearchMode::kAuto, false, searcher);
    ASSERT_TRUE(walk.ok() && walk->found);
    EXPECT_NEAR(walk->seconds, dijkstra->seconds, 1e-9 * std::max(1.0, dijkstra->seconds));
    EXPECT_EQ(router.band_metrics().customizations(), by_nodes ? 1u : 0u) << by_nodes;
  }
}

// A table (or a batch's block taken as rows) counts the walks its rows would answer toward its
// band's metric: a small one leaves them to the A*, until the band's count is reached.
TEST(BandMetricsTest, TablesCountTheirWalksTowardTheBandsMetric) {
  const World& world = DemoWorld();
  const Continent& c = world.continents.at(0);
  const AbstractRouter router(world, Prepare(world, {"neutral"}), 64 << 20, 1ull << 30);
  router.SetBandMetricAfter(300);
  const Metric band(world, *FindProfile("neutral"), 20);
  for (int table = 0; table < 2; ++table) {
    auto hierarchy = router.HierarchyOf(c, band, 100);
    ASSERT_TRUE(hierarchy.ok());
    EXPECT_FALSE(hierarchy->has_value()) << "table " << table;
  }
  EXPECT_EQ(router.band_metrics().customizations(), 0u);
  auto third = router.HierarchyOf(c, band, 100);  // 300 walks asked
  ASSERT_TRUE(third.ok());
  ASSERT_TRUE(third->has_value());
  EXPECT_NE((*third)->band_metric, nullptr);
  EXPECT_EQ(router.band_metrics().customizations(), 1u);
  auto again = router.HierarchyOf(c, band, 1);  // cached
  ASSERT_TRUE(again.ok() && again->has_value());
  const Metric band30(world, *FindProfile("neutral"), 30);
  auto at_once = router.HierarchyOf(c, band30);  // a Table: at once
  ASSERT_TRUE(at_once.ok() && at_once->has_value());
  EXPECT_EQ(router.band_metrics().customizations(), 2u);
}

// With room for a band's metric and about one patch, two threads walking pairs of many zone
// pairs evict each other's patches, often while the other reads them, and every answer stays
// the Dijkstra's.
TEST(BandMetricsTest, PricedEndsStayExactWhilePatchesAreEvicted) {
  const World& world = DemoWorld();
  const Continent& c = world.continents.at(0);
  const AbstractRouter router(world, Prepare(world, {"neutral"}), 64 << 20, 1ull << 30);
  router.SetBandMetricAfter(1);  // each band's metric customized by its first walk
  const Metric band20(world, *FindProfile("neutral"), 20);
  std::vector<std::pair<SurfaceId, SurfaceId>> pairs;  // an end priced
  std::mt19937_64 random(29);
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  for (int i = 0; i < 20000 && pairs.size() < 10; ++i) {
    const SurfaceId a = any(random), b = any(random);
    if (a != b && c.region[a] == c.region[b] && !EndsUnpriced(c, band20, a, b))
      pairs.push_back({a, b});
  }
  ASSERT_EQ(pairs.size(), 10u);
  router.SetExemptPatchAfter(1);
  AbstractSearcher first;
  ASSERT_TRUE(
      router.Route(c, band20, pairs[0].first, pairs[0].second, SearchMode::kAuto, false, first)
          .ok());
  // The band's metric and about one patch: the patches evict each other (every walk reads the
  // metric, so it stays the most recently used).
  const std::uint64_t one = router.band_metrics().bytes();
  router.band_metrics().SetCapacity(one + one / 8);
  std::atomic<int> compared{0};
  auto walk = [&](const Metric& band) {
    WalkAgainstDijkstra(router, c, band, pairs, 2, /*steps_last=*/true, &compared);
  };
  std::thread other([&] { walk(band20); });
  walk(band20);
  other.join();
  EXPECT_GT(compared.load(), 24);
  EXPECT_GT(router.band_metrics().evictions(), 0u);
  EXPECT_LE(router.band_metrics().bytes(), router.band_metrics().capacity());
  std::printf("customizations %llu, patches %llu, evictions %llu\n",
              static_cast<unsigned long long>(router.band_metrics().customizations()),
              static_cast<unsigned long long>(router.band_metrics().patches()),
              static_cast<unsigned long long>(router.band_metrics().evictions()));
}

// A path 0 -> 1 -> 2 -> 3 and back, contracted in node order.
const Cch& SmallCch() {
  static const Cch* cch = new Cch(4, {0, 1, 2, 3}, {0, 1, 2, 1, 2, 3}, {1, 2, 3, 0, 1, 2});
  return *cch;
}

std::unique_ptr<BandMetric> SmallMetric(double weight) {
  return std::make_unique<BandMetric>(SmallCch(), std::vector<double>(6, weight));
}

TEST(BandMetricsTest, EvictsWithinItsBytesAndKeepsMetricsInUse) {
  const std::uint64_t one = SmallMetric(1.0)->metric.MemoryBytes();
  BandMetricCache cache(2 * one + one / 2);  // two metrics fit, not three
  EXPECT_EQ(cache.largest(), 0u);
  auto first = cache.Get({0, 0, 10}, [](CustomizeCrew&) { return SmallMetric(1.0); });
  (void)cache.Get({0, 0, 20}, [](CustomizeCrew&) { return SmallMetric(2.0); });
  EXPECT_EQ(cache.bytes(), 2 * one);
  EXPECT_EQ(cache.evictions(), 0u);
  (void)cache.Get({0, 0, 30},
                  [](CustomizeCrew&) { return SmallMetric(3.0); });  // band 10 goes: the oldest
  EXPECT_EQ(cache.evictions(), 1u);
  EXPECT_LE(cache.bytes(), cache.capacity());
  // The evicted metric still serves the query holding it.
  EXPECT_EQ(first->metric.weights(Cch::kForward)[0], 1.0);
  // Band 20 asked again is a hit and becomes the newest, so band 30 goes next.
  (void)cache.Get({0, 0, 20}, [](CustomizeCrew&) { return SmallMetric(9.0); });
  EXPECT_EQ(cache.hits(), 1u);
  (void)cache.Get({0, 0, 10}, [](CustomizeCrew&) { return SmallMetric(1.0); });
  EXPECT_EQ(cache.customizations(), 4u);
  EXPECT_EQ(cache.evictions(), 2u);
  int customized = 0;
  (void)cache.Get({0, 0, 20}, [&](CustomizeCrew&) { return ++customized, SmallMetric(2.0); });
  EXPECT_EQ(customized, 0) << "band 20 stayed";
  cache.SetCapacity(0);
  EXPECT_EQ(cache.bytes(), 0u);
  EXPECT_FALSE(cache.Admits({0, 0, 20}, 1));
  EXPECT_EQ(cache.largest(), one);  // what the memory governor keeps room to customize
  cache.Expect(3 * one);
  EXPECT_EQ(cache.largest(), 3 * one);
  EXPECT_EQ(cache.making(), 0u);
  cache.Expect(one, one / 2);  // and what making one takes besides: the most told
  cache.Expect(one, one / 4);
  EXPECT_EQ(cache.largest(), 3 * one);
  EXPECT_EQ(cache.making(), one / 2);
}

// Room to make a metric (its temporaries) is needed only while one is made: a metric the
// capacity holds stays, and none is made (nor any evicted for it) where it and its making do not
// fit.
TEST(BandMetricsTest, MakesAMetricOnlyWhereItAndItsMakingFit) {
  const std::uint64_t one = SmallMetric(1.0)->metric.MemoryBytes();
  BandMetricCache cache(0);
  cache.SetCapacity(2 * one, one);  // making one takes as much again
  EXPECT_TRUE(cache.Admits({0, 0, 10}, one));
  (void)cache.Get({0, 0, 10}, [](CustomizeCrew&) { return SmallMetric(1.0); });
  EXPECT_TRUE(cache.Admits({0, 0, 20}, one));
  (void)cache.Get({0, 0, 20}, [](CustomizeCrew&) { return SmallMetric(2.0); });
  EXPECT_EQ(cache.evictions(), 1u) << "band 10 went before band 20 was made";
  EXPECT_EQ(cache.bytes(), one);
  cache.SetCapacity(one + one / 2, one);
  EXPECT_EQ(cache.bytes(), one) << "band 20 stays: it fits";
  EXPECT_TRUE(cache.Admits({0, 0, 20}, one));
  EXPECT_FALSE(cache.Admits({0, 0, 30}, one)) << "it and its making do not fit";
  EXPECT_EQ(cache.evictions(), 1u);
}

TEST(BandMetricsTest, ConcurrentFirstRequestsCustomizeOnce) {
  BandMetricCache cache(1 << 20);
  constexpr int kThreads = 8;
  std::atomic<int> customized{0};
  std::latch start(kThreads);
  std::vector<std::shared_ptr<const BandMetric>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      got[t] = cache.Get({1, 2, 30}, [&](CustomizeCrew&) {
        ++customized;
        // Long enough that the others ask meanwhile (they wait; none customizes again).
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        return SmallMetric(4.0);
      });
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(customized.load(), 1);
  EXPECT_EQ(cache.customizations(), 1u);
  EXPECT_EQ(cache.hits(), static_cast<std::uint64_t>(kThreads - 1));
  for (const auto& metric : got) EXPECT_EQ(metric.get(), got[0].get());
}

// A caller asking for a metric another is customizing joins the crew its maker was handed
// (CchMetric opens it to the ranks left), and then has the one metric made.
TEST(BandMetricsTest, ACallerAskingForAMetricBeingMadeJoinsItsCustomization) {
  BandMetricCache cache(1 << 20);
  const BandMetricCache::Key key{1, 2, 30}, other{1, 2, 40};
  std::latch open(1), worked(1);
  std::shared_ptr<const BandMetric> made;
  std::thread maker([&] {
    made = cache.Get(key, [&](CustomizeCrew& crew) {
      const auto work = [&] {
        worked.count_down();
        return true;
      };
      crew.Open(work, /*most=*/1);
      open.count_down();
      worked.wait();  // a joiner ran it
      crew.Close();
      return SmallMetric(4.0);
    });
  });
  open.wait();
  EXPECT_FALSE(cache.JoinMaking(other)) << "not being made";
  EXPECT_TRUE(cache.JoinMaking(key));
  maker.join();
  const std::shared_ptr<const BandMetric> got =
      cache.Get(key, [](CustomizeCrew&) -> std::unique_ptr<BandMetric> {
        ADD_FAILURE() << "customized twice";
        return SmallMetric(5.0);
      });
  EXPECT_EQ(got.get(), made.get());
  EXPECT_EQ(cache.joins(), 1u);
  EXPECT_EQ(cache.customizations(), 1u);
  EXPECT_FALSE(cache.JoinMaking(key)) << "made: nothing left to join";
  EXPECT_EQ(cache.joins(), 1u);
}

TEST(BandMetricsTest, AMetricBeingMadeIsSaidToBeUntilItIsMade) {
  BandMetricCache cache(1 << 20);
  const BandMetricCache::Key key{1, 2, 30}, other{1, 2, 40};
  std::latch asked(1), go_on(1);
  std::thread maker([&] {
    cache.Get(key, [&](CustomizeCrew&) {
      asked.count_down();
      go_on.wait();  // held here while the test asks
      return SmallMetric(4.0);
    });
  });
  asked.wait();
  // Another walk would wait for it: Making says so, so that it goes on by the A* instead.
  EXPECT_TRUE(cache.Making(key));
  EXPECT_TRUE(cache.Has(key));
  EXPECT_FALSE(cache.Making(other));
  go_on.count_down();
  maker.join();
  EXPECT_FALSE(cache.Making(key));
  EXPECT_TRUE(cache.Has(key));
  EXPECT_EQ(cache.hits(), 0u);  // asking whether it is made is no hit
}

}  // namespace
}  // namespace walk::nav
