// Checking the places a caller names before anything is searched: every field, with a message
// that names the bad one.
#pragma once

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nav/grid/grid.h"
#include "nav/query/answer.h"

namespace walk::nav {

// Largest coordinate any continent can have, in columns (256 tiles of 256 columns).
inline constexpr double kMaxColumns = 256.0 * kTileColumns;
// Heights beyond this many yards from 0 are refused as out of range.
inline constexpr double kMaxAbsHeightYards = 1e6;

// Checks a place's fields: finite coordinates, 0 <= x, y < 65,536 columns, |z| <= 1e6 yards.
// INVALID_ARGUMENT names the field as `field`.x_yards and so on.
absl::Status ValidatePlace(const Place& place, double column_yards, absl::string_view field);

// Checks both ends of a walk on `world`: each place's fields (ValidatePlace, as "from" and "to"),
// one continent for both (INVALID_ARGUMENT naming to.continent), and that the world has it
// (NOT_FOUND naming from.continent). Returns that continent.
absl::StatusOr<const Continent*> ValidateEnds(const World& world, const Place& from,
                                              const Place& to);

}  // namespace walk::nav
