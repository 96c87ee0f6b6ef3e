#include "nav/check/reference_dijkstra.h"

#include <cmath>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

namespace walk::nav {

SearchResult ReferenceDijkstra(const Continent& c, double column_yards, const Metric& metric,
                               SurfaceId from, SurfaceId to) {
  const std::uint32_t n = c.surface_count();
  std::vector<double> seconds(n, kInfCost);
  std::vector<double> yards(n, 0.0);
  std::vector<bool> done(n, false);
  using Entry = std::pair<double, SurfaceId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  SearchResult result;
  seconds[from] = 0.0;
  queue.push({0.0, from});
  ++result.stats.heap_operations;
  while (!queue.empty()) {
    const auto [cost, v] = queue.top();
    queue.pop();
    ++result.stats.heap_operations;
    if (done[v]) continue;
    done[v] = true;
    ++result.stats.nodes_expanded;
    if (v == to) break;
    for (int d = 0; d < kDirectionCount; ++d) {
      const Link link = c.links[v][d];
      if (!HasLink(link)) continue;
      if (d % 2 == 1) {
        const int left = (d + 7) % 8, right = (d + 1) % 8;
        if (!HasLink(c.links[v][left]) || !HasLink(c.links[v][right])) continue;
      }
      const std::uint32_t nx = c.column_x[v] + kDirectionDx[d];
      const std::uint32_t ny = c.column_y[v] + kDirectionDy[d];
      SurfaceId first, end;
      c.ColumnSurfaces(nx, ny, &first, &end);
      const SurfaceId w = first + LinkLevel(link);
      const double columns = d % 2 == 1 ? std::sqrt(2.0) : 1.0;
      const double step =
          metric.StepSeconds(c, w, LinkKindOf(link), columns, c.zone[from], c.zone[to]);
      if (std::isinf(step)) continue;
      if (cost + step < seconds[w]) {
        seconds[w] = cost + step;
        yards[w] = yards[v] + columns * column_yards;
        queue.push({seconds[w], w});
        ++result.stats.heap_operations;
      }
    }
    for (const LiftRide& ride : c.lifts) {  // plain: scan every ride
      if (ride.from != v) continue;
      const double step = metric.LiftSeconds(c, ride, c.zone[from], c.zone[to]);
      if (cost + step < seconds[ride.to]) {
        seconds[ride.to] = cost + step;
        yards[ride.to] = yards[v];
        queue.push({seconds[ride.to], ride.to});
        ++result.stats.heap_operations;
      }
    }
  }
  if (done[to]) {
    result.found = true;
    result.seconds = seconds[to];
    result.yards = yards[to];
  }
  return result;
}

}  // namespace walk::nav
