#include "client/walkctl_trip.h"

#include <cctype>
#include <cstdio>
#include <iostream>

#include "client/walk_client.h"

namespace walk::client {
namespace {

// "flight" for TRIP_LEG_KIND_FLIGHT.
std::string LegName(walk::v1::TripLegKind kind) {
  std::string name = walk::v1::TripLegKind_Name(kind);
  name = name.substr(std::string("TRIP_LEG_KIND_").size());
  for (char& c : name) c = static_cast<char>(std::tolower(c));
  return name;
}

std::string Where(const std::string& node, const walk::v1::Place& place) {
  char text[96];
  std::snprintf(text, sizeof text, "%.1f,%.1f", place.x_yards(), place.y_yards());
  return node.empty() ? text : node + " (" + text + ")";
}

}  // namespace

void PrintTrip(const walk::v1::TripResponse& trip) {
  if (trip.status() != walk::v1::TRIP_STATUS_OK) {
    std::printf("%s\n", walk::v1::TripStatus_Name(trip.status()).c_str());
    return;
  }
  std::printf("%s: %.3f seconds, %.3f yards%s%s\n",
              walk::v1::TripStatus_Name(trip.status()).c_str(), trip.seconds(), trip.yards(),
              trip.rode() ? ", rides" : ", walks all the way",
              trip.hearthstone_used() ? ", casts the hearthstone" : "");
  for (const walk::v1::TripLeg& leg : trip.legs()) {
    std::printf("  %-11s %9.3f s %10.3f yd  %s -> %s%s\n", LegName(leg.kind()).c_str(),
                leg.seconds(), leg.yards(), Where(leg.from_node(), leg.from()).c_str(),
                Where(leg.to_node(), leg.to()).c_str(), leg.stored() ? " (stored)" : "");
  }
  if (trip.walk_status() == walk::v1::WALK_STATUS_OK) {
    std::printf("  walking all the way: %.3f seconds (saves %.3f)\n", trip.walk_seconds(),
                trip.walk_seconds() - trip.seconds());
  } else if (trip.walk_status() != walk::v1::WALK_STATUS_UNSPECIFIED) {
    std::printf("  walking all the way: %s\n",
                walk::v1::WalkStatus_Name(trip.walk_status()).c_str());
  }
  std::printf("  %u walks priced, %u of them stored; hearthstone ready in %.0f s\n",
              trip.walks_priced(), trip.walks_stored(), trip.hearthstone_cooldown_left_seconds());
}

void TripArgs::AddTo(CLI::App* command) {
  command->add_option("--world", world, "World name")->capture_default_str();
  command->add_option("--from", from, "Start: x,y or x,y,z yards")->required();
  command->add_option("--to", to, "End: x,y or x,y,z yards")->required();
  command->add_option("--from-continent", from_continent, "Continent id of the start")
      ->capture_default_str();
  command->add_option("--to-continent", to_continent, "Continent id of the end")
      ->capture_default_str();
  command->add_option("--profile", profile, "Profile (default: shortest; see `walkctl info`)");
  command->add_option("--band", band, "Danger band: 0, 10, 20, 30, 40 or 50")
      ->capture_default_str();
  command->add_flag("--no-hearthstone", no_hearthstone, "The hearthstone is on cooldown");
  command
      ->add_option("--cooldown-left-s", cooldown_left_s,
                   "Seconds until the hearthstone is ready (a trip casting it waits)")
      ->capture_default_str();
}

bool TripArgs::Fill(walk::v1::TripRequest* request) const {
  request->set_world(world);
  request->set_profile(profile);
  request->set_band(band);
  request->set_price_walk(price_walk);
  if (no_hearthstone) request->set_hearthstone_ready(false);
  request->set_hearthstone_cooldown_left_seconds(cooldown_left_s);
  auto from_place = ParsePlace(from, from_continent, "--from");
  auto to_place = ParsePlace(to, to_continent, "--to");
  for (const auto* parsed : {&from_place, &to_place}) {
    if (!parsed->ok()) {
      std::cerr << "walkctl: " << parsed->status().message() << "\n";
      return false;
    }
  }
  *request->mutable_from() = *from_place;
  *request->mutable_to() = *to_place;
  return true;
}

}  // namespace walk::client
