// Danger bands: a character of level L should not cut through a zone far above it.
//
// Bands are 0, 10, 20, 30, 40, 50. Band 0 is the base walk: no danger at all. For band L > 0,
// a zone whose lowest level is above L + 10 costs x20, at least L + 4 costs x3, anything else
// nothing extra. The zones of the walk's two ends are exempt: you have to walk into the zone
// your quest is in.
#pragma once

#include <array>
#include <cstdint>

#include "absl/status/status.h"

namespace walk::nav {

inline constexpr std::array<std::uint32_t, 6> kDangerBands = {0, 10, 20, 30, 40, 50};
inline constexpr double kDangerMid = 3.0;
inline constexpr double kDangerHigh = 20.0;

// INVALID_ARGUMENT naming `band` unless it is one of kDangerBands.
absl::Status ValidateBand(std::uint32_t band);

// The multiplier a zone whose lowest level is `zone_min_level` carries in `band`.
double DangerMultiplier(std::uint32_t band, std::uint32_t zone_min_level);

}  // namespace walk::nav
