#include "server/trip_convert.h"

#include "server/proto_convert.h"

namespace walk::server {
namespace {

void PlaceToProto(const nav::Place& place, walk::v1::Place* out) {
  out->set_continent(place.continent);
  out->set_x_yards(place.x_yards);
  out->set_y_yards(place.y_yards);
  if (place.z_yards) out->set_z_yards(*place.z_yards);
}

walk::v1::TripLegKind LegKindToProto(const nav::TripLeg& leg) {
  switch (leg.kind) {
    case nav::TripLegKind::kWalk:
      return walk::v1::TRIP_LEG_KIND_WALK;
    case nav::TripLegKind::kWait:
      return walk::v1::TRIP_LEG_KIND_WAIT;
    case nav::TripLegKind::kHearthstone:
      return walk::v1::TRIP_LEG_KIND_HEARTHSTONE;
    case nav::TripLegKind::kRide:
      break;
  }
  switch (leg.ride) {
    case nav::RideKind::kFlight:
      return walk::v1::TRIP_LEG_KIND_FLIGHT;
    case nav::RideKind::kBoat:
      return walk::v1::TRIP_LEG_KIND_BOAT;
    case nav::RideKind::kZeppelin:
      return walk::v1::TRIP_LEG_KIND_ZEPPELIN;
    case nav::RideKind::kTram:
      return walk::v1::TRIP_LEG_KIND_TRAM;
    case nav::RideKind::kPortal:
      return walk::v1::TRIP_LEG_KIND_PORTAL;
  }
  return walk::v1::TRIP_LEG_KIND_UNSPECIFIED;
}

}  // namespace

TripQuery ToTripQuery(const walk::v1::TripRequest& request) {
  TripQuery query;
  query.world = request.world();
  if (request.has_from()) query.from = ToPlace(request.from());
  if (request.has_to()) query.to = ToPlace(request.to());
  query.profile = request.profile();
  query.band = request.band();
  if (request.has_hearthstone_ready()) query.hearthstone_ready = request.hearthstone_ready();
  query.hearthstone_cooldown_left_seconds = request.hearthstone_cooldown_left_seconds();
  query.price_walk = request.price_walk();
  return query;
}

void ToProto(const TripResult& result, walk::v1::TripResponse* out) {
  const nav::Trip& trip = result.trip;
  out->set_status(trip.found ? walk::v1::TRIP_STATUS_OK : walk::v1::TRIP_STATUS_NO_TRIP);
  out->set_band(result.band);
  out->set_model_id(nav::FormatId(result.model));
  out->set_walks_priced(trip.walks_priced);
  out->set_walks_stored(result.walks_stored);
  if (trip.walk) {
    out->set_walk_status(trip.walk->found ? walk::v1::WALK_STATUS_OK
                                          : walk::v1::WALK_STATUS_NO_WALK);
    if (trip.walk->found) out->set_walk_seconds(trip.walk->seconds);
  }
  out->set_hearthstone_cooldown_left_seconds(result.hearthstone_cooldown_left_seconds);
  if (!trip.found) return;
  out->set_seconds(trip.seconds);
  out->set_yards(trip.yards);
  out->set_rode(trip.rode);
  out->set_hearthstone_used(trip.hearthstone_used);
  for (const nav::TripLeg& leg : trip.legs) {
    walk::v1::TripLeg* to = out->add_legs();
    to->set_kind(LegKindToProto(leg));
    to->set_from_node(result.node_ids[leg.from_point]);
    to->set_to_node(result.node_ids[leg.to_point]);
    PlaceToProto(result.places[leg.from_point], to->mutable_from());
    PlaceToProto(result.places[leg.to_point], to->mutable_to());
    to->set_seconds(leg.seconds);
    to->set_yards(leg.yards);
    to->set_stored(leg.stored);
  }
}

void TravelToProto(const ServedWorld& world, walk::v1::WorldInfo* out) {
  if (world.travel == nullptr && world.travel_error.empty()) return;
  walk::v1::TravelInfo* info = out->mutable_travel();
  info->set_error(world.travel_error);
  info->set_source(world.travel_source);
  if (world.travel == nullptr) return;
  const nav::TravelNetwork& network = *world.travel;
  info->set_nodes(static_cast<std::uint32_t>(network.nodes.size()));
  std::uint32_t placed = 0;
  for (const nav::TravelNode& node : network.nodes) placed += node.placed ? 1 : 0;
  info->set_nodes_placed(placed);
  info->set_edges(static_cast<std::uint32_t>(network.edge_count));
  info->set_rides(static_cast<std::uint32_t>(network.rides.size()));
  for (const nav::Hearthstone& stone : network.hearthstones) {
    info->add_hearthstone_profiles(stone.profile);
  }
}

}  // namespace walk::server
