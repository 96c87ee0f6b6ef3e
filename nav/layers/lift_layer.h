// The lifts layer: a JSON file of lift cars, each joining two landings both ways.
//
//   {"lifts": [
//     {"name": "Mesa car",                         optional, a string
//      "continent": 0,                             optional, 0 when absent
//      "from": {"x": 100.5, "y": 40.5, "z": 12},   a landing: frame yards (x, y) and a height
//      "to":   {"x": 160.5, "y": 40.5, "z": 30},
//      "wait_s": 15,                               optional: waiting and boarding, seconds,
//                                                  0..3600, default 15 (the cost model's)
//      "shaft_yards_per_s": 4}                     optional: the car's speed, above 0 to 1000,
//   ]}                                             default 4 (the cost model's)
//
// Members other than these are refused (a misspelt "wait_seconds" would otherwise be ignored).
//
// A landing is the surface of the column under (x, y) (WorldFrame::ColumnX, ColumnY) whose
// height is nearest z, within kLandingToleranceYards (the lower on a tie). A lift whose landing
// cannot be found (off the map, no surface near enough, blocked ground), whose two landings are
// one surface, or that joins two landings an earlier lift joined, is refused, saying why, and
// the others are joined. A car goes both ways: two rides, each as long as the straight line
// between its landings (the column centres' distance and the heights'), timed by its own wait
// and speed. Laid on a world, the layer replaces every lift it had.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/grid/grid.h"

namespace walk::nav {

inline constexpr double kLandingToleranceYards = 3.0;
inline constexpr double kMaxLiftWaitSeconds = 3600.0;
inline constexpr double kMaxLiftYardsPerSecond = 1000.0;

// One lift as the file gives it, checked.
struct LiftSpec {
  struct Landing {
    double x = 0.0, y = 0.0, z = 0.0;  // frame yards; z the landing's height
  };
  std::size_t index = 0;  // its place in "lifts", from 0
  std::string name;
  ContinentId continent = 0;
  Landing from, to;
  double wait_seconds = kDefaultLiftWaitSeconds;
  double shaft_yards_per_second = kDefaultLiftShaftYardsPerSecond;

  // How messages name it: `lifts[2] ("Mesa car")`, or `lifts[2]`.
  std::string Label() const;
};

struct LiftLayer {
  std::vector<LiftSpec> lifts;  // in file order
};

// Parses a lifts layer; `file` names it in errors. INVALID_ARGUMENT naming the file, the lift
// and the member (`lifts.json: lifts[2] ("Mesa car"): from.z: must be a finite number`).
absl::StatusOr<LiftLayer> ParseLiftLayer(std::string_view text, const std::string& file);

// What became of one lift.
struct LiftOutcome {
  std::size_t index = 0;
  std::string name;
  bool joined = false;
  std::string why;  // when refused: what kept it from joining, naming the member
  ContinentId continent = 0;
  SurfaceId from = kInvalidId, to = kInvalidId;  // the landings, when joined
  double shaft_yards = 0.0;
};

// Lays `layer` on `world`: removes every lift ride and lift mark, then joins each lift it can
// (above). Leaves the continents' derived arrays to the caller (FinishContinent). Returns one
// outcome per lift, in file order.
std::vector<LiftOutcome> ApplyLiftLayer(const LiftLayer& layer, World* world);

}  // namespace walk::nav
