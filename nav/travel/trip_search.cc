#include "nav/travel/trip_search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <queue>

#include "nav/travel/trip_potential.h"

namespace walk::nav {
namespace {

constexpr std::uint32_t kNoBox = TravelIndex::kNoBox;

// How a state was reached.
struct Reached {
  enum class By : std::uint8_t { kNothing, kWalk, kRide, kHearthstone } by = By::kNothing;
  std::uint32_t from = kTripStart;  // the state it came from
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

// A queue entry: settle state `to` at `key`; or, for walks from state `from`, open box `to` (the
// walks to every node inside it, at their least bound), or price the walk to state `to` (its
// straight-line bound first, then its refined bound when TripWalks has one, then the walk).
struct Entry {
  enum class Kind : std::uint8_t { kSettle, kBox, kWalkBound, kWalkRefined };
  double key = 0.0;
  std::uint32_t from = 0;
  std::uint32_t to = 0;
  Kind kind = Kind::kSettle;
  bool operator>(const Entry& other) const { return key > other.key; }
};

class Search {
 public:
  Search(const TravelNetwork& network, const TravelIndex& index, const TripAsk& ask,
         TripWalks& walks)
      : network_(network),
        index_(index),
        ask_(ask),
        walks_(walks),
        states_(network, ask, walks.Bound()) {
    const std::size_t count = states_.Count();
    dist_.assign(count, kNoWaySeconds);
    legs_.assign(count, 0);
    reached_.assign(count, {});
    settled_.assign(count, false);
  }

  absl::StatusOr<Trip> Run() {
    if (!ask_.goal_on_surface) return Trip();
    absl::StatusOr<TripPotential> potential = ComputeTripPotential(states_, index_, ask_.stop);
    if (!potential.ok()) return potential.status();
    potential_ = *std::move(potential);
    expansions_ = potential_.expansions;
    Relax(kTripStart, 0.0, {});
    if (absl::Status walked = WalkAllTheWayFirst(); !walked.ok()) return walked;
    while (!queue_.empty()) {
      const Entry entry = queue_.top();
      queue_.pop();
      if (ask_.stop != nullptr) {
        if (absl::Status go_on = ask_.stop->Poll(++expansions_); !go_on.ok()) return go_on;
      } else {
        ++expansions_;
      }
      if (entry.kind == Entry::Kind::kBox) {
        OpenBox(entry);
        continue;
      }
      if (settled_[entry.to]) continue;
      if (entry.key > dist_[entry.to] + Potential(entry.to)) continue;  // a cheaper way came
      if (entry.kind != Entry::Kind::kSettle) {
        if (absl::Status done = ReachWalk(entry); !done.ok()) return done;
        continue;
      }
      settled_[entry.to] = true;
      ++points_settled_;
      if (entry.to == kTripGoal) break;
      Expand(entry.to);
    }
    return Result();
  }

 private:
  double Potential(std::uint32_t state) const { return potential_.seconds[state]; }

  // Reaches `state` at `seconds` by `how` when that is cheaper, or as cheap in fewer legs (so a
  // tie between walking straight there and riding on walks straight).
  void Relax(std::uint32_t state, double seconds, const Reached& how) {
    if (settled_[state] || Potential(state) == kNoWaySeconds) return;  // done, or leads nowhere
    const std::uint32_t legs = how.by == Reached::By::kNothing ? 0 : legs_[how.from] + 1;
    if (seconds > dist_[state] || (seconds == dist_[state] && legs >= legs_[state])) return;
    const bool queued = seconds == dist_[state];
    dist_[state] = seconds;
    reached_[state] = how;
    legs_[state] = legs;
    if (!queued) queue_.push({seconds + Potential(state), state, state, Entry::Kind::kSettle});
  }

  // Walking all the way, when the trip must price it anyway (TripAsk::price_walk): priced first,
  // it bounds every walk priced after it (MostUseful), which a danger band's search then cuts
  // short; and it may be the trip.
  absl::Status WalkAllTheWayFirst() {
    if (!ask_.price_walk || ask_.from.continent != ask_.to.continent) return absl::OkStatus();
    absl::StatusOr<LegWalk> walk = PriceWalk(kTripStart, kTripGoal);
    if (!walk.ok()) return walk.status();
    expansions_ += walk->expansions;
    if (ask_.stop != nullptr && walk->expansions > 0) {
      if (absl::Status go_on = ask_.stop->Check(expansions_); !go_on.ok()) return go_on;
    }
    if (walk->found) Relax(kTripGoal, walk->seconds, Reached::Walked(kTripStart, *walk));
    return absl::OkStatus();
  }

  // A walk entry at the queue's front: refine its bound and queue it again, or price it.
  absl::Status ReachWalk(const Entry& entry) {
    const std::uint32_t from = states_.PointOf(entry.from), to = states_.PointOf(entry.to);
    if (entry.kind == Entry::Kind::kWalkBound) {
      absl::StatusOr<std::optional<double>> refined = walks_.RefinedBound(from, to);
      if (!refined.ok()) return refined.status();
      if (refined->has_value()) {
        if (**refined == kNoWaySeconds) return absl::OkStatus();  // no walk
        const double key = dist_[entry.from] + std::max(**refined, states_.WalkSeconds(from, to)) +
                           Potential(entry.to);
        if (key <= dist_[entry.to] + Potential(entry.to)) {
          queue_.push({key, entry.from, entry.to, Entry::Kind::kWalkRefined});
        }
        return absl::OkStatus();
      }
    }
    absl::StatusOr<LegWalk> walk = PriceWalk(from, to, MostUseful(entry.from, entry.to));
    if (!walk.ok()) return walk.status();
    expansions_ += walk->expansions;
    if (ask_.stop != nullptr && walk->expansions > 0) {
      if (absl::Status go_on = ask_.stop->Check(expansions_); !go_on.ok()) return go_on;
    }
    if (walk->found) {
      Relax(entry.to, dist_[entry.from] + walk->seconds, Reached::Walked(entry.from, *walk));
    }
    return absl::OkStatus();
  }

  // The most seconds the walk from settled state `from` to state `to` may cost and still change
  // the trip: reach `to` as cheaply as it is reached now (a tie may take fewer legs), or lead to
  // the goal no dearer than the way to it found so far (`to`'s potential never overestimates).
  double MostUseful(std::uint32_t from, std::uint32_t to) const {
    return std::min(dist_[to], dist_[kTripGoal] - Potential(to)) - dist_[from];
  }

  // Prices the walk between points `from` and `to`, wanted at most `max_seconds` but walking all
  // the way, which the trip reports whole.
  absl::StatusOr<LegWalk> PriceWalk(std::uint32_t from, std::uint32_t to,
                                    double max_seconds = kNoWaySeconds) {
    const bool all_the_way = from == kTripStart && to == kTripGoal;
    if (all_the_way && walk_all_the_way_) {  // priced first: its search is counted already
      LegWalk walk = *walk_all_the_way_;
      walk.expansions = 0;
      return walk;
    }
    ++walks_priced_;
    absl::StatusOr<LegWalk> walk = all_the_way || !(max_seconds < kNoWaySeconds)
                                       ? walks_.Walk(from, to)
                                       : walks_.WalkAtMost(from, to, max_seconds);
    if (walk.ok() && all_the_way) walk_all_the_way_ = *walk;
    return walk;
  }

  // Queues the walk from state `from` to state `to` (a node on foot, or the goal) at its bound.
  void QueueWalk(std::uint32_t from, std::uint32_t to) {
    if (settled_[to] || Potential(to) == kNoWaySeconds) return;
    if (from == kTripStart && to == kTripGoal && walk_all_the_way_) return;  // priced first
    const std::uint32_t a = states_.PointOf(from), b = states_.PointOf(to);
    if (a == b || !states_.MayWalk(a, b)) return;
    const double key = dist_[from] + states_.WalkSeconds(a, b) + Potential(to);
    if (key > dist_[to] + Potential(to)) return;  // cannot improve it
    queue_.push({key, from, to, Entry::Kind::kWalkBound});
  }

  // Queues the walks from state `from` to the nodes of box `b` as one entry, at the least bound
  // of any of them.
  void QueueBox(std::uint32_t from, std::uint32_t b) {
    const double least = potential_.box_least[b];
    if (least == kNoWaySeconds) return;
    const TravelBox& box = index_.boxes[b];
    const std::uint32_t point = states_.PointOf(from);
    const Place& at = states_.PlaceOf(point);
    const double slack = states_.EndSlack(point) + states_.BoxSlack(box);
    const double key =
        dist_[from] + states_.bound().Seconds(box.YardsFrom(at.x_yards, at.y_yards), slack) + least;
    queue_.push({key, from, b, Entry::Kind::kBox});
  }

  void OpenBox(const Entry& entry) {
    const TravelBox& box = index_.boxes[entry.to];
    if (box.left != kNoBox) {
      QueueBox(entry.from, box.left);
      QueueBox(entry.from, box.right);
      return;
    }
    for (std::uint32_t k = box.begin; k < box.end; ++k) {
      const std::uint32_t node = index_.order[k];
      if (states_.Usable(node)) QueueWalk(entry.from, states_.OnFoot(node));
    }
  }

  // Everything that leaves settled state `state`.
  void Expand(std::uint32_t state) {
    const std::uint32_t point = states_.PointOf(state);
    if (!states_.IsOnFoot(state)) {  // the start, or a node after a ride or cast: walks
      QueueWalk(state, kTripGoal);
      const std::uint32_t c = index_.ContinentOf(states_.PlaceOf(point).continent);
      if (c != kNoBox) QueueBox(state, index_.continents[c].root);
    }
    if (point == kTripStart) {
      const Hearthstone* stone = states_.stone();
      if (stone != nullptr) {
        const double wait = std::max(0.0, ask_.hearthstone_wait_seconds);
        Relax(states_.Arrived(stone->bind), wait + stone->cast_seconds, Reached::Cast());
      }
      return;
    }
    const std::uint32_t node = point - kFirstNodePoint;
    for (std::uint32_t k = index_.first_ride_from[node]; k < index_.first_ride_from[node + 1];
         ++k) {
      const std::uint32_t r = index_.ride_by_from[k];
      const TravelRide& ride = network_.rides[r];
      if (!states_.Usable(ride.to)) continue;
      Relax(states_.Arrived(ride.to), dist_[state] + ride.seconds(), Reached::Rode(state, r));
    }
  }

  // The leg that reached `state`, and before it its wait when it has one (legs come out last
  // first).
  void AddLegs(std::uint32_t state, std::vector<TripLeg>* legs) const {
    const Reached& how = reached_[state];
    TripLeg leg;
    leg.from_point = states_.PointOf(how.from);
    leg.to_point = states_.PointOf(state);
    switch (how.by) {
      case Reached::By::kWalk:
        leg.kind = TripLegKind::kWalk;
        leg.seconds = how.walk.seconds;
        leg.yards = how.walk.yards;
        leg.stored = how.walk.stored;
        legs->push_back(leg);
        return;
      case Reached::By::kRide: {
        const TravelRide& ride = network_.rides[how.ride];
        leg.kind = TripLegKind::kRide;
        leg.ride = ride.kind;
        leg.seconds = ride.ride_seconds;
        if (ride.kind != RideKind::kPortal) {
          leg.yards = StraightYards(states_.PlaceOf(leg.from_point), states_.PlaceOf(leg.to_point));
        }
        legs->push_back(leg);
        if (ride.wait_seconds > 0) {
          legs->push_back({.kind = TripLegKind::kWait,
                           .from_point = leg.from_point,
                           .to_point = leg.from_point,
                           .seconds = ride.wait_seconds});
        }
        return;
      }
      case Reached::By::kHearthstone: {
        leg.kind = TripLegKind::kHearthstone;
        leg.seconds = states_.stone()->cast_seconds;
        legs->push_back(leg);
        const double wait = dist_[state] - leg.seconds;
        if (wait > 0) {
          legs->push_back({.kind = TripLegKind::kWait,
                           .from_point = kTripStart,
                           .to_point = kTripStart,
                           .seconds = wait});
        }
        return;
      }
      case Reached::By::kNothing:
        return;
    }
  }

  // The legs to the goal, in order.
  std::vector<TripLeg> Legs() const {
    std::vector<TripLeg> legs;
    for (std::uint32_t state = kTripGoal; state != kTripStart; state = reached_[state].from) {
      if (reached_[state].by == Reached::By::kNothing) return {};  // unreachable when reached
      AddLegs(state, &legs);
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
    trip.expansions = expansions_;
    return trip;
  }

  const TravelNetwork& network_;
  const TravelIndex& index_;
  const TripAsk& ask_;
  TripWalks& walks_;
  const TripStates states_;
  TripPotential potential_;
  std::vector<double> dist_;         // by state
  std::vector<std::uint32_t> legs_;  // legs of the way that reached each state
  std::vector<Reached> reached_;
  std::vector<bool> settled_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue_;
  std::optional<LegWalk> walk_all_the_way_;
  std::uint32_t walks_priced_ = 0;
  std::uint32_t points_settled_ = 0;
  std::uint64_t expansions_ = 0;
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
  std::shared_ptr<const TravelIndex> index = network.index;
  if (index == nullptr) index = std::make_shared<const TravelIndex>(BuildTravelIndex(network));
  return Search(network, *index, ask, walks).Run();
}

}  // namespace walk::nav
