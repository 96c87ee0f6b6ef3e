// One walk, step by step: validate, snap both ends, answer from regions when they differ, else
// search the fine grid.
#pragma once

#include "absl/status/statusor.h"
#include "nav/grid.h"
#include "nav/profile.h"
#include "nav/walk_answer.h"
#include "nav/walker.h"

namespace walk::nav {

// Answers the walk from `from` to `to` on `world`, priced by `profile`, searching with `walker`
// (the caller's per-thread walker).
// Errors: INVALID_ARGUMENT naming the field (a bad coordinate; ends on two continents),
// NOT_FOUND naming the field (no such continent). Ends off the map, on no surface, or with no
// walk between them are answers with that status, not errors.
absl::StatusOr<WalkAnswer> AnswerWalk(const World& world, const Profile& profile,
                                      const Place& from, const Place& to, Walker& walker);

}  // namespace walk::nav
