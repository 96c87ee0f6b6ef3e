#include "nav/query/answer.h"

namespace walk::nav {

const char* WalkStatusName(WalkStatus status) {
  switch (status) {
    case WalkStatus::kOk:
      return "ok";
    case WalkStatus::kNoWalk:
      return "no_walk";
    case WalkStatus::kOffMap:
      return "off_map";
    case WalkStatus::kNoSurface:
      return "no_surface";
  }
  return "unknown";
}

}  // namespace walk::nav
