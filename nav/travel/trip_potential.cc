#include "nav/travel/trip_potential.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

namespace walk::nav {
namespace {

// The Dijkstra back from the goal. Its vertices are the trip's states, then each cell twice:
// "walked to" (some node inside reached on foot) and "walked from" (a walk out of the cell).
class Backward {
 public:
  Backward(const TripStates& states, const TravelIndex& index, const SearchStop* stop)
      : states_(states), index_(index), stop_(stop), cells_(index.cells.size()) {
    seconds_.assign(states.Count() + 2 * cells_, kNoWaySeconds);
    done_.assign(seconds_.size(), false);
  }

  absl::StatusOr<TripPotential> Run() {
    Lower(kTripGoal, 0.0);
    while (!queue_.empty()) {
      const auto [seconds, v] = queue_.top();
      queue_.pop();
      if (done_[v] || seconds > seconds_[v]) continue;
      done_[v] = true;
      ++expansions_;
      if (stop_ != nullptr) {
        if (absl::Status go_on = stop_->Poll(expansions_); !go_on.ok()) return go_on;
      }
      Settle(v, seconds);
    }
    TripPotential potential;
    potential.seconds.assign(seconds_.begin(), seconds_.begin() + states_.Count());
    potential.seconds[kTripStart] = 0.0;  // nothing leads back to it
    potential.box_least = BoxLeast(potential.seconds);
    potential.expansions = expansions_;
    return potential;
  }

 private:
  std::uint32_t WalkedTo(std::uint32_t cell) const {
    return static_cast<std::uint32_t>(states_.Count() + cell);
  }
  std::uint32_t WalkedFrom(std::uint32_t cell) const {
    return static_cast<std::uint32_t>(states_.Count() + cells_ + cell);
  }

  void Lower(std::uint32_t v, double seconds) {
    if (done_[v] || seconds >= seconds_[v]) return;
    seconds_[v] = seconds;
    queue_.push({seconds, v});
  }

  void Settle(std::uint32_t v, double seconds) {
    if (v == kTripGoal) return GoalWalks();
    if (v >= WalkedFrom(0)) return Into(v - WalkedFrom(0), seconds);
    if (v >= WalkedTo(0)) return Across(v - WalkedTo(0), seconds);
    if (states_.IsOnFoot(v)) {
      // Whatever can be done on foot at a node can be done there after a ride too.
      const std::uint32_t node = states_.PointOf(v) - kFirstNodePoint;
      Lower(states_.Arrived(node), seconds);
      Lower(WalkedTo(index_.node_cell[node]), seconds);
      return;
    }
    RidesInto(v - kFirstNodePoint, seconds);
  }

  // The walks to the goal from every usable node of its continent, each at its own bound.
  void GoalWalks() {
    const std::uint32_t c = index_.ContinentOf(states_.PlaceOf(kTripGoal).continent);
    if (c == TravelIndex::kNoBox) return;
    const TravelBox& root = index_.boxes[index_.continents[c].root];
    for (std::uint32_t k = root.begin; k < root.end; ++k) {
      const std::uint32_t node = index_.order[k];
      if (!states_.Usable(node) || !states_.MayWalk(kFirstNodePoint + node, kTripGoal)) continue;
      Lower(states_.Arrived(node), states_.WalkSeconds(kFirstNodePoint + node, kTripGoal));
    }
  }

  // The rides reaching `node`, from their usable start on foot (and so after a ride).
  void RidesInto(std::uint32_t node, double seconds) {
    for (std::uint32_t k = index_.first_ride_to[node]; k < index_.first_ride_to[node + 1]; ++k) {
      const std::uint32_t tail = index_.ride_to_tail[k];
      if (states_.Usable(tail)) Lower(states_.OnFoot(tail), seconds + index_.ride_to_seconds[k]);
    }
  }

  // Walks into cell `to` from every cell of its continent, at the least bound between them.
  void Across(std::uint32_t to, double seconds) {
    const TravelBox& box = index_.boxes[index_.cells[to]];
    const TravelIndex::Continent& continent = index_.continents[box.continent];
    const double to_slack = states_.BoxSlack(box);
    for (std::uint32_t from = continent.first_cell; from < continent.end_cell; ++from) {
      const TravelBox& other = index_.boxes[index_.cells[from]];
      const double slack = to_slack + states_.BoxSlack(other);
      Lower(WalkedFrom(from), seconds + states_.bound().Seconds(box.YardsTo(other), slack));
    }
  }

  // A walk out of cell `cell`: from each of its usable nodes after a ride.
  void Into(std::uint32_t cell, double seconds) {
    const TravelBox& box = index_.boxes[index_.cells[cell]];
    for (std::uint32_t k = box.begin; k < box.end; ++k) {
      const std::uint32_t node = index_.order[k];
      if (states_.Usable(node)) Lower(states_.Arrived(node), seconds);
    }
  }

  // By box: the least potential of a usable node inside reached on foot (children come after
  // their parent in the index, so one pass from the end fills every box).
  std::vector<double> BoxLeast(const std::vector<double>& potential) const {
    std::vector<double> least(index_.boxes.size(), kNoWaySeconds);
    for (std::size_t b = index_.boxes.size(); b-- > 0;) {
      const TravelBox& box = index_.boxes[b];
      if (box.left != TravelIndex::kNoBox) {
        least[b] = std::min(least[box.left], least[box.right]);
        continue;
      }
      for (std::uint32_t k = box.begin; k < box.end; ++k) {
        const std::uint32_t node = index_.order[k];
        if (states_.Usable(node)) least[b] = std::min(least[b], potential[states_.OnFoot(node)]);
      }
    }
    return least;
  }

  const TripStates& states_;
  const TravelIndex& index_;
  const SearchStop* stop_;
  const std::size_t cells_;
  std::vector<double> seconds_;
  std::vector<bool> done_;
  std::priority_queue<std::pair<double, std::uint32_t>,
                      std::vector<std::pair<double, std::uint32_t>>, std::greater<>>
      queue_;
  std::uint64_t expansions_ = 0;
};

}  // namespace

TripStates::TripStates(const TravelNetwork& network, const TripAsk& ask, const WalkBound& bound)
    : network_(network), ask_(ask), bound_(bound), nodes_(network.nodes.size()) {
  usable_.assign(nodes_, false);
  for (std::size_t i = 0; i < nodes_; ++i) {
    usable_[i] = network.nodes[i].placed && MayUse(*ask.profile, network.nodes[i]);
  }
  const Hearthstone* stone = network.HearthstoneOf(ask.profile->name);
  if (stone != nullptr && ask.hearthstone_ready && usable_[stone->bind]) stone_ = stone;
}

const Place& TripStates::PlaceOf(std::uint32_t point) const {
  if (point == kTripStart) return ask_.from;
  if (point == kTripGoal) return ask_.to;
  return network_.nodes[point - kFirstNodePoint].place;
}

double TripStates::EndSlack(std::uint32_t point) const {
  if (point == kTripStart) return bound_.EndSlackYards(ask_.from_may_settle);
  if (point == kTripGoal) return bound_.EndSlackYards(ask_.to_may_settle);
  return bound_.EndSlackYards(network_.nodes[point - kFirstNodePoint].may_settle);
}

bool TripStates::MayWalk(std::uint32_t a, std::uint32_t b) const {
  if (PlaceOf(a).continent != PlaceOf(b).continent) return false;
  auto region = [&](std::uint32_t point) {
    if (point == kTripStart) return ask_.from_region;
    if (point == kTripGoal) return ask_.to_region;
    return network_.nodes[point - kFirstNodePoint].region;
  };
  const std::uint32_t ra = region(a), rb = region(b);
  return ra == kAnyRegion || rb == kAnyRegion || ra == rb;
}

double TripStates::WalkSeconds(std::uint32_t a, std::uint32_t b) const {
  return bound_.Seconds(StraightYards(PlaceOf(a), PlaceOf(b)), EndSlack(a) + EndSlack(b));
}

absl::StatusOr<TripPotential> ComputeTripPotential(const TripStates& states,
                                                   const TravelIndex& index,
                                                   const SearchStop* stop) {
  return Backward(states, index, stop).Run();
}

}  // namespace walk::nav
