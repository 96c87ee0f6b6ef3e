#include "nav/query/snap.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace walk::nav {

absl::Status ValidatePlace(const Place& place, double column_yards, absl::string_view field) {
  const double limit = kMaxColumns * column_yards;
  auto check = [&](double value, absl::string_view name) -> absl::Status {
    if (!std::isfinite(value)) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".", name, ": must be a finite number"));
    }
    if (value < 0 || value >= limit) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".", name, ": ", value, " is out of range [0, ", limit, ") yards"));
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
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".z_yards: ", z, " is out of range [-1e6, 1e6] yards"));
    }
  }
  return absl::OkStatus();
}

namespace {

End EndAt(const Continent& c, SurfaceId s) {
  End end;
  end.column_x = c.column_x[s];
  end.column_y = c.column_y[s];
  end.surface = s;
  end.level = c.level[s];
  end.surface_z_yards = c.height_yards[s];
  end.region = c.region[s];
  end.zone = c.zone[s];
  return end;
}

}  // namespace

bool SettleEnd(const Continent& c, double column_yards, const SettleOptions& options, End* end) {
  const std::uint32_t large = options.large_region_surfaces;
  if (c.region_size[end->region] >= large) return false;
  const auto reach = static_cast<std::int64_t>(std::ceil(options.radius_yards / column_yards));
  const double z = end->surface_z_yards;
  SurfaceId best = kInvalidId;
  double best_horizontal = kInfCost, best_vertical = kInfCost;
  for (std::int64_t dy = -reach; dy <= reach; ++dy) {
    for (std::int64_t dx = -reach; dx <= reach; ++dx) {
      const double horizontal =
          std::hypot(static_cast<double>(dx), static_cast<double>(dy)) * column_yards;
      if (horizontal > options.radius_yards || horizontal > best_horizontal) continue;
      const std::int64_t x = end->column_x + dx, y = end->column_y + dy;
      if (!c.OnMap(x, y)) continue;
      SurfaceId first, last;
      c.ColumnSurfaces(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), &first, &last);
      for (SurfaceId s = first; s < last; ++s) {
        const double rise = c.height_yards[s] - z;
        if (rise > options.up_yards || -rise > options.down_yards) continue;
        if (c.region_size[c.region[s]] < large || c.links[s] == kNoLinks) continue;
        if (horizontal < best_horizontal ||
            (horizontal == best_horizontal && std::abs(rise) < best_vertical)) {
          best = s;
          best_horizontal = horizontal;
          best_vertical = std::abs(rise);
        }
      }
    }
  }
  if (best == kInvalidId) return false;
  *end = EndAt(c, best);
  end->settled = true;
  end->settle_yards = std::hypot(best_horizontal, best_vertical);
  return true;
}

Snap SnapPlace(const Continent& c, double column_yards, const Place& place) {
  Snap snap;
  const auto x = static_cast<std::int64_t>(std::floor(place.x_yards / column_yards));
  const auto y = static_cast<std::int64_t>(std::floor(place.y_yards / column_yards));
  if (!c.OnMap(x, y) ||
      c.TileAt(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y)) == nullptr) {
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
  snap.end = EndAt(c, chosen);
  return snap;
}

Place PlaceOf(const Continent& c, double column_yards, SurfaceId s) {
  Place p;
  p.continent = c.id;
  p.x_yards = (c.column_x[s] + 0.5) * column_yards;
  p.y_yards = (c.column_y[s] + 0.5) * column_yards;
  p.z_yards = c.height_yards[s];
  return p;
}

}  // namespace walk::nav
