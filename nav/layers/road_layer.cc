#include "nav/layers/road_layer.h"

#include "nav/grid/surface.h"

namespace walk::nav {

absl::StatusOr<MarkLayer> ParseRoadLayer(std::string_view text, const std::string& file) {
  absl::StatusOr<std::vector<GeoFeature>> features =
      ParseFeatureCollection(text, file, kGeoAreas | kGeoLines);
  if (!features.ok()) return features.status();
  MarkLayer layer;
  layer.owned_marks = kMarkRoad;
  for (GeoFeature& feature : *features) {
    MarkArea area;
    area.label = feature.Label();
    area.mark = kMarkRoad;
    absl::StatusOr<std::int64_t> continent =
        IntegerProperty(file, feature, "continent", 0, 0xFFFFFFFFll, false, 0);
    if (!continent.ok()) return continent.status();
    area.continent = static_cast<ContinentId>(*continent);
    if (!feature.lines.empty()) {
      absl::StatusOr<double> width =
          NumberProperty(file, feature, "width_yards", 0.0, kMaxRoadWidthYards, true);
      if (!width.ok()) return width.status();
      area.half_width_yards = *width / 2.0;
    }
    area.polygons = std::move(feature.polygons);
    area.lines = std::move(feature.lines);
    layer.areas.push_back(std::move(area));
  }
  return layer;
}

}  // namespace walk::nav
