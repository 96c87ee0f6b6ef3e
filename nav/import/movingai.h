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

// Parses a map's text. Errors: INVALID_ARGUMENT naming the bad header line or row.
absl::StatusOr<MovingAiMap> ParseMovingAiMap(absl::string_view text);
// Reads and parses a .map file. Errors: NOT_FOUND, or ParseMovingAiMap's.
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
// INVALID_ARGUMENT naming the line.
absl::StatusOr<ScenarioFile> ReadScenarios(const std::string& path);

}  // namespace walk::nav
