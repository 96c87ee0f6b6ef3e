#include "client/walkctl_routes.h"

#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <tuple>

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

}  // namespace

int RunRoutes(const RoutesArgs& args) {
  std::ifstream in(args.routes_path);
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("routes") ||
      !doc["routes"].is_array()) {
    std::cerr << "walkctl: " << args.routes_path
              << ": expected a JSON object with \"routes\" (docs/routes.md)\n";
    return 2;
  }
  const std::string world = doc.value("world", "default");
  const std::string profile = doc.value("profile", "");
  const double detour = doc.value("detour_factor", 1.3);
  std::vector<Route> routes;
  for (std::size_t r = 0; r < doc["routes"].size(); ++r) {
    const auto& json = doc["routes"][r];
    Route route;
    route.id = json.value("id", std::to_string(r));
    route.band = BandOfLevel(json.value("level", 0.0));
    if (!json.contains("stops") || !json["stops"].is_array() || json["stops"].size() < 2) {
      std::cerr << "walkctl: routes[" << r << "].stops: at least two stops\n";
      return 2;
    }
    for (std::size_t s = 0; s < json["stops"].size(); ++s) {
      const auto& stop_json = json["stops"][s];
      const auto& at = stop_json.value("at", nlohmann::json());
      if (!at.is_array() || at.size() < 2 || at.size() > 3) {
        std::cerr << "walkctl: routes[" << r << "].stops[" << s
                  << "].at: expected [x, y] or [x, y, z]\n";
        return 2;
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
    routes.push_back(std::move(route));
  }

  // Every ordered pair of stops a route may use (all of them, for reordering), deduplicated.
  std::map<PairKey, std::size_t> index;
  std::vector<walk::v1::WalkRequest> walks;
  std::size_t asked = 0;
  for (const Route& route : routes) {
    for (const Stop& a : route.stops) {
      for (const Stop& b : route.stops) {
        if (&a == &b) continue;
        ++asked;
        const PairKey key = KeyOf(route.band, a.place, b.place);
        if (index.count(key)) continue;
        index[key] = walks.size();
        walk::v1::WalkRequest walk;
        walk.set_world(world);
        walk.set_profile(profile);
        walk.set_band(route.band);
        *walk.mutable_from() = a.place;
        *walk.mutable_to() = b.place;
        walks.push_back(std::move(walk));
      }
    }
  }
  StreamedWalks streamed = StreamWalks(args.address, args.timeout_s, walks);
  if (!streamed.status.ok()) {
    std::cerr << "walkctl: " << streamed.status.message() << "\n";
    return 3;
  }
  std::vector<PairAnswer> answers_by_index(walks.size());
  for (std::size_t i = 0; i < walks.size(); ++i) {
    if (!streamed.answers[i]) {
      std::cerr << "walkctl: pair " << i << " was never answered\n";
      return 3;
    }
    answers_by_index[i] = std::move(*streamed.answers[i]);
  }
  const auto* answers = &answers_by_index;

  std::ofstream file;
  if (!args.out_path.empty()) file.open(args.out_path, std::ios::trunc);
  std::ostream& out = args.out_path.empty() ? std::cout : file;
  std::uint64_t fallbacks_total = 0;
  double saved_total = 0.0;
  for (const Route& route : routes) {
    const std::size_t n = route.stops.size();
    SecondsMatrix seconds(n, std::vector<double>(n, 0.0));
    std::vector<std::vector<bool>> fallback(n, std::vector<bool>(n, false));
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        if (i == j) continue;
        const auto& answer =
            (*answers)[index.at(KeyOf(route.band, route.stops[i].place, route.stops[j].place))];
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
    const std::vector<std::size_t> better = ImproveOrder(seconds, free);
    const double before = RouteSeconds(seconds, given), after = RouteSeconds(seconds, better);
    std::uint64_t fallbacks = 0;
    for (std::size_t k = 1; k < n; ++k) fallbacks += fallback[better[k - 1]][better[k]] ? 1 : 0;
    fallbacks_total += fallbacks;
    saved_total += before - after;
    nlohmann::ordered_json line;
    line["id"] = route.id;
    line["band"] = route.band;
    line["seconds"] = before;
    nlohmann::json order = nlohmann::json::array();
    for (std::size_t k : better) order.push_back(route.stops[k].name);
    line["improved_order"] = order;
    line["improved_seconds"] = after;
    line["saved_seconds"] = before - after;
    line["fallback_legs"] = fallbacks;
    out << line.dump() << "\n";
  }
  nlohmann::ordered_json summary;
  summary["summary"] = {{"routes", routes.size()},
                        {"pairs_asked", asked},
                        {"pairs_streamed", walks.size()},
                        {"fallback_legs", fallbacks_total},
                        {"saved_seconds", saved_total}};
  out << summary.dump() << "\n";
  return 0;
}

}  // namespace walk::client
