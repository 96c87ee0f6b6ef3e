#include "nav/demo/ground.h"

#include <cstdint>

#include "nav/demo/plan.h"
#include "nav/demo/roads.h"

namespace walk::nav::demo {

Forest::Forest(std::uint64_t seed)
    : seed_{Salt(seed, 10), Salt(seed, 11)}, tree_seed_(Salt(seed, 12)) {}

bool Forest::At(Vec2 p) const {
  const double f = 0.7 * Noise(seed_[0], p.x / 260.0, p.y / 260.0) +
                   0.3 * Noise(seed_[1], p.x / 90.0, p.y / 90.0);
  return f > 0.18;
}

TriangleTag Plan::GroundTag(std::int64_t x, std::int64_t y, Vec2 centre, const Context& c,
                            bool* tree) const {
  TriangleTag tag;
  tag.flags = kFlagTerrain;
  tag.zone = zone_map_.At(centre);
  const double road = roads_.Distance(centre, kRoadHalfWidth + 5.0);
  if (road < kRoadHalfWidth) tag.marks |= kMarkRoad;
  bool near_town = false;
  for (std::uint32_t i : c.towns) {
    const Town& t = towns_[i];
    const double d = Length(centre - t.center);
    if (d < t.radius) tag.marks |= t.faction == 0 ? kMarkHubA : kMarkHubB;
    if (d < t.radius + 8.0) near_town = true;
  }
  bool near_crag = false;
  for (std::uint32_t i : c.crags) {
    if (Length(centre - crags_[i].center) < crags_[i].radius + 3.0) near_crag = true;
  }
  const bool forest =
      !near_town && !near_crag && road >= kRoadHalfWidth + 3.0 && forest_.At(centre);
  if (forest) tag.flags |= kFlagForest;
  *tree = false;
  if (forest && road >= kRoadHalfWidth + 5.0 && forest_.TreeAt(x, y)) {
    *tree = true;
    for (std::uint32_t i : c.mesas) {
      const Mesa& m = mesas_[i];
      if (Length(centre - m.center) < m.radius * (1.0 + kMesaShape) + 10.0) *tree = false;
    }
  }
  return tag;
}

}  // namespace walk::nav::demo
