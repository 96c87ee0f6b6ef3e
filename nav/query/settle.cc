#include "nav/query/settle.h"

#include <cmath>

#include "nav/query/snap.h"

namespace walk::nav {

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

void SettleApart(const Continent& c, double column_yards, const SettleOptions& options, End* a,
                 End* b) {
  if (a->region != b->region) SettleEnd(c, column_yards, options, a);
  if (b->region != a->region) SettleEnd(c, column_yards, options, b);
}

}  // namespace walk::nav
