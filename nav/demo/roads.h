// The demo world's roads: a minimum spanning tree over the towns, each road winding between two
// town centres, and an index of their segments for distance queries. Internal to nav/demo.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "nav/demo/demo_world.h"
#include "nav/demo/plane.h"
#include "nav/demo/towns.h"

namespace walk::nav::demo {

inline constexpr double kRoadHalfWidth = 3.0;  // yards

struct Road {
  std::vector<Vec2> points;
  std::vector<double> arc;  // yards from points[0]
};

// The roads, with their segments indexed in 64-yard buckets.
class Roads {
 public:
  // Lays the roads between `towns` (a minimum spanning tree, Prim's, ties to the lower index) on
  // a map `width` x `height` yards, and indexes them.
  void Lay(const std::vector<Town>& towns, const DemoOptions& options, double width, double height);

  const std::vector<Road>& roads() const { return roads_; }

  // Distance from p to the nearest road's centre line, at most `limit`.
  double Distance(Vec2 p, double limit) const;

 private:
  void Index(double width, double height);

  std::vector<Road> roads_;
  // Road segments by bucket: (road, segment) pairs.
  static constexpr double kBucket = 64.0;
  double bucket_x0_ = 0.0, bucket_y0_ = 0.0;
  std::int64_t buckets_x_ = 0, buckets_y_ = 0;
  std::vector<std::uint32_t> bucket_first_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> bucket_items_;
};

}  // namespace walk::nav::demo
