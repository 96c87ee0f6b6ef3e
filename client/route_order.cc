#include "client/route_order.h"

#include <algorithm>
#include <numeric>

namespace walk::client {

double RouteSeconds(const SecondsMatrix& seconds, const std::vector<std::size_t>& order) {
  double total = 0.0;
  for (std::size_t i = 1; i < order.size(); ++i) total += seconds[order[i - 1]][order[i]];
  return total;
}

std::vector<std::size_t> ImproveOrder(const SecondsMatrix& seconds, const std::vector<bool>& free) {
  const std::size_t n = free.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  // Positions that free stops may occupy (fixed stops keep theirs).
  std::vector<std::size_t> slots;
  for (std::size_t i = 0; i < n; ++i) {
    if (free[i]) slots.push_back(i);
  }
  double best = RouteSeconds(seconds, order);
  constexpr double kEpsilon = 1e-9;
  for (bool improved = true; improved;) {
    improved = false;
    // Or-opt: move the stop at one free slot to another free slot (shifting the free stops
    // between them), keeping fixed stops in place.
    for (std::size_t a = 0; a < slots.size() && !improved; ++a) {
      for (std::size_t b = 0; b < slots.size() && !improved; ++b) {
        if (a == b) continue;
        std::vector<std::size_t> free_stops;
        for (std::size_t s : slots) free_stops.push_back(order[s]);
        const std::size_t moved = free_stops[a];
        free_stops.erase(free_stops.begin() + static_cast<std::ptrdiff_t>(a));
        free_stops.insert(free_stops.begin() + static_cast<std::ptrdiff_t>(b), moved);
        std::vector<std::size_t> candidate = order;
        for (std::size_t k = 0; k < slots.size(); ++k) candidate[slots[k]] = free_stops[k];
        const double total = RouteSeconds(seconds, candidate);
        if (total < best - kEpsilon) {
          order = std::move(candidate);
          best = total;
          improved = true;
        }
      }
    }
    // 2-opt: reverse the free stops between two free slots.
    for (std::size_t a = 0; a < slots.size() && !improved; ++a) {
      for (std::size_t b = a + 1; b < slots.size() && !improved; ++b) {
        std::vector<std::size_t> candidate = order;
        for (std::size_t k = 0; k <= (b - a) / 2; ++k)
          std::swap(candidate[slots[a + k]], candidate[slots[b - k]]);
        const double total = RouteSeconds(seconds, candidate);
        if (total < best - kEpsilon) {
          order = std::move(candidate);
          best = total;
          improved = true;
        }
      }
    }
  }
  return order;
}

}  // namespace walk::client
