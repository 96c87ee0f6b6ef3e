#include "nav/demo/terrain.h"

#include <algorithm>
#include <cstdint>

#include "nav/demo/plan.h"

namespace walk::nav::demo {

Hills::Hills(std::uint64_t seed) : seed_{Salt(seed, 1), Salt(seed, 2), Salt(seed, 3)} {}

double Hills::Height(Vec2 p) const {
  return 20.0 + 16.0 * Noise(seed_[0], p.x / 600.0, p.y / 600.0) +
         5.0 * Noise(seed_[1], p.x / 180.0, p.y / 180.0) +
         1.2 * Noise(seed_[2], p.x / 50.0, p.y / 50.0);
}

double Plan::Height(Vec2 p, const Context& c) const {
  double h = hills_.Height(p);
  for (std::uint32_t i : c.towns) {
    const Town& town = towns_[i];
    h = BlendToward(h, town.level, Length(p - town.center) - town.radius);
  }
  for (std::uint32_t i : c.rivers) {
    RiverHit hit;
    if (NearestOnRiver(water_.rivers()[i], p, kMaxRiverHalfWidth + kMaxBlend, &hit)) {
      h = BlendToward(h, hit.level + kBankRise, hit.distance - hit.half_width);
    }
  }
  for (std::uint32_t i : c.lakes) {
    const Lake& lake = water_.lakes()[i];
    h = BlendToward(h, lake.level + kBankRise, LakeEdgeDistance(lake, p));
  }
  for (std::uint32_t i : c.bridges) h = std::max(h, Embankment(bridges_[i], p));
  for (std::uint32_t i : c.crags) {
    const Crag& crag = crags_[i];
    const double d = Length(p - crag.center);
    if (d < crag.radius) h += crag.height * (1.0 - d / crag.radius);
  }
  return h;
}

}  // namespace walk::nav::demo
