#include "client/walkctl_routes.h"

#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <tuple>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "client/route_order.h"
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

// Streams `walks` through walkd; answers[i] answers walks[i]. UNAVAILABLE and the like when the
// stream failed; INTERNAL when a pair was never answered.
absl::StatusOr<std::vector<PairAnswer>> AnswerWalks(
    const RoutesArgs& args, const std::vector<walk::v1::WalkRequest>& walks) {
  StreamedWalks streamed = StreamWalks(args.connection, args.timeout_s, walks);
  if (!streamed.status.ok()) return streamed.status;
  std::vector<PairAnswer> answers(walks.size());
  for (std::size_t i = 0; i < walks.size(); ++i) {
    if (!streamed.answers[i]) {
      return absl::InternalError(absl::StrCat("pair ", i, " was never answered"));
    }
    answers[i] = std::move(*streamed.answers[i]);
  }
  return answers;
}

// A route priced in its given order and in its improved one.
struct PricedRoute {
  double seconds = 0.0;            // in the given order
  std::vector<std::size_t> order;  // the improved order of its stops
  double improved_seconds = 0.0;
  std::uint64_t fallback_legs = 0;  // legs of the improved order that had no walk
};

PricedRoute PriceRoute(const Route& route, const RouteWalks& walks,
                       const std::vector<PairAnswer>& answers, double detour) {
  const std::size_t n = route.stops.size();
  SecondsMatrix seconds(n, std::vector<double>(n, 0.0));
  std::vector<std::vector<bool>> fallback(n, std::vector<bool>(n, false));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const auto& answer =
          answers[walks.index.at(KeyOf(route.band, route.stops[i].place, route.stops[j].place))];
      if (answer.found()) {
        seconds[i][j] = answer.seconds;
      } else {  // no walk: the straight line times the detour factor, at running pace
        const double dx = route.stops[i].place.x_yards() - route.stops[j].place.x_yards();
        const double dy = route.stops[i].place.y_yards() - route.stops[j].place.y_yards();
        seconds[i][j] = std::hypot(dx, dy) * detour / kRunYardsPerSecond;
        fallback[i][j] = true;
      }
    }
  }
  std::vector<std::size_t> given(n);
  for (std::size_t i = 0; i < n; ++i) given[i] = i;
  std::vector<bool> free(n);
  for (std::size_t i = 0; i < n; ++i) free[i] = route.stops[i].free;
  PricedRoute priced;
  priced.order = ImproveOrder(seconds, free);
  priced.seconds = RouteSeconds(seconds, given);
  priced.improved_seconds = RouteSeconds(seconds, priced.order);
  for (std::size_t k = 1; k < n; ++k) {
    priced.fallback_legs += fallback[priced.order[k - 1]][priced.order[k]] ? 1 : 0;
  }
  return priced;
}

// The route's output line (docs/routes.md).
std::string RouteLine(const Route& route, const PricedRoute& priced) {
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
  return line.dump();
}

}  // namespace

int RunRoutes(const RoutesArgs& args) {
  absl::StatusOr<RoutesFile> file = ReadRoutes(args.routes_path);
  if (!file.ok()) {
    std::cerr << "walkctl: " << file.status().message() << "\n";
    return 2;
  }
  const RouteWalks walks = CollectWalks(*file);
  absl::StatusOr<std::vector<PairAnswer>> answers = AnswerWalks(args, walks.walks);
  if (!answers.ok()) {
    std::cerr << "walkctl: " << answers.status().message() << "\n";
    return 3;
  }

  std::ofstream out_file;
  if (!args.out_path.empty()) out_file.open(args.out_path, std::ios::trunc);
  std::ostream& out = args.out_path.empty() ? std::cout : out_file;
  std::uint64_t fallbacks_total = 0;
  double saved_total = 0.0;
  for (const Route& route : file->routes) {
    const PricedRoute priced = PriceRoute(route, walks, *answers, file->detour);
    fallbacks_total += priced.fallback_legs;
    saved_total += priced.seconds - priced.improved_seconds;
    out << RouteLine(route, priced) << "\n";
  }
  nlohmann::ordered_json summary;
  summary["summary"] = {{"routes", file->routes.size()},
                        {"pairs_asked", walks.asked},
                        {"pairs_streamed", walks.walks.size()},
                        {"fallback_legs", fallbacks_total},
                        {"saved_seconds", saved_total}};
  out << summary.dump() << "\n";
  return 0;
}

}  // namespace walk::client
