// GeoJSON (RFC 7946) FeatureCollections as the area layers use them: each feature's geometry
// (polygons with their holes, or lines) and its properties, read into plain structs so nothing
// outside geojson.cc sees a JSON type. Coordinates are taken as they stand, in the world's frame
// (x, y yards: nav/grid/world_frame.h), not as longitude and latitude.
//
// Accepted: a top-level {"type": "FeatureCollection", "features": [...]}; each feature
// {"type": "Feature", "geometry": {...}, "properties": {...} or null}; geometries Polygon,
// MultiPolygon, LineString and MultiLineString (which of them a layer takes is its own choice).
// A position is [x, y] or [x, y, z] (z is ignored), finite numbers. A polygon ring needs at least
// 3 positions; repeating the first at the end (as RFC 7946 asks) is allowed, not required. A
// line needs at least 2 positions. Unknown members and properties are ignored.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace walk::nav {

// A point of the world's frame, yards.
struct GeoPoint {
  double x = 0.0;
  double y = 0.0;
};

// A polygon: its outer ring first, then its holes. Inside is where an odd number of its rings
// surround a point (even-odd), so holes need no particular orientation.
struct GeoPolygon {
  std::vector<std::vector<GeoPoint>> rings;  // each ring open: its last point is not its first
};

using GeoLine = std::vector<GeoPoint>;

// A property's value, as the layers check it.
struct GeoValue {
  enum class Kind : std::uint8_t { kNull, kBool, kNumber, kString, kOther };
  Kind kind = Kind::kNull;
  double number = 0.0;    // kNumber
  bool integral = false;  // kNumber with no fraction (5 and 5.0 both)
  bool boolean = false;   // kBool
  std::string text;       // kString
};

// Which geometries a layer takes.
enum GeoShapes : std::uint8_t {
  kGeoAreas = 1 << 0,  // Polygon, MultiPolygon
  kGeoLines = 1 << 1,  // LineString, MultiLineString
};

struct GeoFeature {
  std::size_t index = 0;             // its place in "features", from 0
  std::string name;                  // properties.name when it is a string, else empty
  std::vector<GeoPolygon> polygons;  // a Polygon or MultiPolygon
  std::vector<GeoLine> lines;        // a LineString or MultiLineString
  std::vector<std::pair<std::string, GeoValue>> properties;

  // The property of that name, or nullptr.
  const GeoValue* Property(absl::string_view key) const;
  // How errors name it: `feature 3 ("Deadwood")`, or `feature 3` when it has no name.
  std::string Label() const;
};

// Parses `text` as a FeatureCollection whose geometries are among `shapes`. `file` names it in
// errors. INVALID_ARGUMENT naming the file, the feature and the member:
// `zones.geojson: feature 2 ("Moor"): geometry.coordinates[0][1]: must be a position [x, y]`.
absl::StatusOr<std::vector<GeoFeature>> ParseFeatureCollection(std::string_view text,
                                                               const std::string& file,
                                                               std::uint8_t shapes);

// `file: feature N ("name"): properties.KEY: what`, as INVALID_ARGUMENT.
absl::Status PropertyError(const std::string& file, const GeoFeature& feature,
                           absl::string_view key, absl::string_view what);

// The integer property `key` of `feature`, within [lo, hi]; `fallback` when the feature has
// none (or it is null) and `required` is false. INVALID_ARGUMENT naming it otherwise:
// `properties.min_level: must be an integer 0..65535`.
absl::StatusOr<std::int64_t> IntegerProperty(const std::string& file, const GeoFeature& feature,
                                             absl::string_view key, std::int64_t lo,
                                             std::int64_t hi, bool required,
                                             std::int64_t fallback = 0);

// The number property `key`, finite and within (lo, hi] when `above_lo`, else [lo, hi].
absl::StatusOr<double> NumberProperty(const std::string& file, const GeoFeature& feature,
                                      absl::string_view key, double lo, double hi, bool above_lo);

// The string property `key`; `fallback` when absent or null, INVALID_ARGUMENT when not a string.
absl::StatusOr<std::string> StringProperty(const std::string& file, const GeoFeature& feature,
                                           absl::string_view key, std::string fallback = "");

}  // namespace walk::nav
