#include "nav/layers/column_raster.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace walk::nav {
namespace {

// The first index in [0, count] whose centre is at least `v` (count when none is): a binary
// search over the centres themselves, so the rule is decided by the very values it names and a
// coordinate far off the map converts no huge number.
template <typename Centre>
std::int64_t FirstCentreAtLeast(double v, std::int64_t count, const Centre& centre) {
  std::int64_t lo = 0, hi = count;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (centre(mid) < v) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// The first index in [0, count] whose centre is above `v`.
template <typename Centre>
std::int64_t FirstCentreAbove(double v, std::int64_t count, const Centre& centre) {
  std::int64_t lo = 0, hi = count;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (centre(mid) <= v) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace

void ForEachColumnInPolygon(const Continent& c, const WorldFrame& frame, const GeoPolygon& polygon,
                            absl::FunctionRef<void(std::uint32_t x, std::uint32_t y)> visit) {
  const std::int64_t width = c.width_columns, height = c.height_columns;
  auto centre_x = [&](std::int64_t x) { return frame.CentreX(x); };
  auto centre_y = [&](std::int64_t y) { return frame.CentreY(y); };
  double min_y = std::numeric_limits<double>::infinity(), max_y = -min_y;
  for (const auto& ring : polygon.rings) {
    for (const GeoPoint& p : ring) {
      min_y = std::min(min_y, p.y);
      max_y = std::max(max_y, p.y);
    }
  }
  if (!(min_y <= max_y)) return;
  const std::int64_t row_end = FirstCentreAbove(max_y, height, centre_y);
  std::vector<double> crossings;
  for (std::int64_t row = FirstCentreAtLeast(min_y, height, centre_y); row < row_end; ++row) {
    const double cy = frame.CentreY(row);
    // Where the row's centre line crosses each edge, counting an edge when exactly one of its
    // ends lies above the line: the crossing test's half-open rule.
    crossings.clear();
    for (const auto& ring : polygon.rings) {
      for (std::size_t i = 0; i < ring.size(); ++i) {
        const GeoPoint& a = ring[i];
        const GeoPoint& b = ring[(i + 1) % ring.size()];
        if ((a.y > cy) != (b.y > cy)) {
          // t is in [0, 1]; a vertical edge crosses at its very x (the rule on boundaries
          // depends on it), and ends too far apart for their difference to be finite are mixed
          // instead, so no crossing is NaN (which would break the sort).
          const double t = (cy - a.y) / (b.y - a.y);
          const double d = b.x - a.x;
          crossings.push_back(std::isfinite(d) ? a.x + t * d : a.x * (1.0 - t) + b.x * t);
        }
      }
    }
    std::sort(crossings.begin(), crossings.end());
    // A centre is inside when an odd number of crossings lie east of it: between crossings
    // 2k (included) and 2k + 1 (excluded). The count is even: each ring is closed.
    for (std::size_t k = 0; k + 1 < crossings.size(); k += 2) {
      const std::int64_t end = FirstCentreAtLeast(crossings[k + 1], width, centre_x);
      for (std::int64_t x = FirstCentreAtLeast(crossings[k], width, centre_x); x < end; ++x) {
        visit(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(row));
      }
    }
  }
}

void ForEachColumnNearLine(const Continent& c, const WorldFrame& frame, const GeoLine& line,
                           double half_width_yards,
                           absl::FunctionRef<void(std::uint32_t x, std::uint32_t y)> visit) {
  const std::int64_t width = c.width_columns, height = c.height_columns;
  auto centre_x = [&](std::int64_t x) { return frame.CentreX(x); };
  auto centre_y = [&](std::int64_t y) { return frame.CentreY(y); };
  const double h = half_width_yards;
  const double h2 = h * h;
  // A line of one position is a round dot: its one segment has both ends there.
  for (std::size_t i = 0; i == 0 || i + 1 < line.size(); ++i) {
    if (line.empty()) return;
    const GeoPoint a = line[i];
    const GeoPoint b = line[std::min(i + 1, line.size() - 1)];
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double length2 = dx * dx + dy * dy;
    const std::int64_t x_end = FirstCentreAbove(std::max(a.x, b.x) + h, width, centre_x);
    const std::int64_t y_end = FirstCentreAbove(std::max(a.y, b.y) + h, height, centre_y);
    const std::int64_t x_begin = FirstCentreAtLeast(std::min(a.x, b.x) - h, width, centre_x);
    for (std::int64_t y = FirstCentreAtLeast(std::min(a.y, b.y) - h, height, centre_y); y < y_end;
         ++y) {
      const double py = frame.CentreY(y);
      for (std::int64_t x = x_begin; x < x_end; ++x) {
        const double px = frame.CentreX(x);
        // The nearest point of the segment: its projection, clamped to the ends.
        double t = length2 > 0.0 ? ((px - a.x) * dx + (py - a.y) * dy) / length2 : 0.0;
        t = std::clamp(t, 0.0, 1.0);
        const double ex = px - (a.x + t * dx), ey = py - (a.y + t * dy);
        if (ex * ex + ey * ey <= h2) {
          visit(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y));
        }
      }
    }
  }
}

}  // namespace walk::nav
