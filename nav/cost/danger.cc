#include "nav/cost/danger.h"

#include "absl/strings/str_cat.h"

namespace walk::nav {

absl::Status ValidateBand(std::uint32_t band) {
  for (std::uint32_t b : kDangerBands) {
    if (b == band) return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("band: ", band, " is not a danger band (0, 10, 20, 30, 40 or 50)"));
}

double DangerMultiplier(std::uint32_t band, std::uint32_t zone_min_level) {
  if (band == 0) return 1.0;
  if (zone_min_level > band + 10) return kDangerHigh;
  if (zone_min_level >= band + 4) return kDangerMid;
  return 1.0;
}

}  // namespace walk::nav
