// MovingAI grid benchmark maps (.map) and scenario files (.scen), and the grid a map becomes.
//
// Terrain: '.' and 'G' ground, 'S' swamp (passable ground), 'W' water (entered only from water),
// everything else ('@', 'O', 'T', ...) has no surface. (0, 0) is the top-left cell; a cell is one
// column one yard wide, so a scenario's optimal length is in yards.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nav/grid/grid.h"

namespace walk::nav {

struct MovingAiMap {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::string cells;  // height rows of width characters, row-major

  char At(std::uint32_t x, std::uint32_t y) const { return cells[std::size_t{y} * width + x]; }
};

// The largest map read (docs/formats.md, "Limits"): each side at most 65,535 cells and at most
// 16,777,216 cells in all (4096 x 4096, more than ten times the largest benchmark map). A map
// that large is about 850 MB of grid; a header announcing more is refused before anything is
// allocated. Files larger than kMaxMovingAiFileBytes (maps and scenarios) are refused unread.
inline constexpr std::uint32_t kMaxMovingAiSide = 65535;
inline constexpr std::uint64_t kMaxMovingAiCells = std::uint64_t{1} << 24;
inline constexpr std::uint64_t kMaxMovingAiFileBytes = std::uint64_t{64} << 20;  // 64 MiB

// Parses a map's text. Errors: INVALID_ARGUMENT naming the bad header line or row, or a size
// beyond the limits above.
absl::StatusOr<MovingAiMap> ParseMovingAiMap(absl::string_view text);
// Reads and parses a .map file. Errors: NOT_FOUND, INVALID_ARGUMENT (a file larger than
// kMaxMovingAiFileBytes), or ParseMovingAiMap's.
absl::StatusOr<MovingAiMap> ReadMovingAiMap(const std::string& path);

// The grid of a map: one continent (id 0), one surface per passable cell, column size 1 yard.
absl::StatusOr<World> WorldFromMovingAi(const MovingAiMap& map);

struct Scenario {
  std::uint32_t bucket = 0;
  std::string map;
  std::uint32_t map_width = 0;
  std::uint32_t map_height = 0;
  std::uint32_t start_x = 0;
  std::uint32_t start_y = 0;
  std::uint32_t goal_x = 0;
  std::uint32_t goal_y = 0;
  double optimal_length = 0.0;  // yards, sqrt(2) diagonals, no corner cutting
};

struct ScenarioFile {
  // "1" (lengths to 8 decimals) or "1.0" (older files: lengths to 2 decimals).
  std::string version;
  std::vector<Scenario> scenarios;

  // How far a computed length may be from the optimal one and still match: 1e-3 * max(1, L)
  // for version 1 files, 0.006 for the 2-decimal version 1.0 files.
  double Tolerance(double optimal_length) const;
};

// Reads a .scen file (both versions; tab- or space-separated). Errors: NOT_FOUND, or
// INVALID_ARGUMENT naming the file when larger than kMaxMovingAiFileBytes, or naming the line: a
// malformed one, a map size beyond the map limits, a start or goal outside the map's size, an
// optimal length that is not a finite number >= 0.
absl::StatusOr<ScenarioFile> ReadScenarios(const std::string& path);
// Parses a .scen file's text as ReadScenarios does; `path` names it in errors.
absl::StatusOr<ScenarioFile> ParseScenarios(absl::string_view text, const std::string& path);

}  // namespace walk::nav
