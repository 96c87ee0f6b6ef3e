// Builds a Continent from surfaces placed column by column, then derives its links from the
// geometry (LinkRules) and its regions. The importers (MovingAI maps, the default world) place
// surfaces; afterwards only ground layers (nav/layers/) write a built Continent's areas and
// lifts, and they call FinishContinent again.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/grid/build_stop.h"
#include "nav/grid/grid.h"

namespace walk::nav {

// One surface as an importer places it.
struct SurfaceSpec {
  float height_yards = 0.0f;
  float headroom_yards = std::numeric_limits<float>::infinity();  // +inf: open sky
  std::uint8_t flags = kFlagTerrain;                              // SurfaceFlag bits
  std::uint16_t zone = 0;
  std::uint8_t marks = 0;  // AreaMark bits
};

// How links are derived between surfaces of neighbouring columns.
struct LinkRules {
  // Largest rise or drop walked as a step, yards.
  double step_yards = 0.6;
  // Largest rise taken as a jump (a small step up, beyond a step), yards.
  double jump_yards = 1.5;
  // Largest rise or drop onto a steep or climb surface (walked up the slope), yards.
  double climb_yards = 2.0;
  // Largest drop taken as a one-way fall, yards.
  double max_fall_yards = 10.0;
  // Room a walker needs above its feet, yards.
  double agent_height_yards = 2.0;
  // MovingAI's rule: water is entered only from water (leaving it is free).
  bool water_entered_only_from_water = false;
};

class ContinentBuilder {
 public:
  // A continent `width_columns` x `height_columns` columns (tiles are added as surfaces land).
  ContinentBuilder(ContinentId id, std::uint32_t width_columns, std::uint32_t height_columns);

  // Places a surface in column (x, y). Surfaces of one column may come in any order; they are
  // stacked by height. Out-of-extent columns are an error reported by Build.
  void AddSurface(std::uint32_t x, std::uint32_t y, const SurfaceSpec& spec);

  // Adds a lift between the surfaces of column (x, y) nearest heights `z_a` and `z_b` (both
  // ways; the shaft is the height between them), with the car's timing. Resolved by Build.
  void AddLift(std::uint32_t x, std::uint32_t y, float z_a, float z_b,
               float wait_seconds = kDefaultLiftWaitSeconds,
               float shaft_yards_per_second = kDefaultLiftShaftYardsPerSecond);

  // Lays out the continent, derives links with `rules`, adds the lifts, computes regions.
  // Errors: INVALID_ARGUMENT for a surface off the extent, more than 31 surfaces in a column,
  // or a non-finite height; CANCELLED when `stop` says so (asked tile by tile and as links are
  // derived).
  absl::StatusOr<Continent> Build(const LinkRules& rules, const BuildStop& stop = BuildStop());

 private:
  struct Placed {
    std::uint32_t column;  // local column within its tile
    SurfaceSpec spec;
  };
  ContinentId id_;
  std::uint32_t width_columns_;
  std::uint32_t height_columns_;
  std::uint32_t tiles_x_;
  std::uint32_t tiles_y_;
  std::vector<std::vector<Placed>> per_tile_;  // tiles_x * tiles_y
  struct PlannedLift {
    std::uint32_t x, y;
    float z_a, z_b;
    float wait_seconds, shaft_yards_per_second;
  };
  std::vector<PlannedLift> lifts_;
  bool out_of_extent_ = false;
};

// Derives every surface's links from heights, headroom and flags. In each direction the link
// goes to the neighbouring surface nearest in height that can be reached: onto water by a swim
// (within a step), onto a steep or climb surface by a steep or climb link (within climb_yards),
// otherwise a walk (indoor onto an indoor floor) within a step, a jump up to jump_yards, or a
// one-way fall down to max_fall_yards. Both ceilings must leave the agent's height free.
// Returns early, the links half derived, when `stop` says so (the caller discards the continent).
void DeriveLinks(const LinkRules& rules, Continent& continent, const BuildStop& stop = BuildStop());

// Computes what is derived from surfaces, marks, links and lifts: the rides by landing
// (lifts_into), regions, the ground kinds present and the road blocks. Called by
// ContinentBuilder::Build and by LoadWorld; call it again after changing any of those (as ground
// layers do, nav/layers/).
void FinishContinent(Continent& continent);

// Numbers the regions of `continent`: surfaces joined by links, taken either way, share a region.
// Regions are numbered in order of their lowest surface id (deterministic).
void ComputeRegions(Continent& continent);

}  // namespace walk::nav
