// Legs: a place's way into the abstract graph. A start leg searches the start's cell outward to
// the portals it reaches (its entrances, on all four borders); a goal leg searches the goal's
// cell backward, toward the place.
// Each reached node keeps its band-0 seconds, yards and zone mix, so one leg serves every band.
//
// Legs are cached per (continent, surface, profile, direction) in a bounded, sharded LRU cache
// (nav/abstract/place_cache.h): a place with many walks is searched once.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "nav/abstract/abstract_graph.h"
#include "nav/abstract/cell_search.h"
#include "nav/abstract/place_cache.h"
#include "nav/cost/metric.h"

namespace walk::nav {

struct Leg {
  struct Entry {
    std::uint32_t node = 0;
    double seconds = 0.0;  // band 0
    float yards = 0.0f;
    std::uint32_t mix_first = 0;  // its shares in `mix`
    std::uint32_t mix_end = 0;
  };
  std::vector<Entry> entries;
  std::vector<ZoneShare> mix;
  std::span<const ZoneShare> MixOf(const Entry& e) const {
    return {mix.data() + e.mix_first, mix.data() + e.mix_end};
  }
  std::uint64_t MemoryBytes() const {
    return sizeof(Leg) + entries.size() * sizeof(Entry) + mix.size() * sizeof(ZoneShare);
  }
};

// What a leg is computed from. Nothing is owned; all must outlive the call.
struct LegRequest {
  const Continent& c;
  double column_yards;
  const ContinentGraph& graph;  // c's abstract graph
  std::uint32_t cell_columns;   // the graph's cell side
  const Metric& base;           // the profile's band-0 metric
  SurfaceId surface;            // the place
  bool backward = false;        // forward: a start leg; backward: a goal leg
};

// Computes the leg `request` asks for, searching the place's cell with `search`.
Leg ComputeLeg(const LegRequest& request, CellSearch& search);

// Legs by place: a place with many walks is searched once.
using LegCache = PlaceCache<Leg>;

}  // namespace walk::nav
