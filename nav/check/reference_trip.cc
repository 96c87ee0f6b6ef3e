#include "nav/check/reference_trip.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <tuple>
#include <vector>

#include "nav/travel/trip_potential.h"

namespace walk::nav {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

class PlainSearch {
 public:
  PlainSearch(const TravelNetwork& network, const TripAsk& ask, TripWalks& walks)
      : network_(network),
        ask_(ask),
        walks_(walks),
        states_(network, ask, walks.Bound()),
        index_(BuildTravelIndex(network)) {
    dist_.assign(states_.Count(), kInf);
    legs_.assign(states_.Count(), 0);
    from_.assign(states_.Count(), kTripStart);
    how_.assign(states_.Count(), {});
    settled_.assign(states_.Count(), false);
  }

  absl::StatusOr<Trip> Run() {
    if (!ask_.goal_on_surface) return Trip();
    Reach(kTripStart, 0.0, kTripStart, {});
    legs_[kTripStart] = 0;
    while (!queue_.empty()) {
      const auto [key, from, to, walk] = queue_.top();
      queue_.pop();
      if (settled_[to] || key > dist_[to]) continue;
      if (walk) {
        absl::StatusOr<LegWalk> priced = Price(states_.PointOf(from), states_.PointOf(to));
        if (!priced.ok()) return priced.status();
        if (priced->found) Reach(to, dist_[from] + priced->seconds, from, {TripLeg{}, *priced});
        continue;
      }
      settled_[to] = true;
      ++trip_.points_settled;
      if (to == kTripGoal) break;
      Expand(to);
    }
    return Result();
  }

 private:
  struct How {
    TripLeg leg;  // the leg that reached a state (its kind, ride, seconds, yards)
    LegWalk walk;
  };

  void Reach(std::uint32_t state, double seconds, std::uint32_t from, const How& how) {
    const std::uint32_t legs = state == kTripStart ? 0 : legs_[from] + 1;
    if (settled_[state] || seconds > dist_[state] ||
        (seconds == dist_[state] && legs >= legs_[state])) {
      return;
    }
    dist_[state] = seconds;
    legs_[state] = legs;
    from_[state] = from;
    how_[state] = how;
    queue_.push({seconds, state, state, false});
  }

  absl::StatusOr<LegWalk> Price(std::uint32_t from, std::uint32_t to) {
    ++trip_.walks_priced;
    absl::StatusOr<LegWalk> walk = walks_.Walk(from, to);
    if (walk.ok() && from == kTripStart && to == kTripGoal) trip_.walk = *walk;
    return walk;
  }

  void QueueWalk(std::uint32_t from, std::uint32_t to) {
    const std::uint32_t a = states_.PointOf(from), b = states_.PointOf(to);
    if (a == b || !states_.MayWalk(a, b)) return;
    queue_.push({dist_[from] + states_.WalkSeconds(a, b), from, to, true});
  }

  void Ride(std::uint32_t state, std::uint32_t r) {
    const TravelRide& ride = network_.rides[r];
    if (!states_.Usable(ride.to)) return;
    How how;
    how.leg.kind = TripLegKind::kRide;
    how.leg.ride = ride.kind;
    how.leg.seconds = ride.seconds();
    Reach(states_.Arrived(ride.to), dist_[state] + ride.seconds(), state, how);
  }

  void Expand(std::uint32_t state) {
    const std::uint32_t point = states_.PointOf(state);
    if (!states_.IsOnFoot(state)) {
      QueueWalk(state, kTripGoal);
      for (std::uint32_t i = 0; i < network_.nodes.size(); ++i) {
        if (states_.Usable(i)) QueueWalk(state, states_.OnFoot(i));
      }
    }
    if (point == kTripStart) {
      if (const Hearthstone* stone = states_.stone()) {
        How how;
        how.leg.kind = TripLegKind::kHearthstone;
        const double seconds = std::max(0.0, ask_.hearthstone_wait_seconds) + stone->cast_seconds;
        how.leg.seconds = seconds;
        Reach(states_.Arrived(stone->bind), seconds, state, how);
      }
      return;
    }
    const std::uint32_t node = point - kFirstNodePoint;
    for (std::uint32_t k = index_.first_ride_from[node]; k < index_.first_ride_from[node + 1];
         ++k) {
      Ride(state, index_.ride_by_from[k]);
    }
  }

  absl::StatusOr<Trip> Result() {
    trip_.found = settled_[kTripGoal];
    if (trip_.found) {
      trip_.seconds = dist_[kTripGoal];
      for (std::uint32_t s = kTripGoal; s != kTripStart; s = from_[s]) {
        TripLeg leg = how_[s].leg;
        if (leg.kind == TripLegKind::kWalk) {
          leg.seconds = how_[s].walk.seconds;
          leg.yards = how_[s].walk.yards;
        }
        leg.from_point = states_.PointOf(from_[s]);
        leg.to_point = states_.PointOf(s);
        trip_.rode = trip_.rode || leg.kind != TripLegKind::kWalk;
        trip_.legs.insert(trip_.legs.begin(), leg);
      }
    }
    if (ask_.from.continent == ask_.to.continent && !trip_.walk && ask_.price_walk) {
      absl::StatusOr<LegWalk> walk = Price(kTripStart, kTripGoal);
      if (!walk.ok()) return walk.status();
    }
    return trip_;
  }

  const TravelNetwork& network_;
  const TripAsk& ask_;
  TripWalks& walks_;
  const TripStates states_;
  const TravelIndex index_;  // for its rides by the node they leave
  std::vector<double> dist_;
  std::vector<std::uint32_t> legs_, from_;
  std::vector<How> how_;
  std::vector<bool> settled_;
  // (key, from, to, a walk to price rather than a state to settle)
  using Item = std::tuple<double, std::uint32_t, std::uint32_t, bool>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue_;
  Trip trip_;
};

}  // namespace

absl::StatusOr<Trip> FindTripPlainly(const TravelNetwork& network, const TripAsk& ask,
                                     TripWalks& walks) {
  if (ask.profile == nullptr) return absl::InvalidArgumentError("profile: required");
  return PlainSearch(network, ask, walks).Run();
}

}  // namespace walk::nav
