// The demo world's zones: a jittered grid of sites, each column going to the nearest site after
// a noise warp; ids from 1, generated names, and level ranges rising with the site's distance
// from the north-west corner. Internal to nav/demo.
#pragma once

#include <cstdint>
#include <vector>

#include "nav/demo/demo_world.h"
#include "nav/demo/plane.h"
#include "nav/grid/grid.h"

namespace walk::nav::demo {

class ZoneMap {
 public:
  // Lays the zones over a map `width` x `height` yards: 2 sites along each side up to 9 tiles,
  // then one per 4 tiles.
  void Lay(const DemoOptions& options, double width, double height);

  // The zone of point p (1 .. zones().size()).
  std::uint16_t At(Vec2 p) const;

  const std::vector<Zone>& zones() const { return zones_; }
  // The site of zone `id`.
  Vec2 site(std::uint16_t id) const { return sites_[id - 1u]; }

 private:
  std::uint64_t warp_seed_[2] = {};
  // One site per cell of a zones_x_ x zones_y_ grid, id 1 + iy * zones_x_ + ix.
  int zones_x_ = 0, zones_y_ = 0;
  double zone_w_ = 0.0, zone_h_ = 0.0;
  std::vector<Vec2> sites_;
  std::vector<Zone> zones_;
};

}  // namespace walk::nav::demo
