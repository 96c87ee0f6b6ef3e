// The districts layer: parts of a continent joined to the rest only by their lifts, as a city
// built over its own ruins (the first seed's floor rule: a walk whose ends lie on opposite
// sides must take a lift, never an incidental entrance). A JSON file:
//
//   {"districts": [
//     {"name": "Upper deck",                      optional, a string
//      "continent": 0,                            optional, 0 when absent
//      "shafts": [{"x": 12.5, "y": 40.5}],        the district's lift shafts: frame yards
//      "radius_yards": 60,                        the footprint: within this of a shaft, > 0
//      "middle_height_yards": 7.45,               the height between the two sides
//      "side": "above",                           "above" or "below" the middle is inside
//      "shaft_yards": 6}                          optional: how near a shaft both landings of
//   ]}                                            a ride joining the sides must be, default 6
//
// Members other than these are refused (a misspelt one would otherwise be ignored).
//
// A surface is inside a district when its column's centre lies within radius_yards of one of
// the district's shafts (across, in the frame) and its height is on the district's side of the
// middle (strictly). Laid on a world, the layer marks every surface inside some district
// kMarkDistrict and cuts every link between a surface inside and one outside, in both
// directions (districts that touch are one inside); of the lift rides that join a district's
// inside to the outside, it keeps those whose two landings lie within shaft_yards of one of its
// shafts and removes the others. Cutting links cannot be undone: a world takes its districts once,
// after its lifts (ground_layers.h refuses either again). The navmesh beside the grid is cut at
// load by the same marks (nav/navmesh/navmesh_ground.h).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/grid/grid.h"

namespace walk::nav {

inline constexpr double kDefaultShaftYards = 6.0;

// One district as the file gives it, checked.
struct DistrictSpec {
  struct Point {
    double x = 0.0, y = 0.0;  // frame yards
  };
  std::size_t index = 0;  // its place in "districts", from 0
  std::string name;
  ContinentId continent = 0;
  std::vector<Point> shafts;  // at least one
  double radius_yards = 0.0;
  double middle_height_yards = 0.0;
  bool above = false;  // the side above the middle is inside; else the side below
  double shaft_yards = kDefaultShaftYards;

  // How messages name it: `districts[1] ("Upper deck")`, or `districts[1]`.
  std::string Label() const;
  // True when a point at frame (x, y) and height z lies inside.
  bool Inside(double x, double y, double z) const;
  // True when frame (x, y) lies within `yards` of one of the shafts, across.
  bool NearShaft(double x, double y, double yards) const;
};

struct DistrictLayer {
  std::vector<DistrictSpec> districts;  // in file order
};

// Parses a districts layer; `file` names it in errors. INVALID_ARGUMENT naming the file, the
// district and the member (`districts.json: districts[0] ("Deck"): radius_yards: must be ...`).
absl::StatusOr<DistrictLayer> ParseDistrictLayer(std::string_view text, const std::string& file);

// What laying one district did.
struct DistrictOutcome {
  std::size_t index = 0;
  std::string name;
  std::uint64_t inside = 0;      // surfaces inside it
  std::uint64_t links_cut = 0;   // links between its inside and the rest, each direction counted
  std::uint64_t rides_kept = 0;  // lift rides joining its sides at its shafts
  std::uint64_t rides_cut = 0;   // lift rides joining its sides elsewhere, removed
};

// Lays `layer` on `world` (every district's continent must exist: ParseAll checks). Leaves the
// continents' derived arrays to the caller (FinishContinent). One outcome per district.
std::vector<DistrictOutcome> ApplyDistrictLayer(const DistrictLayer& layer, World* world);

}  // namespace walk::nav
