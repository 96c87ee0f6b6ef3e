#include "nav/snap.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace walk::nav {

absl::Status ValidatePlace(const Place& place, double column_yards, absl::string_view field) {
  const double limit = kMaxColumns * column_yards;
  auto check = [&](double value, absl::string_view name) -> absl::Status {
    if (!std::isfinite(value)) {
      return absl::InvalidArgumentError(absl::StrCat(field, ".", name, ": must be a finite number"));
    }
    if (value < 0 || value >= limit) {
      return absl::InvalidArgumentError(absl::StrCat(field, ".", name, ": ", value,
                                                     " is out of range [0, ", limit, ") yards"));
    }
    return absl::OkStatus();
  };
  if (absl::Status s = check(place.x_yards, "x_yards"); !s.ok()) return s;
  if (absl::Status s = check(place.y_yards, "y_yards"); !s.ok()) return s;
  if (place.z_yards.has_value()) {
    const double z = *place.z_yards;
    if (!std::isfinite(z)) {
      return absl::InvalidArgumentError(absl::StrCat(field, ".z_yards: must be a finite number"));
    }
    if (std::abs(z) > kMaxAbsHeightYards) {
      return absl::InvalidArgumentError(absl::StrCat(field, ".z_yards: ", z,
                                                     " is out of range [-1e6, 1e6] yards"));
    }
  }
  return absl::OkStatus();
}

Snap SnapPlace(const Continent& c, double column_yards, const Place& place) {
  Snap snap;
  const auto x = static_cast<std::int64_t>(std::floor(place.x_yards / column_yards));
  const auto y = static_cast<std::int64_t>(std::floor(place.y_yards / column_yards));
  if (!c.OnMap(x, y) || c.TileAt(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y)) == nullptr) {
    snap.status = WalkStatus::kOffMap;
    return snap;
  }
  SurfaceId first, end;
  c.ColumnSurfaces(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), &first, &end);
  SurfaceId chosen = kInvalidId;
  if (first == end) {
    snap.status = WalkStatus::kNoSurface;
    return snap;
  }
  if (place.z_yards.has_value()) {
    double best = kInfCost;
    for (SurfaceId s = first; s < end; ++s) {
      const double distance = std::abs(c.height_yards[s] - *place.z_yards);
      if (distance < best) {
        best = distance;
        chosen = s;
      }
    }
  } else {
    for (SurfaceId s = first; s < end && chosen == kInvalidId; ++s) {
      if (c.flags[s] & kFlagIndoor) chosen = s;
    }
    if (chosen == kInvalidId) chosen = end - 1;
  }
  snap.end.column_x = static_cast<std::uint32_t>(x);
  snap.end.column_y = static_cast<std::uint32_t>(y);
  snap.end.surface = chosen;
  snap.end.level = c.level[chosen];
  snap.end.surface_z_yards = c.height_yards[chosen];
  snap.end.region = c.region[chosen];
  return snap;
}

}  // namespace walk::nav
