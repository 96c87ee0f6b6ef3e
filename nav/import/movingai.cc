#include "nav/import/movingai.h"

#include <algorithm>
#include <cmath>
#include <fstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "nav/grid/grid_builder.h"

namespace walk::nav {
namespace {

// A header or scenario line is split into words: a longer one is no header or scenario (and its
// words are not counted out one by one).
constexpr std::size_t kMaxLineBytes = 4096;

// The whole file, refused unread when larger than kMaxMovingAiFileBytes.
absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  const std::streamoff size = in.tellg();
  if (size < 0) return absl::DataLossError(absl::StrCat(path, ": cannot read"));
  if (static_cast<std::uint64_t>(size) > kMaxMovingAiFileBytes) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", size, " bytes, more than the ",
                                                   kMaxMovingAiFileBytes,
                                                   " a MovingAI file may have"));
  }
  std::string text(static_cast<std::size_t>(size), '\0');
  in.seekg(0);
  if (!in.read(text.data(), size)) return absl::DataLossError(absl::StrCat(path, ": cannot read"));
  return text;
}

// The lines of a text, one at a time (as absl::StrSplit(text, '\n') gives them, without a
// vector of them all: a file of newlines costs nothing).
class Lines {
 public:
  explicit Lines(absl::string_view text) : rest_(text) {}

  // The next line and its number (from 1); false after the last.
  bool Next(absl::string_view* line) {
    if (done_) return false;
    const std::size_t newline = rest_.find('\n');
    *line = rest_.substr(0, newline);
    if (newline == absl::string_view::npos) {
      done_ = true;
    } else {
      rest_.remove_prefix(newline + 1);
    }
    ++number_;
    return true;
  }
  std::size_t number() const { return number_; }

 private:
  absl::string_view rest_;
  bool done_ = false;
  std::size_t number_ = 0;
};

// Reads the header up to and including its "map" line into map->width and map->height.
absl::Status ParseMapHeader(Lines& lines, MovingAiMap* map) {
  absl::string_view raw;
  bool in_map = false;
  while (!in_map && lines.Next(&raw)) {
    absl::string_view line = absl::StripAsciiWhitespace(raw);
    if (line.empty()) continue;
    if (line.size() > kMaxLineBytes) {
      return absl::InvalidArgumentError(absl::StrCat("map line ", lines.number(), ": longer than ",
                                                     kMaxLineBytes, " bytes, not a header"));
    }
    std::vector<absl::string_view> words = absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (words[0] == "type") continue;
    if (words[0] == "map") {
      in_map = true;
    } else if ((words[0] == "height" || words[0] == "width") && words.size() == 2) {
      std::uint32_t value;
      if (!absl::SimpleAtoi(words[1], &value) || value == 0 || value > kMaxMovingAiSide) {
        return absl::InvalidArgumentError(absl::StrCat("map line ", lines.number(), ": bad ",
                                                       words[0], " (1 to ", kMaxMovingAiSide,
                                                       " cells)"));
      }
      (words[0] == "height" ? map->height : map->width) = value;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("map line ", lines.number(), ": unknown header '", line, "'"));
    }
  }
  if (!in_map || map->width == 0 || map->height == 0) {
    return absl::InvalidArgumentError("map: header lacks height, width or the 'map' line");
  }
  const std::uint64_t cells = std::uint64_t{map->width} * map->height;
  if (cells > kMaxMovingAiCells) {
    return absl::InvalidArgumentError(absl::StrCat("map: ", map->width, " x ", map->height, " is ",
                                                   cells, " cells, more than the ",
                                                   kMaxMovingAiCells, " a map may have"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<MovingAiMap> ParseMovingAiMap(absl::string_view text) {
  Lines lines(text);
  MovingAiMap map;
  if (absl::Status s = ParseMapHeader(lines, &map); !s.ok()) return s;
  // Rows must be there: no more is reserved than the text could hold.
  map.cells.reserve(std::min<std::size_t>(std::size_t{map.width} * map.height, text.size()));
  absl::string_view raw;
  for (std::uint32_t row = 0; row < map.height; ++row) {
    if (!lines.Next(&raw)) {
      return absl::InvalidArgumentError(
          absl::StrCat("map: ", map.height, " rows declared, ", row, " found"));
    }
    absl::string_view line = absl::StripTrailingAsciiWhitespace(raw);
    if (line.size() != map.width) {
      return absl::InvalidArgumentError(absl::StrCat("map line ", lines.number(), ": row ", row,
                                                     " has ", line.size(), " cells, width is ",
                                                     map.width));
    }
    map.cells.append(line.data(), line.size());
  }
  return map;
}

absl::StatusOr<MovingAiMap> ReadMovingAiMap(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  absl::StatusOr<MovingAiMap> map = ParseMovingAiMap(*text);
  if (!map.ok())
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", map.status().message()));
  return map;
}

absl::StatusOr<World> WorldFromMovingAi(const MovingAiMap& map) {
  ContinentBuilder builder(0, map.width, map.height);
  for (std::uint32_t y = 0; y < map.height; ++y) {
    for (std::uint32_t x = 0; x < map.width; ++x) {
      const char cell = map.At(x, y);
      SurfaceSpec spec;
      if (cell == '.' || cell == 'G' || cell == 'S') {
        spec.flags = kFlagTerrain;
      } else if (cell == 'W') {
        spec.flags = kFlagTerrain | kFlagWater;
      } else {
        continue;  // out of bounds, trees, anything unknown: nowhere to stand
      }
      builder.AddSurface(x, y, spec);
    }
  }
  LinkRules rules;
  rules.water_entered_only_from_water = true;
  absl::StatusOr<Continent> continent = builder.Build(rules);
  if (!continent.ok()) return continent.status();
  World world;
  world.column_yards = 1.0;
  world.continents.push_back(*std::move(continent));
  AssignContentIds(world);
  return world;
}

double ScenarioFile::Tolerance(double optimal_length) const {
  if (version == "1.0") return 0.006;
  return 1e-3 * std::max(1.0, optimal_length);
}

absl::StatusOr<ScenarioFile> ReadScenarios(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  return ParseScenarios(*text, path);
}

namespace {

// One scenario line's fields, checked: its map's size within the map limits, its ends on that
// map, its optimal length a finite number >= 0. The message says what is wrong.
absl::StatusOr<Scenario> ParseScenario(const std::vector<absl::string_view>& fields) {
  Scenario s;
  if (fields.size() != 9 || !absl::SimpleAtoi(fields[0], &s.bucket) ||
      !absl::SimpleAtoi(fields[2], &s.map_width) || !absl::SimpleAtoi(fields[3], &s.map_height) ||
      !absl::SimpleAtoi(fields[4], &s.start_x) || !absl::SimpleAtoi(fields[5], &s.start_y) ||
      !absl::SimpleAtoi(fields[6], &s.goal_x) || !absl::SimpleAtoi(fields[7], &s.goal_y) ||
      !absl::SimpleAtod(fields[8], &s.optimal_length)) {
    return absl::InvalidArgumentError(
        "expected 9 fields: bucket map width height start_x start_y goal_x goal_y length");
  }
  if (s.map_width == 0 || s.map_height == 0 || s.map_width > kMaxMovingAiSide ||
      s.map_height > kMaxMovingAiSide ||
      std::uint64_t{s.map_width} * s.map_height > kMaxMovingAiCells) {
    return absl::InvalidArgumentError(absl::StrCat("map size ", s.map_width, " x ", s.map_height,
                                                   " is beyond what a map may be"));
  }
  if (s.start_x >= s.map_width || s.start_y >= s.map_height || s.goal_x >= s.map_width ||
      s.goal_y >= s.map_height) {
    return absl::InvalidArgumentError(absl::StrCat("start ", s.start_x, ",", s.start_y, " or goal ",
                                                   s.goal_x, ",", s.goal_y, " lies off the ",
                                                   s.map_width, " x ", s.map_height, " map"));
  }
  if (!std::isfinite(s.optimal_length) || s.optimal_length < 0.0) {
    return absl::InvalidArgumentError("the optimal length must be a finite number >= 0");
  }
  s.map = std::string(fields[1]);
  return s;
}

}  // namespace

absl::StatusOr<ScenarioFile> ParseScenarios(absl::string_view text, const std::string& path) {
  ScenarioFile file;
  Lines lines(text);
  absl::string_view raw;
  while (lines.Next(&raw)) {
    absl::string_view line = absl::StripAsciiWhitespace(raw);
    if (line.empty()) continue;
    if (line.size() > kMaxLineBytes) {
      return absl::InvalidArgumentError(absl::StrCat(path, ":", lines.number(), ": longer than ",
                                                     kMaxLineBytes, " bytes, not a scenario"));
    }
    std::vector<absl::string_view> fields =
        absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty());
    if (fields[0] == "version") {
      if (fields.size() != 2)
        return absl::InvalidArgumentError(
            absl::StrCat(path, ":", lines.number(), ": bad version line"));
      file.version = std::string(fields[1]);
      continue;
    }
    absl::StatusOr<Scenario> scenario = ParseScenario(fields);
    if (!scenario.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", lines.number(), ": ", scenario.status().message()));
    }
    file.scenarios.push_back(*std::move(scenario));
  }
  if (file.version != "1" && file.version != "1.0") {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": unknown scenario version '", file.version, "'"));
  }
  return file;
}

}  // namespace walk::nav
