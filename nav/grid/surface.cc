#include "nav/grid/surface.h"

namespace walk::nav {

std::string_view LinkKindName(LinkKind kind) {
  switch (kind) {
    case LinkKind::kWalk:
      return "walk";
    case LinkKind::kSteep:
      return "steep";
    case LinkKind::kSwim:
      return "swim";
    case LinkKind::kJump:
      return "jump";
    case LinkKind::kClimb:
      return "climb";
    case LinkKind::kIndoor:
      return "indoor";
    case LinkKind::kLift:
      return "lift";
    case LinkKind::kFall:
      return "fall";
  }
  return "unknown";
}

}  // namespace walk::nav
