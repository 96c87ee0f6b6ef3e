// walkctl trip: the cheapest trip between two places, walks joined with the world's travel
// network (docs/api.md, "Trip"), printed leg by leg.
#pragma once

#include <cstdint>
#include <string>

#include "CLI/CLI.hpp"
#include "walk/v1/walk.pb.h"

namespace walk::client {

struct TripArgs {
  std::string world = "default";
  std::string from, to, profile;
  std::uint32_t from_continent = 0, to_continent = 0;
  std::uint32_t band = 0;
  bool no_hearthstone = false;
  double cooldown_left_s = 0.0;
  bool price_walk = true;

  // Adds the trip subcommand's flags to `command`.
  void AddTo(CLI::App* command);
  // Fills `request`, or prints what is wrong and returns false.
  bool Fill(walk::v1::TripRequest* request) const;
};

// Prints a trip leg by leg, and what walking all the way would cost.
void PrintTrip(const walk::v1::TripResponse& trip);

}  // namespace walk::client
