// The abstract graph: CCH and Dijkstra agree on random pairs; abstract walks are never cheaper
// than the exact fine-grid walk and come close to it; the saved graph round-trips and a stale
// or damaged one is refused; forced searches fail clearly where they cannot run.
#include "nav/abstract/abstract_graph.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "gtest/gtest.h"
#include "nav/abstract/abstract_graph_format.h"
#include "nav/abstract/abstract_router.h"
#include "nav/abstract/cell_search.h"
#include "nav/check/abstract_check.h"
#include "nav/cost/danger.h"
#include "nav/import/movingai.h"
#include "nav/query/snap.h"
#include "nav/query/walk_pipeline.h"
#include "tests/nav/abstract/demo_abstract.h"
#include "tests/nav/ascii_grid.h"
#include "tests/nav/mesh_world.h"

namespace walk::nav {
namespace {

using testing::DemoWorld;
using testing::Prepare;

// Random pairs of surfaces in one region and different cells: CCH and Dijkstra costs agree.
void ExpectSearchesAgree(const World& world, const AbstractRouter& router,
                         const std::string& profile, int pairs, std::uint64_t seed) {
  const Continent& c = world.continents.at(0);
  const Metric metric(world, *FindProfile(profile), 0);
  AbstractSearcher searcher;
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  int compared = 0;
  for (int i = 0; i < 20 * pairs && compared < pairs; ++i) {
    const SurfaceId a = any(random), b = any(random);
    if (a == b || c.region[a] != c.region[b]) continue;
    auto cch = router.Route(c, metric, a, b, SearchMode::kCch, false, searcher);
    auto dijkstra = router.Route(c, metric, a, b, SearchMode::kDijkstra, false, searcher);
    ASSERT_TRUE(cch.ok()) << cch.status();
    ASSERT_TRUE(dijkstra.ok()) << dijkstra.status();
    ASSERT_EQ(cch->found, dijkstra->found) << profile << " " << a << " -> " << b;
    if (!cch->found) continue;
    ++compared;
    EXPECT_NEAR(cch->seconds, dijkstra->seconds, 1e-9 * std::max(1.0, dijkstra->seconds))
        << profile << " " << a << " -> " << b;
  }
  EXPECT_GT(compared, pairs / 2) << "the comparison must have compared walks";
}

TEST(AbstractGraphTest, CchAndDijkstraAgreeOnTheDemoWorld) {
  const World& world = DemoWorld();
  const AbstractRouter router(world, Prepare(world, {"shortest", "neutral", "faction-a-heavy"}),
                              64 << 20);
  for (const char* profile : {"shortest", "neutral", "faction-a-heavy"}) {
    ExpectSearchesAgree(world, router, profile, 60, 11);
  }
}

TEST(AbstractGraphTest, AbstractWalksAreNeverCheaperThanExactAndCloseToIt) {
  const World& world = DemoWorld();
  const AbstractRouter router(world, Prepare(world, {"neutral"}), 64 << 20);
  for (SearchMode mode : {SearchMode::kAuto, SearchMode::kCch}) {
    const Metric metric(world, *FindProfile("neutral"), 0);
    const ExactnessReport report = CheckExactness(world, metric, router, 120, 5, mode);
    EXPECT_EQ(report.disagree, 0u)
        << SearchModeName(mode) << ": " << (report.problems.empty() ? "" : report.problems[0]);
    EXPECT_GT(report.compared, 100u);
    if (mode == SearchMode::kAuto) {
      // Ends in one tile, too far apart for the fine grid: an A* inside the tile sometimes wins.
      EXPECT_GT(report.methods[static_cast<int>(Method::kTile)], 0u);
      EXPECT_GT(report.methods[static_cast<int>(Method::kCch)], 50u);
    }
    // Forced CCH walks short pairs through entrances too; auto walks them on the fine grid.
    EXPECT_LT(report.mean_seconds_excess, mode == SearchMode::kAuto ? 0.01 : 0.03)
        << SearchModeName(mode);
    EXPECT_LT(report.worst_seconds_excess, mode == SearchMode::kAuto ? 0.10 : 1.0)
        << SearchModeName(mode);
  }
  // A danger band: the A* prices danger from the zone mix; never below the exact walk.
  const Metric band20(world, *FindProfile("neutral"), 20);
  const ExactnessReport danger = CheckExactness(world, band20, router, 80, 6, SearchMode::kAuto);
  EXPECT_EQ(danger.disagree, 0u) << (danger.problems.empty() ? "" : danger.problems[0]);
  EXPECT_GT(danger.methods[static_cast<int>(Method::kCchAStar)], 40u);
  EXPECT_LT(danger.mean_seconds_excess, 0.03);
}

// Every danger band and profile: the A* guided by band-0 CCH distances (auto) costs what the plain
// danger Dijkstra costs, on random pairs of the demo world (the ends' zones exempt in both), and
// settles fewer nodes.
TEST(AbstractGraphTest, DangerAStarCostsWhatTheDangerDijkstraCosts) {
  const World& world = DemoWorld();
  const std::vector<std::string> profiles = ProfileNames();
  const AbstractRouter router(world, Prepare(world, profiles), 64 << 20);
  const Continent& c = world.continents.at(0);
  AbstractSearcher searcher;
  std::mt19937_64 random(23);
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  for (const std::string& profile : profiles) {
    for (const std::uint32_t band : kDangerBands) {
      if (band == 0) continue;
      const Metric metric(world, *FindProfile(profile), band);
      int compared = 0, in_zones = 0;
      std::uint64_t astar_settled = 0, dijkstra_settled = 0;
      for (int i = 0; i < 2000 && compared < 40; ++i) {
        const SurfaceId a = any(random), b = any(random);
        if (a == b || c.region[a] != c.region[b]) continue;
        // Legs cached first, so that both count the nodes of their search across the graph only.
        (void)router.Route(c, metric, a, b, SearchMode::kDijkstra, false, searcher);
        auto astar = router.Route(c, metric, a, b, SearchMode::kAuto, false, searcher);
        auto dijkstra = router.Route(c, metric, a, b, SearchMode::kDijkstra, false, searcher);
        ASSERT_TRUE(astar.ok()) << astar.status();
        ASSERT_TRUE(dijkstra.ok()) << dijkstra.status();
        if (astar->method == Method::kTile) continue;  // the tile's own way was cheaper
        ASSERT_EQ(astar->found, dijkstra->found)
            << profile << " band " << band << " " << a << " -> " << b;
        if (!astar->found) continue;
        ++compared;
        in_zones += c.zone[a] != 0 || c.zone[b] != 0;
        // A profile that prices no danger (shortest) takes the CCH in every band.
        EXPECT_EQ(astar->method, metric.prices_danger() ? Method::kCchAStar : Method::kCch);
        EXPECT_NEAR(astar->seconds, dijkstra->seconds, 1e-9 * std::max(1.0, dijkstra->seconds))
            << profile << " band " << band << " " << a << " -> " << b;
        // Ends in one tile: auto also searches the tile (its expansions count too).
        const bool one_tile = c.column_x[a] / kTileColumns == c.column_x[b] / kTileColumns &&
                              c.column_y[a] / kTileColumns == c.column_y[b] / kTileColumns;
        if (!one_tile) {
          astar_settled += astar->stats.nodes_expanded;
          dijkstra_settled += dijkstra->stats.nodes_expanded;
        }
      }
      EXPECT_GE(compared, 30) << profile << " band " << band;
      EXPECT_GT(in_zones, 0) << "some ends stand in zones, exempt from danger";
      EXPECT_LT(astar_settled, dijkstra_settled) << profile << " band " << band;
    }
  }
}

// An open map `side` columns square: every crossing plain.
World OpenGround(std::uint32_t side) {
  MovingAiMap map;
  map.width = map.height = side;
  map.cells.assign(std::size_t{side} * side, '.');
  auto world = WorldFromMovingAi(map);
  EXPECT_TRUE(world.ok()) << world.status();
  return world.ok() ? *std::move(world) : World();
}

// The router makes every zone's border at the first one asked (ZoneBordersOf): each the same
// as that zone's made alone over every arc and its mix, and a zone with no arcs (asked after
// they are made) without a border.
TEST(AbstractGraphTest, TheRoutersZoneBordersAreEachZonesOwn) {
  const World& world = DemoWorld();
  const AbstractRouter router(world, Prepare(world, {"neutral"}), 16 << 20);
  const Continent& c = world.continents.at(0);
  const ContinentGraph& g = router.graph().continents.at(0);
  const int p = router.graph().ProfileIndex("neutral");
  ASSERT_GE(p, 0);
  const ArcPrices& prices = g.prices.at(p);
  const ZoneArcs zone_arcs(prices);
  ASSERT_GT(zone_arcs.zone_count(), 2u);
  int with_exits = 0;
  for (std::uint32_t z = zone_arcs.zone_count() - 1; z > 0; --z) {
    const auto zone = static_cast<std::uint16_t>(z);
    const absl::StatusOr<std::shared_ptr<const ZoneBorder>> made = router.ZoneBorderOf(c, p, zone);
    ASSERT_TRUE(made.ok()) << made.status();
    ASSERT_NE(*made, nullptr);
    const ZoneBorder alone = ZoneBorderOf(g, prices, zone_arcs.Of(zone), zone);
    EXPECT_EQ((*made)->exits, alone.exits) << "zone " << z;
    EXPECT_EQ((*made)->entries, alone.entries) << "zone " << z;
    EXPECT_EQ((*made)->inner_heads, alone.inner_heads) << "zone " << z;
    EXPECT_EQ((*made)->inner_tails, alone.inner_tails) << "zone " << z;
    with_exits += !alone.exits.empty();
  }
  EXPECT_GT(with_exits, 0);
  const auto no_arcs = static_cast<std::uint16_t>(zone_arcs.zone_count() + 5);
  const absl::StatusOr<std::shared_ptr<const ZoneBorder>> none = router.ZoneBorderOf(c, p, no_arcs);
  ASSERT_TRUE(none.ok()) << none.status();
  ASSERT_NE(*none, nullptr);
  EXPECT_TRUE((*none)->heads.empty() && (*none)->tails.empty());
}

TEST(AbstractGraphTest, OpenGroundIsNearlyExact) {
  // 512 x 512 open columns: every crossing is plain, so the only loss is where entrances sit.
  // Auto walks near ends on the fine grid (exact) and lines straight; forced CCH walks all
  // through entrances, which costs most on short walks nearly along a border.
  const World world = OpenGround(512);
  const AbstractRouter router(world, Prepare(world, {"shortest"}), 16 << 20);
  const Metric metric(world, *FindProfile("shortest"), 0);
  const ExactnessReport forced = CheckExactness(world, metric, router, 100, 3, SearchMode::kCch);
  EXPECT_EQ(forced.disagree, 0u);
  EXPECT_LT(forced.mean_seconds_excess, 0.10);
  const ExactnessReport automatic =
      CheckExactness(world, metric, router, 100, 3, SearchMode::kAuto);
  EXPECT_EQ(automatic.disagree, 0u);
  EXPECT_LT(automatic.mean_seconds_excess, 0.001);
}

TEST(AbstractGraphTest, WalksCrossBordersDiagonally) {
  // On open ground every walk through the graph is exact when crossings may be diagonal and
  // the nodes of both families of borders lie on one lattice, in line along both diagonals: a
  // walk near the diagonal has no straight step to spare, so a straight step at each crossing
  // of a minor-axis border (two nodes per entrance, say) would cost it.
  const World world = OpenGround(512);
  const AbstractRouter router(world, Prepare(world, {"shortest"}), 16 << 20);
  const Metric metric(world, *FindProfile("shortest"), 0);
  const Continent& c = world.continents[0];
  auto place = [&](std::uint32_t x, std::uint32_t y) {
    SurfaceId first, end;
    c.ColumnSurfaces(x, y, &first, &end);
    return PlaceOf(c, world.FrameOf(world.continents[0]), first);
  };
  Searchers searchers;
  FineGridAStar astar;
  WalkOptions forced;
  forced.router = &router;
  forced.search = SearchMode::kCch;
  const std::uint32_t ends[][4] = {{3, 5, 500, 497},    {10, 400, 420, 6},    {500, 20, 30, 470},
                                   {7, 9, 300, 290},    {3, 5, 500, 350},     {3, 5, 500, 250},
                                   {20, 500, 400, 200}, {500, 500, 100, 200}, {30, 30, 480, 400}};
  for (const auto& e : ends) {
    auto graph = AnswerWalk(world, metric, place(e[0], e[1]), place(e[2], e[3]), searchers, forced);
    auto exact = AnswerWalk(world, metric, place(e[0], e[1]), place(e[2], e[3]), astar);
    ASSERT_TRUE(graph.ok() && exact.ok());
    ASSERT_EQ(graph->method, Method::kCch);
    // Exact but for the arcs' prices, each rounded up to a whole tick (nav/cch/cch_weights.h):
    // a walk on open ground crosses one arc per cell of 64 columns it passes, and two more.
    const std::uint32_t columns =
        std::max(e[0], e[2]) - std::min(e[0], e[2]) + std::max(e[1], e[3]) - std::min(e[1], e[3]);
    const double rounding = (columns / 64.0 + 2.0) * CchWeights::kTickSeconds;
    EXPECT_GE(graph->seconds, exact->seconds * (1.0 - 1e-9))
        << e[0] << "," << e[1] << " -> " << e[2] << "," << e[3];
    EXPECT_LE(graph->seconds, exact->seconds * (1.0 + 1e-6) + rounding)
        << e[0] << "," << e[1] << " -> " << e[2] << "," << e[3];
  }
}

// A world reloaded: its router freed and a larger one built where it was. A thread's searcher
// that walked the old router walks the new one as a fresh searcher does (nothing it keeps is
// sized to, or points into, a router: the CCH's queries are the router's own, leased per walk).
TEST(AbstractGraphTest, ASearcherWalksARouterBuiltWhereAFreedOneWas) {
  AbstractSearcher searcher;
  const World big = OpenGround(512);
  AbstractGraph big_graph = Prepare(big, {"shortest"});
  {
    const World small = OpenGround(128);
    const AbstractRouter old_router(small, Prepare(small, {"shortest"}), 1 << 20);
    const Continent& c = small.continents[0];
    const Metric metric(small, *FindProfile("shortest"), 0);
    auto walk =
        old_router.Route(c, metric, testing::SurfaceAt(c, 3, 3), testing::SurfaceAt(c, 120, 110),
                         SearchMode::kCch, false, searcher);
    ASSERT_TRUE(walk.ok() && walk->found) << walk.status();
  }
  const AbstractRouter router(big, std::move(big_graph), 1 << 20);
  const Continent& c = big.continents[0];
  const Metric metric(big, *FindProfile("shortest"), 0);
  const std::uint32_t ends[][4] = {{3, 5, 500, 497}, {10, 400, 420, 6}, {500, 20, 30, 470}};
  for (const auto& e : ends) {
    const SurfaceId a = testing::SurfaceAt(c, e[0], e[1]), b = testing::SurfaceAt(c, e[2], e[3]);
    AbstractSearcher fresh;
    auto walked = router.Route(c, metric, a, b, SearchMode::kCch, false, searcher);
    auto expected = router.Route(c, metric, a, b, SearchMode::kCch, false, fresh);
    ASSERT_TRUE(walked.ok() && expected.ok());
    EXPECT_TRUE(walked->found);
    EXPECT_EQ(walked->seconds, expected->seconds);
  }
}

TEST(AbstractGraphTest, AnEndNothingReachesIsRefusedWithoutTheFineGrid) {
  // A ledge on open ground: one may step off (300, 300) but never onto it. The graph finds no
  // way (the goal's leg reaches no entrance); the fine grid would then settle all 262,144
  // surfaces to agree, which takes tens of seconds on a continent. Auto looks for the trap
  // instead.
  World world = OpenGround(512);
  Continent& c = world.continents[0];
  const SurfaceId ledge = testing::SurfaceAt(c, 300, 300);
  for (int d = 0; d < kDirectionCount; ++d) {
    const SurfaceId u = testing::SurfaceAt(c, 300 - kDirectionDx[d], 300 - kDirectionDy[d]);
    ASSERT_EQ(c.LinkTarget(u, d), ledge);
    c.links[u][d] = kNoLink;
  }
  const AbstractRouter router(world, Prepare(world, {"shortest"}), 16 << 20);
  const Metric metric(world, *FindProfile("shortest"), 0);
  Searchers searchers;
  WalkOptions options;
  options.router = &router;
  auto onto = AnswerWalk(
      world, metric, PlaceOf(c, world.FrameOf(world.continents[0]), testing::SurfaceAt(c, 20, 30)),
      PlaceOf(c, world.FrameOf(world.continents[0]), ledge), searchers, options);
  ASSERT_TRUE(onto.ok()) << onto.status();
  EXPECT_EQ(onto->status, WalkStatus::kNoWalk);
  EXPECT_EQ(onto->method, Method::kReach);
  EXPECT_LT(onto->stats.nodes_expanded, 20'000u);
  auto off =
      AnswerWalk(world, metric, PlaceOf(c, world.FrameOf(world.continents[0]), ledge),
                 PlaceOf(c, world.FrameOf(world.continents[0]), testing::SurfaceAt(c, 20, 30)),
                 searchers, options);
  ASSERT_TRUE(off.ok());
  EXPECT_EQ(off->status, WalkStatus::kOk);
}

TEST(AbstractGraphTest, MeshesAndMovingAiMapsAgreeToo) {
  const std::string data = testing::SharedDataDir();
  const std::string map_path = data + "/movingai/bg512/AR0011SR.map";
  const std::string mesh_path = data + "/meshes/Library.obj";
  if (!std::filesystem::exists(map_path) || !std::filesystem::exists(mesh_path)) {
    GTEST_SKIP() << data << " lacks the MovingAI maps or meshes (set WALKD_SHARED_DATA)";
  }
  auto map = ReadMovingAiMap(map_path);
  ASSERT_TRUE(map.ok()) << map.status();
  auto grid = WorldFromMovingAi(*map);
  ASSERT_TRUE(grid.ok()) << grid.status();
  const AbstractRouter grid_router(*grid, Prepare(*grid, {"shortest"}), 16 << 20);
  ExpectSearchesAgree(*grid, grid_router, "shortest", 80, 2);

  auto floors = testing::MeshWorld(mesh_path);
  ASSERT_TRUE(floors.ok()) << floors.status();
  const AbstractRouter mesh_router(*floors, Prepare(*floors, {"neutral"}), 16 << 20);
  ExpectSearchesAgree(*floors, mesh_router, "neutral", 60, 4);
}

TEST(AbstractGraphTest, SavedGraphRoundTripsAndStaleOrDamagedIsRefused) {
  const World& world = DemoWorld();
  const AbstractGraph graph = Prepare(world, {"shortest"});
  const std::string dir = ::testing::TempDir() + "/abstract_graph_test";
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(SaveAbstractGraph(graph, dir).ok());
  auto loaded = LoadAbstractGraph(world, dir);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->Fingerprint(loaded->continents[0]), graph.Fingerprint(graph.continents[0]));
  ASSERT_EQ(loaded->continents.size(), graph.continents.size());
  EXPECT_EQ(loaded->continents[0].node_surface, graph.continents[0].node_surface);
  EXPECT_EQ(loaded->continents[0].arc_head, graph.continents[0].arc_head);
  EXPECT_EQ(loaded->continents[0].order, graph.continents[0].order);
  EXPECT_EQ(loaded->continents[0].prices[0].seconds, graph.continents[0].prices[0].seconds);
  EXPECT_EQ(loaded->continents[0].cell_nodes, graph.continents[0].cell_nodes);

  // Another continent under the same id: its graph is stale, left out, and said so.
  World other = world;
  other.continents[0].content_id ^= 1;
  auto stale = LoadAbstractGraph(other, dir);
  ASSERT_TRUE(stale.ok()) << stale.status();
  EXPECT_TRUE(stale->continents.empty());
  ASSERT_EQ(stale->unprepared.size(), 1u);
  EXPECT_NE(stale->unprepared[0].find("stale"), std::string::npos) << stale->unprepared[0];
  EXPECT_NE(stale->unprepared[0].find("walkgrid prepare --continents 0"), std::string::npos)
      << stale->unprepared[0];

  // A price no metric can carry (negative, not a number): data loss, never served.
  AbstractGraph bad = graph;
  bad.continents[0].prices[0].seconds[0] = -1.0f;
  ASSERT_TRUE(SaveAbstractGraph(bad, dir).ok());
  EXPECT_EQ(LoadAbstractGraph(world, dir).status().code(), absl::StatusCode::kDataLoss);
  bad.continents[0].prices[0].seconds[0] = std::nanf("");
  ASSERT_TRUE(SaveAbstractGraph(bad, dir).ok());
  EXPECT_EQ(LoadAbstractGraph(world, dir).status().code(), absl::StatusCode::kDataLoss);
  ASSERT_TRUE(SaveAbstractGraph(graph, dir).ok());

  // A profile this walkd does not know: stale, not served.
  bad = graph;
  bad.profiles[0] = "teleport";
  ASSERT_TRUE(SaveAbstractGraph(bad, dir).ok());
  EXPECT_EQ(LoadAbstractGraph(world, dir).status().code(), absl::StatusCode::kFailedPrecondition);
  // An arc between nodes of different cells that is not one linked step: refused.
  bad = graph;
  ContinentGraph& g = bad.continents[0];
  const std::uint32_t far = g.node_count() - 1;
  std::uint32_t tail = 0;
  while (g.first_arc[tail] == g.first_arc[tail + 1]) ++tail;
  g.arc_head[g.first_arc[tail]] = far;
  ASSERT_TRUE(SaveAbstractGraph(bad, dir).ok());
  EXPECT_EQ(LoadAbstractGraph(world, dir).status().code(), absl::StatusCode::kDataLoss);
  ASSERT_TRUE(SaveAbstractGraph(graph, dir).ok());

  // Cut off: data loss, never a crash.
  const std::string path = dir + "/" + kGraphFileName;
  const auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size / 2);
  EXPECT_EQ(LoadAbstractGraph(world, dir).status().code(), absl::StatusCode::kDataLoss);
  std::filesystem::remove(path);
  EXPECT_EQ(LoadAbstractGraph(world, dir).status().code(), absl::StatusCode::kNotFound);
}

// The A* toward one target (what the tile's own way and path unpacking run) finds what the
// Dijkstra finds: the radix heap's keys stay monotone despite rounding in g + h.
TEST(AbstractGraphTest, GuidedCellSearchCostsWhatDijkstraCosts) {
  const World& world = DemoWorld();
  const Continent& c = world.continents[0];
  const Metric metric(world, *FindProfile("neutral"), 0);
  CellSearch guided, plain;
  std::mt19937_64 random(13);
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  int compared = 0;
  for (int i = 0; i < 4000 && compared < 300; ++i) {
    const SurfaceId a = any(random), b = any(random);
    const Cell tile = CellOf(c, kTileColumns, a);
    if (!tile.Contains(c.column_x[b], c.column_y[b]) || a == b) continue;
    guided.Run(c, tile, metric,
               {.origin = a, .exempt_a = c.zone[a], .exempt_b = c.zone[b], .stop_at = b});
    const SurfaceId only[] = {b};
    plain.Run(c, tile, metric,
              {.origin = a, .exempt_a = c.zone[a], .exempt_b = c.zone[b], .targets = only});
    ASSERT_EQ(guided.Settled(b), plain.Settled(b)) << a << " -> " << b;
    if (!plain.Settled(b)) continue;
    ++compared;
    EXPECT_NEAR(guided.Seconds(b), plain.Seconds(b), 1e-9 * plain.Seconds(b)) << a << " -> " << b;
    EXPECT_LE(guided.settled_count(), plain.settled_count());
  }
  EXPECT_GT(compared, 100);
}

TEST(AbstractGraphTest, LegsInBucketsCostWhatLegsInTheHeapCost) {
  // Legs of the demo world (floors, lifts, roads, water, steep ground, towns), both ways, to every
  // portal of the cell, the ones outside it included: filed in Dial's buckets where the cell
  // has no lifts, and again in the radix heap (a bound, however loose, keeps a search there).
  const World& world = DemoWorld();
  const Continent& c = world.continents[0];
  const AbstractGraph graph = Prepare(world, {"neutral"});
  const ContinentGraph& g = graph.continents[0];
  CellSearch buckets, heap;
  std::mt19937_64 random(17);
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  int bucket_legs = 0, heap_legs = 0, compared = 0;
  for (const char* profile : {"neutral", "shortest"}) {
    const Metric metric(world, *FindProfile(profile), 0);
    for (int i = 0; i < 300; ++i) {
      const SurfaceId s = any(random);
      std::vector<SurfaceId> targets;
      for (const std::uint32_t n :
           g.CellPortals(graph.cell_columns, c.column_x[s], c.column_y[s])) {
        targets.push_back(g.node_surface[n]);
      }
      const bool backward = i % 2 == 1;
      const Cell cell = CellOf(c, graph.cell_columns, s);
      buckets.Run(c, cell, metric, {.origin = s, .backward = backward, .targets = targets});
      heap.Run(c, cell, metric,
               {.origin = s, .backward = backward, .targets = targets, .bound = 1e300});
      ASSERT_FALSE(heap.used_buckets());
      (buckets.used_buckets() ? bucket_legs : heap_legs) += 1;
      for (const SurfaceId t : targets) {
        ASSERT_EQ(buckets.Settled(t), heap.Settled(t)) << profile << ": " << s << " and " << t;
        if (!heap.Settled(t)) continue;
        ++compared;
        EXPECT_EQ(buckets.Seconds(t), heap.Seconds(t)) << profile << ": " << s << " and " << t;
      }
    }
  }
  EXPECT_GT(bucket_legs, 300);
  EXPECT_GT(heap_legs, 10);  // cells with lifts
  EXPECT_GT(compared, 3000);
}

TEST(AbstractGraphTest, BadOptionsNameTheField) {
  AbstractGraphOptions options;
  options.cell_columns = 100;
  auto graph = BuildAbstractGraph(DemoWorld(), options);
  EXPECT_EQ(graph.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(graph.status().message().find("cell_columns"), std::string::npos);
  options = AbstractGraphOptions();
  options.profiles = {"walking-on-air"};
  graph = BuildAbstractGraph(DemoWorld(), options);
  EXPECT_NE(graph.status().message().find("profiles"), std::string::npos);
}

TEST(AbstractGraphTest, ForcedSearchesFailClearlyWhereTheyCannotRun) {
  const World& world = DemoWorld();
  const AbstractRouter router(world, Prepare(world, {"neutral"}), 16 << 20);
  const Continent& c = world.continents[0];
  Searchers searchers;
  WalkOptions options;
  options.router = &router;
  auto place = [&](SurfaceId s) { return PlaceOf(c, world.FrameOf(world.continents[0]), s); };
  // Two surfaces of the largest region, far apart.
  SurfaceId a = kInvalidId, b = kInvalidId;
  RegionId largest = 0;
  for (RegionId r = 0; r < c.region_count(); ++r) {
    if (c.region_size[r] > c.region_size[largest]) largest = r;
  }
  for (SurfaceId s = 0; s < c.surface_count(); ++s) {
    if (c.region[s] != largest) continue;
    if (a == kInvalidId) a = s;
    b = s;
  }
  const Metric danger(world, *FindProfile("neutral"), 30);
  options.search = SearchMode::kCch;
  auto refused = AnswerWalk(world, danger, place(a), place(b), searchers, options);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(refused.status().message().rfind("search:", 0), 0u) << refused.status();
  // A profile that was not prepared.
  const Metric shortest(world, *FindProfile("shortest"), 0);
  options.search = SearchMode::kDijkstra;
  refused = AnswerWalk(world, shortest, place(a), place(b), searchers, options);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  // ...which auto answers on the fine grid instead.
  options.search = SearchMode::kAuto;
  auto answered = AnswerWalk(world, shortest, place(a), place(b), searchers, options);
  ASSERT_TRUE(answered.ok()) << answered.status();
  EXPECT_EQ(answered->method, Method::kFineGrid);
  // No router: forcing the abstract graph is refused, naming `search`.
  options.router = nullptr;
  options.search = SearchMode::kCch;
  refused = AnswerWalk(world, shortest, place(a), place(b), searchers, options);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(AbstractGraphTest, LegsAreCachedAndPathsUnpackToTheSameWalk) {
  const World& world = DemoWorld();
  const AbstractRouter router(world, Prepare(world, {"neutral"}), 16 << 20);
  const Continent& c = world.continents[0];
  const Metric metric(world, *FindProfile("neutral"), 0);
  AbstractSearcher searcher;
  std::mt19937_64 random(9);
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  int walks = 0;
  for (int i = 0; i < 400 && walks < 10; ++i) {
    const SurfaceId a = any(random), b = any(random);
    if (c.region[a] != c.region[b] || CellOf(c, 64, a).x0 == CellOf(c, 64, b).x0) continue;
    const std::uint64_t misses = router.leg_cache().misses();
    auto first = router.Route(c, metric, a, b, SearchMode::kCch, true, searcher);
    ASSERT_TRUE(first.ok());
    if (!first->found) continue;
    ++walks;
    auto again = router.Route(c, metric, a, b, SearchMode::kCch, false, searcher);
    EXPECT_EQ(router.leg_cache().misses(), misses + 2)
        << "the second walk's legs come from the cache";
    EXPECT_EQ(again->seconds, first->seconds);
    // The unpacked way is a real walk from a to b whose steps cost what the answer says.
    ASSERT_GE(first->steps.size(), 2u);
    EXPECT_EQ(first->steps.front().surface, a);
    EXPECT_EQ(first->steps.back().surface, b);
    double seconds = 0.0;
    for (std::size_t k = 1; k < first->steps.size(); ++k) {
      const SurfaceId from = first->steps[k - 1].surface, to = first->steps[k].surface;
      const std::uint8_t via = first->steps[k].via;
      if (via == PathStep::kViaLift) {
        const LiftRide* ride = c.FindRide(from, to);
        ASSERT_NE(ride, nullptr);
        seconds += metric.LiftSeconds(c, *ride, c.zone[a], c.zone[b]);
        continue;
      }
      ASSERT_LT(via, kDirectionCount);
      ASSERT_TRUE(HasLink(c.links[from][via]));
      ASSERT_EQ(c.LinkTarget(from, via), to);
      seconds += metric.StepSeconds(c, to, LinkKindOf(c.links[from][via]),
                                    IsDiagonal(via) ? std::sqrt(2.0) : 1.0, c.zone[a], c.zone[b]);
    }
    EXPECT_NEAR(seconds, first->seconds, 1e-3 * first->seconds);
  }
  EXPECT_GE(walks, 5);
}

}  // namespace
}  // namespace walk::nav
