// Zone cells: the yards a walk spends in each zone inside each 200-yard square of the world,
// counted from its steps or, for a walk known only by its pieces, from their zone mixes.
#pragma once

#include <cstdint>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include "nav/cost/zone_mix.h"
#include "nav/grid/grid.h"
#include "nav/grid/path_step.h"

namespace walk::nav {

inline constexpr double kZoneCellYards = 200.0;

// The yards a walk spends in one zone inside one 200-yard zone cell.
struct ZoneCell {
  std::int32_t cell_x = 0;  // floor(x_yards / 200), x in the world's frame
  std::int32_t cell_y = 0;
  std::uint16_t zone = 0;
  double yards = 0.0;  // walked yards (after smoothing)
};

// The walked yards (step yards x smoothing) of `steps` per 200-yard zone cell and zone; a step
// counts in the cell and zone of the surface it enters. Lift rides walk no yards: a ride into a
// zone counts there with 0 yards, so a walk's cells name every zone that priced it.
std::vector<ZoneCell> ZoneCellsOf(const Continent& continent, const WorldFrame& frame,
                                  double smoothing, const std::vector<PathStep>& steps);

// Walked yards by (cell x, cell y, zone) of a walk known by its pieces (an abstract walk's legs
// and arcs, each with its zone mix): each piece counts in the zone cell of its midpoint (the
// exact split needs the path, which is unpacked only when asked for).
class ZoneCellTally {
 public:
  ZoneCellTally(const Continent& c, const WorldFrame& frame, double smoothing)
      : c_(c), frame_(frame), smoothing_(smoothing) {}
  // Counts `yards` walked from `a` to `b` (the piece's ends), split by `mix`.
  void Add(SurfaceId a, SurfaceId b, double yards, std::span<const ZoneShare> mix);
  // By cell and zone, ascending.
  std::vector<ZoneCell> Cells();

 private:
  using Key = std::tuple<std::int32_t, std::int32_t, std::uint16_t>;
  // A walk adds to a few cells in turn, so the one sought is nearly always among the last few:
  // a flat list searched from its end, sorted once at the end, is quicker than a map.
  double& YardsOf(const Key& key);

  const Continent& c_;
  WorldFrame frame_;
  double smoothing_;
  std::vector<std::pair<Key, double>> yards_;
};

}  // namespace walk::nav
