#include "nav/cost/zone_cells.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "nav/grid/checked_floor.h"

namespace walk::nav {

std::vector<ZoneCell> ZoneCellsOf(const Continent& c, const WorldFrame& frame, double smoothing,
                                  const std::vector<PathStep>& steps) {
  std::map<std::tuple<std::int32_t, std::int32_t, std::uint16_t>, double> yards;
  for (std::size_t i = 1; i < steps.size(); ++i) {
    const SurfaceId s = steps[i].surface;
    const bool ride = steps[i].via >= kDirectionCount;
    // A lift ride walks nothing, but a ride into a zone is priced by it: it counts with 0 yards.
    if (ride && c.zone[s] == 0) continue;
    // The column's centre, in the world's frame.
    const double x_yards = frame.CentreX(c.column_x[s]);
    const double y_yards = frame.CentreY(c.column_y[s]);
    const auto cell_x = SaturatingFloor<std::int32_t>(x_yards / kZoneCellYards);
    const auto cell_y = SaturatingFloor<std::int32_t>(y_yards / kZoneCellYards);
    const double step =
        ride ? 0.0 : (IsDiagonal(steps[i].via) ? kSqrt2 : 1.0) * frame.column_yards * smoothing;
    yards[{cell_x, cell_y, c.zone[s]}] += step;
  }
  std::vector<ZoneCell> cells;
  for (const auto& [key, value] : yards) {
    cells.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), value});
  }
  return cells;
}

void ZoneCellTally::Add(SurfaceId a, SurfaceId b, double yards, std::span<const ZoneShare> mix) {
  const double x =
      frame_.FrameX((c_.column_x[a] + c_.column_x[b] + 1.0) * 0.5 * frame_.column_yards);
  const double y =
      frame_.FrameY((c_.column_y[a] + c_.column_y[b] + 1.0) * 0.5 * frame_.column_yards);
  const auto cx = SaturatingFloor<std::int32_t>(x / kZoneCellYards);
  const auto cy = SaturatingFloor<std::int32_t>(y / kZoneCellYards);
  double rest = yards;
  for (const ZoneShare& share : mix) {
    // A share of seconds without yards is a lift ride into the zone: it counts with 0 yards.
    if (share.yards > 0.0f || share.seconds > 0.0f) {
      YardsOf({cx, cy, share.zone}) += share.yards * smoothing_;
    }
    rest -= share.yards;
  }
  // The shares are floats: a remainder under a hundredth of a yard is their rounding.
  if (rest > 0.01) YardsOf({cx, cy, std::uint16_t{0}}) += rest * smoothing_;
}

std::vector<ZoneCell> ZoneCellTally::Cells() {
  std::sort(yards_.begin(), yards_.end());
  std::vector<ZoneCell> cells;
  for (const auto& [key, value] : yards_) {
    cells.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), value});
  }
  return cells;
}

double& ZoneCellTally::YardsOf(const Key& key) {
  for (auto it = yards_.rbegin(); it != yards_.rend(); ++it) {
    if (it->first == key) return it->second;
  }
  return yards_.emplace_back(key, 0.0).second;
}

}  // namespace walk::nav
