// How far a column lies from the nearest road or lift landing, as a lower bound: what lets the
// straight line answer on a world with roads (nav/query/search_choice.cc). A walk can only be
// cheaper than plain ground where it reaches a road (or a lift), and the columns it must cross
// before it gets there cost the plain price.
//
// The bound is kept by blocks of 16 x 16 columns: each block holds how many blocks away
// (Chebyshev) the nearest block with a road or a lift landing lies. Derived, never stored
// (FinishContinent computes it); a block grid of a 65,536-column continent takes 32 MB.
#pragma once

#include <cstdint>

#include "nav/grid/grid.h"

namespace walk::nav {

inline constexpr std::uint32_t kRoadBlockColumns = 16;

// Fills continent.road_blocks (and road_blocks_x) from its road marks and lift landings.
void ComputeRoadBlocks(Continent& continent);

// At least how many columns (Chebyshev) separate column (x, y), on the map, from the nearest
// column holding a road or a lift landing; 0 when its own block holds one. A continent without
// roads or lifts gives a bound beyond any walk.
inline std::uint32_t ColumnsToRoadAtLeast(const Continent& c, std::uint32_t x, std::uint32_t y) {
  const std::uint32_t blocks =
      c.road_blocks[(y / kRoadBlockColumns) * c.road_blocks_x + x / kRoadBlockColumns];
  return blocks == 0 ? 0 : (blocks - 1) * kRoadBlockColumns + 1;
}

}  // namespace walk::nav
