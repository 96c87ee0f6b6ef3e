#include "nav/demo/zones.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "nav/demo/plan.h"
#include "nav/demo/random.h"

namespace walk::nav::demo {
namespace {

// Zone names: a word from each list.
constexpr std::array<const char*, 24> kZoneFirst = {
    "Amber",  "Ashen", "Briar", "Cinder",  "Dusk",    "Elder", "Frost",  "Gloam",
    "Hollow", "Iron",  "Jade",  "Kestrel", "Lantern", "Mist",  "North",  "Oak",
    "Pale",   "Quill", "Raven", "Silver",  "Thorn",   "Umber", "Vesper", "Willow"};
constexpr std::array<const char*, 16> kZoneSecond = {
    "Vale",  "Reach",   "Fields", "Hills",     "Marsh", "Wood", "Downs",    "Fen",
    "Heath", "Barrens", "Glen",   "Highlands", "Shore", "Moor", "Crossing", "Steppe"};

}  // namespace

void ZoneMap::Lay(const DemoOptions& options, double width, double height) {
  warp_seed_[0] = Salt(options.seed, 20);
  warp_seed_[1] = Salt(options.seed, 21);
  zones_x_ = std::max(2, static_cast<int>((options.tiles_x + 2) / 4));
  zones_y_ = std::max(2, static_cast<int>((options.tiles_y + 2) / 4));
  zone_w_ = width / zones_x_;
  zone_h_ = height / zones_y_;
  Rng rng(Salt(options.seed, 700));
  const int count = zones_x_ * zones_y_;
  for (int iy = 0; iy < zones_y_; ++iy) {
    for (int ix = 0; ix < zones_x_; ++ix) {
      sites_.push_back({zone_w_ * (ix + 0.5 + rng.Uniform(-0.25, 0.25)),
                        zone_h_ * (iy + 0.5 + rng.Uniform(-0.25, 0.25))});
    }
  }
  // Names: the word pairs shuffled (Fisher-Yates on our own generator).
  std::vector<int> pairs(kZoneFirst.size() * kZoneSecond.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) pairs[i] = static_cast<int>(i);
  for (std::size_t i = pairs.size() - 1; i > 0; --i) {
    std::swap(pairs[i], pairs[static_cast<std::size_t>(rng.Next() % (i + 1))]);
  }
  // Levels rise with the distance of the zone's site from the north-west corner.
  std::vector<int> order(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) order[static_cast<std::size_t>(i)] = i;
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const double da = Dot(sites_[static_cast<std::size_t>(a)], sites_[static_cast<std::size_t>(a)]);
    const double db = Dot(sites_[static_cast<std::size_t>(b)], sites_[static_cast<std::size_t>(b)]);
    return da != db ? da < db : a < b;
  });
  std::vector<int> rank(static_cast<std::size_t>(count));
  for (int r = 0; r < count; ++r)
    rank[static_cast<std::size_t>(order[static_cast<std::size_t>(r)])] = r;
  for (int i = 0; i < count; ++i) {
    Zone z;
    z.id = static_cast<std::uint16_t>(i + 1);
    const int pair = pairs[static_cast<std::size_t>(i) % pairs.size()];
    z.name = absl::StrCat(kZoneFirst[static_cast<std::size_t>(pair) / kZoneSecond.size()], " ",
                          kZoneSecond[static_cast<std::size_t>(pair) % kZoneSecond.size()]);
    if (static_cast<std::size_t>(i) >= pairs.size()) {
      z.name = absl::StrCat(z.name, " ", 1 + static_cast<std::size_t>(i) / pairs.size());
    }
    const int r = rank[static_cast<std::size_t>(i)];
    const int min_level = 1 + (count > 1 ? r * 55 / (count - 1) : 0);
    z.min_level = static_cast<std::uint16_t>(min_level);
    z.max_level = static_cast<std::uint16_t>(std::min(60, min_level + 5 + r % 4));
    zones_.push_back(z);
  }
}

std::uint16_t ZoneMap::At(Vec2 p) const {
  const Vec2 q{p.x + 0.12 * zone_w_ * Noise(warp_seed_[0], p.x / 350.0, p.y / 350.0),
               p.y + 0.12 * zone_h_ * Noise(warp_seed_[1], p.x / 350.0, p.y / 350.0)};
  const int ix = std::clamp(static_cast<int>(std::floor(q.x / zone_w_)), 0, zones_x_ - 1);
  const int iy = std::clamp(static_cast<int>(std::floor(q.y / zone_h_)), 0, zones_y_ - 1);
  double best = std::numeric_limits<double>::infinity();
  int id = 0;
  for (int jy = std::max(0, iy - 1); jy <= std::min(zones_y_ - 1, iy + 1); ++jy) {
    for (int jx = std::max(0, ix - 1); jx <= std::min(zones_x_ - 1, ix + 1); ++jx) {
      const int k = jy * zones_x_ + jx;
      const Vec2 d = q - sites_[static_cast<std::size_t>(k)];
      const double d2 = Dot(d, d);
      if (d2 < best) {
        best = d2;
        id = k + 1;
      }
    }
  }
  return static_cast<std::uint16_t>(id);
}

void Plan::LayZones() {
  zone_map_.Lay(options_, width_, height_);
  for (Building& b : buildings_) {
    b.zone = zone_map_.At(Local(b, b.width / 2.0, b.depth / 2.0));
  }
}

}  // namespace walk::nav::demo
