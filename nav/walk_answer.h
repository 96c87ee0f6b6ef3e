// Places, ends, and the answer to one walk, as nav/ speaks of them (no proto types here).
#pragma once

#include <cstdint>
#include <optional>

#include "nav/ids.h"
#include "nav/walker.h"

namespace walk::nav {

// A point a caller names. Coordinates in yards from the continent's origin.
struct Place {
  ContinentId continent = 0;
  double x_yards = 0.0;
  double y_yards = 0.0;
  std::optional<double> z_yards;  // without it the end takes the column's usual floor
};

enum class WalkStatus : std::uint8_t { kOk, kNoWalk, kOffMap, kNoSurface };
enum class Method : std::uint8_t { kTrivial, kRegions, kFineGrid };

const char* WalkStatusName(WalkStatus status);
const char* MethodName(Method method);

// Where a place snapped.
struct End {
  std::uint32_t column_x = 0;
  std::uint32_t column_y = 0;
  SurfaceId surface = kInvalidId;
  std::uint8_t level = 0;
  double surface_z_yards = 0.0;
  RegionId region = kInvalidId;
};

struct WalkAnswer {
  WalkStatus status = WalkStatus::kNoWalk;
  double seconds = 0.0;  // cost at the profile's pace; set when kOk
  double yards = 0.0;    // searched yards x the profile's smoothing; set when kOk
  Method method = Method::kTrivial;
  std::optional<End> from_end;
  std::optional<End> to_end;
  SearchStats stats;
};

}  // namespace walk::nav
