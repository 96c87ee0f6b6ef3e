#include "nav/layers/geojson.h"

#include <cmath>
#include <exception>

#include "absl/strings/str_cat.h"
#include "nav/layers/json_text.h"
#include "nlohmann/json.hpp"

namespace walk::nav {
namespace {

using Json = nlohmann::json;

// Reads one feature; the first fault ends it, named by the member's path.
class FeatureReader {
 public:
  FeatureReader(const std::string& file, std::size_t index, std::uint8_t shapes)
      : file_(file), shapes_(shapes) {
    feature_.index = index;
  }

  absl::StatusOr<GeoFeature> Read(const Json& json);

 private:
  absl::Status Error(const std::string& path, absl::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat(file_, ": ", feature_.Label(), ": ", path, ": ", what));
  }
  absl::Status ReadProperties(const Json& json);
  absl::Status ReadGeometry(const Json& geometry);
  // A position [x, y] (or [x, y, z]) at `path`.
  absl::Status ReadPosition(const Json& json, const std::string& path, GeoPoint* out) const;
  // A list of positions at `path`, at least `least` of them.
  absl::Status ReadPositions(const Json& json, const std::string& path, std::size_t least,
                             std::vector<GeoPoint>* out) const;
  // A polygon's rings at `path` (the coordinates of a Polygon).
  absl::Status ReadPolygon(const Json& json, const std::string& path, GeoPolygon* out) const;

  const std::string& file_;
  const std::uint8_t shapes_;
  GeoFeature feature_;
};

absl::StatusOr<GeoFeature> FeatureReader::Read(const Json& json) {
  if (!json.is_object()) return Error("type", "a feature must be an object");
  // Properties first: the feature's name labels every later error.
  if (absl::Status s = ReadProperties(json); !s.ok()) return s;
  const auto type = json.find("type");
  if (type == json.end() || !type->is_string() || *type != "Feature") {
    return Error("type", "must be \"Feature\"");
  }
  const auto geometry = json.find("geometry");
  if (geometry == json.end() || !geometry->is_object()) {
    return Error("geometry", "must be an object (a layer's feature needs a geometry)");
  }
  if (absl::Status s = ReadGeometry(*geometry); !s.ok()) return s;
  return std::move(feature_);
}

absl::Status FeatureReader::ReadProperties(const Json& json) {
  const auto properties = json.find("properties");
  if (properties == json.end() || properties->is_null()) return absl::OkStatus();
  if (!properties->is_object()) return Error("properties", "must be an object or null");
  for (const auto& [key, value] : properties->items()) {
    GeoValue v;
    if (value.is_null()) {
      v.kind = GeoValue::Kind::kNull;
    } else if (value.is_boolean()) {
      v.kind = GeoValue::Kind::kBool;
      v.boolean = value.get<bool>();
    } else if (value.is_number()) {
      v.kind = GeoValue::Kind::kNumber;
      v.number = value.get<double>();
      v.integral = value.is_number_integer() ||
                   (std::isfinite(v.number) && std::floor(v.number) == v.number);
    } else if (value.is_string()) {
      v.kind = GeoValue::Kind::kString;
      v.text = value.get<std::string>();
    } else {
      v.kind = GeoValue::Kind::kOther;
    }
    if (key == "name" && v.kind == GeoValue::Kind::kString) feature_.name = v.text;
    feature_.properties.emplace_back(key, std::move(v));
  }
  return absl::OkStatus();
}

absl::Status FeatureReader::ReadGeometry(const Json& geometry) {
  const auto type = geometry.find("type");
  const auto coordinates = geometry.find("coordinates");
  if (type == geometry.end() || !type->is_string()) {
    return Error("geometry.type", "must be a string");
  }
  const std::string kind = type->get<std::string>();
  const bool area = kind == "Polygon" || kind == "MultiPolygon";
  const bool line = kind == "LineString" || kind == "MultiLineString";
  std::string taken;
  if (shapes_ & kGeoAreas) taken = "Polygon or MultiPolygon";
  if (shapes_ & kGeoLines) {
    taken = taken.empty() ? "LineString or MultiLineString"
                          : "Polygon, MultiPolygon, LineString or MultiLineString";
  }
  if ((area && !(shapes_ & kGeoAreas)) || (line && !(shapes_ & kGeoLines)) || (!area && !line)) {
    return Error("geometry.type", absl::StrCat("\"", kind, "\" is not a ", taken));
  }
  if (coordinates == geometry.end() || !coordinates->is_array()) {
    return Error("geometry.coordinates", "must be an array");
  }
  const std::string path = "geometry.coordinates";
  if (kind == "Polygon") {
    feature_.polygons.emplace_back();
    return ReadPolygon(*coordinates, path, &feature_.polygons.back());
  }
  if (kind == "LineString") {
    feature_.lines.emplace_back();
    return ReadPositions(*coordinates, path, 2, &feature_.lines.back());
  }
  if (coordinates->empty()) return Error(path, "must hold at least one part");
  for (std::size_t i = 0; i < coordinates->size(); ++i) {
    const std::string part = absl::StrCat(path, "[", i, "]");
    absl::Status s;
    if (kind == "MultiPolygon") {
      feature_.polygons.emplace_back();
      s = ReadPolygon((*coordinates)[i], part, &feature_.polygons.back());
    } else {
      feature_.lines.emplace_back();
      s = ReadPositions((*coordinates)[i], part, 2, &feature_.lines.back());
    }
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status FeatureReader::ReadPosition(const Json& json, const std::string& path,
                                         GeoPoint* out) const {
  if (!json.is_array() || json.size() < 2 || !json[0].is_number() || !json[1].is_number()) {
    return Error(path, "must be a position [x, y]");
  }
  out->x = json[0].get<double>();
  out->y = json[1].get<double>();
  if (!std::isfinite(out->x) || !std::isfinite(out->y)) {
    return Error(path, "must be a position of finite numbers");
  }
  return absl::OkStatus();
}

absl::Status FeatureReader::ReadPositions(const Json& json, const std::string& path,
                                          std::size_t least, std::vector<GeoPoint>* out) const {
  if (!json.is_array()) return Error(path, "must be an array of positions");
  out->resize(json.size());
  for (std::size_t i = 0; i < json.size(); ++i) {
    if (absl::Status s = ReadPosition(json[i], absl::StrCat(path, "[", i, "]"), &(*out)[i]);
        !s.ok()) {
      return s;
    }
  }
  if (out->size() < least) {
    return Error(path, absl::StrCat("must hold at least ", least, " positions"));
  }
  return absl::OkStatus();
}

absl::Status FeatureReader::ReadPolygon(const Json& json, const std::string& path,
                                        GeoPolygon* out) const {
  if (!json.is_array() || json.empty()) {
    return Error(path, "must be an array of rings (the outer ring, then its holes)");
  }
  for (std::size_t r = 0; r < json.size(); ++r) {
    std::vector<GeoPoint> ring;
    const std::string ring_path = absl::StrCat(path, "[", r, "]");
    if (absl::Status s = ReadPositions(json[r], ring_path, 3, &ring); !s.ok()) return s;
    // Closed as RFC 7946 writes it or open: kept open.
    if (ring.size() > 3 && ring.front().x == ring.back().x && ring.front().y == ring.back().y) {
      ring.pop_back();
    }
    if (ring.size() < 3) return Error(ring_path, "must hold at least 3 distinct positions");
    out->rings.push_back(std::move(ring));
  }
  return absl::OkStatus();
}

}  // namespace

const GeoValue* GeoFeature::Property(absl::string_view key) const {
  for (const auto& [name, value] : properties) {
    if (name == key) return &value;
  }
  return nullptr;
}

std::string GeoFeature::Label() const {
  if (name.empty()) return absl::StrCat("feature ", index);
  return absl::StrCat("feature ", index, " (\"", name, "\")");
}

absl::StatusOr<std::vector<GeoFeature>> ParseFeatureCollection(std::string_view text,
                                                               const std::string& file,
                                                               std::uint8_t shapes) {
  absl::StatusOr<Json> parsed = ParseLayerJson(text, file);
  if (!parsed.ok()) return parsed.status();
  const Json& json = *parsed;
  if (!json.is_object())
    return absl::InvalidArgumentError(absl::StrCat(file, ": must be an object"));
  const auto type = json.find("type");
  if (type == json.end() || !type->is_string() || *type != "FeatureCollection") {
    return absl::InvalidArgumentError(absl::StrCat(file, ": type: must be \"FeatureCollection\""));
  }
  const auto features = json.find("features");
  if (features == json.end() || !features->is_array()) {
    return absl::InvalidArgumentError(absl::StrCat(file, ": features: must be an array"));
  }
  std::vector<GeoFeature> out;
  out.reserve(features->size());
  for (std::size_t i = 0; i < features->size(); ++i) {
    absl::StatusOr<GeoFeature> feature = FeatureReader(file, i, shapes).Read((*features)[i]);
    if (!feature.ok()) return feature.status();
    out.push_back(*std::move(feature));
  }
  return out;
}

absl::Status PropertyError(const std::string& file, const GeoFeature& feature,
                           absl::string_view key, absl::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat(file, ": ", feature.Label(), ": properties.", key, ": ", what));
}

absl::StatusOr<std::int64_t> IntegerProperty(const std::string& file, const GeoFeature& feature,
                                             absl::string_view key, std::int64_t lo,
                                             std::int64_t hi, bool required,
                                             std::int64_t fallback) {
  const GeoValue* value = feature.Property(key);
  const std::string range = absl::StrCat("must be an integer ", lo, "..", hi);
  if (value == nullptr || value->kind == GeoValue::Kind::kNull) {
    if (!required) return fallback;
    return PropertyError(file, feature, key, absl::StrCat(range, " (it is missing)"));
  }
  if (value->kind != GeoValue::Kind::kNumber || !value->integral ||
      value->number < static_cast<double>(lo) || value->number > static_cast<double>(hi)) {
    return PropertyError(file, feature, key, range);
  }
  return static_cast<std::int64_t>(value->number);
}

absl::StatusOr<double> NumberProperty(const std::string& file, const GeoFeature& feature,
                                      absl::string_view key, double lo, double hi, bool above_lo) {
  const GeoValue* value = feature.Property(key);
  const std::string range =
      absl::StrCat("must be a number ", above_lo ? "above " : "from ", lo, " to ", hi);
  if (value == nullptr || value->kind == GeoValue::Kind::kNull) {
    return PropertyError(file, feature, key, absl::StrCat(range, " (it is missing)"));
  }
  const double x = value->number;
  if (value->kind != GeoValue::Kind::kNumber || !std::isfinite(x) || x > hi ||
      (above_lo ? !(x > lo) : !(x >= lo))) {
    return PropertyError(file, feature, key, range);
  }
  return x;
}

absl::StatusOr<std::string> StringProperty(const std::string& file, const GeoFeature& feature,
                                           absl::string_view key, std::string fallback) {
  const GeoValue* value = feature.Property(key);
  if (value == nullptr || value->kind == GeoValue::Kind::kNull) return fallback;
  if (value->kind != GeoValue::Kind::kString) {
    return PropertyError(file, feature, key, "must be a string");
  }
  return value->text;
}

}  // namespace walk::nav
