#include "nav/query/snap.h"

#include <algorithm>
#include <cmath>

namespace walk::nav {

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

SurfaceSnap SnapSurface(const Continent& c, const WorldFrame& frame, const Place& place) {
  const std::int64_t x = frame.ColumnX(place.x_yards);
  const std::int64_t y = frame.ColumnY(place.y_yards);
  if (!c.OnMap(x, y) ||
      c.TileAt(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y)) == nullptr) {
    return {.status = WalkStatus::kOffMap};
  }
  SurfaceId first, end;
  c.ColumnSurfaces(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), &first, &end);
  if (first == end) return {.status = WalkStatus::kNoSurface};
  SurfaceId chosen = kInvalidId;
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
  return {.status = WalkStatus::kOk, .surface = chosen};
}

Snap SnapPlace(const Continent& c, const WorldFrame& frame, const Place& place) {
  return SnapOfSurface(c, SnapSurface(c, frame, place));
}

Snap SnapOfSurface(const Continent& c, const SurfaceSnap& surface) {
  Snap snap;
  snap.status = surface.status;
  if (surface.status == WalkStatus::kOk) snap.end = EndAt(c, surface.surface);
  return snap;
}

Place PlaceOf(const Continent& c, const WorldFrame& frame, SurfaceId s) {
  Place p;
  p.continent = c.id;
  p.x_yards = frame.CentreX(c.column_x[s]);
  p.y_yards = frame.CentreY(c.column_y[s]);
  p.z_yards = c.height_yards[s];
  return p;
}

}  // namespace walk::nav
