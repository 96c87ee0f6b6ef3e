// The demo world's mesas: plateaus ringed by vertical cliffs, each with a lift from the cliff's
// foot to a balcony at the top. Plan::LayMesas and Plan::EmitBalcony (mesas.cc) lay and build
// them; the tile mesh raises their tops and walls their cliffs. Internal to nav/demo.
#pragma once

#include <cstdint>

#include "nav/demo/plane.h"

namespace walk::nav::demo {

inline constexpr double kMesaShape = 0.18;  // a mesa's radius varies by this fraction

struct Mesa {
  Vec2 center;
  double radius = 0.0;
  double cliff = 0.0;
  std::uint64_t shape = 0;              // the random seed of its wavy rim
  int dx = 0, dy = 0;                   // the lift's side
  std::int64_t lift_x = 0, lift_y = 0;  // the lift's column, just outside the cliff
  double platform = 0.0;                // the balcony's height (over the lift column and the next)
  double lift_foot = 0.0;               // the ground's height in the lift column
};

// True when p lies inside mesa m's wavy rim.
bool MesaInside(const Mesa& m, Vec2 p);

}  // namespace walk::nav::demo
