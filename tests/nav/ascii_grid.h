// Tiny worlds drawn in ASCII for tests: one character per column, one surface per passable
// column ('.' ground, 'W' water, 'S' swamp; anything else is a wall), built through the same
// MovingAI importer as the real maps.
#pragma once

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nav/import/movingai.h"
#include "nav/query/answer.h"

namespace walk::nav::testing {

inline World AsciiWorld(const std::vector<std::string>& rows) {
  std::string text = "type octile\nheight " + std::to_string(rows.size()) + "\nwidth " +
                     std::to_string(rows[0].size()) + "\nmap\n";
  for (const std::string& row : rows) text += row + "\n";
  auto map = ParseMovingAiMap(text);
  EXPECT_TRUE(map.ok()) << map.status();
  auto world = WorldFromMovingAi(*map);
  EXPECT_TRUE(world.ok()) << world.status();
  return *std::move(world);
}

// An open world: `width` x `height` columns of ground.
inline World OpenWorld(int width, int height) {
  return AsciiWorld(std::vector<std::string>(height, std::string(width, '.')));
}

// A place at the middle of column (x, y), in yards (one yard per column in these worlds).
inline Place At(double x, double y) {
  Place p;
  p.x_yards = x + 0.5;
  p.y_yards = y + 0.5;
  return p;
}

// The surface of column (x, y) (level 0), or kInvalidId.
inline SurfaceId SurfaceAt(const Continent& c, std::uint32_t x, std::uint32_t y) {
  SurfaceId first, end;
  c.ColumnSurfaces(x, y, &first, &end);
  return first < end ? first : kInvalidId;
}

// Where the shared data sets are: $WALKD_SHARED_DATA, else the checkout's ../shared/data.
inline std::string SharedDataDir() {
  const char* env = std::getenv("WALKD_SHARED_DATA");
  return env != nullptr ? env : WALK_SHARED_DATA_DEFAULT;
}

// A parameterized test's name from a data file's path: "dao/arena.map" -> "dao_arena_map".
struct FileParamName {
  template <typename Info>
  std::string operator()(const Info& info) const {
    std::string name = info.param;
    for (char& ch : name) {
      if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    }
    return name;
  }
};

}  // namespace walk::nav::testing
