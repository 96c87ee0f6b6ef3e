// The area codes and flags of walkd's navmesh polygons as files hold them: what the builder
// (navmesh_builder.h) writes from a mesh's triangle tags, and what a navmesh without a grid
// beside it is priced by. Once loaded, every polygon's area is rewritten to its pricing class
// (navmesh_ground.h), which carries zones and lift rides too; flags keep the meaning below.
#pragma once

#include <cstdint>

namespace walk::nav {

// Areas: one per ground kind the cost model prices (nav/cost/cost_model.h).
inline constexpr std::uint8_t kNavAreaGround = 0;  // plain ground: x1
inline constexpr std::uint8_t kNavAreaWater = 1;   // swum: x CostModel::water
inline constexpr std::uint8_t kNavAreaRoad = 2;    // a road: x CostModel::road
inline constexpr std::uint8_t kNavAreaSteep = 3;   // a steep face: x CostModel::steep
inline constexpr std::uint8_t kNavAreaHubA = 4;    // faction A's town: x hostile for faction B
inline constexpr std::uint8_t kNavAreaHubB = 5;    // faction B's town: x hostile for faction A
inline constexpr int kNavAreaCount = 6;            // codes at or past this are priced as ground

// Flags: who may enter. A polygon with none of a walker's included flags is impassable to it.
inline constexpr std::uint16_t kNavFlagWalk = 1;    // walked ground (every area but water)
inline constexpr std::uint16_t kNavFlagSwim = 2;    // water
inline constexpr std::uint16_t kNavFlagForest = 4;  // forest: light move profiles only

}  // namespace walk::nav
