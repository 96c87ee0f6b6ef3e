// The demo world's landmarks, found from its plan alone (no voxelizing): places worth walking
// between, used by the tests and printed by `walkgrid demo --landmarks`. Internal to nav/demo.
#pragma once

#include "absl/status/statusor.h"
#include "nav/demo/demo_world.h"

namespace walk::nav::demo {

class Plan;

// The landmarks of `plan` (see DemoLandmarks). Errors: INTERNAL when the plan has no place for
// one (a faction without a town, no bridge over water, no three-floor building of faction A, no
// mesa, no open ground where one is looked for).
absl::StatusOr<DemoLandmarks> LocateLandmarks(const Plan& plan);

}  // namespace walk::nav::demo
