// The zones layer: a GeoJSON FeatureCollection (nav/layers/geojson.h) of Polygon or MultiPolygon
// features, each with the properties
//
//   "zone": its id, an integer 1..65535 (several features may share one: a zone in pieces)
//   "name": its name (a string; optional, "" when absent)
//   "min_level", "max_level": its level range, integers 0..65535, min_level <= max_level
//   "continent": the continent it lies on (an integer; optional, 0 when absent)
//
// Features sharing a zone id must agree on its name and levels. Laid on a world, the layer
// replaces all of its zones: every surface's zone becomes 0 but in columns an area covers
// (column_raster.h; where areas overlap, the later feature in the file wins), and the world's
// zone list becomes the layer's.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/grid/grid.h"
#include "nav/layers/geojson.h"

namespace walk::nav {

// One feature of a zones layer.
struct ZoneArea {
  std::string label;  // as errors name the feature
  ContinentId continent = 0;
  std::uint16_t zone = 0;
  std::vector<GeoPolygon> polygons;
};

struct ZoneLayer {
  std::vector<Zone> zones;      // sorted by id, each once
  std::vector<ZoneArea> areas;  // in file order
};

// Parses a zones layer; `file` names it in errors. INVALID_ARGUMENT naming the file, the feature
// and the property (`zones.geojson: feature 3 ("Deadwood"): properties.min_level: must be an
// integer 0..65535`).
absl::StatusOr<ZoneLayer> ParseZoneLayer(std::string_view text, const std::string& file);

// How many columns (with surfaces) a zone covers once laid.
struct ZoneColumns {
  std::uint16_t zone = 0;
  std::string name;
  std::uint64_t columns = 0;
};

// Lays `layer` on `world` (whose continents it names must exist), as the top of this file says.
// Leaves the continents' derived arrays to the caller (FinishContinent). Returns the columns of
// each of the layer's zones, by id.
std::vector<ZoneColumns> ApplyZoneLayer(const ZoneLayer& layer, World* world);

}  // namespace walk::nav
