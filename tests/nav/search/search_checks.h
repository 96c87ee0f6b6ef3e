// What the grid searches' tests share: the shortest profile's metric on a world, and the check
// that a search's steps are a walk of the continent.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "gtest/gtest.h"
#include "nav/cost/metric.h"
#include "nav/grid/surface.h"
#include "nav/query/answer.h"

namespace walk::nav::testing {

inline Metric Shortest(const World& world) { return Metric(world, *FindProfile("shortest"), 0); }

// Checks that `steps` walks from `from` to `to` over links of `c` without cutting a corner,
// `yards` long.
inline void ExpectWalk(const Continent& c, const std::vector<PathStep>& steps, SurfaceId from,
                       SurfaceId to, double yards) {
  ASSERT_FALSE(steps.empty());
  EXPECT_EQ(steps.front().surface, from);
  EXPECT_EQ(steps.back().surface, to);
  for (std::size_t i = 1; i < steps.size(); ++i) {
    const SurfaceId prev = steps[i - 1].surface;
    const int d = steps[i].via;
    ASSERT_LT(d, kDirectionCount);
    ASSERT_TRUE(HasLink(c.links[prev][d])) << "step " << i;
    EXPECT_EQ(c.LinkTarget(prev, d), steps[i].surface) << "step " << i;
    if (IsDiagonal(d)) {
      EXPECT_TRUE(HasLink(c.links[prev][(d + 7) % 8]) && HasLink(c.links[prev][(d + 1) % 8]))
          << "step " << i << " cuts a corner";
    }
  }
  EXPECT_NEAR(WalkedColumns(steps), yards, 1e-9 * std::max(1.0, yards));
}

}  // namespace walk::nav::testing
