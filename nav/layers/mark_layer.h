// What the roads and hubs layers have in common: areas and lines that set an area mark
// (kMarkRoad, kMarkHubA, kMarkHubB: nav/grid/surface.h) on every surface of the columns they
// cover (column_raster.h). A layer owns its marks: laid on a world, it first clears them from
// every surface, so it replaces what the world had (a roads file replaces every road).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nav/grid/grid.h"
#include "nav/layers/geojson.h"

namespace walk::nav {

// One feature of a mark layer.
struct MarkArea {
  std::string label;  // as errors name the feature
  ContinentId continent = 0;
  std::uint8_t mark = 0;             // the AreaMark it sets
  std::vector<GeoPolygon> polygons;  // areas
  std::vector<GeoLine> lines;        // lines, `half_width_yards` either side
  double half_width_yards = 0.0;
};

struct MarkLayer {
  std::uint8_t owned_marks = 0;  // cleared everywhere before the areas are laid
  std::vector<MarkArea> areas;   // in file order
};

// How many columns (with surfaces) carry a mark once laid.
struct MarkColumns {
  std::uint8_t mark = 0;
  std::uint64_t columns = 0;
};

// Lays `layer` on `world` (whose continents it names must exist). Leaves the continents' derived
// arrays to the caller (FinishContinent). Returns the columns of each owned mark, lowest bit
// first.
std::vector<MarkColumns> ApplyMarkLayer(const MarkLayer& layer, World* world);

}  // namespace walk::nav
