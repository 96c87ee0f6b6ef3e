// Plane geometry for the demo world's plan, in yards: x east, y south (the mesh's z).
// Internal to nav/demo.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace walk::nav::demo {

struct Vec2 {
  double x = 0.0, y = 0.0;
};
inline Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
inline Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
inline Vec2 operator*(Vec2 a, double k) { return {a.x * k, a.y * k}; }
inline double Dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
inline double Length(Vec2 a) { return std::sqrt(Dot(a, a)); }

// An axis-aligned box, bounds included.
struct Box {
  double x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0;
  bool Overlaps(const Box& o) const { return x0 <= o.x1 && o.x0 <= x1 && y0 <= o.y1 && o.y0 <= y1; }
  bool Contains(Vec2 p) const { return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1; }
  Box Grown(double m) const { return {x0 - m, y0 - m, x1 + m, y1 + m}; }
};

inline Box BoxAround(Vec2 c, double r) { return {c.x - r, c.y - r, c.x + r, c.y + r}; }

// The bounds of `points` (at least one).
inline Box BoxOf(const std::vector<Vec2>& points) {
  Box b{points[0].x, points[0].y, points[0].x, points[0].y};
  for (const Vec2& p : points) {
    b.x0 = std::min(b.x0, p.x);
    b.y0 = std::min(b.y0, p.y);
    b.x1 = std::max(b.x1, p.x);
    b.y1 = std::max(b.y1, p.y);
  }
  return b;
}

// Distance from p to segment ab; *t receives the nearest point's parameter in [0, 1].
inline double SegmentDistance(Vec2 p, Vec2 a, Vec2 b, double* t) {
  const Vec2 ab = b - a;
  const double len2 = Dot(ab, ab);
  double u = len2 > 0.0 ? Dot(p - a, ab) / len2 : 0.0;
  u = std::clamp(u, 0.0, 1.0);
  *t = u;
  return Length(p - (a + ab * u));
}

// The eight directions, east first, counter-clockwise in the map's terms.
inline constexpr double kRootHalf = 0.70710678118654752440;
inline constexpr std::array<Vec2, 8> kEightWays = {{{1.0, 0.0},
                                                    {kRootHalf, kRootHalf},
                                                    {0.0, 1.0},
                                                    {-kRootHalf, kRootHalf},
                                                    {-1.0, 0.0},
                                                    {-kRootHalf, -kRootHalf},
                                                    {0.0, -1.0},
                                                    {kRootHalf, -kRootHalf}}};

}  // namespace walk::nav::demo
