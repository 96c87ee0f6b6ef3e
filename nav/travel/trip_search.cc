#include "nav/travel/trip_search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

namespace walk::nav {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// How a point was reached.
struct Reached {
  enum class By : std::uint8_t { kNothing, kWalk, kRide, kHearthstone } by = By::kNothing;
  std::uint32_t from = kTripStart;  // the point it came from
  std::uint32_t ride = 0;           // for kRide: index into network.rides
  LegWalk walk;                     // for kWalk

  static Reached Walked(std::uint32_t from, const LegWalk& walk) {
    return {By::kWalk, from, 0, walk};
  }
  static Reached Rode(std::uint32_t from, std::uint32_t ride) {
    return {By::kRide, from, ride, {}};
  }
  static Reached Cast() { return {By::kHearthstone, kTripStart, 0, {}}; }
};

// A queue entry: settle `to` at `key`, or, for a walk, price the walk from `from` to `to`
// (its straight-line bound first, then its refined bound when TripWalks has one, then the walk).
struct Entry {
  enum class Kind : std::uint8_t { kSettle, kWalkBound, kWalkRefined };
  double key = 0.0;
  std::uint32_t from = 0;
  std::uint32_t to = 0;
  Kind kind = Kind::kSettle;
  bool operator>(const Entry& other) const { return key > other.key; }
};

class Search {
 public:
  Search(const TravelNetwork& network, const TripAsk& ask, TripWalks& walks)
      : network_(network), ask_(ask), walks_(walks), bound_(walks.Bound()) {
    const std::size_t points = kFirstNodePoint + network.nodes.size();
    dist_.assign(points, kInf);
    legs_.assign(points, 0);
    reached_.assign(points, {});
    settled_.assign(points, false);
    usable_.assign(network.nodes.size(), false);
    for (std::size_t i = 0; i < network.nodes.size(); ++i) {
      usable_[i] = network.nodes[i].placed && MayUse(*ask.profile, network.nodes[i]);
    }
    first_ride_.assign(network.nodes.size() + 1, 0);
    for (const TravelRide& ride : network.rides) ++first_ride_[ride.from + 1];
    for (std::size_t i = 0; i < network.nodes.size(); ++i) first_ride_[i + 1] += first_ride_[i];
    ride_by_from_.resize(network.rides.size());
    std::vector<std::uint32_t> next(first_ride_.begin(), first_ride_.end() - 1);
    for (std::size_t r = 0; r < network.rides.size(); ++r) {
      ride_by_from_[next[network.rides[r].from]++] = static_cast<std::uint32_t>(r);
    }
    first_ride_in_.assign(network.nodes.size() + 1, 0);
    for (const TravelRide& ride : network.rides) ++first_ride_in_[ride.to + 1];
    for (std::size_t i = 0; i < network.nodes.size(); ++i)
      first_ride_in_[i + 1] += first_ride_in_[i];
    ride_by_to_.resize(network.rides.size());
    next.assign(first_ride_in_.begin(), first_ride_in_.end() - 1);
    for (std::size_t r = 0; r < network.rides.size(); ++r) {
      ride_by_to_[next[network.rides[r].to]++] = static_cast<std::uint32_t>(r);
    }
  }

  absl::StatusOr<Trip> Run() {
    if (!ask_.goal_on_surface) return Trip();
    ComputePotential();
    Relax(kTripStart, 0.0, {});
    while (!queue_.empty()) {
      const Entry entry = queue_.top();
      queue_.pop();
      if (settled_[entry.to]) continue;
      if (entry.kind != Entry::Kind::kSettle) {
        if (entry.key > dist_[entry.to] + potential_[entry.to]) continue;  // a cheaper way came
        if (absl::Status done = ReachWalk(entry); !done.ok()) return done;
        continue;
      }
      if (entry.key > dist_[entry.to] + potential_[entry.to]) continue;  // stale
      settled_[entry.to] = true;
      ++points_settled_;
      if (entry.to == kTripGoal) break;
      Expand(entry.to);
    }
    return Result();
  }

 private:
  const Place& PlaceOf(std::uint32_t point) const {
    if (point == kTripStart) return ask_.from;
    if (point == kTripGoal) return ask_.to;
    return network_.nodes[point - kFirstNodePoint].place;
  }

  // Reaches `point` at `seconds` by `how` when that is cheaper, or as cheap in fewer legs (so a
  // tie between walking straight there and walking through a node walks straight).
  void Relax(std::uint32_t point, double seconds, const Reached& how) {
    if (settled_[point] || potential_[point] == kInf) return;  // done, or leads nowhere
    const std::uint32_t legs = how.by == Reached::By::kNothing ? 0 : legs_[how.from] + 1;
    if (seconds > dist_[point] || (seconds == dist_[point] && legs >= legs_[point])) return;
    const bool queued = seconds == dist_[point];
    dist_[point] = seconds;
    reached_[point] = how;
    legs_[point] = legs;
    if (!queued) queue_.push({seconds + potential_[point], point, point, Entry::Kind::kSettle});
  }

  // A walk entry at the queue's front: refine its bound and queue it again, or price it.
  absl::Status ReachWalk(const Entry& entry) {
    if (entry.kind == Entry::Kind::kWalkBound) {
      absl::StatusOr<std::optional<double>> refined = walks_.RefinedBound(entry.from, entry.to);
      if (!refined.ok()) return refined.status();
      if (refined->has_value()) {
        if (**refined == kInf) return absl::OkStatus();  // no walk
        const double key = dist_[entry.from] +
                           std::max(**refined, LowerBound(entry.from, entry.to)) +
                           potential_[entry.to];
        if (key <= dist_[entry.to] + potential_[entry.to]) {
          queue_.push({key, entry.from, entry.to, Entry::Kind::kWalkRefined});
        }
        return absl::OkStatus();
      }
    }
    absl::StatusOr<LegWalk> walk = PriceWalk(entry.from, entry.to);
    if (!walk.ok()) return walk.status();
    if (walk->found) {
      Relax(entry.to, dist_[entry.from] + walk->seconds, Reached::Walked(entry.from, *walk));
    }
    return absl::OkStatus();
  }

  absl::StatusOr<LegWalk> PriceWalk(std::uint32_t from, std::uint32_t to) {
    ++walks_priced_;
    absl::StatusOr<LegWalk> walk = walks_.Walk(from, to);
    if (walk.ok() && from == kTripStart && to == kTripGoal) walk_all_the_way_ = *walk;
    return walk;
  }

  // The potential: each point's least seconds to the goal over the bounds alone (a walk costs
  // its lower bound, a ride its seconds, the hearthstone its wait and cast), by a Dijkstra back
  // from the goal over every point. It is a lower bound of the rest of any trip and consistent
  // (no edge costs less than the drop in potential across it), so the search becomes an A*
  // that stays exact: points that cannot lead to the goal in time are never reached, and walks
  // towards them never priced. Infinite for points that cannot reach the goal at all.
  void ComputePotential() {
    const std::size_t points = dist_.size();
    potential_.assign(points, kInf);
    std::vector<bool> done(points, false);
    potential_[kTripGoal] = 0.0;
    const Hearthstone* stone = network_.HearthstoneOf(ask_.profile->name);
    const bool cast = stone != nullptr && ask_.hearthstone_ready && usable_[stone->bind];
    for (;;) {
      std::uint32_t q = kTripGoal;
      double best = kInf;
      for (std::uint32_t p = 0; p < points; ++p) {
        if (!done[p] && potential_[p] < best) best = potential_[p], q = p;
      }
      if (best == kInf) return;
      done[q] = true;
      auto lower = [&](std::uint32_t p, double seconds) {
        if (!done[p] && seconds < potential_[p]) potential_[p] = seconds;
      };
      // Walks into q: from the start and every usable node of q's continent.
      const ContinentId continent = PlaceOf(q).continent;
      if (q != kTripStart && ask_.from.continent == continent) {
        lower(kTripStart, best + LowerBound(kTripStart, q));
      }
      const double qx = PlaceOf(q).x_yards, qy = PlaceOf(q).y_yards;
      for (std::uint32_t i = 0; i < network_.nodes.size(); ++i) {
        const std::uint32_t p = kFirstNodePoint + i;
        if (!usable_[i] || done[p] || p == q) continue;
        const Place& at = network_.nodes[i].place;
        if (at.continent != continent) continue;
        const double seconds = best + bound_.Seconds(std::hypot(at.x_yards - qx, at.y_yards - qy));
        if (seconds < potential_[p]) potential_[p] = seconds;
      }
      if (q < kFirstNodePoint) continue;
      const std::uint32_t node = q - kFirstNodePoint;
      for (std::uint32_t k = first_ride_in_[node]; k < first_ride_in_[node + 1]; ++k) {
        const TravelRide& ride = network_.rides[ride_by_to_[k]];
        if (usable_[ride.from]) lower(kFirstNodePoint + ride.from, best + ride.seconds());
      }
      if (cast && node == stone->bind) {
        lower(kTripStart,
              best + std::max(0.0, ask_.hearthstone_wait_seconds) + stone->cast_seconds);
      }
    }
  }

  double LowerBound(std::uint32_t from, std::uint32_t to) const {
    return bound_.Seconds(StraightYards(PlaceOf(from), PlaceOf(to)));
  }

  // Queues the walk from `from` to `to` at its lower bound, when both are on one continent.
  void QueueWalk(std::uint32_t from, std::uint32_t to) {
    if (settled_[to] || potential_[to] == kInf) return;
    if (PlaceOf(from).continent != PlaceOf(to).continent) return;
    const double bound = LowerBound(from, to);
    const double key = dist_[from] + bound + potential_[to];
    if (key > dist_[to] + potential_[to]) return;  // cannot improve it
    queue_.push({key, from, to, Entry::Kind::kWalkBound});
  }

  // Everything that leaves settled point `point`.
  void Expand(std::uint32_t point) {
    QueueWalk(point, kTripGoal);
    for (std::uint32_t i = 0; i < network_.nodes.size(); ++i) {
      if (usable_[i]) QueueWalk(point, kFirstNodePoint + i);
    }
    if (point == kTripStart) {
      const Hearthstone* stone = network_.HearthstoneOf(ask_.profile->name);
      if (stone != nullptr && ask_.hearthstone_ready && usable_[stone->bind]) {
        const double wait = std::max(0.0, ask_.hearthstone_wait_seconds);
        Relax(kFirstNodePoint + stone->bind, wait + stone->cast_seconds, Reached::Cast());
      }
      return;
    }
    if (point == kTripGoal) return;
    const std::uint32_t node = point - kFirstNodePoint;
    for (std::uint32_t k = first_ride_[node]; k < first_ride_[node + 1]; ++k) {
      const std::uint32_t r = ride_by_from_[k];
      const TravelRide& ride = network_.rides[r];
      if (!usable_[ride.to]) continue;
      Relax(kFirstNodePoint + ride.to, dist_[point] + ride.seconds(), Reached::Rode(point, r));
    }
  }

  // The legs to the goal, in order.
  std::vector<TripLeg> Legs() const {
    std::vector<TripLeg> legs;
    for (std::uint32_t point = kTripGoal; point != kTripStart;) {
      const Reached& how = reached_[point];
      TripLeg leg;
      leg.from_point = how.from;
      leg.to_point = point;
      switch (how.by) {
        case Reached::By::kWalk:
          leg.kind = TripLegKind::kWalk;
          leg.seconds = how.walk.seconds;
          leg.yards = how.walk.yards;
          leg.stored = how.walk.stored;
          legs.push_back(leg);
          break;
        case Reached::By::kRide: {
          const TravelRide& ride = network_.rides[how.ride];
          leg.kind = TripLegKind::kRide;
          leg.ride = ride.kind;
          leg.seconds = ride.ride_seconds;
          if (ride.kind != RideKind::kPortal) {
            leg.yards = StraightYards(PlaceOf(how.from), PlaceOf(point));
          }
          legs.push_back(leg);
          if (ride.wait_seconds > 0) {
            legs.push_back({.kind = TripLegKind::kWait,
                            .from_point = how.from,
                            .to_point = how.from,
                            .seconds = ride.wait_seconds});
          }
          break;
        }
        case Reached::By::kHearthstone: {
          const Hearthstone& stone = *network_.HearthstoneOf(ask_.profile->name);
          leg.kind = TripLegKind::kHearthstone;
          leg.seconds = stone.cast_seconds;
          legs.push_back(leg);
          const double wait = dist_[point] - stone.cast_seconds;
          if (wait > 0) {
            legs.push_back({.kind = TripLegKind::kWait,
                            .from_point = kTripStart,
                            .to_point = kTripStart,
                            .seconds = wait});
          }
          break;
        }
        case Reached::By::kNothing:
          return {};  // unreachable for a reached point
      }
      point = how.from;
    }
    std::reverse(legs.begin(), legs.end());
    return legs;
  }

  absl::StatusOr<Trip> Result() {
    Trip trip;
    trip.found = settled_[kTripGoal];
    if (trip.found) {
      trip.seconds = dist_[kTripGoal];
      trip.legs = Legs();
      double at = 0.0;
      for (const TripLeg& leg : trip.legs) {
        trip.yards += leg.yards;
        if (leg.kind == TripLegKind::kRide || leg.kind == TripLegKind::kHearthstone) {
          trip.rode = true;
        }
        if (leg.kind == TripLegKind::kHearthstone) {
          trip.hearthstone_used = true;
          trip.hearthstone_cast_at_seconds = at;
        }
        at += leg.seconds;
      }
    }
    const bool one_continent = ask_.from.continent == ask_.to.continent;
    if (one_continent && !walk_all_the_way_ && ask_.price_walk) {
      absl::StatusOr<LegWalk> walk = PriceWalk(kTripStart, kTripGoal);
      if (!walk.ok()) return walk.status();
    }
    trip.walk = walk_all_the_way_;
    trip.walks_priced = walks_priced_;
    trip.points_settled = points_settled_;
    return trip;
  }

  const TravelNetwork& network_;
  const TripAsk& ask_;
  TripWalks& walks_;
  const WalkBound bound_;
  std::vector<double> dist_;
  std::vector<std::uint32_t> legs_;  // legs of the way that reached each point
  std::vector<Reached> reached_;
  std::vector<bool> settled_;
  std::vector<bool> usable_;               // by node
  std::vector<std::uint32_t> first_ride_;  // by node, into ride_by_from_
  std::vector<std::uint32_t> ride_by_from_;
  std::vector<std::uint32_t> first_ride_in_;  // by node, into ride_by_to_
  std::vector<std::uint32_t> ride_by_to_;
  std::vector<double> potential_;  // by point: ComputePotential
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue_;
  std::optional<LegWalk> walk_all_the_way_;
  std::uint32_t walks_priced_ = 0;
  std::uint32_t points_settled_ = 0;
};

}  // namespace

const char* TripLegKindName(TripLegKind kind) {
  switch (kind) {
    case TripLegKind::kWalk:
      return "walk";
    case TripLegKind::kWait:
      return "wait";
    case TripLegKind::kRide:
      return "ride";
    case TripLegKind::kHearthstone:
      return "hearthstone";
  }
  return "?";
}

double StraightYards(const Place& a, const Place& b) {
  if (a.continent != b.continent) return 0.0;
  return std::hypot(a.x_yards - b.x_yards, a.y_yards - b.y_yards);
}

absl::StatusOr<Trip> FindTrip(const TravelNetwork& network, const TripAsk& ask, TripWalks& walks) {
  if (ask.profile == nullptr) return absl::InvalidArgumentError("profile: required");
  return Search(network, ask, walks).Run();
}

}  // namespace walk::nav
