// The integration tests' smallest world: two rooms a wall apart (x 0-4 and x 6-9, 3 rows), one
// column per yard, saved as a world folder walkd serves.
#pragma once

#include <string>

#include "gtest/gtest.h"
#include "nav/grid/grid_format.h"
#include "nav/import/movingai.h"

namespace walk::testing {

// Saves the two-rooms world into `dir` (call with ASSERT_NO_FATAL_FAILURE).
inline void WriteTwoRoomsWorld(const std::string& dir) {
  auto map = nav::ParseMovingAiMap(
      "type octile\nheight 3\nwidth 10\nmap\n"
      ".....@....\n"
      ".....@....\n"
      ".....@....\n");
  ASSERT_TRUE(map.ok());
  auto world = nav::WorldFromMovingAi(*map);
  ASSERT_TRUE(world.ok());
  ASSERT_TRUE(nav::SaveWorld(*world, "test:two-rooms", dir).ok());
}

}  // namespace walk::testing
