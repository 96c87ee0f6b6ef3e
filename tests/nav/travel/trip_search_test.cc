#include "nav/travel/trip_search.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "nav/check/reference_trip.h"

namespace walk::nav {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Walks from a table: walk[from][to] seconds (kInf: no walk), yards = seconds x 7. The lower
// bound is a fraction of the straight line's running time (every walk here is at least that).
class TableWalks final : public TripWalks {
 public:
  TableWalks(std::vector<std::vector<double>> seconds, std::vector<Place> places, double bound,
             double slack_yards = 0.0)
      : seconds_(std::move(seconds)),
        places_(std::move(places)),
        bound_(bound),
        slack_yards_(slack_yards) {}

  absl::StatusOr<LegWalk> Walk(std::uint32_t from, std::uint32_t to) override {
    ++asked;
    EXPECT_EQ(places_[from].continent, places_[to].continent) << "a walk across continents";
    const double s = seconds_[from][to];
    if (s == kInf) return LegWalk{};
    return LegWalk{.found = true, .seconds = s, .yards = s * 7.0};
  }
  // As a danger band's search: a walk dearer than asked says only that (no walk says so too).
  absl::StatusOr<LegWalk> WalkAtMost(std::uint32_t from, std::uint32_t to,
                                     double max_seconds) override {
    if (seconds_[from][to] <= max_seconds) return Walk(from, to);
    ++asked;
    ++cut_short;
    return LegWalk{.dearer = true};
  }
  int cut_short = 0;  // walks that said only "dearer"
  // With `refine`, each walk's bound is refined to a random share (0.5 .. 1) of it, or to
  // infinity when there is no walk, as a danger band's walk is bounded by its band-0 walk.
  absl::StatusOr<std::optional<double>> RefinedBound(std::uint32_t from,
                                                     std::uint32_t to) override {
    if (!refine) return std::nullopt;
    ++refined;
    const double s = seconds_[from][to];
    if (s == kInf) return kInf;
    return s * (0.5 + 0.5 * static_cast<double>((from * 7 + to * 13) % 11) / 10.0);
  }
  bool refine = false;
  int refined = 0;

  WalkBound Bound() const override {
    return {.seconds_per_yard = bound_ / 7.0, .slack_yards = slack_yards_};
  }

  int asked = 0;

 private:
  std::vector<std::vector<double>> seconds_;
  std::vector<Place> places_;
  double bound_;
  double slack_yards_;
};

struct RandomCase {
  TravelNetwork network;
  TripAsk ask;
  std::vector<Place> places;  // by point
  std::vector<std::vector<double>> walk;
};

RandomCase MakeCase(std::mt19937& rng, const Profile& profile) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<int> node_count(0, 6);
  RandomCase c;
  const int continents = unit(rng) < 0.5 ? 1 : 2;
  auto random_place = [&] {
    Place p;
    p.continent = static_cast<ContinentId>(unit(rng) * continents);
    p.x_yards = unit(rng) * 1000.0;
    p.y_yards = unit(rng) * 1000.0;
    return p;
  };
  c.ask.from = random_place();
  c.ask.to = random_place();
  c.ask.profile = &profile;
  c.places = {c.ask.from, c.ask.to};
  const int n = node_count(rng);
  for (int i = 0; i < n; ++i) {
    TravelNode node;
    node.id = "n" + std::to_string(i);
    node.place = random_place();
    node.placed = unit(rng) < 0.9;
    const double f = unit(rng);
    node.faction = f < 0.6 ? Faction::kNeutral : (f < 0.8 ? Faction::kA : Faction::kB);
    c.network.nodes.push_back(node);
    c.places.push_back(node.place);
  }
  const std::size_t points = c.places.size();
  c.walk.assign(points, std::vector<double>(points, kInf));
  for (std::size_t a = 0; a < points; ++a) {
    for (std::size_t b = 0; b < points; ++b) {
      if (c.places[a].continent != c.places[b].continent || unit(rng) < 0.15) continue;
      c.walk[a][b] = StraightYards(c.places[a], c.places[b]) / 7.0 * (1.0 + 2.0 * unit(rng));
    }
  }
  const int edges = n < 2 ? 0 : static_cast<int>(unit(rng) * 2 * n);
  for (int e = 0; e < edges; ++e) {
    TravelRide ride;
    ride.kind = static_cast<RideKind>(static_cast<int>(unit(rng) * kRideKindCount));
    ride.from = static_cast<std::uint32_t>(unit(rng) * n);
    ride.to = static_cast<std::uint32_t>(unit(rng) * (n - 1));
    if (ride.to >= ride.from) ++ride.to;
    ride.edge = static_cast<std::uint32_t>(e);
    ride.ride_seconds = 5.0 + unit(rng) * 60.0;
    if (ride.kind != RideKind::kFlight && ride.kind != RideKind::kPortal) {
      ride.wait_seconds = unit(rng) * 30.0;
    }
    c.network.rides.push_back(ride);
    if (ride.kind != RideKind::kPortal && unit(rng) < 0.5) {
      std::swap(ride.from, ride.to);
      c.network.rides.push_back(ride);
    }
  }
  if (n > 0 && unit(rng) < 0.6) {
    c.network.hearthstones.push_back({.profile = profile.name,
                                      .bind = static_cast<std::uint32_t>(unit(rng) * n),
                                      .cast_seconds = 10.0,
                                      .cooldown_seconds = 3600.0});
    c.ask.hearthstone_ready = unit(rng) < 0.7;
    c.ask.hearthstone_wait_seconds = unit(rng) < 0.5 ? 0.0 : unit(rng) * 100.0;
  }
  return c;
}

// The cheapest trip by trying every sequence of usable nodes between the start and the goal,
// each reached at most once on foot and once otherwise: the start's first step is a walk or the
// hearthstone, each next one a walk or a ride between the two nodes, the last a walk; never two
// walks in a row (a walk leads to a ride or to the goal).
double BruteForce(const RandomCase& c) {
  const TravelNetwork& net = c.network;
  const std::size_t n = net.nodes.size();
  auto usable = [&](std::size_t i) {
    return net.nodes[i].placed && MayUse(*c.ask.profile, net.nodes[i]);
  };
  auto ride = [&](std::size_t a, std::size_t b) {  // nodes a and b
    double best = kInf;
    for (const TravelRide& r : net.rides) {
      if (r.from == a && r.to == b) best = std::min(best, r.seconds());
    }
    return best;
  };
  double best = c.walk[kTripStart][kTripGoal];
  const Hearthstone* stone = net.HearthstoneOf(c.ask.profile->name);
  std::vector<std::size_t> sequence;
  std::vector<std::array<bool, 2>> used(n, {false, false});  // by node: reached by ride, on foot
  std::function<void(double, bool)> extend = [&](double so_far, bool on_foot) {
    const std::size_t last = sequence.back();
    if (!on_foot) best = std::min(best, so_far + c.walk[kFirstNodePoint + last][kTripGoal]);
    for (std::size_t next = 0; next < n; ++next) {
      if (!usable(next)) continue;
      const double walk =
          on_foot || next == last ? kInf : c.walk[kFirstNodePoint + last][kFirstNodePoint + next];
      for (const auto& [step, by_foot] : {std::pair{ride(last, next), false}, {walk, true}}) {
        if (step == kInf || used[next][by_foot]) continue;
        used[next][by_foot] = true;
        sequence.push_back(next);
        extend(so_far + step, by_foot);
        sequence.pop_back();
        used[next][by_foot] = false;
      }
    }
  };
  for (std::size_t first = 0; first < n; ++first) {
    if (!usable(first)) continue;
    std::vector<std::pair<double, bool>> steps = {
        {c.walk[kTripStart][kFirstNodePoint + first], true}};
    if (stone != nullptr && stone->bind == first && c.ask.hearthstone_ready) {
      steps.push_back({c.ask.hearthstone_wait_seconds + stone->cast_seconds, false});
    }
    for (const auto& [step, by_foot] : steps) {
      if (step == kInf) continue;
      used[first][by_foot] = true;
      sequence = {first};
      extend(step, by_foot);
      used[first][by_foot] = false;
    }
  }
  return best;
}

// The legs join the start to the goal and add up to the trip.
void ExpectChained(const Trip& trip, const RandomCase& c) {
  std::uint32_t at = kTripStart;
  double seconds = 0.0;
  for (const TripLeg& leg : trip.legs) {
    EXPECT_EQ(leg.from_point, at);
    if (leg.kind == TripLegKind::kRide || leg.kind == TripLegKind::kWalk) {
      EXPECT_NE(leg.to_point, at);
    }
    if (leg.to_point >= kFirstNodePoint) {
      const TravelNode& node = c.network.nodes[leg.to_point - kFirstNodePoint];
      EXPECT_TRUE(node.placed && MayUse(*c.ask.profile, node)) << node.id;
    }
    seconds += leg.seconds;
    at = leg.to_point;
  }
  EXPECT_EQ(at, kTripGoal);
  EXPECT_NEAR(seconds, trip.seconds, 1e-9);
}

TEST(TripSearch, EqualsEveryNodeSequenceOnRandomNetworks) {
  std::mt19937 rng(20261202);
  const Profile& profile = *FindProfile("faction-a");
  int rode = 0, hearthstones = 0, cut_short = 0;
  for (int round = 0; round < 3000; ++round) {
    const RandomCase c = MakeCase(rng, profile);
    // A tight bound (0.999 of every walk's least), one with a slack, none at all, and bounds
    // refined before each walk must give the same trips; walks that cannot improve the trip
    // stop short (TableWalks::WalkAtMost), the brute force prices every one whole.
    for (const auto& [bound, slack, refine] :
         {std::tuple{0.999, 0.0, false}, {1.0, 40.0, false}, {0.0, 0.0, false}, {1.0, 0.0, true}}) {
      TableWalks walks(c.walk, c.places, bound, slack);
      walks.refine = refine;
      TripAsk ask = c.ask;
      ask.price_walk = true;
      absl::StatusOr<Trip> trip = FindTrip(c.network, ask, walks);
      ASSERT_TRUE(trip.ok()) << trip.status();
      cut_short += walks.cut_short;
      const double expected = BruteForce(c);
      ASSERT_EQ(trip->found, expected < kInf) << "round " << round;
      if (!trip->found) continue;
      ASSERT_NEAR(trip->seconds, expected, 1e-9) << "round " << round;
      ExpectChained(*trip, c);
      if (c.walk[kTripStart][kTripGoal] < kInf) {
        ASSERT_TRUE(trip->walk.has_value());
        EXPECT_EQ(trip->walk->seconds, c.walk[kTripStart][kTripGoal])
            << "walking all the way, whole";
        EXPECT_LE(trip->seconds, trip->walk->seconds) << "a trip never costs more than the walk";
      }
      rode += trip->rode;
      hearthstones += trip->hearthstone_used;
    }
  }
  // The random cases do ride and cast, so the comparison covers both.
  EXPECT_GT(rode, 500);
  EXPECT_GT(hearthstones, 100);
  EXPECT_GT(cut_short, 1000);
}

// Two nodes far from the start, one flight between them, the start and goal near each.
struct Line {
  TravelNetwork network;
  std::vector<Place> places;
  std::vector<std::vector<double>> walk;
};

Place AtX(double x) {
  Place place;
  place.x_yards = x;
  return place;
}

TravelNode NodeAt(std::string id, const Place& place, Faction faction = Faction::kNeutral) {
  TravelNode node;
  node.id = std::move(id);
  node.place = place;
  node.faction = faction;
  node.placed = true;
  return node;
}

Line MakeLine(Faction faction, RideKind kind) {
  Line line;
  line.places = {AtX(0), AtX(7000), AtX(10), AtX(6990)};
  for (int i = 0; i < 2; ++i) {
    line.network.nodes.push_back(
        NodeAt(i == 0 ? "west" : "east", line.places[kFirstNodePoint + i], faction));
  }
  line.network.rides.push_back({.kind = kind, .from = 0, .to = 1, .ride_seconds = 100.0});
  line.walk.assign(4, std::vector<double>(4, 0.0));
  for (std::size_t a = 0; a < 4; ++a) {
    for (std::size_t b = 0; b < 4; ++b) {
      line.walk[a][b] = StraightYards(line.places[a], line.places[b]) / 7.0;
    }
  }
  return line;
}

absl::StatusOr<Trip> TripOn(const Line& line, const char* profile, bool reverse = false) {
  TableWalks walks(line.walk, line.places, 1.0);
  TripAsk ask;
  ask.from = line.places[reverse ? kTripGoal : kTripStart];
  ask.to = line.places[reverse ? kTripStart : kTripGoal];
  ask.profile = FindProfile(profile);
  if (reverse) {  // the table is symmetric, so the reversed walks are the same numbers
    std::vector<Place> places = line.places;
    std::swap(places[kTripStart], places[kTripGoal]);
    TableWalks reversed(line.walk, places, 1.0);
    return FindTrip(line.network, ask, reversed);
  }
  return FindTrip(line.network, ask, walks);
}

TEST(TripSearch, NodesOfTheOtherFactionAreNeverUsed) {
  const Line line = MakeLine(Faction::kB, RideKind::kFlight);
  absl::StatusOr<Trip> b = TripOn(line, "faction-b");
  ASSERT_TRUE(b.ok());
  EXPECT_TRUE(b->rode);
  EXPECT_NEAR(b->seconds, 10.0 / 7 + 100 + 10.0 / 7, 1e-9);
  absl::StatusOr<Trip> a = TripOn(line, "faction-a");
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(a->rode);
  EXPECT_NEAR(a->seconds, 1000.0, 1e-9);  // walked all the way
  absl::StatusOr<Trip> neutral = TripOn(line, "neutral");
  ASSERT_TRUE(neutral.ok());
  EXPECT_FALSE(neutral->rode);
}

TEST(TripSearch, APortalGoesOneWay) {
  const Line line = MakeLine(Faction::kNeutral, RideKind::kPortal);
  absl::StatusOr<Trip> there = TripOn(line, "neutral");
  ASSERT_TRUE(there.ok());
  ASSERT_TRUE(there->rode);
  ASSERT_EQ(there->legs.size(), 3u);
  EXPECT_EQ(there->legs[1].kind, TripLegKind::kRide);
  EXPECT_EQ(there->legs[1].ride, RideKind::kPortal);
  EXPECT_EQ(there->legs[1].yards, 0.0);  // a portal is not travelled through
  absl::StatusOr<Trip> back = TripOn(line, "neutral", /*reverse=*/true);
  ASSERT_TRUE(back.ok());
  EXPECT_FALSE(back->rode);
  EXPECT_NEAR(back->seconds, 1000.0, 1e-9);
}

TEST(TripSearch, WaitsComeBeforeTheirRides) {
  const Line line = MakeLine(Faction::kNeutral, RideKind::kBoat);
  Line waiting = line;
  waiting.network.rides[0].wait_seconds = 40.0;
  absl::StatusOr<Trip> trip = TripOn(waiting, "neutral");
  ASSERT_TRUE(trip.ok());
  ASSERT_EQ(trip->legs.size(), 4u);
  EXPECT_EQ(trip->legs[1].kind, TripLegKind::kWait);
  EXPECT_EQ(trip->legs[1].seconds, 40.0);
  EXPECT_EQ(trip->legs[2].kind, TripLegKind::kRide);
  EXPECT_EQ(trip->legs[2].ride, RideKind::kBoat);
  EXPECT_NEAR(trip->legs[2].yards, 6980.0, 1e-9);
  EXPECT_NEAR(trip->seconds, 20.0 / 7 + 140.0, 1e-9);
}

TEST(TripSearch, TheHearthstoneWaitsForItsCooldownOrIsNotCast) {
  Line line = MakeLine(Faction::kA, RideKind::kFlight);
  line.network.rides.clear();
  line.network.hearthstones.push_back(
      {.profile = "faction-a", .bind = 1, .cast_seconds = 10.0, .cooldown_seconds = 3600.0});
  TableWalks walks(line.walk, line.places, 1.0);
  TripAsk ask{.from = line.places[0], .to = line.places[1], .profile = FindProfile("faction-a")};
  absl::StatusOr<Trip> ready = FindTrip(line.network, ask, walks);
  ASSERT_TRUE(ready.ok());
  EXPECT_TRUE(ready->hearthstone_used);
  EXPECT_EQ(ready->hearthstone_cast_at_seconds, 0.0);
  EXPECT_NEAR(ready->seconds, 10.0 + 10.0 / 7, 1e-9);

  ask.hearthstone_wait_seconds = 300.0;  // off cooldown in five minutes: still the cheapest
  absl::StatusOr<Trip> soon = FindTrip(line.network, ask, walks);
  ASSERT_TRUE(soon.ok());
  ASSERT_TRUE(soon->hearthstone_used);
  EXPECT_EQ(soon->legs[0].kind, TripLegKind::kWait);
  EXPECT_EQ(soon->hearthstone_cast_at_seconds, 300.0);
  EXPECT_NEAR(soon->seconds, 310.0 + 10.0 / 7, 1e-9);

  ask.hearthstone_wait_seconds = 2000.0;  // longer than walking: walk
  absl::StatusOr<Trip> later = FindTrip(line.network, ask, walks);
  ASSERT_TRUE(later.ok());
  EXPECT_FALSE(later->hearthstone_used);
  EXPECT_NEAR(later->seconds, 1000.0, 1e-9);

  ask.hearthstone_wait_seconds = 0.0;
  ask.hearthstone_ready = false;
  absl::StatusOr<Trip> spent = FindTrip(line.network, ask, walks);
  ASSERT_TRUE(spent.ok());
  EXPECT_FALSE(spent->hearthstone_used);
  EXPECT_FALSE(spent->rode);

  ask.hearthstone_ready = true;
  ask.profile = FindProfile("faction-b");  // another profile: no hearthstone
  absl::StatusOr<Trip> other = FindTrip(line.network, ask, walks);
  ASSERT_TRUE(other.ok());
  EXPECT_FALSE(other->hearthstone_used);
}

TEST(TripSearch, WalksThatCannotMatterAreNeverPriced) {
  // The start and goal are 70 yards apart; twenty nodes lie a continent away, none is worth it.
  std::vector<Place> places = {AtX(0), AtX(70)};
  TravelNetwork network;
  for (int i = 0; i < 20; ++i) {
    places.push_back(AtX(5000.0 + 100 * i));
    network.nodes.push_back(NodeAt(std::to_string(i), places.back()));
  }
  std::vector<std::vector<double>> walk(places.size(), std::vector<double>(places.size()));
  for (std::size_t a = 0; a < places.size(); ++a) {
    for (std::size_t b = 0; b < places.size(); ++b)
      walk[a][b] = StraightYards(places[a], places[b]) / 7.0;
  }
  TableWalks walks(walk, places, 1.0);
  TripAsk ask{.from = places[0], .to = places[1], .profile = FindProfile("neutral")};
  absl::StatusOr<Trip> trip = FindTrip(network, ask, walks);
  ASSERT_TRUE(trip.ok());
  EXPECT_NEAR(trip->seconds, 10.0, 1e-9);
  EXPECT_EQ(walks.asked, 1);
  EXPECT_EQ(trip->walks_priced, 1u);
}

TEST(TripSearch, TripsCrossContinentsOnlyByRiding) {
  Line line = MakeLine(Faction::kNeutral, RideKind::kZeppelin);
  line.places[kTripGoal].continent = 1;
  line.places[kFirstNodePoint + 1].continent = 1;
  line.network.nodes[1].place.continent = 1;
  TableWalks walks(line.walk, line.places, 1.0);
  TripAsk ask{.from = line.places[0],
              .to = line.places[1],
              .profile = FindProfile("neutral"),
              .price_walk = true};
  absl::StatusOr<Trip> trip = FindTrip(line.network, ask, walks);
  ASSERT_TRUE(trip.ok());
  ASSERT_TRUE(trip->found);
  EXPECT_FALSE(trip->walk.has_value());  // no walk across continents
  EXPECT_EQ(trip->legs[1].yards, 0.0);   // nor a straight line
  line.network.rides.clear();
  absl::StatusOr<Trip> none = FindTrip(line.network, ask, walks);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->found);
}

TEST(TripSearch, AGoalOnNoSurfaceHasNoTripAndNothingIsSearched) {
  const Line line = MakeLine(Faction::kNeutral, RideKind::kFlight);
  TableWalks walks(line.walk, line.places, 1.0);
  TripAsk ask{.from = line.places[0], .to = line.places[1], .profile = FindProfile("neutral")};
  ask.goal_on_surface = false;
  absl::StatusOr<Trip> trip = FindTrip(line.network, ask, walks);
  ASSERT_TRUE(trip.ok());
  EXPECT_FALSE(trip->found);
  EXPECT_EQ(walks.asked, 0);
}

TEST(TripSearch, NeedsAProfile) {
  TravelNetwork network;
  TableWalks walks({{0, 0}, {0, 0}}, {Place{}, Place{}}, 1.0);
  EXPECT_EQ(FindTrip(network, TripAsk{}, walks).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// Walks from a rule rather than a table, for networks of hundreds of nodes: the straight line at
// 7 yd/s, less a settle's reach (25 yd) at each end that may settle, times 1 to 2 fixed per pair;
// one pair in twelve has none. The bound is walkd's own form: a column's diagonal (2 yd) at each
// end, and the settle's reach at each end that may settle.
class RuleWalks final : public TripWalks {
 public:
  RuleWalks(const TravelNetwork& network, const TripAsk& ask) : network_(network), ask_(ask) {}

  absl::StatusOr<LegWalk> Walk(std::uint32_t from, std::uint32_t to) override {
    ++asked;
    if (RegionOf(from) != kAnyRegion && RegionOf(to) != kAnyRegion &&
        RegionOf(from) != RegionOf(to)) {
      return LegWalk{};  // as walkd: no walk joins two regions
    }
    const std::uint64_t h =
        (std::uint64_t{from} * 0x9e3779b97f4a7c15ull) ^ (to * 0xff51afd7ed558ccdull);
    if ((h >> 33) % 12 == 0) return LegWalk{};
    const double settles = 25.0 * (MaySettle(from) + MaySettle(to));
    const double yards = std::max(0.0, StraightYards(PlaceOf(from), PlaceOf(to)) - settles);
    const double factor = 1.0 + static_cast<double>((h >> 20) % 1000) / 1000.0;
    return LegWalk{.found = true, .seconds = yards / 7.0 * factor, .yards = yards};
  }
  WalkBound Bound() const override {
    return {.seconds_per_yard = 1.0 / 7.0, .slack_yards = 54.0, .settle_yards = 25.0};
  }
  int asked = 0;

 private:
  const Place& PlaceOf(std::uint32_t point) const {
    if (point == kTripStart) return ask_.from;
    if (point == kTripGoal) return ask_.to;
    return network_.nodes[point - kFirstNodePoint].place;
  }
  std::uint32_t RegionOf(std::uint32_t point) const {
    if (point == kTripStart) return ask_.from_region;
    if (point == kTripGoal) return ask_.to_region;
    return network_.nodes[point - kFirstNodePoint].region;
  }
  bool MaySettle(std::uint32_t point) const {
    if (point == kTripStart) return ask_.from_may_settle;
    if (point == kTripGoal) return ask_.to_may_settle;
    return network_.nodes[point - kFirstNodePoint].may_settle;
  }
  const TravelNetwork& network_;
  const TripAsk& ask_;
};

// A network of `n` nodes on `continents` continents of 3,000 x 3,000 yards, `rides_per_node`
// random rides a node (flights at 10 to 40 yd/s, boats after a wait, portals), some nodes
// unplaced or of a faction, a few in small regions, and a hearthstone.
TravelNetwork RandomNetwork(std::mt19937& rng, int n, int continents, int rides_per_node) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  TravelNetwork network;
  for (int i = 0; i < n; ++i) {
    TravelNode node;
    node.id = "n" + std::to_string(i);
    node.place.continent = static_cast<ContinentId>(rng() % continents);
    node.place.x_yards = 3000.0 * unit(rng);
    node.place.y_yards = 3000.0 * unit(rng);
    node.placed = unit(rng) < 0.95;
    node.may_settle = unit(rng) < 0.2;
    // Most of a continent one region, an island of a tenth; a node that may settle anywhere.
    node.region = node.may_settle ? kAnyRegion : (unit(rng) < 0.1 ? 7u : 3u);
    const double f = unit(rng);
    node.faction = f < 0.6 ? Faction::kNeutral : (f < 0.8 ? Faction::kA : Faction::kB);
    network.nodes.push_back(node);
  }
  for (int e = 0; e < n * rides_per_node; ++e) {
    TravelRide ride;
    ride.from = static_cast<std::uint32_t>(rng() % n);
    ride.to = static_cast<std::uint32_t>(rng() % n);
    if (ride.to == ride.from) continue;
    const double yards = std::max(
        50.0,
        std::hypot(network.nodes[ride.from].place.x_yards - network.nodes[ride.to].place.x_yards,
                   network.nodes[ride.from].place.y_yards - network.nodes[ride.to].place.y_yards));
    const double kind = unit(rng);
    ride.kind =
        kind < 0.05 ? RideKind::kPortal : (kind < 0.7 ? RideKind::kFlight : RideKind::kBoat);
    ride.ride_seconds = ride.kind == RideKind::kPortal ? 3.0 : yards / (10.0 + 30.0 * unit(rng));
    if (ride.kind == RideKind::kBoat) ride.wait_seconds = 40.0 * unit(rng);
    ride.edge = static_cast<std::uint32_t>(e);
    network.rides.push_back(ride);
  }
  network.hearthstones.push_back({.profile = "faction-a", .bind = 0, .cast_seconds = 10.0});
  network.index = std::make_shared<const TravelIndex>(BuildTravelIndex(network));
  return network;
}

TripAsk RandomAsk(std::mt19937& rng, int continents, double max_apart) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  TripAsk ask;
  ask.from.continent = static_cast<ContinentId>(rng() % continents);
  ask.from.x_yards = 3000.0 * unit(rng);
  ask.from.y_yards = 3000.0 * unit(rng);
  ask.to = ask.from;
  if (unit(rng) < 0.2) ask.to.continent = static_cast<ContinentId>(rng() % continents);
  ask.to.x_yards = std::clamp(ask.from.x_yards + max_apart * (2 * unit(rng) - 1), 0.0, 3000.0);
  ask.to.y_yards = std::clamp(ask.from.y_yards + max_apart * (2 * unit(rng) - 1), 0.0, 3000.0);
  ask.profile = FindProfile("faction-a");
  ask.hearthstone_ready = unit(rng) < 0.5;
  ask.from_may_settle = unit(rng) < 0.3;
  ask.to_may_settle = unit(rng) < 0.3;
  ask.from_region = ask.from_may_settle ? kAnyRegion : (unit(rng) < 0.1 ? 7u : 3u);
  ask.to_region = ask.to_may_settle ? kAnyRegion : (unit(rng) < 0.1 ? 7u : 3u);
  ask.price_walk = true;
  return ask;
}

TEST(TripSearch, EqualsThePlainSearchOnLargerRandomNetworks) {
  std::mt19937 rng(32);
  std::uint64_t pruned_walks = 0, plain_walks = 0;
  int rode = 0;
  for (int round = 0; round < 40; ++round) {
    const int continents = 1 + round % 2;
    const TravelNetwork network =
        RandomNetwork(rng, 20 + static_cast<int>(rng() % 300), continents, 1 + round % 6);
    for (int trip = 0; trip < 10; ++trip) {
      const TripAsk ask = RandomAsk(rng, continents, trip % 2 ? 3000.0 : 100.0);
      RuleWalks walks(network, ask), plain_walks_of(network, ask);
      absl::StatusOr<Trip> pruned = FindTrip(network, ask, walks);
      absl::StatusOr<Trip> plain = FindTripPlainly(network, ask, plain_walks_of);
      ASSERT_TRUE(pruned.ok() && plain.ok());
      ASSERT_EQ(pruned->found, plain->found) << "round " << round << ", trip " << trip;
      if (!pruned->found) continue;
      ASSERT_NEAR(pruned->seconds, plain->seconds, 1e-9 * (1 + plain->seconds))
          << "round " << round << ", trip " << trip;
      double legs = 0;
      for (const TripLeg& leg : pruned->legs) legs += leg.seconds;
      EXPECT_NEAR(legs, pruned->seconds, 1e-6);
      pruned_walks += pruned->walks_priced;
      plain_walks += plain->walks_priced;
      rode += pruned->rode;
    }
  }
  EXPECT_GT(rode, 50);
  EXPECT_LT(pruned_walks, plain_walks);  // the potential and the boxes price fewer walks
  std::printf("walks priced: pruned %llu, plain %llu\n",
              static_cast<unsigned long long>(pruned_walks),
              static_cast<unsigned long long>(plain_walks));
}

// At the travel file's limits a short trip looks at a few states and a few boxes, not at every
// node: the regression of a 5-yard trip that took 2 s (a potential over every pair of nodes).
TEST(TripSearch, AShortTripOnANetworkAtTheLimitsLooksAtLittle) {
  std::mt19937 rng(5);
  const TravelNetwork network = RandomNetwork(rng, 10000, 1, 20);
  TripAsk ask;
  ask.from.x_yards = 1500.0;
  ask.from.y_yards = 1500.0;
  ask.to = ask.from;
  ask.to.x_yards += 5.0;
  ask.profile = FindProfile("faction-a");
  ask.from_may_settle = ask.to_may_settle = false;
  RuleWalks walks(network, ask);
  absl::StatusOr<Trip> trip = FindTrip(network, ask, walks);
  ASSERT_TRUE(trip.ok());
  ASSERT_TRUE(trip->found);
  EXPECT_FALSE(trip->rode);
  EXPECT_LE(trip->walks_priced, 2u);
  EXPECT_LE(trip->points_settled, 2u);
  // The potential settles each state and cell once; the search itself takes a handful.
  EXPECT_LT(trip->expansions, 2 * 2 * 10000u + 2 * TravelIndex::kMaxCells + 100u);
}

// A goal in a region no node's walk reaches (a walled garden, an island) is never walked to from
// any node: the trip is walking there, or none, found without searching the network.
TEST(TripSearch, AGoalInARegionOfItsOwnIsNeverWalkedToFromTheNodes) {
  std::mt19937 rng(17);
  TravelNetwork network = RandomNetwork(rng, 10000, 1, 20);
  for (TravelNode& node : network.nodes) {
    node.may_settle = false;
    if (node.region == kAnyRegion) node.region = 3;
  }
  network.index = std::make_shared<const TravelIndex>(BuildTravelIndex(network));
  TripAsk ask = RandomAsk(rng, 1, 3000.0);
  ask.to.continent = ask.from.continent;
  ask.from_may_settle = ask.to_may_settle = false;
  ask.from_region = 3;
  ask.to_region = 11;  // no node stands in it
  RuleWalks walks(network, ask);
  absl::StatusOr<Trip> trip = FindTrip(network, ask, walks);
  ASSERT_TRUE(trip.ok());
  EXPECT_FALSE(trip->found);
  EXPECT_LE(trip->walks_priced, 1u);  // walking all the way, asked for (price_walk)
  EXPECT_LE(trip->points_settled, 1u);
}

// The search counts what it takes off its queues against the stop's budget, as every search
// does, and says so naming walkd's flag.
TEST(TripSearch, StopsWhenItsBudgetIsSpent) {
  std::mt19937 rng(9);
  const TravelNetwork network = RandomNetwork(rng, 5000, 1, 10);
  TripAsk ask = RandomAsk(rng, 1, 3000.0);
  SearchStop stop;
  stop.budget = 1000;
  ask.stop = &stop;
  RuleWalks walks(network, ask);
  absl::StatusOr<Trip> trip = FindTrip(network, ask, walks);
  ASSERT_EQ(trip.status().code(), absl::StatusCode::kResourceExhausted) << trip.status();
  EXPECT_NE(trip.status().message().find("--max-search-expansions"), std::string::npos);
  stop.budget = UINT64_MAX;
  trip = FindTrip(network, ask, walks);
  ASSERT_TRUE(trip.ok());
  EXPECT_GT(trip->expansions, 1000u);
}

}  // namespace
}  // namespace walk::nav
