#include "nav/demo/roads.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "nav/demo/random.h"

namespace walk::nav::demo {

void Roads::Lay(const std::vector<Town>& towns, const DemoOptions& options, double width,
                double height) {
  const std::size_t n = towns.size();
  std::vector<bool> in_tree(n, false);
  std::vector<double> best(n, std::numeric_limits<double>::infinity());
  std::vector<std::size_t> parent(n, 0);
  best[0] = 0.0;
  for (std::size_t round = 0; round < n; ++round) {
    std::size_t u = n;
    for (std::size_t i = 0; i < n; ++i) {
      if (!in_tree[i] && (u == n || best[i] < best[u])) u = i;
    }
    in_tree[u] = true;
    if (round > 0) {
      const Vec2 a = towns[parent[u]].center, b = towns[u].center;
      Rng rng(Salt(options.seed, 1000 + static_cast<std::uint64_t>(u)));
      const std::uint64_t wiggle = rng.Next(), wiggle2 = rng.Next();
      const double length = Length(b - a);
      const Vec2 along = (b - a) * (1.0 / length);
      const Vec2 across{-along.y, along.x};
      const double amplitude = std::min(0.18 * length, 90.0);
      const auto steps = static_cast<int>(std::max(2.0, std::ceil(length / 6.0)));
      Road road;
      for (int s = 0; s <= steps; ++s) {
        const double t = static_cast<double>(s) / steps;
        const double sway = amplitude * 4.0 * t * (1.0 - t) *
                            (0.75 * Noise(wiggle, t * length / 170.0, 0.5) +
                             0.25 * Noise(wiggle2, t * length / 60.0, 0.5));
        Vec2 p = a + (b - a) * t + across * sway;
        p.x = std::clamp(p.x, 8.0, width - 8.0);
        p.y = std::clamp(p.y, 8.0, height - 8.0);
        road.points.push_back(p);
      }
      road.arc.push_back(0.0);
      for (std::size_t i = 1; i < road.points.size(); ++i) {
        road.arc.push_back(road.arc.back() + Length(road.points[i] - road.points[i - 1]));
      }
      roads_.push_back(std::move(road));
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (in_tree[i]) continue;
      const double d = Length(towns[i].center - towns[u].center);
      if (d < best[i]) {
        best[i] = d;
        parent[i] = u;
      }
    }
  }
  Index(width, height);
}

void Roads::Index(double width, double height) {
  bucket_x0_ = -2.0 * kBucket;
  bucket_y0_ = -2.0 * kBucket;
  buckets_x_ = static_cast<std::int64_t>(std::ceil((width + 4.0 * kBucket) / kBucket));
  buckets_y_ = static_cast<std::int64_t>(std::ceil((height + 4.0 * kBucket) / kBucket));
  const auto total = static_cast<std::size_t>(buckets_x_ * buckets_y_);
  std::vector<std::uint32_t> counts(total + 1, 0);
  auto each = [&](auto&& visit) {
    for (std::uint32_t r = 0; r < roads_.size(); ++r) {
      const Road& road = roads_[r];
      for (std::uint32_t s = 0; s + 1 < road.points.size(); ++s) {
        const Box b = BoxOf({road.points[s], road.points[s + 1]}).Grown(1.0);
        const auto bx0 = std::clamp<std::int64_t>(
            static_cast<std::int64_t>(std::floor((b.x0 - bucket_x0_) / kBucket)), 0,
            buckets_x_ - 1);
        const auto bx1 = std::clamp<std::int64_t>(
            static_cast<std::int64_t>(std::floor((b.x1 - bucket_x0_) / kBucket)), 0,
            buckets_x_ - 1);
        const auto by0 = std::clamp<std::int64_t>(
            static_cast<std::int64_t>(std::floor((b.y0 - bucket_y0_) / kBucket)), 0,
            buckets_y_ - 1);
        const auto by1 = std::clamp<std::int64_t>(
            static_cast<std::int64_t>(std::floor((b.y1 - bucket_y0_) / kBucket)), 0,
            buckets_y_ - 1);
        for (std::int64_t by = by0; by <= by1; ++by) {
          for (std::int64_t bx = bx0; bx <= bx1; ++bx) {
            visit(static_cast<std::size_t>(by * buckets_x_ + bx), r, s);
          }
        }
      }
    }
  };
  each([&](std::size_t bucket, std::uint32_t, std::uint32_t) { ++counts[bucket + 1]; });
  for (std::size_t i = 0; i < total; ++i) counts[i + 1] += counts[i];
  bucket_first_ = counts;
  bucket_items_.resize(counts[total]);
  std::vector<std::uint32_t> next(counts.begin(), counts.end() - 1);
  each([&](std::size_t bucket, std::uint32_t r, std::uint32_t s) {
    bucket_items_[next[bucket]++] = {r, s};
  });
}

double Roads::Distance(Vec2 p, double limit) const {
  if (buckets_x_ == 0) return limit;
  double best = limit;
  const auto bx0 = std::clamp<std::int64_t>(
      static_cast<std::int64_t>(std::floor((p.x - limit - bucket_x0_) / kBucket)), 0,
      buckets_x_ - 1);
  const auto bx1 = std::clamp<std::int64_t>(
      static_cast<std::int64_t>(std::floor((p.x + limit - bucket_x0_) / kBucket)), 0,
      buckets_x_ - 1);
  const auto by0 = std::clamp<std::int64_t>(
      static_cast<std::int64_t>(std::floor((p.y - limit - bucket_y0_) / kBucket)), 0,
      buckets_y_ - 1);
  const auto by1 = std::clamp<std::int64_t>(
      static_cast<std::int64_t>(std::floor((p.y + limit - bucket_y0_) / kBucket)), 0,
      buckets_y_ - 1);
  for (std::int64_t by = by0; by <= by1; ++by) {
    for (std::int64_t bx = bx0; bx <= bx1; ++bx) {
      const auto bucket = static_cast<std::size_t>(by * buckets_x_ + bx);
      for (std::uint32_t k = bucket_first_[bucket]; k < bucket_first_[bucket + 1]; ++k) {
        const auto [road, segment] = bucket_items_[k];
        const Road& r = roads_[road];
        double t = 0.0;
        best = std::min(best, SegmentDistance(p, r.points[segment], r.points[segment + 1], &t));
      }
    }
  }
  return best;
}

}  // namespace walk::nav::demo
