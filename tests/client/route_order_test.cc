#include "client/route_order.h"

#include "gtest/gtest.h"

namespace walk::client {
namespace {

// Stops on a line at x = 0, 1, 2, 3, 4: the time between two is their distance.
SecondsMatrix Line(const std::vector<double>& x) {
  SecondsMatrix m(x.size(), std::vector<double>(x.size()));
  for (std::size_t i = 0; i < x.size(); ++i) {
    for (std::size_t j = 0; j < x.size(); ++j) m[i][j] = std::abs(x[i] - x[j]);
  }
  return m;
}

TEST(RouteOrderTest, FreeStopsAreReorderedAndFixedOnesStay) {
  // Given order visits 0, 3, 1, 2, 4 (positions along the line): free stops 1..3 sort themselves.
  const SecondsMatrix m = Line({0, 3, 1, 2, 4});
  const std::vector<bool> free = {false, true, true, true, false};
  const auto order = ImproveOrder(m, free);
  EXPECT_EQ(order.front(), 0u);
  EXPECT_EQ(order.back(), 4u);
  EXPECT_DOUBLE_EQ(RouteSeconds(m, {0, 1, 2, 3, 4}), 3 + 2 + 1 + 2);
  EXPECT_DOUBLE_EQ(RouteSeconds(m, order), 4.0);  // 0 -> 1 -> 2 -> 3 -> 4 along the line
}

TEST(RouteOrderTest, NothingFreeMeansNothingMoves) {
  const SecondsMatrix m = Line({0, 3, 1, 2, 4});
  const auto order = ImproveOrder(m, {false, false, false, false, false});
  EXPECT_EQ(order, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
}

TEST(RouteOrderTest, NeverWorseAndAFixedStopInTheMiddleStays) {
  const SecondsMatrix m = Line({0, 5, 1, 9, 2, 3});
  const std::vector<bool> free = {false, true, true, false, true, true};
  const auto order = ImproveOrder(m, free);
  EXPECT_EQ(order[0], 0u);
  EXPECT_EQ(order[3], 3u);  // stop 3 keeps its position
  EXPECT_LE(RouteSeconds(m, order), RouteSeconds(m, {0, 1, 2, 3, 4, 5}));
}

}  // namespace
}  // namespace walk::client
