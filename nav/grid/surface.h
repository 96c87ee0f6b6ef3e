// What a surface is: flags, area marks, and links to the 8 neighbouring columns.
//
// A link is one byte: the low 5 bits name the target's level in the neighbouring column's stack
// (0 = lowest), the high 3 bits its kind. Level 31 means there is no link in that direction.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "nav/grid/ids.h"

namespace walk::nav {

// How one moves across a link. A fall is taken only downward (it is one-way by construction:
// the surface below has no link back up).
enum class LinkKind : std::uint8_t {
  kWalk = 0,
  kSteep = 1,
  kSwim = 2,
  kJump = 3,
  kClimb = 4,
  kIndoor = 5,
  kLift = 6,
  kFall = 7,
};
inline constexpr int kLinkKindCount = 8;

std::string_view LinkKindName(LinkKind kind);

// Surface flags (bit set).
enum SurfaceFlag : std::uint8_t {
  kFlagTerrain = 1 << 0,   // natural ground
  kFlagBuilding = 1 << 1,  // a built structure (floor, deck, roof)
  kFlagIndoor = 1 << 2,    // under a roof
  kFlagWater = 1 << 3,     // swum, not walked
  kFlagSteep = 1 << 4,     // a slope too steep to walk comfortably
  kFlagBlocked = 1 << 5,   // standable geometry nobody may enter (kept for snapping and drawing)
  kFlagForest = 1 << 6,    // forest ground: heavy move profiles may not enter
  kFlagClimb = 1 << 7,     // so steep that only a climb goes up it
};

// Area marks (bit set), beside the zone id.
enum AreaMark : std::uint8_t {
  kMarkRoad = 1 << 0,
  kMarkHubA = 1 << 1,  // a town or outpost of faction A
  kMarkHubB = 1 << 2,  // a town or outpost of faction B
  kMarkLift = 1 << 3,  // a lift landing: the surface has lift rides (Continent::lifts)
  // Inside a district joined to the rest only by lifts (nav/layers/district_layer.h): no link
  // joins a surface marked so to one that is not.
  kMarkDistrict = 1 << 4,
};

// The 8 directions, counter-clockwise from east. Even directions are orthogonal; the two
// orthogonal neighbours of diagonal d are d - 1 and d + 1 (mod 8).
inline constexpr int kDirectionCount = 8;
inline constexpr std::array<int, kDirectionCount> kDirectionDx = {1, 1, 0, -1, -1, -1, 0, 1};
inline constexpr std::array<int, kDirectionCount> kDirectionDy = {0, 1, 1, 1, 0, -1, -1, -1};
inline constexpr bool IsDiagonal(int direction) { return (direction & 1) != 0; }

// A diagonal step's length in columns, rounded once, here: every bound and every cost that
// needs it uses this very value.
inline constexpr double kSqrt2 = 1.41421356237309504880;

// The octile distance of a column offset (dx, dy >= 0): the fewest columns any walk needs, a
// diagonal step costing sqrt(2). The A* heuristics and the straight line's bound.
inline double OctileColumns(double dx, double dy) {
  constexpr double kSqrt2Minus1 = kSqrt2 - 1.0;
  return dx > dy ? dx + kSqrt2Minus1 * dy : dy + kSqrt2Minus1 * dx;
}

// One packed link.
using Link = std::uint8_t;
inline constexpr Link kNoLink = 0x1F;
inline constexpr std::uint8_t kNoLevel = 31;

inline constexpr Link MakeLink(std::uint8_t level, LinkKind kind) {
  return static_cast<Link>((static_cast<std::uint8_t>(kind) << 5) | (level & 0x1F));
}
inline constexpr bool HasLink(Link link) { return (link & 0x1F) != kNoLevel; }
inline constexpr std::uint8_t LinkLevel(Link link) { return link & 0x1F; }
inline constexpr LinkKind LinkKindOf(Link link) { return static_cast<LinkKind>(link >> 5); }

// A surface's 8 links, direction d in byte d.
using LinkSet = std::array<Link, kDirectionCount>;
inline constexpr LinkSet kNoLinks = {kNoLink, kNoLink, kNoLink, kNoLink,
                                     kNoLink, kNoLink, kNoLink, kNoLink};

}  // namespace walk::nav
