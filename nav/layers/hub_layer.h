// The hubs layer: a GeoJSON FeatureCollection (nav/layers/geojson.h) of Polygon or MultiPolygon
// features, each a town or outpost of one faction, with the properties
//
//   "faction": "A" or "B"; any case, and "faction-a", "faction_a" or "faction a" as well (the
//              profiles' own spelling), so a file written for either reads as meant
//   "name": its name (a string; optional)
//   "continent": the continent it lies on (an integer; optional, 0 when absent)
//
// Every surface of a covered column (column_raster.h) carries kMarkHubA or kMarkHubB; a column
// inside hubs of both factions carries both marks (and is hostile to both). The layer replaces
// every hub the world had (mark_layer.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "nav/layers/mark_layer.h"

namespace walk::nav {

// kMarkHubA or kMarkHubB for a faction's spelling (above), or nullopt.
std::optional<std::uint8_t> HubMarkOf(std::string_view faction);

// Parses a hubs layer; `file` names it in errors. INVALID_ARGUMENT naming the file, the feature
// and the property (`hubs.geojson: feature 1 ("Eastwatch"): properties.faction: must be "A" or
// "B"`).
absl::StatusOr<MarkLayer> ParseHubLayer(std::string_view text, const std::string& file);

}  // namespace walk::nav
