#include "nav/travel/travel_file.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "nav/grid/number_text.h"
#include "nlohmann/json.hpp"

namespace walk::nav {
namespace {

using Json = nlohmann::json;

const char* FactionText(Faction faction) {
  switch (faction) {
    case Faction::kA:
      return "faction-a";
    case Faction::kB:
      return "faction-b";
    case Faction::kNeutral:
      break;
  }
  return "neutral";
}

// Reads the fields of one object of the file; every error names `where` and the field.
class FieldReader {
 public:
  FieldReader(const Json& object, std::string where) : object_(object), where_(std::move(where)) {}

  absl::Status Error(absl::string_view field, absl::string_view why) const {
    return absl::InvalidArgumentError(absl::StrCat(where_, ".", field, ": ", why));
  }

  absl::StatusOr<std::string> String(const char* field, bool required) const {
    if (!object_.contains(field)) {
      if (required) return Error(field, "required");
      return std::string();
    }
    if (!object_[field].is_string()) return Error(field, "expected a string");
    return object_[field].get<std::string>();
  }

  // A finite number in [low, high]; `fallback` when absent and not required.
  absl::StatusOr<double> Number(const char* field, bool required, double low, double high,
                                double fallback = 0.0) const {
    if (!object_.contains(field)) {
      if (required) return Error(field, "required");
      return fallback;
    }
    if (!object_[field].is_number()) return Error(field, "expected a number");
    const double value = object_[field].get<double>();
    if (!std::isfinite(value) || value < low || value > high) {
      return Error(field, absl::StrCat(NumberText(value), " is out of range [", NumberText(low),
                                       ", ", NumberText(high), "]"));
    }
    return value;
  }

  absl::StatusOr<bool> Bool(const char* field, bool fallback) const {
    if (!object_.contains(field)) return fallback;
    if (!object_[field].is_boolean()) return Error(field, "expected true or false");
    return object_[field].get<bool>();
  }

 private:
  const Json& object_;
  std::string where_;
};

absl::StatusOr<TravelNode> ParseNode(const Json& json, std::size_t i) {
  if (!json.is_object()) {
    return absl::InvalidArgumentError(absl::StrCat("nodes[", i, "]: expected an object"));
  }
  std::string where = absl::StrCat("nodes[", i, "]");
  if (json.contains("id") && json["id"].is_string()) {
    absl::StrAppend(&where, " (\"", json["id"].get<std::string>(), "\")");
  }
  const FieldReader read(json, where);
  TravelNode node;
  absl::StatusOr<std::string> id = read.String("id", true);
  if (!id.ok()) return id.status();
  if (id->empty()) return read.Error("id", "must not be empty");
  node.id = *id;
  absl::StatusOr<std::string> name = read.String("name", false);
  if (!name.ok()) return name.status();
  node.name = *name;
  absl::StatusOr<double> continent = read.Number("continent", false, 0, 4294967295.0);
  absl::StatusOr<double> x = read.Number("x", true, -1e8, 1e8);
  absl::StatusOr<double> y = read.Number("y", true, -1e8, 1e8);
  for (const auto* value : {&continent, &x, &y}) {
    if (!value->ok()) return value->status();
  }
  if (*continent != std::floor(*continent)) return read.Error("continent", "expected an integer");
  node.place.continent = static_cast<ContinentId>(*continent);
  node.place.x_yards = *x;
  node.place.y_yards = *y;
  if (json.contains("z")) {
    absl::StatusOr<double> z = read.Number("z", true, -1e6, 1e6);
    if (!z.ok()) return z.status();
    node.place.z_yards = *z;
  }
  absl::StatusOr<std::string> faction = read.String("faction", false);
  if (!faction.ok()) return faction.status();
  if (*faction == "faction-a") {
    node.faction = Faction::kA;
  } else if (*faction == "faction-b") {
    node.faction = Faction::kB;
  } else if (!faction->empty() && *faction != "neutral") {
    return read.Error(
        "faction", absl::StrCat("\"", *faction, "\" is not one of neutral, faction-a, faction-b"));
  }
  return node;
}

// Parses edges[i] into one ride, or two when it goes both ways.
using NodeIndex = std::unordered_map<std::string, std::uint32_t>;

absl::Status ParseEdge(const Json& json, std::size_t i, const NodeIndex& nodes,
                       TravelNetwork* network) {
  if (!json.is_object()) {
    return absl::InvalidArgumentError(absl::StrCat("edges[", i, "]: expected an object"));
  }
  std::string where = absl::StrCat("edges[", i, "]");
  if (json.contains("kind") && json.contains("from") && json.contains("to") &&
      json["kind"].is_string() && json["from"].is_string() && json["to"].is_string()) {
    absl::StrAppend(&where, " (", json["kind"].get<std::string>(), " ",
                    json["from"].get<std::string>(), " -> ", json["to"].get<std::string>(), ")");
  }
  const FieldReader read(json, where);
  absl::StatusOr<std::string> kind_name = read.String("kind", true);
  if (!kind_name.ok()) return kind_name.status();
  const std::optional<RideKind> kind = FindRideKind(*kind_name);
  if (!kind) {
    return read.Error(
        "kind",
        absl::StrCat("\"", *kind_name, "\" is not one of flight, boat, zeppelin, tram, portal"));
  }
  TravelRide ride;
  ride.kind = *kind;
  ride.edge = static_cast<std::uint32_t>(i);
  for (const char* end : {"from", "to"}) {
    absl::StatusOr<std::string> id = read.String(end, true);
    if (!id.ok()) return id.status();
    const auto node = nodes.find(*id);
    if (node == nodes.end()) return read.Error(end, absl::StrCat("no node \"", *id, "\""));
    (end[0] == 'f' ? ride.from : ride.to) = node->second;
  }
  if (ride.from == ride.to) return read.Error("to", "a ride must go to another node");
  const bool waits =
      *kind == RideKind::kBoat || *kind == RideKind::kZeppelin || *kind == RideKind::kTram;
  if (waits) {
    absl::StatusOr<double> wait = read.Number("wait_seconds", true, 0, kMaxTravelSeconds);
    absl::StatusOr<double> seconds = read.Number("ride_seconds", true, 0, kMaxTravelSeconds);
    if (!wait.ok()) return wait.status();
    if (!seconds.ok()) return seconds.status();
    ride.wait_seconds = *wait;
    ride.ride_seconds = *seconds;
  } else {
    if (json.contains("wait_seconds")) {
      return read.Error("wait_seconds", absl::StrCat("a ", *kind_name, " has no wait"));
    }
    absl::StatusOr<double> seconds = read.Number("seconds", true, 0, kMaxTravelSeconds);
    if (!seconds.ok()) return seconds.status();
    ride.ride_seconds = *seconds;
  }
  const bool portal = *kind == RideKind::kPortal;
  absl::StatusOr<bool> both_ways = read.Bool("both_ways", !portal);
  if (!both_ways.ok()) return both_ways.status();
  if (portal && *both_ways) return read.Error("both_ways", "a portal goes one way only");
  network->rides.push_back(ride);
  if (*both_ways) {
    std::swap(ride.from, ride.to);
    network->rides.push_back(ride);
  }
  return absl::OkStatus();
}

absl::StatusOr<Hearthstone> ParseHearthstone(const Json& json, std::size_t i,
                                             const TravelNetwork& network) {
  if (!json.is_object()) {
    return absl::InvalidArgumentError(absl::StrCat("hearthstones[", i, "]: expected an object"));
  }
  const FieldReader read(json, absl::StrCat("hearthstones[", i, "]"));
  Hearthstone stone;
  absl::StatusOr<std::string> profile = read.String("profile", true);
  if (!profile.ok()) return profile.status();
  const Profile* known = FindProfile(*profile);
  if (profile->empty() || known == nullptr) {
    return read.Error("profile", absl::StrCat("\"", *profile, "\" is not a known profile"));
  }
  if (network.HearthstoneOf(*profile) != nullptr) {
    return read.Error("profile", absl::StrCat("\"", *profile, "\" has a hearthstone already"));
  }
  stone.profile = *profile;
  absl::StatusOr<std::string> bind = read.String("bind", true);
  if (!bind.ok()) return bind.status();
  const std::optional<std::uint32_t> node = network.FindNode(*bind);
  if (!node) return read.Error("bind", absl::StrCat("no node \"", *bind, "\""));
  if (!MayUse(*known, network.nodes[*node])) {
    return read.Error(
        "bind", absl::StrCat("node \"", *bind, "\" is of a faction ", *profile, " may not use"));
  }
  stone.bind = *node;
  absl::StatusOr<double> cast = read.Number("cast_seconds", false, 0, kMaxTravelSeconds, 10.0);
  absl::StatusOr<double> cooldown =
      read.Number("cooldown_seconds", false, 0, kMaxTravelSeconds, 3600.0);
  if (!cast.ok()) return cast.status();
  if (!cooldown.ok()) return cooldown.status();
  stone.cast_seconds = *cast;
  stone.cooldown_seconds = *cooldown;
  return stone;
}

// The array `field` of `doc` (empty when absent), or INVALID_ARGUMENT.
absl::StatusOr<const Json*> ArrayOf(const Json& doc, const char* field, std::size_t limit) {
  static const Json kEmpty = Json::array();
  if (!doc.contains(field)) return &kEmpty;
  if (!doc[field].is_array()) {
    return absl::InvalidArgumentError(absl::StrCat(field, ": expected an array"));
  }
  if (doc[field].size() > limit) {
    return absl::InvalidArgumentError(absl::StrCat(field, ": ", doc[field].size(),
                                                   " entries, more than the ", limit, " allowed"));
  }
  return &doc[field];
}

}  // namespace

absl::StatusOr<TravelNetwork> ParseTravel(absl::string_view text) {
  const Json doc = Json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return absl::InvalidArgumentError("expected a JSON object with \"nodes\" (docs/formats.md)");
  }
  absl::StatusOr<const Json*> nodes = ArrayOf(doc, "nodes", kMaxTravelNodes);
  absl::StatusOr<const Json*> edges = ArrayOf(doc, "edges", kMaxTravelEdges);
  absl::StatusOr<const Json*> stones = ArrayOf(doc, "hearthstones", 64);
  for (const auto* array : {&nodes, &edges, &stones}) {
    if (!array->ok()) return array->status();
  }
  TravelNetwork network;
  NodeIndex ids;
  for (std::size_t i = 0; i < (*nodes)->size(); ++i) {
    absl::StatusOr<TravelNode> node = ParseNode((**nodes)[i], i);
    if (!node.ok()) return node.status();
    if (!ids.emplace(node->id, static_cast<std::uint32_t>(i)).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("nodes[", i, "].id: \"", node->id, "\" is used twice"));
    }
    network.nodes.push_back(*std::move(node));
  }
  for (std::size_t i = 0; i < (*edges)->size(); ++i) {
    if (absl::Status parsed = ParseEdge((**edges)[i], i, ids, &network); !parsed.ok())
      return parsed;
  }
  network.edge_count = (*edges)->size();
  for (std::size_t i = 0; i < (*stones)->size(); ++i) {
    absl::StatusOr<Hearthstone> stone = ParseHearthstone((**stones)[i], i, network);
    if (!stone.ok()) return stone.status();
    network.hearthstones.push_back(*std::move(stone));
  }
  return network;
}

absl::StatusOr<TravelNetwork> ReadTravelFile(const std::string& path) {
  std::error_code ec;
  const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
  if (ec) return absl::NotFoundError(absl::StrCat(path, ": no such file"));
  if (bytes > kMaxTravelFileBytes) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", bytes, " bytes, more than the ",
                                                   kMaxTravelFileBytes, " a travel file may hold"));
  }
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot be read"));
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<TravelNetwork> network = ParseTravel(text.str());
  if (!network.ok()) {
    return absl::Status(network.status().code(),
                        absl::StrCat(path, ": ", network.status().message()));
  }
  return network;
}

std::string TravelText(const TravelNetwork& network) {
  nlohmann::ordered_json doc;
  doc["nodes"] = Json::array();
  for (const TravelNode& node : network.nodes) {
    nlohmann::ordered_json json;
    json["id"] = node.id;
    if (!node.name.empty()) json["name"] = node.name;
    json["continent"] = node.place.continent;
    json["x"] = node.place.x_yards;
    json["y"] = node.place.y_yards;
    if (node.place.z_yards) json["z"] = std::round(*node.place.z_yards * 100) / 100;
    json["faction"] = FactionText(node.faction);
    doc["nodes"].push_back(json);
  }
  doc["edges"] = Json::array();
  for (std::size_t r = 0; r < network.rides.size(); ++r) {
    const TravelRide& ride = network.rides[r];
    const bool both_ways = r + 1 < network.rides.size() && network.rides[r + 1].edge == ride.edge;
    nlohmann::ordered_json json;
    json["kind"] = RideKindName(ride.kind);
    json["from"] = network.nodes[ride.from].id;
    json["to"] = network.nodes[ride.to].id;
    if (ride.kind == RideKind::kFlight || ride.kind == RideKind::kPortal) {
      json["seconds"] = ride.ride_seconds;
    } else {
      json["wait_seconds"] = ride.wait_seconds;
      json["ride_seconds"] = ride.ride_seconds;
    }
    if (ride.kind != RideKind::kPortal) json["both_ways"] = both_ways;
    doc["edges"].push_back(json);
    if (both_ways) ++r;
  }
  doc["hearthstones"] = Json::array();
  for (const Hearthstone& stone : network.hearthstones) {
    nlohmann::ordered_json json;
    json["profile"] = stone.profile;
    json["bind"] = network.nodes[stone.bind].id;
    json["cast_seconds"] = stone.cast_seconds;
    json["cooldown_seconds"] = stone.cooldown_seconds;
    doc["hearthstones"].push_back(json);
  }
  return doc.dump(1) + "\n";
}

}  // namespace walk::nav
