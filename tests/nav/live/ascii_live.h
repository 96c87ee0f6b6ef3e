// Tiny live worlds drawn in ASCII for tests: one character per cell in the map alphabet of
// Layers::FromMovingAi ('.' ground, 'M' mountain, 'R' river, 'F' forest, 'T' tree, '@' blocked,
// '+' river under a bridge deck, ...), plus layer-file text for what characters cannot say.
#pragma once

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nav/import/movingai.h"
#include "nav/live/layer_file.h"
#include "nav/live/live_world.h"

namespace walk::nav::live::testing {

inline constexpr Passability kLight = Passability::kLight;
inline constexpr Passability kHeavy = Passability::kHeavy;

inline std::string MapText(const std::vector<std::string>& rows) {
  std::string text = "type octile\nheight " + std::to_string(rows.size()) + "\nwidth " +
                     std::to_string(rows[0].size()) + "\nmap\n";
  for (const std::string& row : rows) text += row + "\n";
  return text;
}

inline Layers AsciiLayers(const std::vector<std::string>& rows,
                          const std::string& layer_text = "") {
  auto map = ParseMovingAiMap(MapText(rows));
  EXPECT_TRUE(map.ok()) << map.status();
  auto layers = Layers::FromMovingAi(*map);
  EXPECT_TRUE(layers.ok()) << layers.status();
  const absl::Status applied = ApplyLayerText(layer_text, &*layers);
  EXPECT_TRUE(applied.ok()) << applied;
  return *std::move(layers);
}

inline std::unique_ptr<LiveWorld> AsciiWorld(const std::vector<std::string>& rows,
                                             const std::string& layer_text = "",
                                             const LiveWorldOptions& options = {}) {
  auto world = LiveWorld::FromText(MapText(rows), layer_text, options);
  EXPECT_TRUE(world.ok()) << world.status();
  return world.ok() ? *std::move(world) : nullptr;
}

// The world drawn (LiveWorld::Draw glyphs) with `path` marked: '*' on its cells, 'S' and 'G' on
// its ends. One string per row, for EXPECT_EQ against a drawn expectation.
inline std::vector<std::string> DrawPath(const LiveWorld& world, const std::vector<Cell>& path) {
  std::vector<std::string> rows;
  const std::string drawn = world.Draw();
  std::size_t at = 0;
  for (std::size_t end; (end = drawn.find('\n', at)) != std::string::npos; at = end + 1) {
    rows.push_back(drawn.substr(at, end - at));
  }
  for (std::size_t k = 0; k < path.size(); ++k) {
    char mark = k == 0 ? 'S' : (k + 1 == path.size() ? 'G' : '*');
    rows[static_cast<std::size_t>(path[k].y)][static_cast<std::size_t>(path[k].x)] = mark;
  }
  return rows;
}

// A grid drawn one CellValueGlyph per cell, one string per row.
inline std::vector<std::string> DrawGrid(const LiveGrid& grid) {
  std::vector<std::string> rows(static_cast<std::size_t>(grid.height()),
                                std::string(static_cast<std::size_t>(grid.width()), ' '));
  for (std::int32_t y = 0; y < grid.height(); ++y) {
    for (std::int32_t x = 0; x < grid.width(); ++x) {
      rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)] =
          CellValueGlyph(grid.value(Cell{x, y}));
    }
  }
  return rows;
}

// The light unit's path from a to b, expecting the call to succeed.
inline LivePath LightPath(LiveWorld& world, Cell a, Cell b) {
  absl::StatusOr<LivePath> path = world.FindPath({a, b, Passability::kLight});
  EXPECT_TRUE(path.ok()) << path.status();
  return path.ok() ? *std::move(path) : LivePath{};
}

// The drawn grid as rows (LiveWorld::Draw without the path).
inline std::vector<std::string> DrawRows(const LiveWorld& world) { return DrawPath(world, {}); }

// Where the shared data sets are: $WALKD_SHARED_DATA, else the checkout's ../shared/data.
inline std::string SharedDataDir() {
  const char* env = std::getenv("WALKD_SHARED_DATA");
  return env != nullptr ? env : WALK_SHARED_DATA_DEFAULT;
}

}  // namespace walk::nav::live::testing
