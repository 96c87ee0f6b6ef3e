// The demo world's buildings: up to three per town, of two or three floors, with walls, a door,
// a stair core and a flat roof; faction B's main building has a lift. Plan::LayBuildings and
// Plan::EmitBuilding (buildings.cc) lay and build them. Internal to nav/demo.
#pragma once

#include <cstdint>

namespace walk::nav::demo {

inline constexpr double kFloorHeight = 3.2;  // yards from one floor to the next

// A building on the column grid. Local coordinates: u along the door's wall (width columns),
// v away from it (depth columns); the door is in the wall at v = 0.
struct Building {
  int town = 0;
  std::int64_t x0 = 0, y0 = 0;  // first column of the footprint
  int width = 0, depth = 0;
  int orient = 0;  // the door faces: 0 -y, 1 +y, 2 -x, 3 +x
  int floors = 0;
  double base = 0.0;  // ground floor height
  bool lift = false;  // a lift from the ground floor to the top floor at (width - 2, 1)
  std::uint16_t zone = 0;
  std::uint8_t hub = 0;

  int footprint_x() const { return orient < 2 ? width : depth; }
  int footprint_y() const { return orient < 2 ? depth : width; }
};

}  // namespace walk::nav::demo
