#include "nav/demo/water.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "nav/demo/random.h"

namespace walk::nav::demo {

bool NearestOnRiver(const River& r, Vec2 p, double limit, RiverHit* hit) {
  const auto n = static_cast<std::int64_t>(r.points.size());
  if (p.y < r.y_min - limit || p.y > r.y_max + limit) return false;
  double best = limit;
  bool found = false;
  std::int64_t i0 = static_cast<std::int64_t>(std::floor((p.x - r.x0) / r.step));
  i0 = std::clamp<std::int64_t>(i0, 0, n - 2);
  auto test = [&](std::int64_t i) {
    double t = 0.0;
    const auto k = static_cast<std::size_t>(i);
    const double d = SegmentDistance(p, r.points[k], r.points[k + 1], &t);
    if (d < best) {
      best = d;
      found = true;
      hit->distance = d;
      hit->level = r.level[k] + (r.level[k + 1] - r.level[k]) * t;
      hit->half_width = r.half_width[k] + (r.half_width[k + 1] - r.half_width[k]) * t;
    }
  };
  for (std::int64_t i = i0; i >= 0; --i) {
    if (p.x - r.points[static_cast<std::size_t>(i + 1)].x > best) break;
    test(i);
  }
  for (std::int64_t i = i0 + 1; i + 1 < n; ++i) {
    if (r.points[static_cast<std::size_t>(i)].x - p.x > best) break;
    test(i);
  }
  return found;
}

double RiverYAt(const River& r, double x) {
  const auto n = static_cast<std::int64_t>(r.points.size());
  const double f = (x - r.x0) / r.step;
  const std::int64_t i =
      std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor(f)), 0, n - 2);
  const double t = std::clamp(f - static_cast<double>(i), 0.0, 1.0);
  const Vec2 a = r.points[static_cast<std::size_t>(i)];
  const Vec2 b = r.points[static_cast<std::size_t>(i + 1)];
  return a.y + (b.y - a.y) * t;
}

double LakeEdgeDistance(const Lake& lake, Vec2 p) {
  const Vec2 d = p - lake.center;
  const double len = Length(d);
  if (len < 1e-9) return -lake.radius;
  // Far away the shape does not matter, only that the point is beyond any blend.
  if (len > lake.radius * (1.0 + kLakeShape) + kMaxBlend)
    return len - lake.radius * (1.0 + kLakeShape);
  const double r = lake.radius * (1.0 + kLakeShape * Noise(lake.shape, 1.6 * d.x / len + 8.0,
                                                           1.6 * d.y / len + 8.0));
  return len - r;
}

void Water::LayRivers(const DemoOptions& options, double width, double height, const Hills& hills) {
  const int count =
      std::clamp<int>(static_cast<int>((options.tiles_x + options.tiles_y) / 6), 1, 24);
  const double band = height / count;
  faction_river_ = count / 2;
  for (int i = 0; i < count; ++i) {
    Rng rng(Salt(options.seed, 100 + static_cast<std::uint64_t>(i)));
    River r;
    const double y_base = band * (i + 0.5) + band * rng.Uniform(-0.08, 0.08);
    const double amplitude = std::min(0.2 * band, 220.0);
    const double wave = rng.Uniform(240.0, 340.0);
    const std::uint64_t s1 = rng.Next(), s2 = rng.Next(), sw = rng.Next();
    r.x0 = -36.0;
    r.step = 12.0;
    const auto n = static_cast<std::size_t>(std::ceil((width + 72.0) / r.step)) + 1;
    for (std::size_t k = 0; k < n; ++k) {
      const double x = r.x0 + static_cast<double>(k) * r.step;
      const double y = y_base + amplitude * (0.75 * Noise(s1, x / wave, 0.5) +
                                             0.25 * Noise(s2, 3.0 * x / wave, 0.5));
      r.points.push_back({x, y});
      r.half_width.push_back(6.0 + 3.0 * (0.5 + 0.5 * Noise(sw, x / 400.0, 0.5)));
    }
    // Levels: the ground along the river, sunk a yard, smoothed, then never rising downstream
    // and falling at most half a yard per 12 (0.09 yards a column: swum).
    std::vector<double> raw(n), smooth(n);
    for (std::size_t k = 0; k < n; ++k) raw[k] = hills.Height(r.points[k]) - 1.0;
    for (std::size_t k = 0; k < n; ++k) {
      double sum = 0.0;
      int m = 0;
      for (std::size_t j = (k >= 5 ? k - 5 : 0); j <= std::min(n - 1, k + 5); ++j, ++m)
        sum += raw[j];
      smooth[k] = sum / m;
    }
    r.level.resize(n);
    r.level[0] = smooth[0];
    for (std::size_t k = 1; k < n; ++k) {
      r.level[k] = std::clamp(smooth[k], r.level[k - 1] - 0.5, r.level[k - 1]);
    }
    r.y_min = r.y_max = r.points[0].y;
    for (const Vec2& p : r.points) {
      r.y_min = std::min(r.y_min, p.y);
      r.y_max = std::max(r.y_max, p.y);
    }
    rivers_.push_back(std::move(r));
  }
}

void Water::LayLakes(const DemoOptions& options) {
  const int count =
      std::clamp<int>(static_cast<int>(options.tiles_x * options.tiles_y / 16), 1, 200);
  for (int k = 0; k < count; ++k) {
    Rng rng(Salt(options.seed, 200 + static_cast<std::uint64_t>(k)));
    River& river = rivers_[static_cast<std::size_t>(k) % rivers_.size()];
    const std::size_t n = river.points.size();
    for (int attempt = 0; attempt < 40; ++attempt) {
      const double f = k == 0 ? rng.Uniform(0.1, 0.2) : rng.Uniform(0.08, 0.92);
      const auto index = static_cast<std::size_t>(f * static_cast<double>(n - 1));
      Lake lake;
      lake.center = river.points[index];
      lake.radius = rng.Uniform(40.0, 65.0);
      lake.shape = rng.Next();
      bool clear = true;
      for (const Lake& other : lakes_) {
        if (Length(other.center - lake.center) < lake.radius + other.radius + 150.0) clear = false;
      }
      if (!clear) continue;
      lake.level = river.level[index];
      // The river is flat through the lake; then its levels are eased in and out again.
      for (std::size_t j = 0; j < n; ++j) {
        if (Length(river.points[j] - lake.center) < lake.radius * 1.3) river.level[j] = lake.level;
      }
      for (std::size_t j = n - 1; j > 0; --j) {
        river.level[j - 1] = std::min(river.level[j - 1], river.level[j] + 0.5);
      }
      for (std::size_t j = 1; j < n; ++j) {
        river.level[j] = std::max(river.level[j], river.level[j - 1] - 0.5);
      }
      lakes_.push_back(lake);
      break;
    }
  }
}

bool Water::At(Vec2 p, const Context& c, double* level) const {
  for (std::uint32_t i : c.lakes) {
    if (LakeEdgeDistance(lakes_[i], p) < 0.0) {
      *level = lakes_[i].level;
      return true;
    }
  }
  for (std::uint32_t i : c.rivers) {
    RiverHit hit;
    if (NearestOnRiver(rivers_[i], p, kMaxRiverHalfWidth, &hit) && hit.distance < hit.half_width) {
      *level = hit.level;
      return true;
    }
  }
  return false;
}

double Water::Distance(Vec2 p, double limit, double* level) const {
  double best = limit;
  for (const River& r : rivers_) {
    RiverHit hit;
    if (NearestOnRiver(r, p, best + kMaxRiverHalfWidth, &hit) &&
        hit.distance - hit.half_width < best) {
      best = hit.distance - hit.half_width;
      if (level != nullptr) *level = hit.level;
    }
  }
  for (const Lake& lake : lakes_) {
    const double d = LakeEdgeDistance(lake, p);
    if (d < best) {
      best = d;
      if (level != nullptr) *level = lake.level;
    }
  }
  return best;
}

}  // namespace walk::nav::demo
