// Checking the places a caller names before anything is searched: every field, with a message
// that names the bad one.
#pragma once

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nav/grid/grid.h"
#include "nav/query/answer.h"

namespace walk::nav {

// Coordinates beyond this many yards from the frame's 0 are absurd, not merely off the map (and
// keep a store key's tenths of a yard inside 32 bits).
inline constexpr double kMaxAbsCoordinateYards = 1e8;
// Heights beyond this many yards from 0 are refused as out of range.
inline constexpr double kMaxAbsHeightYards = 1e6;

// Checks a place's fields: finite coordinates, |x|, |y| <= 1e8 yards, |z| <= 1e6 yards.
// INVALID_ARGUMENT names the field as `field`.x_yards and so on. A place that passes but lies
// outside its continent's extent is not an error: its walk is answered OFF_MAP.
absl::Status ValidatePlace(const Place& place, absl::string_view field);

// Checks both ends of a walk on `world`: each place's fields (ValidatePlace, as "from" and "to"),
// one continent for both (INVALID_ARGUMENT naming to.continent), and that the world has it
// (NOT_FOUND naming from.continent). Returns that continent.
absl::StatusOr<const Continent*> ValidateEnds(const World& world, const Place& from,
                                              const Place& to);

}  // namespace walk::nav
