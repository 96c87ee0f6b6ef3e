// The travel file, `travel.json` beside a world's grid (docs/formats.md, "travel.json"): read
// with every field checked, and written (the demo world's network).
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nav/travel/travel_network.h"

namespace walk::nav {

// The file's name in a world folder.
inline constexpr char kTravelFileName[] = "travel.json";

// Parses a travel file's text. INVALID_ARGUMENT naming the node or edge and the field
// ("edges[3] (flight a-1 -> a-9).to: no node \"a-9\""): malformed JSON, a missing or mistyped
// field, an unknown kind, faction or profile, an id used twice, a ride to the node it leaves,
// seconds that are negative, not finite or beyond kMaxTravelSeconds, a portal said to go both
// ways, more than kMaxTravelNodes nodes or kMaxTravelEdges edges. Nodes are not placed.
absl::StatusOr<TravelNetwork> ParseTravel(absl::string_view text);

// The largest travel file read (a real game's network is well under a megabyte).
inline constexpr std::uintmax_t kMaxTravelFileBytes = std::uintmax_t{64} << 20;

// Reads and parses the travel file at `path`: NOT_FOUND when it is missing, INVALID_ARGUMENT
// beyond kMaxTravelFileBytes (unread), else as ParseTravel (messages start with the path).
absl::StatusOr<TravelNetwork> ReadTravelFile(const std::string& path);

// The network as a travel file's text (both-ways edges written once), which ParseTravel reads
// back to an equal network.
std::string TravelText(const TravelNetwork& network);

}  // namespace walk::nav
