#include "nav/import/movingai.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "nav/grid/grid_builder.h"

namespace walk::nav {
namespace {

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

absl::StatusOr<MovingAiMap> ParseMovingAiMap(absl::string_view text) {
  std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  MovingAiMap map;
  std::size_t i = 0;
  bool in_map = false;
  for (; i < lines.size() && !in_map; ++i) {
    absl::string_view line = absl::StripAsciiWhitespace(lines[i]);
    if (line.empty()) continue;
    std::vector<absl::string_view> words = absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (words[0] == "type") continue;
    if (words[0] == "map") {
      in_map = true;
    } else if ((words[0] == "height" || words[0] == "width") && words.size() == 2) {
      std::uint32_t value;
      if (!absl::SimpleAtoi(words[1], &value) || value == 0 || value > 65535) {
        return absl::InvalidArgumentError(absl::StrCat("map line ", i + 1, ": bad ", words[0]));
      }
      (words[0] == "height" ? map.height : map.width) = value;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("map line ", i + 1, ": unknown header '", line, "'"));
    }
  }
  if (!in_map || map.width == 0 || map.height == 0) {
    return absl::InvalidArgumentError("map: header lacks height, width or the 'map' line");
  }
  map.cells.reserve(std::size_t{map.width} * map.height);
  for (std::uint32_t row = 0; row < map.height; ++row, ++i) {
    if (i >= lines.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("map: ", map.height, " rows declared, ", row, " found"));
    }
    absl::string_view line = absl::StripTrailingAsciiWhitespace(lines[i]);
    if (line.size() != map.width) {
      return absl::InvalidArgumentError(absl::StrCat("map line ", i + 1, ": row ", row, " has ",
                                                     line.size(), " cells, width is ", map.width));
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
  world.content_id = ComputeContentId(world);
  return world;
}

double ScenarioFile::Tolerance(double optimal_length) const {
  if (version == "1.0") return 0.006;
  return 1e-3 * std::max(1.0, optimal_length);
}

absl::StatusOr<ScenarioFile> ReadScenarios(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  ScenarioFile file;
  std::size_t line_number = 0;
  for (absl::string_view raw : absl::StrSplit(*text, '\n')) {
    ++line_number;
    absl::string_view line = absl::StripAsciiWhitespace(raw);
    if (line.empty()) continue;
    std::vector<absl::string_view> fields =
        absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty());
    if (fields[0] == "version") {
      if (fields.size() != 2)
        return absl::InvalidArgumentError(
            absl::StrCat(path, ":", line_number, ": bad version line"));
      file.version = std::string(fields[1]);
      continue;
    }
    Scenario s;
    if (fields.size() != 9 || !absl::SimpleAtoi(fields[0], &s.bucket) ||
        !absl::SimpleAtoi(fields[2], &s.map_width) || !absl::SimpleAtoi(fields[3], &s.map_height) ||
        !absl::SimpleAtoi(fields[4], &s.start_x) || !absl::SimpleAtoi(fields[5], &s.start_y) ||
        !absl::SimpleAtoi(fields[6], &s.goal_x) || !absl::SimpleAtoi(fields[7], &s.goal_y) ||
        !absl::SimpleAtod(fields[8], &s.optimal_length)) {
      return absl::InvalidArgumentError(absl::StrCat(path, ":", line_number,
                                                     ": expected 9 fields: bucket map width height "
                                                     "start_x start_y goal_x goal_y length"));
    }
    s.map = std::string(fields[1]);
    file.scenarios.push_back(std::move(s));
  }
  if (file.version != "1" && file.version != "1.0") {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": unknown scenario version '", file.version, "'"));
  }
  return file;
}

}  // namespace walk::nav
