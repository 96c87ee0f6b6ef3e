// Whether any walk joins two surfaces, decided without pricing a single step.
//
// Regions join surfaces by links taken either way, so two ends of one region may still have no
// walk between them: a ledge one can drop off but never climb onto, a pit one can fall into but
// never leave. A priced search then learns it only by settling everything the start reaches,
// which on a continent is tens of millions of surfaces. Such a
// trap is small on one side, though: what reaches the ledge, or what the pit reaches. Growing
// both sets by turns, the smaller first, settles the question once either runs out.
#pragma once

#include <cstdint>

#include "absl/functional/function_ref.h"
#include "nav/cost/metric.h"
#include "nav/grid/grid.h"

namespace walk::nav {

enum class Reach : std::uint8_t {
  kYes,      // a walk exists: the two sets met
  kNo,       // no walk: one set ran out without meeting the other
  kUnknown,  // both sets outgrew the budget before either
};

struct ReachResult {
  Reach reach = Reach::kUnknown;
  std::uint64_t visited = 0;  // surfaces taken into either set
};

// Grows the set of surfaces `from` reaches (forward) and the set that reach `to` (backward), one
// surface at a time on the smaller side, by the steps a walk priced by `metric` may take (those
// it prices below kInfCost, the zones of `from` and `to` exempt from danger, as FineGridAStar
// does), until they meet, one runs out, or both hold more than `budget` surfaces.
ReachResult CheckReach(const Continent& c, const Metric& metric, SurfaceId from, SurfaceId to,
                       std::uint64_t budget);

// Calls `visit(w)` for each surface w one step of a walk leads to from `v`, as FineGridAStar steps:
// a link (a diagonal only with both orthogonal links), or a lift ride, priced below kInfCost by
// `metric` with zones `exempt_a` and `exempt_b` free of danger. Stops at the first visit that
// returns true, and returns whether one did.
bool ForEachStepFrom(const Continent& c, const Metric& metric, SurfaceId v, std::uint16_t exempt_a,
                     std::uint16_t exempt_b, absl::FunctionRef<bool(SurfaceId)> visit);
// The same for each surface u with such a step into `v`.
bool ForEachStepInto(const Continent& c, const Metric& metric, SurfaceId v, std::uint16_t exempt_a,
                     std::uint16_t exempt_b, absl::FunctionRef<bool(SurfaceId)> visit);

}  // namespace walk::nav
