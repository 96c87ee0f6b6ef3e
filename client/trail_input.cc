#include "client/trail_input.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace walk::client {
namespace {

// The number at `key` of `object`, or an error naming the key.
absl::StatusOr<std::optional<double>> Coordinate(const nlohmann::json& object, const char* key,
                                                 bool required) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    if (required) return absl::InvalidArgumentError(absl::StrCat(key, ": missing"));
    return std::optional<double>();
  }
  if (!it->is_number() || !std::isfinite(it->get<double>())) {
    return absl::InvalidArgumentError(absl::StrCat(key, ": must be a finite number"));
  }
  return std::optional<double>(it->get<double>());
}

absl::StatusOr<TrailPosition> ParsePosition(const std::string& line) {
  const nlohmann::json object = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (object.is_discarded()) return absl::InvalidArgumentError("not JSON");
  if (!object.is_object()) return absl::InvalidArgumentError("not a JSON object");
  TrailPosition position;
  absl::StatusOr<std::optional<double>> x = Coordinate(object, "x", true);
  if (!x.ok()) return x.status();
  absl::StatusOr<std::optional<double>> y = Coordinate(object, "y", true);
  if (!y.ok()) return y.status();
  absl::StatusOr<std::optional<double>> z = Coordinate(object, "z", false);
  if (!z.ok()) return z.status();
  position.x_yards = **x;
  position.y_yards = **y;
  position.z_yards = *z;
  if (const auto walk = object.find("walk"); walk != object.end()) {
    if (!walk->is_null() && !walk->is_string() && !walk->is_number()) {
      return absl::InvalidArgumentError("walk: must be a string or a number");
    }
    position.walk = walk->dump();
  }
  return position;
}

}  // namespace

absl::StatusOr<std::optional<TrailPosition>> TrailReader::Next() {
  while (std::getline(in_, line_)) {
    ++line_number_;
    if (line_.find_first_not_of(" \t\r") == std::string::npos) continue;
    absl::StatusOr<TrailPosition> position = ParsePosition(line_);
    if (!position.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(name_, " line ", line_number_, ": ", position.status().message()));
    }
    position->index = positions_++;
    return std::optional<TrailPosition>(*std::move(position));
  }
  if (in_.bad()) return absl::DataLossError(absl::StrCat(name_, ": read failed"));
  return std::optional<TrailPosition>();
}

}  // namespace walk::client
