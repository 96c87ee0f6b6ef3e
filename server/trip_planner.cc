#include "server/trip_planner.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/base/casts.h"
#include "absl/strings/str_cat.h"
#include "nav/grid/number_text.h"
#include "nav/query/place_check.h"
#include "nav/query/settle.h"
#include "nav/query/snap.h"

namespace walk::server {

absl::Status TripQuery::Validate(absl::string_view field_prefix) const {
  WalkQuery walk;
  walk.world = world;
  walk.from = from;
  walk.to = to;
  walk.profile = profile;
  walk.band = band;
  if (absl::Status valid = walk.Validate(field_prefix); !valid.ok()) return valid;
  const double left = hearthstone_cooldown_left_seconds;
  if (!std::isfinite(left) || left < 0 || left > nav::kMaxTravelSeconds) {
    return absl::InvalidArgumentError(
        absl::StrCat(field_prefix, "hearthstone_cooldown_left_seconds: ", nav::NumberText(left),
                     " is out of range [0, 1000000]"));
  }
  return absl::OkStatus();
}

// The trip search's walks: each asked of the walk pipeline through the store, on the grid, and
// a walk between two nodes kept in the planner's cache.
class TripPlanner::Walks final : public nav::TripWalks {
 public:
  Walks(const TripPlanner& planner, const TripQuery& query, const ServedWorld& served,
        const ServedWorld::MetricEntry& metric, const std::vector<nav::Place>& places,
        const nav::SearchStop* stop, nav::Searchers& searchers)
      : planner_(planner),
        query_(query),
        served_(served),
        metric_(metric),
        places_(places),
        stop_(stop),
        searchers_(searchers),
        band_zero_(served.MetricFor(query.profile, 0)) {}

  absl::StatusOr<nav::LegWalk> Walk(std::uint32_t from, std::uint32_t to) override {
    return WalkAtMost(from, to, std::numeric_limits<double>::infinity());
  }

  // A danger band's search stops once it has shown the walk costs more: most walks a trip prices
  // cannot improve it, and their detours round danger are what a cold danger walk spends.
  absl::StatusOr<nav::LegWalk> WalkAtMost(std::uint32_t from, std::uint32_t to,
                                          double max_seconds) override {
    absl::StatusOr<nav::LegWalk> walk = WalkIn(from, to, query_.band, metric_, max_seconds);
    if (walk.ok() && walk->stored) ++stored_;
    return walk;
  }

  // In a danger band, the band-0 walk of the same ends: danger only multiplies by 1 or more, so
  // it bounds the band's walk (taken at 98 %, a margin for the abstract graph's approximation),
  // and where it finds no walk the band finds none either. A band-0 walk is the CCH's, some
  // twenty times cheaper than the band's cold.
  absl::StatusOr<std::optional<double>> RefinedBound(std::uint32_t from,
                                                     std::uint32_t to) override {
    if (!metric_.metric->prices_danger() || band_zero_ == nullptr) return std::nullopt;
    absl::StatusOr<nav::LegWalk> walk = WalkIn(from, to, 0, *band_zero_);
    if (!walk.ok()) return walk.status();
    if (!walk->found) return std::numeric_limits<double>::infinity();
    const std::optional<double> dearer = planner_.DearerBound(DearerKeyOf(from, to));
    return std::max(kBandZeroShare * walk->seconds, dearer.value_or(0.0));
  }

  // Any walk costs at least its columns' straight line at the metric's cheapest pace (the A*'s
  // bound), and its ends may each stand a column's diagonal and a settle's reach from the places.
  nav::WalkBound Bound() const override {
    const double column = served_.world.column_yards;
    return {.seconds_per_yard = metric_.metric->min_seconds_per_column() / column,
            .slack_yards = 2.0 * nav::SettleOptions().radius_yards + 2.0 * std::sqrt(2.0) * column,
            .settle_yards = nav::SettleOptions().radius_yards};
  }

  std::uint32_t stored() const { return stored_; }

 private:
  static constexpr double kBandZeroShare = 0.98;

  DearerKey DearerKeyOf(std::uint32_t from, std::uint32_t to) const {
    return TripPlanner::DearerKeyOf(metric_.On(places_[from].continent).grid, places_[from],
                                    places_[to]);
  }

  // The walk between two points (of one continent) in `band` (whose metric is `metric`): from
  // the node-walk cache between nodes, else through the store; its search may stop once it has
  // shown the walk costs more than `max_seconds` (LegWalk::dearer, kept nowhere).
  absl::StatusOr<nav::LegWalk> WalkIn(
      std::uint32_t from, std::uint32_t to, std::uint32_t band,
      const ServedWorld::MetricEntry& metric,
      double max_seconds = std::numeric_limits<double>::infinity()) {
    const std::uint64_t model = metric.On(places_[from].continent).grid;
    const bool between_nodes = from >= nav::kFirstNodePoint && to >= nav::kFirstNodePoint;
    const NodeWalkKey key{model, from - nav::kFirstNodePoint, to - nav::kFirstNodePoint};
    if (between_nodes) {
      if (std::optional<nav::LegWalk> cached = planner_.CachedNodeWalk(key)) {
        cached->stored = true;
        return *cached;
      }
    }
    // Only a walk wanted at most some seconds may be cut short: its bound is kept by this key.
    std::optional<DearerKey> dearer_key;
    if (max_seconds < std::numeric_limits<double>::infinity()) {
      dearer_key = DearerKeyOf(from, to);
      const std::optional<double> dearer = planner_.DearerBound(*dearer_key);
      if (dearer && max_seconds <= *dearer) return nav::LegWalk{.dearer = true};
    }
    WalkQuery walk;
    walk.world = query_.world;
    walk.from = places_[from];
    walk.to = places_[to];
    walk.profile = query_.profile;
    walk.band = band;
    walk.backend = BackendChoice::kGrid;
    absl::StatusOr<WalkResult> result = planner_.answerer_.Answer(
        walk, {.field_prefix = "", .look_up = true, .stop = stop_, .max_seconds = max_seconds},
        searchers_);
    if (!result.ok()) return result.status();
    nav::LegWalk leg;
    leg.dearer = result->answer.dearer;
    leg.expansions = result->answer.stats.nodes_expanded;  // the trip's budget counts them
    if (leg.dearer) {
      if (dearer_key) planner_.KeepDearerBound(*dearer_key, max_seconds);
      return leg;
    }
    leg.found = result->answer.status == nav::WalkStatus::kOk;
    leg.seconds = result->answer.seconds;
    leg.yards = result->answer.yards;
    leg.stored = result->stored;
    if (between_nodes) planner_.KeepNodeWalk(key, leg);
    return leg;
  }

  const TripPlanner& planner_;
  const TripQuery& query_;
  const ServedWorld& served_;
  const ServedWorld::MetricEntry& metric_;
  const std::vector<nav::Place>& places_;
  const nav::SearchStop* stop_;
  nav::Searchers& searchers_;
  const ServedWorld::MetricEntry* band_zero_;  // the profile's band-0 metric
  std::uint32_t stored_ = 0;
};

namespace {

// Snaps `place` (on a continent of `world`), and says whether a walk may settle it and in which
// region its walks start or end.
nav::Snap SnapEnd(const nav::World& world, const nav::Place& place, bool* may_settle,
                  std::uint32_t* region) {
  const nav::Continent& continent = *world.FindContinent(place.continent);
  *may_settle = nav::MaySettle(continent, world.FrameOf(continent), place);
  *region = nav::WalkRegion(continent, world.FrameOf(continent), place);
  return nav::SnapPlace(continent, world.FrameOf(continent), place);
}

}  // namespace

std::optional<nav::LegWalk> TripPlanner::CachedNodeWalk(const NodeWalkKey& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto found = node_walks_.find(key);
  if (found == node_walks_.end()) return std::nullopt;
  return found->second;
}

void TripPlanner::KeepNodeWalk(const NodeWalkKey& key, const nav::LegWalk& walk) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (node_walks_.size() >= node_walk_entries_) node_walks_.clear();  // bounded: start again
  node_walks_[key] = walk;
}

TripPlanner::DearerKey TripPlanner::DearerKeyOf(std::uint64_t model, const nav::Place& from,
                                                const nav::Place& to) {
  DearerKey key{.model = model};
  std::size_t k = 0;
  for (const nav::Place* place : {&from, &to}) {
    const double z = place->z_yards.value_or(std::numeric_limits<double>::quiet_NaN());
    key.ends[k++] = place->continent;
    key.ends[k++] = absl::bit_cast<std::uint64_t>(place->x_yards);
    key.ends[k++] = absl::bit_cast<std::uint64_t>(place->y_yards);
    key.ends[k++] = absl::bit_cast<std::uint64_t>(z);
  }
  return key;
}

std::optional<double> TripPlanner::DearerBound(const DearerKey& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto found = dearer_bounds_.find(key);
  if (found == dearer_bounds_.end()) return std::nullopt;
  return found->second;
}

void TripPlanner::KeepDearerBound(const DearerKey& key, double seconds) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (dearer_bounds_.size() >= node_walk_entries_) dearer_bounds_.clear();  // bounded: start again
  double& bound = dearer_bounds_[key];
  bound = std::max(bound, seconds);
}

absl::StatusOr<TripResult> TripPlanner::Plan(const TripQuery& query, absl::string_view field_prefix,
                                             const nav::SearchStop* stop,
                                             nav::Searchers& searchers) const {
  if (absl::Status valid = query.Validate(field_prefix); !valid.ok()) return valid;
  absl::StatusOr<std::shared_ptr<const ServedWorld>> found = worlds_.Find(query.world);
  if (!found.ok()) return found.status();
  const ServedWorld& served = **found;
  if (!served.travel_error.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "world '", query.world, "': its travel network was refused: ", served.travel_error));
  }
  if (!served.has_grid()) {
    return absl::FailedPreconditionError(
        absl::StrCat("world '", query.world, "' has no grid: trips walk on the grid"));
  }
  for (const auto& [place, field] : {std::pair{&*query.from, "from"}, {&*query.to, "to"}}) {
    const std::string name = absl::StrCat(field_prefix, field);
    if (absl::Status valid = nav::ValidatePlace(*place, name); !valid.ok()) return valid;
    if (served.world.FindContinent(place->continent) == nullptr) {
      return absl::NotFoundError(
          absl::StrCat(name, ".continent: the world has no continent ", place->continent));
    }
  }
  const ServedWorld::MetricEntry* metric = served.MetricFor(query.profile, query.band);
  static const nav::TravelNetwork kNoNetwork;
  const nav::TravelNetwork& network = served.travel ? *served.travel : kNoNetwork;

  TripResult result;
  result.band = query.band;
  result.model = metric->trip_model;
  result.places = {*query.from, *query.to};
  result.node_ids = {"", ""};
  for (const nav::TravelNode& node : network.nodes) {
    result.places.push_back(node.place);
    result.node_ids.push_back(node.id);
  }
  nav::TripAsk ask;
  ask.from = *query.from;
  ask.to = *query.to;
  ask.profile = nav::FindProfile(query.profile);
  ask.hearthstone_ready = query.hearthstone_ready.value_or(true);
  ask.hearthstone_wait_seconds = query.hearthstone_cooldown_left_seconds;
  ask.price_walk = query.price_walk;
  const nav::Snap goal = SnapEnd(served.world, *query.to, &ask.to_may_settle, &ask.to_region);
  ask.goal_on_surface = goal.status == nav::WalkStatus::kOk;
  SnapEnd(served.world, *query.from, &ask.from_may_settle, &ask.from_region);
  ask.stop = stop;
  Walks walks(*this, query, served, *metric, result.places, stop, searchers);
  absl::StatusOr<nav::Trip> trip = nav::FindTrip(network, ask, walks);
  if (!trip.ok()) return trip.status();
  result.trip = *std::move(trip);
  result.walks_stored = walks.stored();
  const nav::Hearthstone* stone = network.HearthstoneOf(ask.profile->name);
  if (result.trip.hearthstone_used && stone != nullptr) {
    const double since = result.trip.seconds - result.trip.hearthstone_cast_at_seconds;
    result.hearthstone_cooldown_left_seconds = std::max(0.0, stone->cooldown_seconds - since);
  } else {
    result.hearthstone_cooldown_left_seconds =
        std::max(0.0, query.hearthstone_cooldown_left_seconds - result.trip.seconds);
  }
  return result;
}

}  // namespace walk::server
