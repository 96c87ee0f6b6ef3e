#include "nav/walk_answer.h"

namespace walk::nav {

const char* WalkStatusName(WalkStatus status) {
  switch (status) {
    case WalkStatus::kOk: return "ok";
    case WalkStatus::kNoWalk: return "no_walk";
    case WalkStatus::kOffMap: return "off_map";
    case WalkStatus::kNoSurface: return "no_surface";
  }
  return "unknown";
}

const char* MethodName(Method method) {
  switch (method) {
    case Method::kTrivial: return "trivial";
    case Method::kRegions: return "regions";
    case Method::kStraightLine: return "straight_line";
    case Method::kFineGrid: return "fine_grid";
    case Method::kTile: return "tile";
    case Method::kCch: return "cch";
    case Method::kDijkstra: return "dijkstra";
    case Method::kReach: return "reach";
  }
  return "unknown";
}

}  // namespace walk::nav
