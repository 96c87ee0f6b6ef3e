// How a walk is searched: the search a caller may force, and the method that answered.
#pragma once

#include <cstdint>

namespace walk::nav {

// Which search answers a walk. kAuto picks the fastest correct one; the others force one for
// diagnostics.
enum class SearchMode : std::uint8_t { kAuto, kGrid, kDijkstra, kCch };
const char* SearchModeName(SearchMode mode);

// How an answer was found. Stored answers keep it: add new methods at the end.
enum class Method : std::uint8_t {
  kTrivial,
  kRegions,
  kStraightLine,
  kFineGrid,
  kTile,
  kCch,
  kDijkstra,
  kReach,
  kNavMesh,          // the navmesh backend: Detour's findPath and straight path (nav/navmesh/)
  kCchAStar,         // the danger search as an A* guided by band-0 CCH distances (CH potentials)
  kJumpPoints,       // the fine grid's exact walk by jump points (nav/search/jump_point_search.h)
  kSubgoalHierarchy  // the same over subgoals contracted (nav/cch/subgoal_hierarchies.h)
};
inline constexpr int kMethodCount = 12;

const char* MethodName(Method method);

}  // namespace walk::nav
