#include "client/walkctl_routes.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <tuple>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "client/route_order.h"
#include "client/trip_stream.h"
#include "client/walk_client.h"
#include "client/walk_stream.h"
#include "nlohmann/json.hpp"

namespace walk::client {
namespace {

constexpr double kRunYardsPerSecond = 7.0;

struct Stop {
  std::string name;
  walk::v1::Place place;
  bool free = false;
};

struct Route {
  std::string id;
  std::uint32_t band = 0;
  std::vector<Stop> stops;
};

// The danger band of a character level: bands 10 .. 50 stand for levels 5 below to 5 above.
std::uint32_t BandOfLevel(double level) {
  const double band = 10.0 * std::floor(level / 10.0 + 0.5);
  return static_cast<std::uint32_t>(std::clamp(band, 0.0, 50.0));
}

using PairKey =
    std::tuple<std::uint32_t, double, double, double, double, double, double, bool, bool>;

PairKey KeyOf(std::uint32_t band, const walk::v1::Place& a, const walk::v1::Place& b) {
  return {band,
          a.x_yards(),
          a.y_yards(),
          a.has_z_yards() ? a.z_yards() : 0.0,
          b.x_yards(),
          b.y_yards(),
          b.has_z_yards() ? b.z_yards() : 0.0,
          a.has_z_yards(),
          b.has_z_yards()};
}

// A routes file, read (docs/routes.md).
struct RoutesFile {
  std::string world;
  std::string profile;
  double detour = 1.3;  // a leg with no walk costs the straight line times this
  std::vector<Route> routes;
};

// Reads the routes file at `path`. INVALID_ARGUMENT saying what is wrong.
absl::StatusOr<RoutesFile> ReadRoutes(const std::string& path) {
  std::ifstream in(path);
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("routes") ||
      !doc["routes"].is_array()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": expected a JSON object with \"routes\" (docs/routes.md)"));
  }
  RoutesFile file;
  file.world = doc.value("world", "default");
  file.profile = doc.value("profile", "");
  file.detour = doc.value("detour_factor", 1.3);
  for (std::size_t r = 0; r < doc["routes"].size(); ++r) {
    const auto& json = doc["routes"][r];
    Route route;
    route.id = json.value("id", std::to_string(r));
    route.band = BandOfLevel(json.value("level", 0.0));
    if (!json.contains("stops") || !json["stops"].is_array() || json["stops"].size() < 2) {
      return absl::InvalidArgumentError(absl::StrCat("routes[", r, "].stops: at least two stops"));
    }
    for (std::size_t s = 0; s < json["stops"].size(); ++s) {
      const auto& stop_json = json["stops"][s];
      const auto& at = stop_json.value("at", nlohmann::json());
      if (!at.is_array() || at.size() < 2 || at.size() > 3) {
        return absl::InvalidArgumentError(
            absl::StrCat("routes[", r, "].stops[", s, "].at: expected [x, y] or [x, y, z]"));
      }
      Stop stop;
      stop.name = stop_json.value("name", std::to_string(s));
      stop.free = stop_json.value("free", false);
      stop.place.set_continent(stop_json.value("continent", 0u));
      stop.place.set_x_yards(at[0].get<double>());
      stop.place.set_y_yards(at[1].get<double>());
      if (at.size() == 3) stop.place.set_z_yards(at[2].get<double>());
      route.stops.push_back(std::move(stop));
    }
    file.routes.push_back(std::move(route));
  }
  return file;
}

// The walks the routes need: every ordered pair of each route's stops (reordering needs them
// all), deduplicated.
struct RouteWalks {
  std::map<PairKey, std::size_t> index;  // a pair's position in `walks`
  std::vector<walk::v1::WalkRequest> walks;
  std::size_t asked = 0;  // pairs before deduplication
};

RouteWalks CollectWalks(const RoutesFile& file) {
  RouteWalks collected;
  for (const Route& route : file.routes) {
    for (const Stop& a : route.stops) {
      for (const Stop& b : route.stops) {
        if (&a == &b) continue;
        ++collected.asked;
        const PairKey key = KeyOf(route.band, a.place, b.place);
        if (collected.index.count(key)) continue;
        collected.index[key] = collected.walks.size();
        walk::v1::WalkRequest walk;
        walk.set_world(file.world);
        walk.set_profile(file.profile);
        walk.set_band(route.band);
        *walk.mutable_from() = a.place;
        *walk.mutable_to() = b.place;
        collected.walks.push_back(std::move(walk));
      }
    }
  }
  return collected;
}

// What one ordered pair costs: walking, and, when legs are trips, the cheapest trip (with the
// hearthstone ready, and without it where the first one cast it).
struct LegPrice {
  bool walk_found = false;
  double walk_seconds = 0.0;
  bool trip_found = false;  // with the hearthstone ready
  double trip_seconds = 0.0;
  bool rode = false;
  bool hearthstone = false;     // the trip casts the hearthstone ...
  double cooldown_after = 0.0;  // ... which is ready again this long after the trip ends
  bool spent_found = false;     // the trip without the hearthstone (set when `hearthstone`)
  double spent_seconds = 0.0;
  bool spent_rode = false;
};

// Streams `walks` through walkd as walks: each pair's price is its walk. UNAVAILABLE and the
// like when the stream failed; INTERNAL when a pair was never answered.
absl::StatusOr<std::vector<LegPrice>> PriceByWalks(const RoutesArgs& args,
                                                   const std::vector<walk::v1::WalkRequest>& walks,
                                                   const walk::v1::Limits& limits) {
  StreamOptions options;
  options.FitToLimits(limits);
  StreamedWalks streamed = StreamWalks(args.connection, args.timeout_s, walks, options);
  if (!streamed.status.ok()) return streamed.status;
  std::vector<LegPrice> prices(walks.size());
  for (std::size_t i = 0; i < walks.size(); ++i) {
    if (!streamed.answers[i]) {
      return absl::InternalError(absl::StrCat("pair ", i, " was never answered"));
    }
    prices[i].walk_found = prices[i].trip_found = streamed.answers[i]->found();
    prices[i].walk_seconds = prices[i].trip_seconds = streamed.answers[i]->seconds;
  }
  return prices;
}

walk::v1::TripRequest TripOf(const walk::v1::WalkRequest& walk, bool hearthstone_ready) {
  walk::v1::TripRequest trip;
  trip.set_world(walk.world());
  *trip.mutable_from() = walk.from();
  *trip.mutable_to() = walk.to();
  trip.set_profile(walk.profile());
  trip.set_band(walk.band());
  trip.set_price_walk(true);
  trip.set_hearthstone_ready(hearthstone_ready);
  return trip;
}

// Streams `trips`; answers[i] answers trips[i], or the error of the stream or of a pair.
absl::StatusOr<std::vector<walk::v1::TripResponse>> AnswerTrips(
    const RoutesArgs& args, const std::vector<walk::v1::TripRequest>& trips,
    const walk::v1::Limits& limits) {
  StreamOptions options;
  options.FitToLimits(limits);
  StreamedTrips streamed =
      StreamTrips(args.connection, args.timeout_s, trips, nullptr, options.message_pairs);
  if (!streamed.status.ok()) return streamed.status;
  std::vector<walk::v1::TripResponse> answers(trips.size());
  for (std::size_t i = 0; i < trips.size(); ++i) {
    if (!streamed.answers[i]) {
      return absl::InternalError(absl::StrCat("trip ", i, " was never answered"));
    }
    if (streamed.answers[i]->code != 0) {
      return absl::Status(static_cast<absl::StatusCode>(streamed.answers[i]->code),
                          absl::StrCat("trip ", i, ": ", streamed.answers[i]->message));
    }
    answers[i] = std::move(streamed.answers[i]->trip);
  }
  return answers;
}

// Streams every pair as a trip (hearthstone ready), then again without the hearthstone those
// whose trip cast it.
absl::StatusOr<std::vector<LegPrice>> PriceByTrips(const RoutesArgs& args,
                                                   const std::vector<walk::v1::WalkRequest>& walks,
                                                   const walk::v1::Limits& limits) {
  std::vector<walk::v1::TripRequest> trips;
  for (const walk::v1::WalkRequest& walk : walks) trips.push_back(TripOf(walk, true));
  absl::StatusOr<std::vector<walk::v1::TripResponse>> ready = AnswerTrips(args, trips, limits);
  if (!ready.ok()) return ready.status();
  std::vector<LegPrice> prices(walks.size());
  std::vector<std::size_t> cast;
  trips.clear();
  for (std::size_t i = 0; i < walks.size(); ++i) {
    const walk::v1::TripResponse& trip = (*ready)[i];
    LegPrice& price = prices[i];
    price.walk_found = trip.walk_status() == walk::v1::WALK_STATUS_OK;
    price.walk_seconds = trip.walk_seconds();
    price.trip_found = trip.status() == walk::v1::TRIP_STATUS_OK;
    price.trip_seconds = trip.seconds();
    price.rode = trip.rode();
    price.hearthstone = trip.hearthstone_used();
    price.cooldown_after = trip.hearthstone_cooldown_left_seconds();
    if (price.hearthstone) {
      cast.push_back(i);
      trips.push_back(TripOf(walks[i], false));
    }
  }
  absl::StatusOr<std::vector<walk::v1::TripResponse>> spent = AnswerTrips(args, trips, limits);
  if (!spent.ok()) return spent.status();
  for (std::size_t k = 0; k < cast.size(); ++k) {
    LegPrice& price = prices[cast[k]];
    price.spent_found = (*spent)[k].status() == walk::v1::TRIP_STATUS_OK;
    price.spent_seconds = (*spent)[k].seconds();
    price.spent_rode = (*spent)[k].rode();
  }
  return prices;
}

// A route priced in its given order and in its improved one.
struct PricedRoute {
  double seconds = 0.0;            // in the given order
  std::vector<std::size_t> order;  // the improved order of its stops
  double improved_seconds = 0.0;
  std::uint64_t fallback_legs = 0;  // legs of the improved order that had no walk or trip
  std::uint64_t ridden_legs = 0;    // legs of the improved order that ride
  std::uint64_t hearthstones = 0;   // casts along the improved order
  double walk_seconds = 0.0;        // the best order by walks alone
};

// A route's legs: the price of each ordered pair of its stops, and the fallback for none.
struct RouteLegs {
  std::vector<std::vector<const LegPrice*>> price;
  SecondsMatrix fallback;  // the straight line x the detour factor, at running pace
};

RouteLegs LegsOf(const Route& route, const RouteWalks& walks, const std::vector<LegPrice>& prices,
                 double detour) {
  const std::size_t n = route.stops.size();
  RouteLegs legs;
  legs.price.assign(n, std::vector<const LegPrice*>(n, nullptr));
  legs.fallback.assign(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      legs.price[i][j] =
          &prices[walks.index.at(KeyOf(route.band, route.stops[i].place, route.stops[j].place))];
      const double dx = route.stops[i].place.x_yards() - route.stops[j].place.x_yards();
      const double dy = route.stops[i].place.y_yards() - route.stops[j].place.y_yards();
      legs.fallback[i][j] = std::hypot(dx, dy) * detour / kRunYardsPerSecond;
    }
  }
  return legs;
}

// Follows `order`, casting the hearthstone on each leg whose trip casts it once it is ready
// again; counts rides, casts and fallbacks into `priced` (not null), and returns the route's
// seconds.
double FollowRoute(const RouteLegs& legs, const std::vector<std::size_t>& order,
                   PricedRoute* priced) {
  double at = 0.0, ready_at = 0.0;
  for (std::size_t k = 1; k < order.size(); ++k) {
    const LegPrice& p = *legs.price[order[k - 1]][order[k]];
    bool found = p.trip_found, rode = p.rode;
    double seconds = p.trip_seconds;
    if (p.hearthstone && at >= ready_at) {
      ready_at = at + p.trip_seconds + p.cooldown_after;
      ++priced->hearthstones;
    } else if (p.hearthstone) {  // still on cooldown: the trip without it
      found = p.spent_found, rode = p.spent_rode, seconds = p.spent_seconds;
    }
    if (!found) seconds = legs.fallback[order[k - 1]][order[k]];
    priced->fallback_legs += found ? 0 : 1;
    priced->ridden_legs += rode ? 1 : 0;
    at += seconds;
  }
  return at;
}

PricedRoute PriceRoute(const Route& route, const RouteWalks& walks,
                       const std::vector<LegPrice>& prices, double detour) {
  const std::size_t n = route.stops.size();
  const RouteLegs legs = LegsOf(route, walks, prices, detour);
  SecondsMatrix by_walk(n, std::vector<double>(n, 0.0)), by_trip = by_walk;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const LegPrice& p = *legs.price[i][j];
      by_walk[i][j] = p.walk_found ? p.walk_seconds : legs.fallback[i][j];
      const bool found = p.hearthstone ? p.spent_found : p.trip_found;
      by_trip[i][j] =
          found ? (p.hearthstone ? p.spent_seconds : p.trip_seconds) : legs.fallback[i][j];
    }
  }
  std::vector<std::size_t> given(n);
  for (std::size_t i = 0; i < n; ++i) given[i] = i;
  std::vector<bool> free(n);
  for (std::size_t i = 0; i < n; ++i) free[i] = route.stops[i].free;
  // The order is improved without the hearthstone, whose cooldown ties legs together; it is
  // then cast along that order wherever it saves time. The given order stays when that is
  // cheaper.
  PricedRoute given_route, improved_route;
  given_route.order = given;
  improved_route.order = ImproveOrder(by_trip, free);
  const double seconds = FollowRoute(legs, given, &given_route);
  const double improved = FollowRoute(legs, improved_route.order, &improved_route);
  PricedRoute priced = improved < seconds ? improved_route : given_route;
  priced.seconds = seconds;
  priced.improved_seconds = std::min(seconds, improved);
  priced.walk_seconds = RouteSeconds(by_walk, ImproveOrder(by_walk, free));
  return priced;
}

// The route's output line (docs/routes.md).
std::string RouteLine(const Route& route, const PricedRoute& priced, bool trips) {
  nlohmann::ordered_json line;
  line["id"] = route.id;
  line["band"] = route.band;
  line["seconds"] = priced.seconds;
  nlohmann::json order = nlohmann::json::array();
  for (std::size_t k : priced.order) order.push_back(route.stops[k].name);
  line["improved_order"] = order;
  line["improved_seconds"] = priced.improved_seconds;
  line["saved_seconds"] = priced.seconds - priced.improved_seconds;
  line["fallback_legs"] = priced.fallback_legs;
  if (trips) {
    line["ridden_legs"] = priced.ridden_legs;
    line["hearthstones"] = priced.hearthstones;
    line["walk_seconds"] = priced.walk_seconds;
    line["trip_saved_seconds"] = priced.walk_seconds - priced.improved_seconds;
  }
  return line.dump();
}

// Whether legs go as trips: --trips on or off, or, for auto, whether Info lists a travel
// network for the world.
bool UseTrips(const RoutesArgs& args, const walk::v1::InfoResponse& info,
              const std::string& world) {
  if (args.trips == "on") return true;
  if (args.trips == "off") return false;
  for (const walk::v1::WorldInfo& w : info.worlds()) {
    if (w.name() == world) return w.has_travel() && w.travel().error().empty();
  }
  return false;
}

}  // namespace

int RunRoutes(const RoutesArgs& args) {
  absl::StatusOr<RoutesFile> file = ReadRoutes(args.routes_path);
  if (!file.ok()) {
    std::cerr << "walkctl: " << file.status().message() << "\n";
    return 2;
  }
  const RouteWalks walks = CollectWalks(*file);
  // walkd's worlds (for --trips auto) and limits (how many pairs a message may carry).
  walk::v1::InfoResponse info;
  if (const grpc::Status status = WalkClient(args.connection, 30.0).Info(&info); !status.ok()) {
    std::cerr << "walkctl: Info: " << status.error_message() << "\n";
    return 3;
  }
  const bool trips = UseTrips(args, info, file->world);
  absl::StatusOr<std::vector<LegPrice>> prices =
      trips ? PriceByTrips(args, walks.walks, info.limits())
            : PriceByWalks(args, walks.walks, info.limits());
  if (!prices.ok()) {
    std::cerr << "walkctl: " << prices.status().message() << "\n";
    return 3;
  }

  std::ofstream out_file;
  if (!args.out_path.empty()) out_file.open(args.out_path, std::ios::trunc);
  std::ostream& out = args.out_path.empty() ? std::cout : out_file;
  std::uint64_t fallbacks_total = 0, ridden_total = 0, hearthstones_total = 0;
  double saved_total = 0.0, trip_saved_total = 0.0;
  for (const Route& route : file->routes) {
    const PricedRoute priced = PriceRoute(route, walks, *prices, file->detour);
    fallbacks_total += priced.fallback_legs;
    ridden_total += priced.ridden_legs;
    hearthstones_total += priced.hearthstones;
    saved_total += priced.seconds - priced.improved_seconds;
    trip_saved_total += priced.walk_seconds - priced.improved_seconds;
    out << RouteLine(route, priced, trips) << "\n";
  }
  nlohmann::ordered_json summary;
  summary["summary"] = {{"routes", file->routes.size()},
                        {"pairs_asked", walks.asked},
                        {"pairs_streamed", walks.walks.size()},
                        {"fallback_legs", fallbacks_total},
                        {"saved_seconds", saved_total}};
  if (trips) {
    summary["summary"]["trips"] = true;
    summary["summary"]["ridden_legs"] = ridden_total;
    summary["summary"]["hearthstones"] = hearthstones_total;
    summary["summary"]["trip_saved_seconds"] = trip_saved_total;
  }
  out << summary.dump() << "\n";
  return 0;
}

}  // namespace walk::client
