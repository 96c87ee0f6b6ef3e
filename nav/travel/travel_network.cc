#include "nav/travel/travel_network.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nav/grid/content_hash.h"
#include "nav/query/settle.h"
#include "nav/query/snap.h"

namespace walk::nav {

const char* RideKindName(RideKind kind) {
  switch (kind) {
    case RideKind::kFlight:
      return "flight";
    case RideKind::kBoat:
      return "boat";
    case RideKind::kZeppelin:
      return "zeppelin";
    case RideKind::kTram:
      return "tram";
    case RideKind::kPortal:
      return "portal";
  }
  return "?";
}

std::optional<RideKind> FindRideKind(std::string_view name) {
  for (int k = 0; k < kRideKindCount; ++k) {
    const auto kind = static_cast<RideKind>(k);
    if (name == RideKindName(kind)) return kind;
  }
  return std::nullopt;
}

std::optional<std::uint32_t> TravelNetwork::FindNode(std::string_view id) const {
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].id == id) return static_cast<std::uint32_t>(i);
  }
  return std::nullopt;
}

const Hearthstone* TravelNetwork::HearthstoneOf(std::string_view profile) const {
  for (const Hearthstone& h : hearthstones) {
    if (h.profile == profile) return &h;
  }
  return nullptr;
}

std::uint64_t TravelContentHash(const TravelNetwork& network) {
  ContentHasher hasher;
  hasher.AddString("walkd-travel-v2");  // v2: a trip never walks twice in a row
  hasher.AddU64(network.nodes.size());
  for (const TravelNode& node : network.nodes) {
    hasher.AddString(node.id);
    hasher.AddU64(static_cast<std::uint64_t>(node.faction));
    hasher.AddU64(node.placed ? 1 : 0);
    hasher.AddU64(node.place.continent);
    hasher.AddDouble(node.place.x_yards);
    hasher.AddDouble(node.place.y_yards);
    hasher.AddU64(node.place.z_yards.has_value() ? 1 : 0);
    hasher.AddDouble(node.place.z_yards.value_or(0.0));
  }
  hasher.AddU64(network.rides.size());
  for (const TravelRide& ride : network.rides) {
    hasher.AddU64(static_cast<std::uint64_t>(ride.kind));
    hasher.AddU64(ride.from);
    hasher.AddU64(ride.to);
    hasher.AddDouble(ride.wait_seconds);
    hasher.AddDouble(ride.ride_seconds);
  }
  hasher.AddU64(network.hearthstones.size());
  for (const Hearthstone& h : network.hearthstones) {
    hasher.AddString(h.profile);
    hasher.AddU64(h.bind);
    hasher.AddDouble(h.cast_seconds);
    hasher.AddDouble(h.cooldown_seconds);
  }
  return hasher.Finish();
}

bool MayUse(const Profile& profile, const TravelNode& node) {
  return node.faction == Faction::kNeutral || node.faction == profile.faction;
}

bool MaySettle(const Continent& continent, const WorldFrame& frame, const Place& place) {
  Place usual = place;
  usual.z_yards.reset();
  for (const Place& at : {place, usual}) {
    const Snap snap = SnapPlace(continent, frame, at);
    if (snap.status != WalkStatus::kOk) return true;
    if (continent.region_size[snap.end.region] < SettleOptions().large_region_surfaces) return true;
  }
  return false;
}

std::uint32_t WalkRegion(const Continent& continent, const WorldFrame& frame, const Place& place) {
  if (MaySettle(continent, frame, place)) return kAnyRegion;
  Place usual = place;
  usual.z_yards.reset();
  const RegionId region = continent.region[SnapPlace(continent, frame, place).end.surface];
  const RegionId usual_region = continent.region[SnapPlace(continent, frame, usual).end.surface];
  return region == usual_region ? region : kAnyRegion;
}

std::vector<std::string> PlaceNodes(const World& world, TravelNetwork* network) {
  std::vector<std::string> problems;
  for (std::size_t i = 0; i < network->nodes.size(); ++i) {
    TravelNode& node = network->nodes[i];
    node.placed = false;
    const Continent* continent = world.FindContinent(node.place.continent);
    std::string why;
    if (continent == nullptr) {
      why = "the world has no such continent";
    } else {
      const WorldFrame frame = world.FrameOf(*continent);
      const Snap snap = SnapPlace(*continent, frame, node.place);
      if (snap.status == WalkStatus::kOk) {
        node.place.z_yards = snap.end.surface_z_yards;
        node.placed = true;
        node.may_settle = MaySettle(*continent, frame, node.place);
        node.region = WalkRegion(*continent, frame, node.place);
        continue;
      }
      why = snap.status == WalkStatus::kOffMap ? "off the map" : "on no surface";
    }
    problems.push_back(absl::StrFormat(
        "node \"%s\" (nodes[%d]) at %.1f, %.1f on continent %d: %s; its rides are never taken",
        node.id, i, node.place.x_yards, node.place.y_yards, node.place.continent, why));
  }
  network->index = std::make_shared<const TravelIndex>(BuildTravelIndex(*network));
  return problems;
}

}  // namespace walk::nav
