// The roads layer: a GeoJSON FeatureCollection (nav/layers/geojson.h) whose features are
//
// - LineString or MultiLineString, with the property "width_yards": the road's width, a number
//   above 0 and at most 1000; it covers the columns whose centres lie within width_yards / 2 of
//   the line (column_raster.h); or
// - Polygon or MultiPolygon: a paved area, covering the columns whose centres lie inside it
//   (width_yards, if given, is not read);
//
// each with an optional "continent" (an integer, 0 when absent). Every surface of a covered
// column carries kMarkRoad; the layer replaces every road the world had (mark_layer.h).
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "nav/layers/mark_layer.h"

namespace walk::nav {

inline constexpr double kMaxRoadWidthYards = 1000.0;

// Parses a roads layer; `file` names it in errors. INVALID_ARGUMENT naming the file, the feature
// and the property (`roads.geojson: feature 0 ("King's Road"): properties.width_yards: must be
// a number above 0 to 1000`).
absl::StatusOr<MarkLayer> ParseRoadLayer(std::string_view text, const std::string& file);

}  // namespace walk::nav
