// Travel files (nav/travel/travel_file.h): every input parsed as a travel.json. A refused file
// is INVALID_ARGUMENT; an accepted one writes back to text that parses to the same network, has
// its nodes placed on the fuzz world (fuzz_support.h), and a trip searched over it (walks priced
// as the straight line at running pace) never costs more than walking.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "nav/travel/travel_file.h"
#include "nav/travel/trip_search.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace walk;

// Every walk on one continent is found, at the straight line's running time.
class StraightWalks final : public nav::TripWalks {
 public:
  StraightWalks(const nav::TravelNetwork& network, const nav::Place& from, const nav::Place& to)
      : network_(network), from_(from), to_(to) {}
  absl::StatusOr<nav::LegWalk> Walk(std::uint32_t from, std::uint32_t to) override {
    const double yards = nav::StraightYards(PlaceOf(from), PlaceOf(to));
    return nav::LegWalk{.found = true, .seconds = yards / 7.0, .yards = yards};
  }
  nav::WalkBound Bound() const override { return {.seconds_per_yard = 1.0 / 7.0}; }

 private:
  const nav::Place& PlaceOf(std::uint32_t point) const {
    if (point == nav::kTripStart) return from_;
    if (point == nav::kTripGoal) return to_;
    return network_.nodes[point - nav::kFirstNodePoint].place;
  }
  const nav::TravelNetwork& network_;
  nav::Place from_, to_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(fuzz::AsText(data, size));
  absl::StatusOr<nav::TravelNetwork> network = nav::ParseTravel(input);
  if (!network.ok()) {
    WALK_FUZZ_CHECK(network.status().code() == absl::StatusCode::kInvalidArgument);
    return 0;
  }
  const std::string text = nav::TravelText(*network);
  absl::StatusOr<nav::TravelNetwork> again = nav::ParseTravel(text);
  WALK_FUZZ_CHECK(again.ok() && nav::TravelText(*again) == text);
  WALK_FUZZ_CHECK(network->nodes.size() <= nav::kMaxTravelNodes);
  for (const nav::TravelRide& ride : network->rides) {
    WALK_FUZZ_CHECK(ride.from < network->nodes.size() && ride.to < network->nodes.size());
    WALK_FUZZ_CHECK(ride.from != ride.to && std::isfinite(ride.seconds()));
  }
  nav::PlaceNodes(fuzz::FuzzWorld(), &*network);
  const nav::Place from{.continent = 0, .x_yards = 3.5, .y_yards = 4.5, .z_yards = std::nullopt};
  const nav::Place to{.continent = 0, .x_yards = 90.5, .y_yards = 70.5, .z_yards = std::nullopt};
  StraightWalks walks(*network, from, to);
  for (const char* profile : {"faction-a", "neutral"}) {
    nav::TripAsk ask{.from = from, .to = to, .profile = nav::FindProfile(profile)};
    absl::StatusOr<nav::Trip> trip = nav::FindTrip(*network, ask, walks);
    WALK_FUZZ_CHECK(trip.ok() && trip->found);
    WALK_FUZZ_CHECK(trip->seconds <= nav::StraightYards(from, to) / 7.0 + 1e-6);
  }
  return 0;
}
