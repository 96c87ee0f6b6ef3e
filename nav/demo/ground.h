// The demo world's open ground: forests where a second noise field is high, and the trees in
// them. Plan::GroundTag (ground.cc) tags a column of open ground: its zone, roads, town hubs and
// forest, and whether a tree stands there. Internal to nav/demo.
#pragma once

#include <cstdint>

#include "nav/demo/plane.h"
#include "nav/demo/random.h"

namespace walk::nav::demo {

class Forest {
 public:
  // The forests of the world's random `seed`.
  explicit Forest(std::uint64_t seed);

  // True where the forest noise is high enough for forest (other features aside).
  bool At(Vec2 p) const;
  // True when forest column (x, y) holds a tree (about 7% of them).
  bool TreeAt(std::int64_t x, std::int64_t y) const { return Hash01(tree_seed_, x, y) < 0.07; }

 private:
  std::uint64_t seed_[2] = {};
  std::uint64_t tree_seed_ = 0;
};

}  // namespace walk::nav::demo
