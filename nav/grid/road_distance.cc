#include "nav/grid/road_distance.h"

#include <algorithm>
#include <deque>
#include <limits>

namespace walk::nav {

void ComputeRoadBlocks(Continent& c) {
  const std::uint32_t bx = (c.width_columns + kRoadBlockColumns - 1) / kRoadBlockColumns;
  const std::uint32_t by = (c.height_columns + kRoadBlockColumns - 1) / kRoadBlockColumns;
  constexpr std::uint16_t kFar = std::numeric_limits<std::uint16_t>::max();
  c.road_blocks_x = std::max(bx, 1u);
  c.road_blocks.assign(static_cast<std::size_t>(c.road_blocks_x) * std::max(by, 1u), kFar);
  // A breadth-first search over blocks from every block with a road or a lift landing; 8
  // neighbours, so a block's depth is its Chebyshev distance to the nearest such block.
  std::deque<std::uint32_t> queue;
  for (SurfaceId s = 0; s < c.surface_count(); ++s) {
    if (!(c.marks[s] & (kMarkRoad | kMarkLift))) continue;
    const std::uint32_t b =
        (c.column_y[s] / kRoadBlockColumns) * c.road_blocks_x + c.column_x[s] / kRoadBlockColumns;
    if (c.road_blocks[b] == 0) continue;
    c.road_blocks[b] = 0;
    queue.push_back(b);
  }
  const auto rows = static_cast<std::int64_t>(c.road_blocks.size() / c.road_blocks_x);
  while (!queue.empty()) {
    const std::uint32_t b = queue.front();
    queue.pop_front();
    const std::int64_t x = b % c.road_blocks_x, y = b / c.road_blocks_x;
    const std::uint16_t next =
        static_cast<std::uint16_t>(std::min<std::uint32_t>(c.road_blocks[b] + 1u, kFar - 1u));
    for (int d = 0; d < kDirectionCount; ++d) {
      const std::int64_t nx = x + kDirectionDx[d], ny = y + kDirectionDy[d];
      if (nx < 0 || ny < 0 || nx >= c.road_blocks_x || ny >= rows) continue;
      std::uint16_t& depth = c.road_blocks[static_cast<std::size_t>(ny * c.road_blocks_x + nx)];
      if (depth != kFar) continue;
      depth = next;
      queue.push_back(static_cast<std::uint32_t>(ny * c.road_blocks_x + nx));
    }
  }
}

}  // namespace walk::nav
