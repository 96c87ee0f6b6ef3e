// Places, ends, and the answer to one walk, as nav/ speaks of them (no proto types here).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nav/cost/zone_cells.h"
#include "nav/grid/ids.h"
#include "nav/search/method.h"
#include "nav/search/search_stats.h"

namespace walk::nav {

// A point a caller names. Coordinates in yards from the continent's origin.
struct Place {
  ContinentId continent = 0;
  double x_yards = 0.0;
  double y_yards = 0.0;
  std::optional<double> z_yards;  // without it the end takes the column's usual floor
};

enum class WalkStatus : std::uint8_t { kOk, kNoWalk, kOffMap, kNoSurface };

const char* WalkStatusName(WalkStatus status);

// Where a place snapped.
struct End {
  std::uint32_t column_x = 0;
  std::uint32_t column_y = 0;
  SurfaceId surface = kInvalidId;
  std::uint8_t level = 0;
  double surface_z_yards = 0.0;
  RegionId region = kInvalidId;
  std::uint16_t zone = 0;
  // The place stood in a small pocket and was moved to the nearest surface that reaches a large
  // region; settle_yards is how far (3D, between column centres and surface heights).
  bool settled = false;
  double settle_yards = 0.0;
};

struct PathPoint {
  double x_yards = 0.0;
  double y_yards = 0.0;
  double z_yards = 0.0;
};

// A drop taken on the way: where it starts and how far down it goes.
struct Fall {
  PathPoint from;
  double drop_yards = 0.0;
};

// The way itself: points pulled taut, and what the seconds were spent on.
struct PathDetail {
  std::vector<PathPoint> points;
  // Seconds by kind of ground or move: walk, road, indoor, swim, steep, climb, jump, fall, lift.
  std::vector<std::pair<std::string, double>> seconds_by_kind;
  std::vector<Fall> falls;
  std::size_t steps = 0;  // column steps before pulling
};

struct WalkAnswer {
  WalkStatus status = WalkStatus::kNoWalk;
  double seconds = 0.0;  // cost at the profile's pace; set when kOk
  double yards = 0.0;    // searched yards x the profile's smoothing; set when kOk
  Method method = Method::kTrivial;
  std::optional<End> from_end;
  std::optional<End> to_end;
  // No walk at the places' own heights: asked once more at their columns' usual floors.
  bool retried = false;
  // A danger band's answer that is band 0's: its walk enters no zone the band prices, so no
  // danger search ran (nav/query/band_zero_reuse.h).
  bool from_band_zero = false;
  // Walked yards per zone cell and zone; a lift ride into a zone counts there with 0 yards (it
  // is priced by the zone it lands in).
  std::vector<ZoneCell> zone_cells;  // sorted by cell, then zone
  // A walk a table's row knew (nav/abstract/abstract_table.h): its zone cells were not counted,
  // so it is never stored.
  bool zone_cells_left_out = false;
  // The zones of the ends the walk joins (after settling and the second asking): the ones
  // danger exempts. Set when both ends snapped.
  std::uint16_t from_zone = 0;
  std::uint16_t to_zone = 0;
  std::optional<PathDetail> path;  // when asked for
  SearchStats stats;
  // Every walk costs more than WalkOptions::max_seconds, and the search stopped there: no
  // answer (status kNoWalk), never kept, counted or asked again at the usual floors.
  bool dearer = false;
};

}  // namespace walk::nav
