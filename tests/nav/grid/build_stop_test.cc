// A BuildStop abandons every long build walkd runs while a world loads: the demo world (tile by
// tile and as its continent is built), the abstract graph (cell by cell), a CCH's customization
// and the router's. Set beforehand, each returns CANCELLED at once; set midway, it stops before
// the next piece of work; never set, it changes nothing.
#include "nav/grid/build_stop.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <vector>

#include "gtest/gtest.h"
#include "nav/abstract/abstract_graph.h"
#include "nav/abstract/abstract_router.h"
#include "nav/cch/cch.h"
#include "nav/cch/cch_metric.h"
#include "nav/cch/cch_order.h"
#include "nav/demo/demo_world.h"
#include "nav/grid/grid_builder.h"

namespace walk::nav {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The 1 x 1-tile demo world, made once.
const World& SmallWorld() {
  static const World* world = [] {
    DemoOptions options;
    options.tiles_x = options.tiles_y = 1;
    absl::StatusOr<World> made = GenerateDemoWorld(options);
    EXPECT_TRUE(made.ok()) << made.status();
    return new World(made.ok() ? *std::move(made) : World());
  }();
  return *world;
}

TEST(BuildStopTest, SaysStopOnlyOnceItsFlagIsSet) {
  EXPECT_FALSE(BuildStop().requested());
  EXPECT_TRUE(BuildStop().Check("anything").ok());
  std::atomic<bool> flag{false};
  const BuildStop stop(&flag);
  EXPECT_FALSE(stop.requested());
  EXPECT_TRUE(stop.Check("building").ok());
  flag = true;
  EXPECT_TRUE(stop.requested());
  EXPECT_TRUE(stop.Poll(0));
  EXPECT_FALSE(stop.Poll(1));  // only every kPollEvery-th step looks
  EXPECT_TRUE(stop.Poll(BuildStop::kPollEvery));
  const absl::Status checked = stop.Check("building the abstract graph");
  EXPECT_TRUE(absl::IsCancelled(checked)) << checked;
  EXPECT_EQ(checked.message(), "building the abstract graph: stopped before it was done");
}

TEST(BuildStopTest, TheDemoWorldStopsBetweenTiles) {
  std::atomic<bool> flag{false};
  DemoOptions options;
  options.tiles_x = options.tiles_y = 2;
  options.voxelize.stop = BuildStop(&flag);
  int tiles_done = 0;
  options.voxelize.progress = [&](std::uint32_t done, std::uint32_t) {
    tiles_done = static_cast<int>(done);
    if (done == 1) flag = true;  // stop after the first of four tiles
  };
  const absl::StatusOr<World> world = GenerateDemoWorld(options);
  EXPECT_TRUE(absl::IsCancelled(world.status())) << world.status();
  EXPECT_EQ(tiles_done, 1) << "no tile is voxelized once the stop is set";
}

TEST(BuildStopTest, AContinentStopsBeforeItsLinks) {
  std::atomic<bool> flag{true};
  ContinentBuilder builder(0, 256, 256);
  for (std::uint32_t x = 0; x < 256; ++x) builder.AddSurface(x, 0, SurfaceSpec{});
  const absl::StatusOr<Continent> built = builder.Build(LinkRules(), BuildStop(&flag));
  EXPECT_TRUE(absl::IsCancelled(built.status())) << built.status();
}

TEST(BuildStopTest, TheAbstractGraphStopsWithinACellOfEachThread) {
  const World& world = SmallWorld();
  ASSERT_FALSE(world.continents.empty());
  AbstractGraphOptions options;
  options.profiles = {"neutral"};
  options.threads = 2;
  // The whole build first: the baseline.
  Clock::time_point start = Clock::now();
  ASSERT_TRUE(BuildAbstractGraph(world, options).ok());
  const double whole_seconds = SecondsSince(start);
  // Stopped after 3 of its 16 cells: at most one more cell per other thread is counted done.
  std::atomic<bool> flag{false};
  options.stop = BuildStop(&flag);
  std::uint64_t cells_done = 0, cells_in_all = 0;
  Clock::time_point stopped_at;
  options.progress = [&](std::uint64_t done, std::uint64_t total) {
    cells_done = done;
    cells_in_all = total;
    if (done == 3) {
      flag = true;
      stopped_at = Clock::now();
    }
  };
  start = Clock::now();
  const absl::StatusOr<AbstractGraph> graph = BuildAbstractGraph(world, options);
  const double stop_to_return_seconds = SecondsSince(stopped_at);
  EXPECT_TRUE(absl::IsCancelled(graph.status())) << graph.status();
  EXPECT_LE(cells_done, 3u + (options.threads - 1));
  EXPECT_EQ(cells_in_all, 16u);
  std::printf(
      "abstract graph of 16 cells: whole %.3f s; stopped after 3 cells, returned %.4f s "
      "after the stop (%llu cells counted done)\n",
      whole_seconds, stop_to_return_seconds, static_cast<unsigned long long>(cells_done));
}

TEST(BuildStopTest, AStopSetBeforehandCancelsTheGraphAndTheRouter) {
  const World& world = SmallWorld();
  std::atomic<bool> flag{true};
  AbstractGraphOptions options;
  options.profiles = {"neutral"};
  options.stop = BuildStop(&flag);
  EXPECT_TRUE(absl::IsCancelled(BuildAbstractGraph(world, options).status()));
  options.stop = BuildStop();
  absl::StatusOr<AbstractGraph> graph = BuildAbstractGraph(world, options);
  ASSERT_TRUE(graph.ok()) << graph.status();
  const absl::StatusOr<std::unique_ptr<AbstractRouter>> stopped =
      AbstractRouter::Build(world, *graph, 1 << 20, BuildStop(&flag));
  EXPECT_TRUE(absl::IsCancelled(stopped.status())) << stopped.status();
  flag = false;
  const absl::StatusOr<std::unique_ptr<AbstractRouter>> built =
      AbstractRouter::Build(world, *std::move(graph), 1 << 20, BuildStop(&flag));
  ASSERT_TRUE(built.ok()) << built.status();
  EXPECT_GT((*built)->timings().cch_arcs, 0u);
}

// A square lattice of `side` x `side` nodes, arcs both ways between neighbours, weight 1, and
// its CCH.
struct Lattice {
  explicit Lattice(std::uint32_t side) {
    std::vector<float> x, y;
    for (std::uint32_t j = 0; j < side; ++j) {
      for (std::uint32_t i = 0; i < side; ++i) {
        x.push_back(static_cast<float>(i));
        y.push_back(static_cast<float>(j));
        const std::uint32_t v = j * side + i;
        if (i + 1 < side) Join(v, v + 1);
        if (j + 1 < side) Join(v, v + side);
      }
    }
    cch = std::make_unique<Cch>(side * side, NestedDissectionOrder(side * side, tails, heads, x, y),
                                tails, heads);
    weights.assign(tails.size(), 1.0);
  }
  void Join(std::uint32_t a, std::uint32_t b) {
    tails.insert(tails.end(), {a, b});
    heads.insert(heads.end(), {b, a});
  }
  std::vector<std::uint32_t> tails, heads;
  std::vector<double> weights;
  std::unique_ptr<Cch> cch;
};

TEST(BuildStopTest, ACustomizationStopsOnOneThreadOrMany) {
  const Lattice lattice(160);
  ASSERT_GE(lattice.cch->arc_count(), 1u << 16) << "big enough to customize on threads";
  std::atomic<bool> flag{true};
  for (unsigned threads : {1u, 2u}) {
    const absl::StatusOr<std::unique_ptr<CchMetric>> metric =
        CchMetric::Create(*lattice.cch, lattice.weights, false, threads, BuildStop(&flag));
    EXPECT_TRUE(absl::IsCancelled(metric.status())) << threads << ": " << metric.status();
  }
  // Never stopped, it customizes exactly what the constructor does.
  flag = false;
  const CchMetric plain(*lattice.cch, lattice.weights, false, 2);
  const absl::StatusOr<std::unique_ptr<CchMetric>> created =
      CchMetric::Create(*lattice.cch, lattice.weights, false, 2, BuildStop(&flag));
  ASSERT_TRUE(created.ok()) << created.status();
  for (std::uint32_t slot = 0; slot < 2 * lattice.cch->arc_count(); ++slot) {
    ASSERT_EQ(plain.weight(slot), (*created)->weight(slot)) << "slot " << slot;
  }
}

}  // namespace
}  // namespace walk::nav
