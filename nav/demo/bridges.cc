#include "nav/demo/bridges.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>

#include "nav/demo/plan.h"
#include "nav/demo/roads.h"
#include "nav/demo/triangles.h"
#include "nav/demo/water.h"

namespace walk::nav::demo {

double Embankment(const Bridge& b, Vec2 p) {
  constexpr double kNone = -std::numeric_limits<double>::infinity();
  if (!b.box.Contains(p)) return kNone;
  double best = std::numeric_limits<double>::infinity(), arc = 0.0;
  for (std::size_t i = 0; i + 1 < b.points.size(); ++i) {
    double t = 0.0;
    const double d = SegmentDistance(p, b.points[i], b.points[i + 1], &t);
    if (d < best) {
      best = d;
      arc = (static_cast<double>(i) + t) * 2.0;
    }
  }
  const double along = std::max({0.0, b.deck_from - arc, arc - b.deck_to});
  if (along > b.ramp) return kNone;
  const double top = b.deck_level - kRampSlope * along;
  const double side = best - (kRoadHalfWidth + 1.0);
  return side <= 0.0 ? top : top - 0.4 * side;
}

void Plan::LayBridges() {
  Context water;
  for (std::uint32_t i = 0; i < water_.rivers().size(); ++i) water.rivers.push_back(i);
  for (std::uint32_t i = 0; i < water_.lakes().size(); ++i) water.lakes.push_back(i);
  for (const Road& road : roads_.roads()) {
    const double length = road.arc.back();
    auto point_at = [&](double s) {
      s = std::clamp(s, 0.0, length);
      const auto it = std::upper_bound(road.arc.begin(), road.arc.end(), s);
      std::size_t i = static_cast<std::size_t>(it - road.arc.begin());
      i = std::clamp<std::size_t>(i, 1, road.points.size() - 1);
      const double seg = road.arc[i] - road.arc[i - 1];
      const double t = seg > 0.0 ? (s - road.arc[i - 1]) / seg : 0.0;
      return road.points[i - 1] + (road.points[i] - road.points[i - 1]) * t;
    };
    // Stretches of the road over water (or within 1.5 yards of it), a yard at a time.
    struct Wet {
      double from, to, low, high;
      bool water;
    };
    std::vector<Wet> stretches;
    const auto samples = static_cast<std::int64_t>(std::floor(length));
    for (std::int64_t k = 0; k <= samples; ++k) {
      const double s = static_cast<double>(k);
      const Vec2 p = point_at(s);
      if (water_.Distance(p, 2.0) >= 1.5) continue;
      double level = 0.0;
      const bool in = water_.At(p, water, &level);
      if (!stretches.empty() && s - stretches.back().to <= 15.0) {
        Wet& w = stretches.back();
        w.to = s;
        if (in) {
          w.low = w.water ? std::min(w.low, level) : level;
          w.high = w.water ? std::max(w.high, level) : level;
          w.water = true;
        }
      } else {
        stretches.push_back({s, s, level, level, in});
      }
    }
    for (const Wet& w : stretches) {
      if (!w.water) continue;
      Bridge b;
      b.deck_level = w.high + kDeckClearance;
      b.ramp = (b.deck_level - (w.low + kBankRise)) / kRampSlope + 2.0;
      const double deck_from = w.from - 2.0, deck_to = w.to + 2.0;
      const double start = deck_from - b.ramp - 6.0, end = deck_to + b.ramp + 6.0;
      const auto count = static_cast<int>(std::ceil((end - start) / 2.0));
      for (int k = 0; k <= count; ++k) b.points.push_back(point_at(start + 2.0 * k));
      // point_at clamps to the road: arcs of points before the road's start collapse onto it,
      // which only shortens a ramp that would run into a town anyway.
      b.deck_from = deck_from - start;
      b.deck_to = deck_to - start;
      b.box = BoxOf(b.points).Grown(kDeckHalfWidth + kRoadHalfWidth + 1.0 +
                                    (kDeckClearance + 1.0) / 0.4);
      bridges_.push_back(std::move(b));
    }
  }
}

void Plan::EmitBridge(const Bridge& b, TriangleMesh& mesh) const {
  const std::size_t n = b.points.size();
  std::vector<Vec2> across(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 d = b.points[std::min(n - 1, i + 1)] - b.points[i > 0 ? i - 1 : 0];
    const double len = Length(d);
    across[i] = len > 0.0 ? Vec2{-d.y / len, d.x / len} : Vec2{0.0, 1.0};
  }
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const double s0 = 2.0 * static_cast<double>(i), s1 = s0 + 2.0;
    if (s1 <= b.deck_from || s0 >= b.deck_to) continue;
    auto at = [&](double s) {
      const double t = std::clamp((s - s0) / 2.0, 0.0, 1.0);
      return std::make_pair(b.points[i] + (b.points[i + 1] - b.points[i]) * t,
                            across[i] + (across[i + 1] - across[i]) * t);
    };
    const auto [p0, n0] = at(std::max(s0, b.deck_from));
    const auto [p1, n1] = at(std::min(s1, b.deck_to));
    const TriangleTag tag{kFlagBuilding, kMarkRoad, zone_map_.At((p0 + p1) * 0.5)};
    const double y = b.deck_level;
    AddFloorQuad(mesh, p0 + n0 * kDeckHalfWidth, p1 + n1 * kDeckHalfWidth, p1 - n1 * kDeckHalfWidth,
                 p0 - n0 * kDeckHalfWidth, y, y, y, y, tag);
  }
}

}  // namespace walk::nav::demo
