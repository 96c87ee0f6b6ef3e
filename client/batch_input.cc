#include "client/batch_input.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "nlohmann/json.hpp"

namespace walk::client {
namespace {

constexpr const char* kCsvColumns[] = {"id",   "world", "from_x",  "from_y", "from_z", "to_x",
                                       "to_y", "to_z",  "profile", "band",   "continent"};

absl::Status Bad(std::uint64_t line, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("line ", line, ": ", what));
}

// A JSON [x, y] or [x, y, z] into a Place.
absl::Status ReadPlace(const nlohmann::json& value, std::uint32_t continent, std::uint64_t line,
                       const char* field, walk::v1::Place* place) {
  if (!value.is_array() || value.size() < 2 || value.size() > 3) {
    return Bad(line, absl::StrCat(field, ": expected [x, y] or [x, y, z] yards"));
  }
  for (const auto& number : value) {
    if (!number.is_number()) return Bad(line, absl::StrCat(field, ": coordinates must be numbers"));
  }
  place->set_continent(continent);
  place->set_x_yards(value[0].get<double>());
  place->set_y_yards(value[1].get<double>());
  if (value.size() == 3) place->set_z_yards(value[2].get<double>());
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<BatchPair> ParseJsonPair(const std::string& text, std::uint64_t line,
                                        const BatchDefaults& defaults) {
  nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) return Bad(line, "not a JSON object");
  BatchPair pair;
  pair.line = line;
  if (json.contains("id")) {
    pair.id = json["id"].is_string() ? json["id"].get<std::string>() : json["id"].dump();
  }
  pair.walk.set_world(json.value("world", defaults.world));
  pair.walk.set_profile(json.value("profile", defaults.profile));
  if (json.contains("band") && !json["band"].is_number_unsigned()) return Bad(line, "band: expected 0, 10, ..., 50");
  pair.walk.set_band(json.value("band", defaults.band));
  const std::uint32_t continent = json.value("continent", 0u);
  if (!json.contains("from") || !json.contains("to")) return Bad(line, "from and to are required");
  if (absl::Status s = ReadPlace(json["from"], continent, line, "from", pair.walk.mutable_from()); !s.ok()) return s;
  if (absl::Status s = ReadPlace(json["to"], continent, line, "to", pair.walk.mutable_to()); !s.ok()) return s;
  return pair;
}

absl::StatusOr<CsvPairs> CsvPairs::FromHeader(const std::string& header) {
  CsvPairs csv;
  for (absl::string_view name : absl::StrSplit(header, ',')) {
    const std::string column(absl::StripAsciiWhitespace(name));
    if (std::find(std::begin(kCsvColumns), std::end(kCsvColumns), column) == std::end(kCsvColumns)) {
      return absl::InvalidArgumentError(absl::StrCat("line 1: unknown column '", column, "'"));
    }
    csv.columns_.push_back(column);
  }
  for (const char* needed : {"from_x", "from_y", "to_x", "to_y"}) {
    if (std::find(csv.columns_.begin(), csv.columns_.end(), needed) == csv.columns_.end()) {
      return absl::InvalidArgumentError(absl::StrCat("line 1: the header lacks ", needed));
    }
  }
  return csv;
}

absl::StatusOr<BatchPair> CsvPairs::Parse(const std::string& text, std::uint64_t line,
                                          const BatchDefaults& defaults) const {
  std::vector<std::string> cells = absl::StrSplit(text, ',');
  if (cells.size() != columns_.size()) {
    return Bad(line, absl::StrCat(cells.size(), " cells, the header has ", columns_.size()));
  }
  BatchPair pair;
  pair.line = line;
  pair.walk.set_world(defaults.world);
  pair.walk.set_profile(defaults.profile);
  pair.walk.set_band(defaults.band);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const std::string cell(absl::StripAsciiWhitespace(cells[i]));
    if (cell.empty()) continue;
    const std::string& column = columns_[i];
    double number = 0;
    const bool numeric = absl::SimpleAtod(cell, &number);
    auto need_number = [&]() -> absl::Status {
      return numeric ? absl::OkStatus() : Bad(line, absl::StrCat(column, ": '", cell, "' is not a number"));
    };
    if (column == "id") pair.id = cell;
    else if (column == "world") pair.walk.set_world(cell);
    else if (column == "profile") pair.walk.set_profile(cell);
    else {
      if (absl::Status s = need_number(); !s.ok()) return s;
      if (column == "band") pair.walk.set_band(static_cast<std::uint32_t>(number));
      else if (column == "continent") {
        pair.walk.mutable_from()->set_continent(static_cast<std::uint32_t>(number));
        pair.walk.mutable_to()->set_continent(static_cast<std::uint32_t>(number));
      }
      else if (column == "from_x") pair.walk.mutable_from()->set_x_yards(number);
      else if (column == "from_y") pair.walk.mutable_from()->set_y_yards(number);
      else if (column == "from_z") pair.walk.mutable_from()->set_z_yards(number);
      else if (column == "to_x") pair.walk.mutable_to()->set_x_yards(number);
      else if (column == "to_y") pair.walk.mutable_to()->set_y_yards(number);
      else if (column == "to_z") pair.walk.mutable_to()->set_z_yards(number);
    }
  }
  return pair;
}

}  // namespace walk::client
