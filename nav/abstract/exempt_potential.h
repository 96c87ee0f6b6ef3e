// A lower bound on a danger-band walk's seconds from any node to its goal, with the zones of the
// walk's ends exempt, read from the band's CCH metric (every zone priced) and the band-0 metric:
// the A* potential of walks with an end in a zone the band prices (nav/abstract/band_metrics.h
// has the metric; the band-0 distances alone, CchPotential, bound such walks far below their
// cost where the band's danger lengthens them).
//
// The bound. A way from node v to the goal leg's entrances T, with zone A (the start's) and zone
// B (the goal's) exempt, takes arcs of three kinds: B arcs (B in their mix), A arcs, and others,
// which cost what the band's metric says. Split it at its first B arc (from node w) and its
// last A arc before that, a = (u, u'):
//   no A or B arc:        >= band(v, T)
//   first B arc from w:   >= band(v, w) + zero(w, T)   (w = v, or w an entry of B: a B arc's
//                                                       tail with an arc of no B into it)
//   last A arc a first:   >= zero(v, u) + exempt(a) + [band(u', T), or band(u', w) + zero(w, T),
//                                                      or zero(u', T) where u' = w]
// (band: the band's metric, the ends' targets at their exempt seconds; zero: band 0; exempt(a):
// a's seconds with A and B exempt; an A arc last before the rest leaves A at u', so u' has an
// arc without A: a is an exit of A, or u' is a target every arc of which is in A). The bound is
// the least of those, and at least band-0 seconds; each is a CchPotential over its targets. A
// walk whose two ends stand in one zone uses the first two lines alone (its start is then
// bounded by band-0 seconds).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "nav/abstract/abstract_graph.h"
#include "nav/cch/cch.h"
#include "nav/cch/cch_metric.h"
#include "nav/cch/cch_potential.h"
#include "nav/cch/cch_request.h"
#include "nav/cost/metric.h"

namespace walk::nav {

// The borders of every zone in one profile's prices of a continent's graph. Immutable.
class ZoneBorders {
 public:
  ZoneBorders() = default;
  ZoneBorders(const ContinentGraph& graph, const ArcPrices& prices);
  // The nodes with an arc of `zone` out and an arc without it in, ascending.
  std::span<const std::uint32_t> Entries(std::uint16_t zone) const;
  // The arcs of `zone` whose head has an arc without it out, ascending.
  std::span<const std::uint32_t> Exits(std::uint16_t zone) const;
  std::uint64_t MemoryBytes() const;

 private:
  std::vector<std::uint32_t> entry_first_, entries_;  // CSR by zone
  std::vector<std::uint32_t> exit_first_, exits_;     // CSR by zone
};

// One thread's, reused walk after walk (its potentials' buffers are sized once). Keeps a
// reference to `zero`, the band-0 potential it shares with its owner.
class ExemptPotential {
 public:
  // `zero` and this object's potentials are on `cch`.
  ExemptPotential(const Cch& cch, CchPotential& zero) : zero_(zero), band_(cch), back_(cch) {}
  ExemptPotential(const ExemptPotential&) = delete;
  ExemptPotential& operator=(const ExemptPotential&) = delete;

  // What one walk's bound reads; nothing is owned, all must outlive the walk's search.
  struct Walk {
    const ContinentGraph& graph;
    const ArcPrices& prices;  // the profile's
    const ZoneBorders& borders;
    const Metric& band;
    const CchMetric& zero_metric;  // the profile's band-0 metric (the one `zero` reads)
    const CchMetric& band_metric;  // the band's, every zone priced (BandWeights)
    // The ends' zones as the walk exempts them, and those of them the band prices (else 0).
    std::uint16_t exempt_a, exempt_b;
    std::uint16_t start_zone, goal_zone;
    // The goal leg's entrances at their exempt seconds (the band-0 potential `zero` was Reset
    // for the same entrances at their band-0 seconds).
    const std::vector<CchEndpoint>& targets;
  };
  // Readies the bound for `walk` (zero must have been Reset for it).
  void Reset(const Walk& walk);
  // The bound at `node`, kInfCost when the goal is unreachable from it.
  double ToTargets(std::uint32_t node);
  // Ranks priced by the three potentials since Reset.
  std::uint64_t priced() const { return zero_.priced() + band_.priced() + back_.priced(); }

 private:
  // Whether `node` has an arc of `zone` out.
  bool HasArcOf(std::uint32_t node, std::uint16_t zone) const;
  // Whether every arc out of `node` is in `zone` (true for none).
  bool OnlyArcsOf(std::uint32_t node, std::uint16_t zone) const;
  // band(node, T) or band(node, w) + zero(w, T), or zero(node, T) at a goal-zone arc's tail.
  double ToGoalZone(std::uint32_t node);

  CchPotential& zero_;
  CchPotential band_;  // the band's metric, to T and the goal zone's entries
  CchPotential back_;  // band 0, to the start zone's exits
  const ContinentGraph* graph_ = nullptr;
  const ArcPrices* prices_ = nullptr;
  std::uint16_t start_zone_ = 0, goal_zone_ = 0;
  bool back_set_ = false;
  std::vector<CchEndpoint> scratch_;
};

}  // namespace walk::nav
