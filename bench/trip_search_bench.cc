// trip_search_bench: the trip search alone (nav/travel/trip_search.h) on a generated travel
// network at the travel file's limits (10,000 nodes, 200,000 edges), against the plain search
// (nav/check/reference_trip.h: the same states, no potential, no boxes) as the baseline in the
// same run, on the same trips, which must cost the same. Walks are priced by a stand-in (the
// straight line at 7 yd/s times 1 to 1.6, fixed per pair) that costs nothing, so the times are
// the searches' own, and "walks" is what a trip would ask of walkd (docs/benchmarks.md, "Trips
// at the travel file's limits").
//
// Usage: trip_search_bench [--nodes 10000] [--edges 200000] [--yards 8000] [--trips 100]
//                          [--plain-trips 10] [--seed 1]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "nav/check/reference_trip.h"
#include "nav/travel/trip_search.h"

namespace {

using Clock = std::chrono::steady_clock;
using walk::nav::Place;

struct Args {
  int nodes = 10000, edges = 200000, trips = 100, plain_trips = 10;
  double yards = 8000.0;
  unsigned seed = 1;
};

Args Parse(int argc, char** argv) {
  Args args;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--nodes") {
      args.nodes = std::stoi(value);
    } else if (flag == "--edges") {
      args.edges = std::stoi(value);
    } else if (flag == "--yards") {
      args.yards = std::stod(value);
    } else if (flag == "--trips") {
      args.trips = std::stoi(value);
    } else if (flag == "--plain-trips") {
      args.plain_trips = std::stoi(value);
    } else if (flag == "--seed") {
      args.seed = static_cast<unsigned>(std::stoul(value));
    } else {
      std::fprintf(stderr, "trip_search_bench: unknown flag %s\n", flag.c_str());
      std::exit(2);
    }
  }
  return args;
}

// Nodes anywhere on a square continent, a fifth of each faction; edges between random nodes:
// flights at 15 to 40 yd/s, boats and trams at 8 to 15 yd/s after a wait, and a few portals.
walk::nav::TravelNetwork MakeNetwork(const Args& args, std::mt19937& rng) {
  using namespace walk::nav;
  std::uniform_real_distribution<double> at(0.0, args.yards), unit(0.0, 1.0);
  TravelNetwork network;
  for (int i = 0; i < args.nodes; ++i) {
    TravelNode node;
    node.id = "n" + std::to_string(i);
    node.place.x_yards = at(rng);
    node.place.y_yards = at(rng);
    const double f = unit(rng);
    node.faction = f < 0.6 ? Faction::kNeutral : (f < 0.8 ? Faction::kA : Faction::kB);
    node.placed = true;
    node.may_settle = unit(rng) < 0.05;
    network.nodes.push_back(node);
  }
  std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(args.nodes - 1));
  for (int e = 0; e < args.edges; ++e) {
    TravelRide ride;
    ride.from = pick(rng);
    do ride.to = pick(rng);
    while (ride.to == ride.from);
    ride.edge = static_cast<std::uint32_t>(e);
    const double yards =
        StraightYards(network.nodes[ride.from].place, network.nodes[ride.to].place);
    const double kind = unit(rng);
    if (kind < 0.05) {
      ride.kind = RideKind::kPortal;
      ride.ride_seconds = 3.0;
    } else if (kind < 0.75) {
      ride.kind = RideKind::kFlight;
      ride.ride_seconds = yards / (15.0 + 25.0 * unit(rng));
    } else {
      ride.kind = kind < 0.9 ? RideKind::kBoat : RideKind::kTram;
      ride.wait_seconds = 10.0 + 50.0 * unit(rng);
      ride.ride_seconds = yards / (8.0 + 7.0 * unit(rng));
    }
    network.rides.push_back(ride);
    if (ride.kind != RideKind::kPortal) {
      std::swap(ride.from, ride.to);
      network.rides.push_back(ride);
    }
  }
  network.edge_count = static_cast<std::size_t>(args.edges);
  network.hearthstones.push_back({.profile = "faction-a", .bind = 0});
  network.index = std::make_shared<const TravelIndex>(BuildTravelIndex(network));
  return network;
}

// The stand-in for walkd's walks: the straight line at 7 yd/s times 1 .. 1.6, fixed per pair.
class StandInWalks final : public walk::nav::TripWalks {
 public:
  StandInWalks(const walk::nav::TravelNetwork& network, const Place& from, const Place& to)
      : network_(network), from_(from), to_(to) {}

  absl::StatusOr<walk::nav::LegWalk> Walk(std::uint32_t from, std::uint32_t to) override {
    const double yards = walk::nav::StraightYards(PlaceOf(from), PlaceOf(to));
    const std::uint64_t h =
        (std::uint64_t{from} * 0x9e3779b97f4a7c15ull) ^ (to * 0xc2b2ae3d27d4eb4full);
    const double factor = 1.0 + 0.6 * static_cast<double>((h >> 40) % 1000) / 1000.0;
    return walk::nav::LegWalk{.found = true, .seconds = yards / 7.0 * factor, .yards = yards};
  }
  // As walkd's: the straight line at the cheapest pace, less a column's diagonal at each end
  // and a settle's reach at each end that may settle.
  walk::nav::WalkBound Bound() const override {
    return {.seconds_per_yard = 1.0 / 7.0, .slack_yards = 50.0 + 4.0, .settle_yards = 25.0};
  }

 private:
  const Place& PlaceOf(std::uint32_t point) const {
    if (point == walk::nav::kTripStart) return from_;
    if (point == walk::nav::kTripGoal) return to_;
    return network_.nodes[point - walk::nav::kFirstNodePoint].place;
  }
  const walk::nav::TravelNetwork& network_;
  const Place from_, to_;
};

struct Pass {
  std::vector<double> ms, seconds;
  double walks = 0, settled = 0, rode = 0;
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

double Mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? 0.0 : sum / static_cast<double>(v.size());
}

template <typename Find>
Pass Run(const walk::nav::TravelNetwork& network, const std::vector<std::pair<Place, Place>>& pairs,
         Find find) {
  Pass pass;
  for (const auto& [from, to] : pairs) {
    walk::nav::TripAsk ask;
    ask.from = from;
    ask.to = to;
    ask.profile = walk::nav::FindProfile("faction-a");
    ask.from_may_settle = ask.to_may_settle = false;
    StandInWalks walks(network, from, to);
    const auto start = Clock::now();
    absl::StatusOr<walk::nav::Trip> trip = find(network, ask, walks);
    pass.ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    if (!trip.ok()) {
      std::fprintf(stderr, "trip_search_bench: %s\n", trip.status().ToString().c_str());
      std::exit(1);
    }
    pass.seconds.push_back(trip->seconds);
    pass.walks += trip->walks_priced;
    pass.settled += trip->points_settled;
    pass.rode += trip->rode;
  }
  return pass;
}

void Print(const char* name, const Pass& pass) {
  const double n = static_cast<double>(pass.ms.size());
  std::printf("%-30s %5zu %10.2f %10.2f %9.1f %9.1f %6.0f%%\n", name, pass.ms.size(),
              Median(pass.ms), Mean(pass.ms), pass.walks / n, pass.settled / n,
              100.0 * pass.rode / n);
}

std::vector<std::pair<Place, Place>> Pairs(int count, double min_yards, double max_yards,
                                           double extent, std::mt19937& rng) {
  std::uniform_real_distribution<double> at(0.0, extent), apart(min_yards, max_yards),
      angle(0.0, 6.283185307179586);
  std::vector<std::pair<Place, Place>> pairs;
  while (static_cast<int>(pairs.size()) < count) {
    Place from, to;
    from.x_yards = at(rng);
    from.y_yards = at(rng);
    const double d = apart(rng), a = angle(rng);
    to.x_yards = from.x_yards + d * std::cos(a);
    to.y_yards = from.y_yards + d * std::sin(a);
    if (to.x_yards < 0 || to.y_yards < 0 || to.x_yards >= extent || to.y_yards >= extent) continue;
    pairs.push_back({from, to});
  }
  return pairs;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = Parse(argc, argv);
  std::mt19937 rng(args.seed);
  const walk::nav::TravelNetwork network = MakeNetwork(args, rng);
  std::printf("%d nodes, %d edges (%zu rides), %.0f x %.0f yards, profile faction-a\n", args.nodes,
              args.edges, network.rides.size(), args.yards, args.yards);
  std::printf("%-30s %5s %10s %10s %9s %9s %7s\n", "search, trips", "asked", "median ms", "mean ms",
              "walks", "settled", "rode");
  for (const auto& [name, min_yards, max_yards] :
       {std::tuple{"short (5-50 yd)", 5.0, 50.0}, {"long (1,000-8,000 yd)", 1000.0, 8000.0}}) {
    const auto pairs = Pairs(args.trips, min_yards, max_yards, args.yards, rng);
    const Pass pruned = Run(network, pairs, walk::nav::FindTrip);
    Print((std::string("pruned, ") + name).c_str(), pruned);
    const std::vector<std::pair<Place, Place>> few(
        pairs.begin(), pairs.begin() + std::min<std::size_t>(pairs.size(), args.plain_trips));
    const Pass plain = Run(network, few, walk::nav::FindTripPlainly);
    Print((std::string("plain (baseline), ") + name).c_str(), plain);
    for (std::size_t i = 0; i < few.size(); ++i) {
      if (std::abs(plain.seconds[i] - pruned.seconds[i]) > 1e-6 * (1.0 + plain.seconds[i])) {
        std::fprintf(stderr, "trip_search_bench: trip %zu: pruned %.6f s, plain %.6f s\n", i,
                     pruned.seconds[i], plain.seconds[i]);
        return 1;
      }
    }
  }
  return 0;
}
