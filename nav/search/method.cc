#include "nav/search/method.h"

namespace walk::nav {

const char* SearchModeName(SearchMode mode) {
  switch (mode) {
    case SearchMode::kAuto:
      return "auto";
    case SearchMode::kGrid:
      return "grid";
    case SearchMode::kDijkstra:
      return "dijkstra";
    case SearchMode::kCch:
      return "cch";
  }
  return "unknown";
}

const char* MethodName(Method method) {
  switch (method) {
    case Method::kTrivial:
      return "trivial";
    case Method::kRegions:
      return "regions";
    case Method::kStraightLine:
      return "straight_line";
    case Method::kFineGrid:
      return "fine_grid";
    case Method::kTile:
      return "tile";
    case Method::kCch:
      return "cch";
    case Method::kDijkstra:
      return "dijkstra";
    case Method::kReach:
      return "reach";
    case Method::kNavMesh:
      return "navmesh";
    case Method::kCchAStar:
      return "cch_astar";
    case Method::kJumpPoints:
      return "jump_points";
    case Method::kSubgoalHierarchy:
      return "subgoal_hierarchy";
  }
  return "unknown";
}

}  // namespace walk::nav
