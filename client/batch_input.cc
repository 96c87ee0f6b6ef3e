#include "client/batch_input.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "client/walk_client.h"
#include "nlohmann/json.hpp"

namespace walk::client {
namespace {

constexpr const char* kCsvColumns[] = {
    "id",   "world",   "from_x", "from_y",    "from_z",  "to_x",           "to_y",
    "to_z", "profile", "band",   "continent", "backend", "from_continent", "to_continent"};

absl::Status Bad(std::uint64_t line, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("line ", line, ": ", what));
}

// Sets the backend named `name` on `walk`; false when it is not a backend.
bool SetBackend(std::string_view name, walk::v1::WalkRequest* walk) {
  const std::optional<walk::v1::Backend> backend = ParseBackend(name);
  if (backend) walk->set_backend(*backend);
  return backend.has_value();
}

absl::Status BadBackend(std::uint64_t line) {
  return Bad(line, "backend: expected \"grid\", \"navmesh\" or \"hybrid\"");
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

// Reads the usual line fast, without building a JSON document: a flat object of the known keys
// with strings without escapes, plain numbers and [x, y] / [x, y, z] arrays. Anything else (an
// escape, another key, a repeated key, nesting, a malformed line) returns nullopt, and the line
// is read by nlohmann::json instead, which also words the errors.
class UsualLine {
 public:
  explicit UsualLine(std::string_view text) : at_(text.data()), end_(text.data() + text.size()) {}

  std::optional<BatchPair> Parse(std::uint64_t line, const BatchDefaults& defaults) {
    BatchPair pair;
    pair.line = line;
    pair.walk.set_world(defaults.world);
    pair.walk.set_profile(defaults.profile);
    pair.walk.set_band(defaults.band);
    if (!SetBackend(defaults.backend, &pair.walk)) return std::nullopt;
    std::uint32_t continent = 0;
    std::optional<std::uint32_t> from_continent, to_continent;
    double from[3], to[3];
    int from_n = 0, to_n = 0;
    unsigned seen = 0;  // a bit per key
    if (!Take('{')) return std::nullopt;
    for (bool first = true;; first = false) {
      if (Take('}')) break;
      if (!first && !Take(',')) return std::nullopt;
      std::string_view key;
      if (!String(&key) || !Take(':')) return std::nullopt;
      static constexpr std::string_view kKeys[] = {
          "id",   "world", "profile", "band",           "continent",
          "from", "to",    "backend", "from_continent", "to_continent"};
      const auto known = std::find(std::begin(kKeys), std::end(kKeys), key);
      if (known == std::end(kKeys)) return std::nullopt;
      const unsigned bit = 1u << (known - std::begin(kKeys));
      if (seen & bit) return std::nullopt;
      seen |= bit;
      std::string_view s;
      std::uint64_t u = 0;
      if (key == "id") {
        if (Peek() == '"') {
          if (!String(&s)) return std::nullopt;
          pair.id = std::string(s);
        } else {
          if (!Unsigned(&u, &s)) return std::nullopt;  // other ids (negative, fractions): nlohmann
          pair.id = std::string(s);
        }
      } else if (key == "backend") {
        if (!String(&s) || !SetBackend(s, &pair.walk)) return std::nullopt;
      } else if (key == "world" || key == "profile") {
        if (!String(&s)) return std::nullopt;
        (key == "world" ? pair.walk.mutable_world() : pair.walk.mutable_profile())->assign(s);
      } else if (key == "band" || key.ends_with("continent")) {
        if (!Unsigned(&u, &s) || u > 0xFFFFFFFFu) return std::nullopt;
        const auto value = static_cast<std::uint32_t>(u);
        if (key == "band")
          pair.walk.set_band(value);
        else if (key == "continent")
          continent = value;
        else
          (key == "from_continent" ? from_continent : to_continent) = value;
      } else if (!Coordinates(key == "from" ? from : to, key == "from" ? &from_n : &to_n)) {
        return std::nullopt;
      }
    }
    Space();
    if (at_ != end_ || from_n == 0 || to_n == 0) return std::nullopt;
    auto place = [&](const double* xyz, int n, std::optional<std::uint32_t> own,
                     walk::v1::Place* out) {
      out->set_continent(own.value_or(continent));
      out->set_x_yards(xyz[0]);
      out->set_y_yards(xyz[1]);
      if (n == 3) out->set_z_yards(xyz[2]);
    };
    place(from, from_n, from_continent, pair.walk.mutable_from());
    place(to, to_n, to_continent, pair.walk.mutable_to());
    return pair;
  }

 private:
  void Space() {
    while (at_ < end_ && (*at_ == ' ' || *at_ == '\t' || *at_ == '\r' || *at_ == '\n')) ++at_;
  }
  char Peek() {
    Space();
    return at_ < end_ ? *at_ : '\0';
  }
  bool Take(char c) {
    if (Peek() != c) return false;
    ++at_;
    return true;
  }
  // A string without escapes or control characters.
  bool String(std::string_view* out) {
    if (!Take('"')) return false;
    const char* start = at_;
    while (at_ < end_ && *at_ != '"') {
      if (*at_ == '\\' || static_cast<unsigned char>(*at_) < 0x20) return false;
      ++at_;
    }
    if (at_ == end_) return false;
    *out = std::string_view(start, static_cast<std::size_t>(at_ - start));
    ++at_;
    return true;
  }
  // A JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  bool Number(double* out, std::string_view* text, bool* integer) {
    Space();
    const char* start = at_;
    auto digits = [&] {
      const char* from = at_;
      while (at_ < end_ && *at_ >= '0' && *at_ <= '9') ++at_;
      return at_ > from;
    };
    if (at_ < end_ && *at_ == '-') ++at_;
    const char* int_start = at_;
    if (!digits()) return false;
    if (*int_start == '0' && at_ - int_start > 1) return false;  // leading zero
    *integer = true;
    if (at_ < end_ && *at_ == '.') {
      ++at_;
      if (!digits()) return false;
      *integer = false;
    }
    if (at_ < end_ && (*at_ == 'e' || *at_ == 'E')) {
      ++at_;
      if (at_ < end_ && (*at_ == '+' || *at_ == '-')) ++at_;
      if (!digits()) return false;
      *integer = false;
    }
    *text = std::string_view(start, static_cast<std::size_t>(at_ - start));
    const auto [end, error] = std::from_chars(start, at_, *out);
    return error == std::errc() && end == at_ && std::isfinite(*out);
  }
  // A non-negative integer of at most 18 digits.
  bool Unsigned(std::uint64_t* out, std::string_view* text) {
    double value = 0;
    bool integer = false;
    if (!Number(&value, text, &integer) || !integer || (*text)[0] == '-' || text->size() > 18)
      return false;
    return std::from_chars(text->data(), text->data() + text->size(), *out).ec == std::errc();
  }
  // [x, y] or [x, y, z].
  bool Coordinates(double* xyz, int* n) {
    if (!Take('[')) return false;
    for (*n = 0; *n < 3; ++*n) {
      if (*n > 0 && !Take(',')) break;
      std::string_view text;
      bool integer = false;
      if (!Number(&xyz[*n], &text, &integer)) return false;
    }
    return *n >= 2 && Take(']');
  }

  const char* at_;
  const char* end_;
};

}  // namespace

absl::StatusOr<BatchPair> ParseJsonPair(const std::string& text, std::uint64_t line,
                                        const BatchDefaults& defaults) {
  if (std::optional<BatchPair> usual = UsualLine(text).Parse(line, defaults))
    return *std::move(usual);
  nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) return Bad(line, "not a JSON object");
  BatchPair pair;
  pair.line = line;
  if (json.contains("id")) {
    pair.id = json["id"].is_string() ? json["id"].get<std::string>() : json["id"].dump();
  }
  // A field of the wrong type is the line's error (nlohmann's value() would throw).
  for (const char* text_field : {"world", "profile"}) {
    if (json.contains(text_field) && !json[text_field].is_string()) {
      return Bad(line, absl::StrCat(text_field, ": expected a string"));
    }
  }
  pair.walk.set_world(json.value("world", defaults.world));
  pair.walk.set_profile(json.value("profile", defaults.profile));
  if (json.contains("band") && !json["band"].is_number_unsigned())
    return Bad(line, "band: expected 0, 10, ..., 50");
  pair.walk.set_band(json.value("band", defaults.band));
  if (json.contains("backend") && !json["backend"].is_string()) return BadBackend(line);
  if (!SetBackend(json.value("backend", defaults.backend), &pair.walk)) return BadBackend(line);
  for (const char* field : {"continent", "from_continent", "to_continent"}) {
    if (json.contains(field) &&
        (!json[field].is_number_unsigned() || json[field].get<std::uint64_t>() > 0xFFFFFFFFu)) {
      return Bad(line, absl::StrCat(field, ": expected a continent id (0, 1, ...)"));
    }
  }
  const std::uint32_t continent = json.value("continent", 0u);
  if (!json.contains("from") || !json.contains("to")) return Bad(line, "from and to are required");
  if (absl::Status s = ReadPlace(json["from"], json.value("from_continent", continent), line,
                                 "from", pair.walk.mutable_from());
      !s.ok())
    return s;
  if (absl::Status s = ReadPlace(json["to"], json.value("to_continent", continent), line, "to",
                                 pair.walk.mutable_to());
      !s.ok())
    return s;
  return pair;
}

absl::StatusOr<CsvPairs> CsvPairs::FromHeader(const std::string& header) {
  CsvPairs csv;
  for (absl::string_view name : absl::StrSplit(header, ',')) {
    const std::string column(absl::StripAsciiWhitespace(name));
    if (std::find(std::begin(kCsvColumns), std::end(kCsvColumns), column) ==
        std::end(kCsvColumns)) {
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
  if (!SetBackend(defaults.backend, &pair.walk)) return BadBackend(line);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const std::string cell(absl::StripAsciiWhitespace(cells[i]));
    if (cell.empty()) continue;
    const std::string& column = columns_[i];
    double number = 0;
    const bool numeric = absl::SimpleAtod(cell, &number);
    auto need_number = [&]() -> absl::Status {
      return numeric ? absl::OkStatus()
                     : Bad(line, absl::StrCat(column, ": '", cell, "' is not a number"));
    };
    if (column == "id")
      pair.id = cell;
    else if (column == "world")
      pair.walk.set_world(cell);
    else if (column == "profile")
      pair.walk.set_profile(cell);
    else if (column == "backend") {
      if (!SetBackend(cell, &pair.walk)) return BadBackend(line);
    } else {
      if (absl::Status s = need_number(); !s.ok()) return s;
      if (column == "band") {
        if (!(number >= 0 && number <= 0xFFFFFFFFu) || number != std::floor(number)) {
          return Bad(line, "band: expected 0, 10, ..., 50");
        }
        pair.walk.set_band(static_cast<std::uint32_t>(number));
      } else if (absl::EndsWith(column, "continent")) {
        if (!(number >= 0 && number <= 0xFFFFFFFFu) || number != std::floor(number)) {
          return Bad(line, absl::StrCat(column, ": expected a continent id (0, 1, ...)"));
        }
        const auto id = static_cast<std::uint32_t>(number);
        if (column != "to_continent") pair.walk.mutable_from()->set_continent(id);
        if (column != "from_continent") pair.walk.mutable_to()->set_continent(id);
      } else if (column == "from_x")
        pair.walk.mutable_from()->set_x_yards(number);
      else if (column == "from_y")
        pair.walk.mutable_from()->set_y_yards(number);
      else if (column == "from_z")
        pair.walk.mutable_from()->set_z_yards(number);
      else if (column == "to_x")
        pair.walk.mutable_to()->set_x_yards(number);
      else if (column == "to_y")
        pair.walk.mutable_to()->set_y_yards(number);
      else if (column == "to_z")
        pair.walk.mutable_to()->set_z_yards(number);
    }
  }
  return pair;
}

}  // namespace walk::client
