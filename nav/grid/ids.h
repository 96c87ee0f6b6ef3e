// Typed ids and sentinels shared by the grid, the searches and the walk answers.
#pragma once

#include <cstdint>
#include <limits>

namespace walk::nav {

// A surface's index within its continent: dense, 0 .. surface_count - 1.
using SurfaceId = std::uint32_t;
// A region's index within its continent.
using RegionId = std::uint32_t;
// A continent's id as callers name it.
using ContinentId = std::uint32_t;

inline constexpr std::uint32_t kInvalidId = std::numeric_limits<std::uint32_t>::max();

// Costs are seconds (double). Two infinities must not overflow into something finite.
inline constexpr double kInfCost = std::numeric_limits<double>::infinity();
static_assert(kInfCost + kInfCost == kInfCost, "inf + inf must stay inf");

// Columns per tile side: a tile is kTileColumns x kTileColumns columns.
inline constexpr std::uint32_t kTileColumns = 256;
inline constexpr std::uint32_t kColumnsPerTile = kTileColumns * kTileColumns;
// At most this many surfaces stacked in one column (levels 0 .. 30; 31 means "no link").
inline constexpr std::uint32_t kMaxFloors = 31;

}  // namespace walk::nav
