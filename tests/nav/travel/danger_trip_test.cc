// Trips in danger bands over real walks of the 2 x 2 demo world (its own travel network): with
// the walks that cannot improve the trip cut short by the danger search (WalkOptions::
// max_seconds), every trip costs what the plain trip search finds pricing every walk whole.
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "nav/abstract/abstract_router.h"
#include "nav/check/reference_trip.h"
#include "nav/demo/demo_travel.h"
#include "nav/query/walk_pipeline.h"
#include "nav/travel/travel_network.h"
#include "nav/travel/trip_search.h"
#include "tests/nav/abstract/demo_abstract.h"

namespace walk::nav {
namespace {

using testing::DemoWorld;
using testing::Prepare;

// The walk pipeline's walks between a trip's points, over the abstract graph.
class PipelineWalks final : public TripWalks {
 public:
  PipelineWalks(const World& world, const AbstractRouter& router, const Metric& band,
                std::vector<Place> places)
      : world_(world), router_(router), band_(band), places_(std::move(places)) {}

  absl::StatusOr<LegWalk> Walk(std::uint32_t from, std::uint32_t to) override {
    return WalkAtMost(from, to, kInfCost);
  }
  absl::StatusOr<LegWalk> WalkAtMost(std::uint32_t from, std::uint32_t to,
                                     double max_seconds) override {
    WalkOptions options;
    options.router = &router_;
    options.max_seconds = max_seconds;
    absl::StatusOr<WalkAnswer> answer =
        AnswerWalk(world_, band_, places_[from], places_[to], searchers_, options);
    if (!answer.ok()) return answer.status();
    if (answer->dearer) {
      EXPECT_LT(max_seconds, kInfCost);
      ++cut_short;
      return LegWalk{.dearer = true};
    }
    if (answer->status != WalkStatus::kOk) return LegWalk{};
    return LegWalk{.found = true, .seconds = answer->seconds, .yards = answer->yards};
  }
  WalkBound Bound() const override { return {}; }  // none: every walk reaches the queue's front

  int cut_short = 0;

 private:
  const World& world_;
  const AbstractRouter& router_;
  const Metric& band_;
  std::vector<Place> places_;  // by point: the start, the goal, then the nodes
  Searchers searchers_;
};

TEST(DangerTripTest, TripsWithWalksCutShortCostWhatEveryWalkWholeGives) {
  const World& world = DemoWorld();
  DemoOptions options;
  options.tiles_x = options.tiles_y = 2;
  absl::StatusOr<TravelNetwork> network = DemoTravel(options, world);
  ASSERT_TRUE(network.ok()) << network.status();
  PlaceNodes(world, &*network);
  const Profile& profile = *FindProfile("faction-a");
  const AbstractRouter router(world, Prepare(world, {"faction-a"}), 64 << 20);
  const Continent& c = world.continents.at(0);
  const double x0 = c.origin_column_x * world.column_yards;
  const double y0 = c.origin_column_y * world.column_yards;
  std::mt19937 rng(20261205);
  std::uniform_real_distribution<double> x(x0, x0 + c.width_columns * world.column_yards),
      y(y0, y0 + c.height_columns * world.column_yards);
  auto RandomPlace = [&] {
    Place place;
    place.continent = c.id;
    place.x_yards = x(rng);
    place.y_yards = y(rng);
    return place;
  };
  int compared = 0, cut_short = 0;
  for (const std::uint32_t band : {10u, 20u}) {
    const Metric metric(world, profile, band);
    for (int trip = 0; trip < 12; ++trip) {
      TripAsk ask;
      ask.from = RandomPlace();
      ask.to = RandomPlace();
      ask.profile = &profile;
      ask.price_walk = true;
      std::vector<Place> places = {ask.from, ask.to};
      for (const TravelNode& node : network->nodes) places.push_back(node.place);
      PipelineWalks cut(world, router, metric, places), whole(world, router, metric, places);
      const absl::StatusOr<Trip> got = FindTrip(*network, ask, cut);
      const absl::StatusOr<Trip> want = FindTripPlainly(*network, ask, whole);
      ASSERT_TRUE(got.ok() && want.ok()) << "band " << band << ", trip " << trip;
      ASSERT_EQ(got->found, want->found) << "band " << band << ", trip " << trip;
      cut_short += cut.cut_short;
      if (!want->found) continue;
      ++compared;
      EXPECT_NEAR(got->seconds, want->seconds, 1e-9 * std::max(1.0, want->seconds))
          << "band " << band << ", trip " << trip;
      ASSERT_TRUE(got->walk.has_value() && want->walk.has_value());
      EXPECT_EQ(got->walk->found, want->walk->found) << "walking all the way, whole";
      EXPECT_EQ(got->walk->seconds, want->walk->seconds) << "walking all the way, whole";
    }
  }
  EXPECT_GT(compared, 16);
  EXPECT_GT(cut_short, 0) << "no walk was cut short: the comparison shows nothing";
}

}  // namespace
}  // namespace walk::nav
