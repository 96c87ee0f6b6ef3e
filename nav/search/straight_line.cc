#include "nav/search/straight_line.h"

#include <cmath>
#include <cstdlib>

namespace walk::nav {
namespace {

// The direction of the unit step (sx, sy), each in {-1, 0, 1}, not both 0.
int DirectionOf(int sx, int sy) {
  for (int d = 0; d < kDirectionCount; ++d) {
    if (kDirectionDx[d] == sx && kDirectionDy[d] == sy) return d;
  }
  return -1;
}

// Takes the step from `s` in direction `d` if its link exists (and, for a diagonal, both
// orthogonal links too). Returns the surface reached, or kInvalidId.
SurfaceId Step(const Continent& c, SurfaceId s, int d) {
  const LinkSet& links = c.links[s];
  if (!HasLink(links[d])) return kInvalidId;
  if (IsDiagonal(d) && (!HasLink(links[d - 1]) || !HasLink(links[(d + 1) & 7]))) return kInvalidId;
  return c.LinkTarget(s, d);
}

}  // namespace

std::optional<std::vector<PathStep>> PlainOctileLine(const Continent& c, const Metric& metric,
                                                     SurfaceId from, SurfaceId to) {
  const int ax = c.column_x[from], ay = c.column_y[from];
  const int dx = c.column_x[to] - ax, dy = c.column_y[to] - ay;
  const int n = std::max(std::abs(dx), std::abs(dy));
  std::vector<PathStep> steps = {{from, PathStep::kViaStart}};
  SurfaceId s = from;
  int x = ax, y = ay;
  for (int i = 1; i <= n; ++i) {
    // The column nearest the ideal line after i steps (rounded half away from zero).
    const int nx = ax + static_cast<int>(std::lround(static_cast<double>(i) * dx / n));
    const int ny = ay + static_cast<int>(std::lround(static_cast<double>(i) * dy / n));
    const int d = DirectionOf(nx - x, ny - y);
    if (d < 0) return std::nullopt;
    const LinkKind kind = LinkKindOf(c.links[s][d]);
    const SurfaceId next = Step(c, s, d);
    if (next == kInvalidId || (kind != LinkKind::kWalk && kind != LinkKind::kIndoor))
      return std::nullopt;
    if (metric.EnterMultiplier(c, next, c.zone[from], c.zone[to]) != 1.0) return std::nullopt;
    steps.push_back({next, static_cast<std::uint8_t>(d)});
    s = next;
    x = nx;
    y = ny;
  }
  if (s != to) return std::nullopt;
  return steps;
}

bool SegmentWalkable(const Continent& c, SurfaceId from, SurfaceId to) {
  // Amanatides-Woo traversal between column centres; an exact corner crossing is a diagonal
  // step, which Step() allows only with both orthogonal links.
  const int x1 = c.column_x[to], y1 = c.column_y[to];
  int x = c.column_x[from], y = c.column_y[from];
  const int dx = x1 - x, dy = y1 - y;
  const int sx = dx > 0 ? 1 : (dx < 0 ? -1 : 0);
  const int sy = dy > 0 ? 1 : (dy < 0 ? -1 : 0);
  const long adx = std::abs(dx), ady = std::abs(dy);
  // Compare crossings exactly in integers: the next x border is at (2i+1) / (2 adx) of the way.
  long ix = 0, iy = 0;  // borders crossed so far along x and y
  SurfaceId s = from;
  while (ix < adx || iy < ady) {
    // Parameter of the next x crossing (2ix+1)/(2adx) vs y crossing (2iy+1)/(2ady).
    const long lhs = (2 * ix + 1) * ady;  // compare (2ix+1)/adx with (2iy+1)/ady
    const long rhs = (2 * iy + 1) * adx;
    int d;
    if (ix < adx && (iy >= ady || lhs < rhs)) {
      d = DirectionOf(sx, 0);
      ++ix;
    } else if (iy < ady && (ix >= adx || rhs < lhs)) {
      d = DirectionOf(0, sy);
      ++iy;
    } else {  // through the corner exactly
      d = DirectionOf(sx, sy);
      ++ix;
      ++iy;
    }
    s = Step(c, s, d);
    if (s == kInvalidId) return false;
    x += kDirectionDx[d];
    y += kDirectionDy[d];
  }
  return s == to;
}

}  // namespace walk::nav
