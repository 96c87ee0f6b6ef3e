// Profile metrics (nav/abstract/abstract_router.h): a router customizes a profile's CCH metric on
// the profile's first walk, once however many walks ask at once, unless asked to at load; its
// walks cost what a router customized whole at load answers; a graph whose prices stay in the
// file until then (GraphLoadOptions) walks the same.
#include <filesystem>
#include <latch>
#include <random>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "nav/abstract/abstract_graph_format.h"
#include "nav/abstract/abstract_router.h"
#include "tests/nav/abstract/demo_abstract.h"

namespace walk::nav {
namespace {

using testing::DemoWorld;
using testing::Prepare;

const AbstractGraph& TwoProfiles() {
  static const AbstractGraph* graph =
      new AbstractGraph(Prepare(DemoWorld(), {"neutral", "faction-a"}));
  return *graph;
}

std::unique_ptr<AbstractRouter> Lazy(AbstractGraph graph, std::vector<std::string> at_load = {}) {
  auto router = AbstractRouter::Build(DemoWorld(), std::move(graph), 1 << 20, BuildStop(),
                                      /*band_metric_bytes=*/64 << 20, at_load);
  EXPECT_TRUE(router.ok()) << router.status();
  return router.ok() ? *std::move(router) : nullptr;
}

// `pairs` random pairs of one region on continent 0, in bands 0 and 20 of `profile`: `lazy`
// costs what `whole` (every metric customized at load) costs.
void ExpectSameWalks(const AbstractRouter& lazy, const AbstractRouter& whole,
                     const std::string& profile, int pairs, std::uint64_t seed) {
  const Continent& c = DemoWorld().continents.at(0);
  AbstractSearcher searcher;
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  int compared = 0;
  for (int i = 0; i < 100 * pairs && compared < pairs; ++i) {
    const SurfaceId a = any(random), b = any(random);
    if (a == b || c.region[a] != c.region[b]) continue;
    for (std::uint32_t band : {0u, 20u}) {
      const Metric metric(DemoWorld(), *FindProfile(profile), band);
      auto got = lazy.Route(c, metric, a, b, SearchMode::kAuto, false, searcher);
      auto want = whole.Route(c, metric, a, b, SearchMode::kAuto, false, searcher);
      ASSERT_TRUE(got.ok() && want.ok());
      EXPECT_EQ(got->found, want->found) << profile << " band " << band << " " << a << " -> " << b;
      EXPECT_EQ(got->seconds, want->seconds)
          << profile << " band " << band << " " << a << " -> " << b;
    }
    ++compared;
  }
  EXPECT_EQ(compared, pairs);
}

TEST(ProfileMetricsTest, AProfileIsCustomizedOnItsFirstWalk) {
  const AbstractRouter whole(DemoWorld(), TwoProfiles(), 1 << 20, 64 << 20);
  EXPECT_EQ(whole.timings().profile_metrics, TwoProfiles().continents.size() * 2);
  std::unique_ptr<AbstractRouter> lazy = Lazy(TwoProfiles());
  ASSERT_NE(lazy, nullptr);
  EXPECT_EQ(lazy->timings().profile_metrics, 0u);
  const std::uint64_t bytes_before = lazy->timings().memory_bytes;
  ExpectSameWalks(*lazy, whole, "faction-a", 30, 1);
  EXPECT_EQ(lazy->timings().profile_metrics, 1u) << "faction-a on continent 0 alone";
  EXPECT_GT(lazy->timings().memory_bytes, bytes_before);
  EXPECT_GT(lazy->timings().customize_seconds, 0.0);
  ExpectSameWalks(*lazy, whole, "neutral", 30, 2);
  EXPECT_EQ(lazy->timings().profile_metrics, 2u);
  ExpectSameWalks(*lazy, whole, "faction-a", 10, 3);
  EXPECT_EQ(lazy->timings().profile_metrics, 2u) << "customized once";

  std::unique_ptr<AbstractRouter> at_load = Lazy(TwoProfiles(), {"neutral"});
  ASSERT_NE(at_load, nullptr);
  EXPECT_EQ(at_load->timings().profile_metrics, TwoProfiles().continents.size());
}

TEST(ProfileMetricsTest, ConcurrentFirstWalksCustomizeOnce) {
  std::unique_ptr<AbstractRouter> lazy = Lazy(TwoProfiles());
  ASSERT_NE(lazy, nullptr);
  const Continent& c = DemoWorld().continents.at(0);
  const Metric band(DemoWorld(), *FindProfile("neutral"), 0);
  constexpr int kThreads = 4;
  std::latch start(kThreads);
  std::vector<double> seconds(kThreads, -1.0);
  std::vector<std::thread> threads;
  SurfaceId a = 0, b = c.surface_count() - 1;
  while (c.region[a] != c.region[b]) ++a;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      AbstractSearcher searcher;
      start.arrive_and_wait();
      auto walk = lazy->Route(c, band, a, b, SearchMode::kAuto, false, searcher);
      if (walk.ok()) seconds[t] = walk->seconds;
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(lazy->timings().profile_metrics, 1u);
  for (double s : seconds) EXPECT_EQ(s, seconds[0]);
  EXPECT_GT(seconds[0], 0.0);
}

TEST(ProfileMetricsTest, PricesLeftInTheFileWalkTheSame) {
  const std::string dir = ::testing::TempDir() + "/profile_metrics_test";
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(SaveAbstractGraph(TwoProfiles(), dir).ok());
  absl::StatusOr<AbstractGraph> loaded =
      LoadAbstractGraph(DemoWorld(), dir, {.prices_on_first_use = true});
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_LT(loaded->MemoryBytes(), TwoProfiles().MemoryBytes());
  const AbstractRouter whole(DemoWorld(), TwoProfiles(), 1 << 20, 64 << 20);
  std::unique_ptr<AbstractRouter> lazy = Lazy(*std::move(loaded));
  ASSERT_NE(lazy, nullptr);
  ExpectSameWalks(*lazy, whole, "faction-a", 20, 4);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace walk::nav
