// A table's rows (nav/abstract/abstract_table.h) answer every cell as a single walk answers it:
// the same status, method, seconds and yards, on the demo world, through the walk pipeline.
#include "nav/abstract/abstract_table.h"

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "nav/abstract/abstract_graph.h"
#include "nav/query/snap.h"
#include "nav/query/walk_pipeline.h"
#include "tests/nav/abstract/demo_abstract.h"

namespace walk::nav {
namespace {

using testing::DemoWorld;
using testing::Prepare;

// Random places over continent 0, a few of them off the map.
std::vector<Place> RandomPlaces(const World& world, int count, std::mt19937_64& random) {
  const Continent& c = world.continents.at(0);
  const WorldFrame frame = world.FrameOf(c);
  std::uniform_real_distribution<double> x(-2.0, c.width_columns + 0.0);
  std::uniform_real_distribution<double> y(0.0, c.height_columns + 0.0);
  std::vector<Place> places(count);
  for (Place& p : places) {
    p.continent = c.id;
    p.x_yards = (frame.origin_x + x(random)) * frame.column_yards;
    p.y_yards = (frame.origin_y + y(random)) * frame.column_yards;
  }
  return places;
}

SurfaceId SnappedSurface(const World& world, const Place& place) {
  const Continent& c = world.continents.at(0);
  const Snap snap = SnapPlace(c, world.FrameOf(c), place);
  return snap.status == WalkStatus::kOk ? snap.end.surface : kInvalidId;
}

// The same walk, but for the search's statistics (a known walk searched less) and which way of
// equal seconds and yards it takes (a tie the row's sweeps may break otherwise than the query):
// whole, with its zone cells.
void ExpectSameWalk(const WalkAnswer& a, const WalkAnswer& b) {
  ASSERT_EQ(a.status, b.status);
  EXPECT_EQ(a.method, b.method);
  EXPECT_NEAR(a.seconds, b.seconds, 1e-9 * std::max(1.0, a.seconds));
  EXPECT_NEAR(a.yards, b.yards, 1e-6 * std::max(1.0, a.yards));
  EXPECT_FALSE(b.zone_cells_left_out);
  EXPECT_EQ(a.zone_cells.empty(), b.zone_cells.empty());
}

// Asks every cell of `sources` x `targets` in `metric`'s band through the walk pipeline alone,
// through a row of `table`, a row without yards and a whole row: the same status, method, seconds
// and yards (0 where a row without yards knew it), the whole row's with zone cells; a row knows
// every cell whose walk alone is a CCH query and whose two ends the table knows, and no other
// but cells with an end in a priced zone (the A* alone; the row's CCH, where it knows them).
// Counts the cells the rows knew into *known, those with a priced end into *priced_known, and
// every cell into *cells.
void ExpectRowsAnswerAsWalksAlone(const World& world, const Metric& metric,
                                  const AbstractTable& table, const std::vector<Place>& sources,
                                  const std::vector<Place>& targets, const WalkOptions& options,
                                  Searchers& searchers, int* known, int* priced_known, int* cells) {
  const Continent& c = world.continents.at(0);
  for (const Place& s : sources) {
    const SurfaceId from = SnappedSurface(world, s);
    std::unique_ptr<AbstractTable::Row> row =
        from != kInvalidId ? table.RowOf(from, searchers.abstract.cell) : nullptr;
    std::unique_ptr<AbstractTable::Row> seconds_row =
        from != kInvalidId
            ? table.RowOf(from, searchers.abstract.cell, AbstractTable::RowWalks::kSecondsOnly)
            : nullptr;
    std::unique_ptr<AbstractTable::Row> whole_row =
        from != kInvalidId
            ? table.RowOf(from, searchers.abstract.cell, AbstractTable::RowWalks::kWhole)
            : nullptr;
    for (const Place& t : targets) {
      ++*cells;
      searchers.abstract.known = nullptr;
      const absl::StatusOr<WalkAnswer> alone = AnswerWalk(world, metric, s, t, searchers, options);
      searchers.abstract.known = row.get();
      const absl::StatusOr<WalkAnswer> tabled = AnswerWalk(world, metric, s, t, searchers, options);
      searchers.abstract.known = seconds_row.get();
      const absl::StatusOr<WalkAnswer> seconds_only =
          AnswerWalk(world, metric, s, t, searchers, options);
      searchers.abstract.known = whole_row.get();
      const absl::StatusOr<WalkAnswer> whole = AnswerWalk(world, metric, s, t, searchers, options);
      searchers.abstract.known = nullptr;
      // A whole row's walk is the walk alone, with zone cells.
      ASSERT_TRUE(whole.ok()) << whole.status();
      ExpectSameWalk(*alone, *whole);
      ASSERT_TRUE(alone.ok()) << alone.status();
      ASSERT_TRUE(seconds_only.ok()) << seconds_only.status();
      ASSERT_EQ(alone->status, seconds_only->status);
      EXPECT_NEAR(alone->seconds, seconds_only->seconds, 1e-9 * std::max(1.0, alone->seconds));
      // A row without yards leaves them 0 in the walks it knows, and only there.
      if (seconds_only->zone_cells_left_out) {
        EXPECT_EQ(seconds_only->yards, 0.0);
      } else {
        EXPECT_NEAR(seconds_only->yards, alone->yards, 1e-6 * std::max(1.0, alone->yards));
      }
      ASSERT_TRUE(tabled.ok()) << tabled.status();
      ASSERT_EQ(alone->status, tabled->status);
      if (alone->status != WalkStatus::kOk) continue;
      const SurfaceId to = SnappedSurface(world, t);
      const bool ends_known = table.Knows(from) && table.Knows(to);
      // A priced end's walk alone is the A*; a row that knows it answers it over the CCH.
      const bool priced_end =
          metric.prices_danger() &&
          (metric.ZoneMultiplier(c.zone[from]) != 1.0 || metric.ZoneMultiplier(c.zone[to]) != 1.0);
      if (priced_end && tabled->zone_cells_left_out) {
        EXPECT_EQ(tabled->method, Method::kCch);
        EXPECT_TRUE(alone->method == Method::kCchAStar || alone->method == Method::kTile)
            << static_cast<int>(alone->method);
        ++*priced_known;
      } else {
        EXPECT_EQ(alone->method, tabled->method);
      }
      if (!priced_end) {
        EXPECT_EQ(tabled->zone_cells_left_out, ends_known && alone->method == Method::kCch);
      } else {
        EXPECT_TRUE(ends_known || !tabled->zone_cells_left_out);
      }
      *known += tabled->zone_cells_left_out;
      EXPECT_NEAR(alone->seconds, tabled->seconds, 1e-9 * std::max(1.0, alone->seconds));
      EXPECT_NEAR(alone->yards, tabled->yards, 1e-6 * std::max(1.0, alone->yards));
    }
  }
}

// Random sources and targets on continent 0, and tables of them checked cell by cell.
struct TableCase {
  TableCase(const World& world, const AbstractRouter& router, std::uint64_t seed, int source_count,
            int target_count)
      : world(world) {
    std::mt19937_64 random(seed);
    sources = RandomPlaces(world, source_count, random);
    targets = RandomPlaces(world, target_count, random);
    for (const Place& t : targets) target_surfaces.push_back(SnappedSurface(world, t));
    options.router = &router;
  }

  // The table of the targets in `metric`'s band (`reaches` as AbstractTable::Build takes it),
  // every cell checked against the walk alone (ExpectRowsAnswerAsWalksAlone); counts its
  // targets in zones the band prices into *priced_ends when given.
  void Check(const AbstractRouter& router, const Metric& metric, int* known, int* cells,
             int* priced_ends = nullptr, int* priced_known = nullptr, bool reaches = true) {
    auto table =
        AbstractTable::Build(router, world.continents.at(0), metric, target_surfaces,
                             searchers.abstract.cell, nullptr, AbstractRouter::kAtOnce, reaches);
    ASSERT_TRUE(table.ok()) << table.status();
    ASSERT_TRUE((*table)->active());
    const Continent& c = world.continents.at(0);
    for (const SurfaceId t : target_surfaces) {
      if (priced_ends != nullptr && t != kInvalidId) {
        *priced_ends += metric.ZoneMultiplier(c.zone[t]) != 1.0;
        EXPECT_EQ((*table)->Knows(t), reaches || metric.ZoneMultiplier(c.zone[t]) == 1.0);
      }
    }
    int ignored = 0;
    ExpectRowsAnswerAsWalksAlone(world, metric, **table, sources, targets, options, searchers,
                                 known, priced_known != nullptr ? priced_known : &ignored, cells);
  }

  const World& world;
  std::vector<Place> sources, targets;
  std::vector<SurfaceId> target_surfaces;
  Searchers searchers;
  WalkOptions options;
};

TEST(AbstractTableTest, EveryCellIsTheWalkAskedAloneWithItsYardsWhenAsked) {
  const World& world = DemoWorld();
  const AbstractRouter router(world, Prepare(world, {"neutral", "shortest"}), 64 << 20);
  TableCase table_case(world, router, 7, 14, 15);
  int known = 0, cells = 0;
  for (const char* profile : {"neutral", "shortest"}) {
    table_case.Check(router, Metric(world, *FindProfile(profile), 0), &known, &cells);
  }
  // The rows answered most cells that went over the graph (the rest: near, straight, one tile).
  EXPECT_GT(known, cells / 4) << known << " of " << cells << " cells known";
}

// A danger band's table sweeps the band's metric: its rows know the cells whose ends' zones the
// band does not price, each as the walk alone finds it on that metric (and as the danger
// Dijkstra does, which band_metrics_test checks). Without reaches they leave the others to the
// walk alone; with them they know most of those too, at the seconds of the walk alone (the A*,
// exact: danger_search_test), and leave the rest to it.
TEST(AbstractTableTest, ADangerBandKnowsTheCellsWhoseEndsItDoesNotPriceAndReachesTheOthers) {
  const World& world = DemoWorld();
  const AbstractRouter router(world, Prepare(world, {"neutral"}), 64 << 20, 1 << 30);
  router.SetExemptPatchAfter(0);  // a priced end's walk alone takes the A*
  TableCase table_case(world, router, 11, 16, 16);
  int known = 0, cells = 0, priced_ends = 0, priced_known = 0;
  for (const bool reaches : {false, true}) {
    for (const std::uint32_t band : {10u, 20u}) {
      const Metric metric(world, *FindProfile("neutral"), band);
      ASSERT_TRUE(metric.prices_danger());
      int reached = 0;
      table_case.Check(router, metric, &known, &cells, &priced_ends, &reached, reaches);
      if (!reaches) {
        EXPECT_EQ(reached, 0);
      }
      priced_known += reached;
    }
  }
  EXPECT_EQ(router.band_metrics().customizations(), 2u);  // one metric a band, shared
  EXPECT_GT(known, 0);
  EXPECT_GT(priced_ends, 0);  // the other kind of cell was asked too
  EXPECT_GT(priced_known, 0);
  std::printf("%d of %d cells known, %d of them with a priced end; %d targets in priced zones\n",
              known, cells, priced_known, priced_ends);
}

// A table asked again, in its band or after another band's, takes each place's side from the
// router's side cache, swept once by place, direction and band, and still answers every cell as
// the walk alone does (a side taken for another band, or the other direction of a place that is
// a source and a target, would price the cells wrong).
TEST(AbstractTableTest, ATableAskedAgainTakesItsSidesFromTheCache) {
  const World& world = DemoWorld();
  const AbstractRouter router(world, Prepare(world, {"neutral"}), 64 << 20, 1 << 30);
  router.SetExemptPatchAfter(0);
  TableCase table_case(world, router, 13, 10, 12);
  // Places that are sources and targets both: a forward side and a backward one each.
  for (const Place& s : table_case.sources) {
    table_case.targets.push_back(s);
    table_case.target_surfaces.push_back(SnappedSurface(world, s));
  }
  int known = 0, cells = 0;
  std::uint64_t swept_first = 0;
  for (const std::uint32_t band : {20u, 10u, 0u, 20u, 10u, 0u}) {
    const std::uint64_t misses = router.side_cache().misses();
    const std::uint64_t hits = router.side_cache().hits();
    table_case.Check(router, Metric(world, *FindProfile("neutral"), band), &known, &cells);
    if (swept_first < 3) {
      EXPECT_GT(router.side_cache().misses(), misses) << "band " << band << " swept its sides";
      ++swept_first;
    } else {
      EXPECT_EQ(router.side_cache().misses(), misses) << "band " << band << " swept again";
      EXPECT_GT(router.side_cache().hits(), hits);
    }
  }
  EXPECT_GT(known, cells / 4) << known << " of " << cells << " cells known";
}

// Reaches stopped short (here after 200 settled nodes, where the world's reaches settle
// thousands) keep their last border nodes far: the cells met through those are left to the walk
// alone, and every cell a row knows is still the walk alone's.
TEST(AbstractTableTest, ReachesStoppedShortStillKnowOnlyTheWalksAlone) {
  const World& world = DemoWorld();
  const AbstractRouter router(world, Prepare(world, {"neutral"}), 64 << 20, 1 << 30);
  router.SetExemptPatchAfter(0);
  router.SetReachFarAfter(200);
  TableCase table_case(world, router, 11, 16, 16);
  int known = 0, cells = 0, priced_ends = 0, priced_known = 0;
  for (const std::uint32_t band : {10u, 20u}) {
    table_case.Check(router, Metric(world, *FindProfile("neutral"), band), &known, &cells,
                     &priced_ends, &priced_known);
  }
  EXPECT_GT(priced_known, 0);
  std::printf("%d of %d cells known, %d of them with a priced end\n", known, cells, priced_known);
}

// Without band metrics a danger band's table builds nothing and knows no walk.
TEST(AbstractTableTest, ADangerBandWithoutBandMetricsKnowsNothing) {
  const World& world = DemoWorld();
  const Continent& c = world.continents.at(0);
  const AbstractRouter router(world, Prepare(world, {"neutral"}), 16 << 20);
  const Metric band20(world, *FindProfile("neutral"), 20);
  ASSERT_TRUE(band20.prices_danger());
  CellSearch search;
  auto table = AbstractTable::Build(router, c, band20, {0, 1}, search, nullptr);
  ASSERT_TRUE(table.ok());
  EXPECT_FALSE((*table)->active());
  EXPECT_EQ((*table)->RowOf(0, search), nullptr);
}

}  // namespace
}  // namespace walk::nav
