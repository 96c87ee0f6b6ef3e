// Lifts from a lifts file (nav/layers/lift_layer.h): landings found on the world's surfaces or
// refused saying why; rides between any two surfaces, each with its own timing; and every search
// taking them alike: the fine-grid A* agrees with the plain reference Dijkstra on a world with a
// lift faster than walking, regions, the trap check and cell searches follow rides between
// columns, and the abstract graph joins landings in different cells by a lift arc.
#include "nav/layers/lift_layer.h"

#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nav/abstract/abstract_graph.h"
#include "nav/abstract/abstract_graph_format.h"
#include "nav/abstract/abstract_router.h"
#include "nav/abstract/cell_search.h"
#include "nav/check/reference_dijkstra.h"
#include "nav/cost/metric.h"
#include "nav/grid/grid_builder.h"
#include "nav/grid/grid_format.h"
#include "nav/layers/ground_layers.h"
#include "nav/query/walk_pipeline.h"
#include "nav/search/fine_grid_astar.h"
#include "nav/search/reach_check.h"
#include "tests/nav/ascii_grid.h"
#include "tests/nav/test_dir.h"

namespace walk::nav {
namespace {

using testing::AsciiWorld;
using testing::At;
using testing::SurfaceAt;

using testing::TestDir;

// A lift from the centre of column (ax, ay) to that of (bx, by), both at height 0 (the ASCII
// worlds' ground), as a lifts file's entry.
std::string Lift(double ax, double ay, double bx, double by, const std::string& more = "") {
  auto landing = [](double x, double y) {
    return "{\"x\": " + std::to_string(x + 0.5) + ", \"y\": " + std::to_string(y + 0.5) +
           ", \"z\": 0}";
  };
  return "{\"from\": " + landing(ax, ay) + ", \"to\": " + landing(bx, by) + more + "}";
}

std::string Lifts(const std::vector<std::string>& lifts) {
  std::string text = "{\"lifts\": [";
  for (std::size_t i = 0; i < lifts.size(); ++i) text += (i ? ", " : "") + lifts[i];
  return text + "]}";
}

absl::StatusOr<LayersReport> LayLifts(World* world, const std::string& text) {
  LayerSources sources;
  sources.lifts = LayerSource{"lifts.json", text};
  return ApplyLayers(sources, world);
}

// Two rooms 32 columns wide side by side, the wall between them open only at its two lowest
// rows; a lift far faster than walking joins a corner of each.
World TwoRooms(const std::string& lift_timing) {
  std::vector<std::string> rows(32, std::string(65, '.'));
  for (int y = 2; y < 32; ++y) rows[static_cast<std::size_t>(y)][32] = '@';
  World world = AsciiWorld(rows);
  // Row 0 of the drawing is y = 0 in these worlds (MovingAI's (0, 0) is the top-left cell).
  auto report = LayLifts(&world, Lifts({Lift(5, 28, 58, 26, lift_timing)}));
  EXPECT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report.ok() && (*report->lifts)[0].joined) << (*report->lifts)[0].why;
  return world;
}

constexpr const char* kFastCar = R"(, "wait_s": 0, "shaft_yards_per_s": 200)";

TEST(LiftLayerTest, ACarJoinsTwoColumnsBothWaysWithItsOwnTiming) {
  World world = AsciiWorld({"......@.....", "......@....."});
  auto report = LayLifts(&world, Lifts({Lift(0, 0, 11, 1,
                                             R"(, "name": "Gap car", "wait_s": 2,)"
                                             R"( "shaft_yards_per_s": 5.5)")}));
  ASSERT_TRUE(report.ok()) << report.status();
  const LiftOutcome& lift = (*report->lifts)[0];
  ASSERT_TRUE(lift.joined) << lift.why;
  const Continent& c = world.continents[0];
  const SurfaceId a = SurfaceAt(c, 0, 0), b = SurfaceAt(c, 11, 1);
  EXPECT_EQ(lift.from, a);
  EXPECT_EQ(lift.to, b);
  EXPECT_NEAR(lift.shaft_yards, std::sqrt(11.0 * 11.0 + 1.0), 1e-5);
  ASSERT_EQ(c.lifts.size(), 2u);
  for (const LiftRide& ride : c.lifts) {
    EXPECT_EQ(ride.wait_seconds, 2.0f);
    EXPECT_EQ(ride.shaft_yards_per_second, 5.5f);
  }
  ASSERT_NE(c.FindRide(a, b), nullptr);
  ASSERT_NE(c.FindRide(b, a), nullptr);
  EXPECT_TRUE(c.marks[a] & kMarkLift);
  EXPECT_TRUE(c.marks[b] & kMarkLift);
  EXPECT_EQ(c.region_count(), 1u);  // the wall parts the rows; the car joins them
  // Priced by its own timing: 2 s and the shaft at 5.5 yd/s; "shortest" its length at a run.
  const Metric neutral(world, *FindProfile("neutral"), 0);
  const Metric shortest(world, *FindProfile("shortest"), 0);
  const double shaft = c.FindRide(a, b)->shaft_yards;
  EXPECT_DOUBLE_EQ(neutral.LiftSeconds(c, *c.FindRide(a, b), 0, 0), 2.0 + shaft / 5.5);
  EXPECT_DOUBLE_EQ(shortest.LiftSeconds(c, *c.FindRide(a, b), 0, 0), shaft / 7.0);
  FineGridAStar astar;
  std::vector<PathStep> path;
  const SearchResult walk = astar.FindWalk(c, 1.0, neutral, a, b, &path);
  ASSERT_TRUE(walk.found);
  EXPECT_DOUBLE_EQ(walk.seconds, 2.0 + shaft / 5.5);
  ASSERT_EQ(path.size(), 2u);
  EXPECT_EQ(path[1].via, PathStep::kViaLift);
  EXPECT_EQ(world.layers.at(0).summary, "1 lift joined, 0 refused");
}

TEST(LiftLayerTest, ALiftFasterThanWalkingLowersTheBoundToItsPace) {
  const World world = TwoRooms(kFastCar);
  const Continent& c = world.continents[0];
  const Metric neutral(world, *FindProfile("neutral"), 0);
  const LiftRide& ride = c.lifts[0];
  const double columns = OctileColumns(53, 2);
  EXPECT_LE(neutral.min_seconds_per_column(), neutral.LiftSeconds(c, ride, 0, 0) / columns);
  EXPECT_LT(neutral.min_seconds_per_column(), neutral.seconds_per_column() / 10);
  // A lift in one column, however fast, moves no column: the bound stays.
  ContinentBuilder builder(0, 2, 1);
  SurfaceSpec ground, deck;
  deck.height_yards = 4.0f;
  deck.flags = kFlagBuilding;
  builder.AddSurface(0, 0, ground);
  builder.AddSurface(0, 0, deck);
  builder.AddSurface(1, 0, ground);
  builder.AddLift(0, 0, 0.0f, 4.0f, /*wait_seconds=*/0.0f, /*shaft_yards_per_second=*/1000.0f);
  auto built = builder.Build(LinkRules{});
  ASSERT_TRUE(built.ok()) << built.status();
  World shaft;
  shaft.continents.push_back(*std::move(built));
  const Metric one_column(shaft, *FindProfile("neutral"), 0);
  EXPECT_EQ(one_column.min_seconds_per_column(), one_column.seconds_per_column());
}

// The fine-grid A* and the plain reference Dijkstra agree on random pairs: the A*'s bound
// stays admissible with a car that crosses 50 columns in a fraction of a second.
TEST(LiftLayerTest, FineGridAStarAgreesWithTheReferenceDijkstraAroundAFastLift) {
  for (const char* timing : {kFastCar, ""}) {
    const World world = TwoRooms(timing);
    const Continent& c = world.continents[0];
    FineGridAStar astar;
    std::mt19937_64 random(5);
    std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
    int by_lift = 0;
    for (const char* profile : {"neutral", "shortest", "faction-b"}) {
      const Metric metric(world, *FindProfile(profile), 0);
      for (int i = 0; i < 60; ++i) {
        // Half the pairs from near one landing, where the lift matters most.
        const SurfaceId a = i % 2 ? any(random) : SurfaceAt(c, 4 + i % 5, 25 + i % 7);
        const SurfaceId b = any(random);
        std::vector<PathStep> path;
        const SearchResult found = astar.FindWalk(c, 1.0, metric, a, b, &path);
        const SearchResult expected = ReferenceDijkstra(c, 1.0, metric, a, b);
        ASSERT_EQ(found.found, expected.found);
        EXPECT_NEAR(found.seconds, expected.seconds, 1e-9 * std::max(1.0, expected.seconds))
            << profile << " " << a << " -> " << b;
        for (const PathStep& step : path) by_lift += step.via == PathStep::kViaLift;
      }
    }
    if (timing == kFastCar) {
      EXPECT_GT(by_lift, 10) << "the lift was taken";
    }
  }
}

TEST(LiftLayerTest, TheWalkPipelineTakesAFastLiftOverAStraightLine) {
  // One open row: the straight line is plain walking, and a car along the row is quicker.
  World world = AsciiWorld({std::string(80, '.')});
  ASSERT_TRUE(LayLifts(&world, Lifts({Lift(2, 0, 77, 0, kFastCar)})).ok());
  const Metric metric(world, *FindProfile("neutral"), 0);
  FineGridAStar astar;
  auto answer = AnswerWalk(world, metric, At(1, 0), At(78, 0), astar);
  ASSERT_TRUE(answer.ok()) << answer.status();
  ASSERT_EQ(answer->status, WalkStatus::kOk);
  const Continent& c = world.continents[0];
  const double expected =
      ReferenceDijkstra(c, 1.0, metric, SurfaceAt(c, 1, 0), SurfaceAt(c, 78, 0)).seconds;
  EXPECT_NEAR(answer->seconds, expected, 1e-9);
  EXPECT_LT(answer->seconds, 77.0 / 7.0 / 2);
}

TEST(LiftLayerTest, RegionsTheTrapCheckAndCellSearchesFollowRidesBetweenColumns) {
  std::vector<std::string> rows(16, std::string(33, '.'));
  for (auto& row : rows) row[16] = '@';  // two rooms, no gap
  World world = AsciiWorld(rows);
  ASSERT_EQ(world.continents[0].region_count(), 2u);
  ASSERT_TRUE(LayLifts(&world, Lifts({Lift(3, 3, 29, 12)})).ok());
  const Continent& c = world.continents[0];
  EXPECT_EQ(c.region_count(), 1u);
  const Metric metric(world, *FindProfile("neutral"), 0);
  const SurfaceId a = SurfaceAt(c, 0, 0), b = SurfaceAt(c, 32, 15);
  EXPECT_EQ(CheckReach(c, metric, a, b, 1 << 20).reach, Reach::kYes);
  EXPECT_EQ(CheckReach(c, metric, b, a, 1 << 20).reach, Reach::kYes);
  // Into the far landing: its ride from the near one is a step into it.
  bool from_near = false;
  ForEachStepInto(c, metric, SurfaceAt(c, 29, 12), 0, 0, [&](SurfaceId u) {
    from_near = from_near || u == SurfaceAt(c, 3, 3);
    return false;
  });
  EXPECT_TRUE(from_near);
  // A cell holding both landings searches the ride both ways alike.
  CellSearch search;
  const Cell cell = CellAt(c, 64, 0, 0);
  search.Run(c, cell, metric, {.origin = a, .stop_at = b});
  ASSERT_TRUE(search.Settled(b));
  const double forward = search.Seconds(b);
  search.Run(c, cell, metric, {.origin = b, .backward = true, .targets = {&a, 1}});
  ASSERT_TRUE(search.Settled(a));
  EXPECT_NEAR(search.Seconds(a), forward, 1e-9);
  EXPECT_NEAR(forward, ReferenceDijkstra(c, 1.0, metric, a, b).seconds, 1e-9);
  // A cell holding one landing leaves the ride to the graph.
  search.Run(c, CellAt(c, 16, 0, 0), metric, {.origin = a, .stop_at = b});
  EXPECT_FALSE(search.Settled(b));
}

TEST(LiftLayerTest, TheAbstractGraphJoinsLandingsInDifferentCellsByALiftArc) {
  const World world = TwoRooms(kFastCar);
  const Continent& c = world.continents[0];
  AbstractGraphOptions options;
  options.cell_columns = 16;
  options.profiles = {"neutral", "shortest"};
  options.threads = 1;
  auto graph = BuildAbstractGraph(world, options);
  ASSERT_TRUE(graph.ok()) << graph.status();
  const SurfaceId near = SurfaceAt(c, 5, 28), far = SurfaceAt(c, 58, 26);
  const ContinentGraph& g = graph->continents[0];
  const std::uint32_t tail = g.NodeOf(near), head = g.NodeOf(far);
  ASSERT_NE(tail, kInvalidId);
  ASSERT_NE(head, kInvalidId);
  bool arc = false;
  for (std::uint32_t a = g.first_arc[tail]; a < g.first_arc[tail + 1]; ++a) {
    if (g.arc_head[a] != head) continue;
    arc = true;
    const Metric neutral(world, *FindProfile("neutral"), 0);
    // Priced in whole ticks: the ride's seconds rounded up.
    EXPECT_EQ(g.prices[0].seconds[a],
              OnTicks(neutral.LiftSeconds(c, *c.FindRide(near, far), 0, 0)));
    EXPECT_EQ(g.prices[0].yards[a], 0.0f);  // a ride walks no yards
  }
  EXPECT_TRUE(arc);
  // The file keeps it: the loader takes an arc along a ride between cells.
  const std::string dir = TestDir("lift-graph");
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(SaveAbstractGraph(*graph, dir).ok());
  auto loaded = LoadAbstractGraph(world, dir);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  std::filesystem::remove_all(dir);

  const AbstractRouter router(world, *std::move(loaded), 16 << 20);
  AbstractSearcher searcher;
  FineGridAStar astar;
  std::mt19937_64 random(11);
  std::uniform_int_distribution<std::uint32_t> x_near(0, 12), x_far(50, 64), y_any(0, 31);
  int by_lift = 0;
  for (const char* profile : {"neutral", "shortest"}) {
    const Metric metric(world, *FindProfile(profile), 0);
    for (int i = 0; i < 30; ++i) {
      const SurfaceId a = SurfaceAt(c, x_near(random), y_any(random));
      const SurfaceId b = SurfaceAt(c, x_far(random), y_any(random));
      const SearchResult exact = astar.FindWalk(c, 1.0, metric, a, b);
      ASSERT_TRUE(exact.found);
      auto cch = router.Route(c, metric, a, b, SearchMode::kCch, true, searcher);
      auto dijkstra = router.Route(c, metric, a, b, SearchMode::kDijkstra, false, searcher);
      ASSERT_TRUE(cch.ok() && dijkstra.ok());
      ASSERT_TRUE(cch->found && dijkstra->found) << profile << " " << a << " -> " << b;
      EXPECT_NEAR(cch->seconds, dijkstra->seconds, 1e-4 * dijkstra->seconds);
      EXPECT_GE(cch->seconds, exact.seconds * (1 - 1e-6)) << "never cheaper than the exact walk";
      EXPECT_LE(cch->seconds, exact.seconds * 1.25 + 1.0);
      // The unpacked way is a real walk whose steps cost what the answer says.
      ASSERT_GE(cch->steps.size(), 2u);
      EXPECT_EQ(cch->steps.front().surface, a);
      EXPECT_EQ(cch->steps.back().surface, b);
      double seconds = 0.0;
      for (std::size_t k = 1; k < cch->steps.size(); ++k) {
        const SurfaceId from = cch->steps[k - 1].surface, to = cch->steps[k].surface;
        const std::uint8_t via = cch->steps[k].via;
        if (via == PathStep::kViaLift) {
          ++by_lift;
          ASSERT_NE(c.FindRide(from, to), nullptr);
          seconds += metric.LiftSeconds(c, *c.FindRide(from, to), c.zone[a], c.zone[b]);
          continue;
        }
        ASSERT_LT(via, kDirectionCount);
        ASSERT_EQ(c.LinkTarget(from, via), to);
        seconds += metric.StepSeconds(c, to, LinkKindOf(c.links[from][via]),
                                      IsDiagonal(via) ? std::sqrt(2.0) : 1.0, c.zone[a], c.zone[b]);
      }
      // The graph's arcs are priced in whole ticks, rounded up (nav/cch/cch_weights.h): less
      // than a tick each, and a walk has fewer arcs than steps.
      EXPECT_NEAR(seconds, cch->seconds,
                  1e-3 * cch->seconds + CchWeights::kTickSeconds * cch->steps.size());
    }
  }
  EXPECT_GT(by_lift, 10) << "walks across went by the lift";
}

TEST(LiftLayerTest, LandingsAreTheNearestSurfaceWithinThreeYardsOrTheLiftIsRefused) {
  SurfaceSpec ground, deck, roof, wall;
  deck.height_yards = 4.0f;
  deck.flags = kFlagBuilding;
  roof.height_yards = 8.0f;
  roof.flags = kFlagBuilding;
  wall.flags = kFlagBlocked;
  ContinentBuilder stacked(0, 6, 1);  // column 1 holds three floors, 4 a wall, 5 nothing
  for (std::uint32_t x = 0; x < 4; ++x) stacked.AddSurface(x, 0, ground);
  stacked.AddSurface(1, 0, deck);
  stacked.AddSurface(1, 0, roof);
  stacked.AddSurface(4, 0, wall);
  stacked.AddSurface(0, 0, deck);
  stacked.AddLift(0, 0, 0.0f, 4.0f);  // the world's own lift, which the file replaces
  auto continent = stacked.Build(LinkRules{});
  ASSERT_TRUE(continent.ok()) << continent.status();
  World world;
  world.continents.push_back(*std::move(continent));
  AssignContentIds(world);
  auto landing = [](double x, double z) {
    return "{\"x\": " + std::to_string(x) + ", \"y\": 0.5, \"z\": " + std::to_string(z) + "}";
  };
  auto lift = [&](double ax, double az, double bx, double bz, const std::string& name) {
    return "{\"name\": \"" + name + "\", \"from\": " + landing(ax, az) +
           ", \"to\": " + landing(bx, bz) + "}";
  };
  auto report = LayLifts(&world, Lifts({
                                     lift(1.5, 5.5, 2.5, 0, "deck"),       // 1.5 from the deck
                                     lift(1.5, 6.0, 3.5, 0, "tie"),        // 2 from deck and roof
                                     lift(1.5, 12.0, 3.5, 0, "too high"),  // 4 above the roof
                                     lift(9.5, 0, 3.5, 0, "off"),
                                     lift(5.5, 0, 3.5, 0, "empty"),
                                     lift(4.5, 0, 3.5, 0, "wall"),
                                     lift(3.5, 0, 3.7, 1, "one"),
                                     lift(2.5, 0, 1.5, 4, "again"),
                                     "{\"continent\": 4, \"from\": " + landing(0.5, 0) +
                                         ", \"to\": " + landing(1.5, 0) + "}",
                                 }));
  ASSERT_TRUE(report.ok()) << report.status();
  const std::vector<LiftOutcome>& out = *report->lifts;
  ASSERT_EQ(out.size(), 9u);
  const Continent& c = world.continents[0];
  SurfaceId first, end;
  c.ColumnSurfaces(1, 0, &first, &end);
  ASSERT_EQ(end - first, 3u);
  EXPECT_TRUE(out[0].joined);
  EXPECT_EQ(out[0].from, first + 1);
  EXPECT_TRUE(out[1].joined);
  EXPECT_EQ(out[1].from, first + 1);  // the lower on a tie
  EXPECT_FALSE(out[2].joined);
  EXPECT_EQ(out[2].why,
            "from: no surface of the column at (1.5, 0.5) lies within 3 yards of z = 12 (the "
            "nearest is at z = 8)");
  EXPECT_EQ(out[3].why, "from: (9.5, 0.5) is off continent 0's map");
  EXPECT_EQ(out[4].why, "from: the column at (5.5, 0.5) has no surface");
  EXPECT_EQ(out[5].why, "from: the surface at z = 0 is blocked ground");
  EXPECT_EQ(out[6].why, "from and to land on one surface");
  EXPECT_EQ(out[7].why, "joins two landings an earlier lift joins");
  EXPECT_EQ(out[8].why, "continent: the world has no continent 4");
  // The file replaced the world's own lift: its landings carry no lift mark any more.
  EXPECT_EQ(c.lifts.size(), 4u);
  SurfaceId column0, column0_end;
  c.ColumnSurfaces(0, 0, &column0, &column0_end);
  for (SurfaceId s = column0; s < column0_end; ++s) EXPECT_FALSE(c.marks[s] & kMarkLift);
  EXPECT_EQ(world.layers.at(0).summary, "2 lifts joined, 7 refused");
}

TEST(LiftLayerTest, BadLiftFilesAreRefusedNamingTheLiftAndTheMember) {
  const std::string ok = Lift(0, 0, 1, 0);
  const std::vector<std::pair<std::string, std::string>> bad = {
      {Lifts(
           {ok, ok,
            R"({"name": "Mesa car", "from": {"x": 1, "y": 2, "z": "up"}, "to": {"x": 1, "y": 2, "z": 3}})"}),
       "lifts.json: lifts[2] (\"Mesa car\"): from.z: must be a finite number"},
      {Lifts(
           {R"({"from": {"x": 1, "y": 2, "z": 0}, "to": {"x": 1, "y": 2, "z": 3}, "wait_seconds": 5})"}),
       "lifts.json: lifts[0]: wait_seconds: is not a member of a lift (misspelt?)"},
      {Lifts({R"({"from": {"x": 1, "y": 2, "z": 0, "w": 1}, "to": {"x": 1, "y": 2, "z": 3}})"}),
       "lifts.json: lifts[0]: from.w: is not a member of a lift (misspelt?)"},
      {Lifts({R"({"from": {"x": 1, "y": 2, "z": 0}})"}),
       "lifts.json: lifts[0]: to: is missing (a landing {\"x\", \"y\", \"z\"})"},
      {Lifts(
           {R"({"from": {"x": 1, "y": 2, "z": 0}, "to": {"x": 1, "y": 2, "z": 3}, "wait_s": -1})"}),
       "lifts.json: lifts[0]: wait_s: must be a number from 0 to 3600"},
      {Lifts(
           {R"({"from": {"x": 1, "y": 2, "z": 0}, "to": {"x": 1, "y": 2, "z": 3}, "shaft_yards_per_s": 0})"}),
       "lifts.json: lifts[0]: shaft_yards_per_s: must be a number above 0 to 1000"},
      {Lifts(
           {R"({"continent": -1, "from": {"x": 1, "y": 2, "z": 0}, "to": {"x": 1, "y": 2, "z": 3}})"}),
       "lifts.json: lifts[0]: continent: must be an integer 0..4294967295"},
      {Lifts({R"({"name": 7})"}), "lifts.json: lifts[0]: name: must be a string"},
      {Lifts({"[]"}), "lifts.json: lifts[0]: lift: must be an object"},
      {R"({"lift": []})", "lifts.json: lift: is not a member of a lifts file (only \"lifts\")"},
      {R"({"lifts": {}})", "lifts.json: lifts: must be an array"},
      {"[]", "lifts.json: must be an object {\"lifts\": [...]}"},
  };
  for (const auto& [text, message] : bad) {
    World world = AsciiWorld({"...."});
    auto report = LayLifts(&world, text);
    ASSERT_FALSE(report.ok()) << text;
    EXPECT_EQ(report.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(report.status().message(), message);
  }
  // Mangled files never crash: refused, or read as lifts.
  const std::string good = Lifts({Lift(0, 0, 3, 0, R"(, "name": "n", "wait_s": 1)")});
  std::mt19937_64 random(3);
  const std::string noise = "{}[],:\"0123456789.-eE xyz\\";
  for (int i = 0; i < 500; ++i) {
    std::string text = i < static_cast<int>(good.size()) ? good.substr(0, i) : good;
    if (i >= static_cast<int>(good.size()))
      text[random() % text.size()] = noise[random() % noise.size()];
    World world = AsciiWorld({"...."});
    auto report = LayLifts(&world, text);
    if (!report.ok()) {
      EXPECT_EQ(report.status().code(), absl::StatusCode::kInvalidArgument);
    }
  }
}

TEST(LiftLayerTest, GridFilesKeepRidesBetweenColumns) {
  const World world = TwoRooms(kFastCar);
  const std::string dir = TestDir("lift-grid");
  ASSERT_TRUE(SaveWorld(world, "test:lifts", dir).ok());
  auto loaded = LoadWorld(dir);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->world.content_id, world.content_id);
  const Continent& c = loaded->world.continents[0];
  ASSERT_EQ(c.lifts.size(), 2u);
  EXPECT_EQ(c.lifts[0].wait_seconds, 0.0f);
  EXPECT_EQ(c.lifts[0].shaft_yards_per_second, 200.0f);
  ASSERT_EQ(loaded->world.layers.size(), 1u);
  EXPECT_EQ(loaded->world.layers[0].name, "lifts");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace walk::nav
