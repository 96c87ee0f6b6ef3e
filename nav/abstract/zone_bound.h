// A lower bound on a danger walk's seconds to its goal that knows the walk's ends' zones: the
// A*'s potential for a walk with an end in a zone the band prices, where band-0 seconds (which
// hold whatever zones are exempt) fall far below the band's seconds.
//
// A way from a node to the goal, its start zone A and goal zone B exempt, is cut in three: up
// to its last arc through A (arcs priced at least their band-0 seconds), then up to its first
// arc through B (arcs through neither: exactly their price on the band's metric, every zone
// priced), then the rest (at least band-0 seconds). Over the hierarchy that is three potentials:
//   goal    band-0 seconds to the goal leg's entrances;
//   middle  the band's metric to the goal leg's entrances, or to a node where a way may first
//           take an arc through B (B's entries), plus that node's goal seconds;
//   start   band-0 seconds to a node where a way may leave A's arcs for good (A's exits), plus
//           that node's middle seconds (or goal seconds, where its arcs go through B).
// A node's bound is the least of its start and middle seconds, and its goal seconds where its
// own arcs go through B. It never overestimates, so the A* stays exact; it is not always
// consistent (the A* settles a node again when it is reached more cheaply). Where A and B lie
// apart it is nearly the walk's cost: the middle, the dear part, is priced exactly.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "nav/abstract/abstract_graph.h"
#include "nav/cch/cch.h"
#include "nav/cch/cch_metric.h"
#include "nav/cch/cch_potential.h"
#include "nav/cch/cch_request.h"

namespace walk::nav {

// Where ways enter and leave one zone's arcs (for one profile's prices): the bound's seeds.
struct ZoneBorder {
  // Heads of the zone's arcs with an arc out that avoids the zone: where a way may take its
  // last arc through the zone.
  std::vector<std::uint32_t> exits;
  // Tails of the zone's arcs with an arc in that avoids the zone: where a way coming from
  // elsewhere may take its first arc through the zone.
  std::vector<std::uint32_t> entries;
  // Every tail and every head of the zone's arcs, ascending.
  std::vector<std::uint32_t> tails;
  std::vector<std::uint32_t> heads;
  // The heads that are no exits and the tails that are no entries, ascending: a way's last arc
  // through the zone ends at such a head only where the way ends (first arc, starts).
  std::vector<std::uint32_t> inner_heads;
  std::vector<std::uint32_t> inner_tails;
};

// `zone_arcs`: the arcs whose mix (in `prices`) has `zone` (ZoneArcs::Of).
ZoneBorder ZoneBorderOf(const ContinentGraph& graph, const ArcPrices& prices,
                        std::span<const std::uint32_t> zone_arcs, std::uint16_t zone);

class ZoneArcs;  // nav/abstract/band_metrics.h

// Every zone's border, by zone (zone 0's empty): the same as ZoneBorderOf, zone by zone, in one
// pass over the arcs for all of them (ZoneBorderOf makes one for each) and one over each zone's
// arcs, reading no arc's mix.
std::vector<ZoneBorder> ZoneBordersOf(const ContinentGraph& graph, const ArcPrices& prices,
                                      const ZoneArcs& zone_arcs);

// One per thread, beside the band-0 potential it reads; its buffers are made at its first Reset.
class ZoneBound {
 public:
  explicit ZoneBound(const Cch& cch) : cch_(&cch) {}

  struct Request {
    const CchMetric& band_zero;  // the profile's band-0 metric
    const CchMetric& band;       // the band's metric: every zone priced, on the same Cch
    // The borders of the start's and the goal's zones; null where the band does not price the
    // zone (its arcs then cost what the band's metric says).
    const ZoneBorder* start = nullptr;
    const ZoneBorder* goal = nullptr;
    // The goal leg's entrances at their band-0 seconds, and `goal_zero` Reset to them under
    // `band_zero`.
    const std::vector<CchEndpoint>& targets;
    CchPotential& goal_zero;
    // `band`'s BandMetric::serial, which no other metric shares. A Reset with the same band,
    // goal zone and targets as the last keeps its middle, and its start too from the same
    // start zone, with what they priced (a trip's walks from each station to its goal).
    // 0: keeps nothing.
    std::uint64_t band_serial = 0;
  };
  void Reset(const Request& request);
  // The bound on `node`'s seconds to the goal; kInfCost when no goal entrance is reachable.
  double ToTargets(std::uint32_t node);
  // Resets that kept the last one's middle (the same goal), and of those, its start too.
  std::uint64_t kept_goals() const { return kept_goals_; }
  std::uint64_t kept_starts() const { return kept_starts_; }

 private:
  bool GoesThroughGoalZone(std::uint32_t node) const { return goal_tail_[node] != 0; }
  // Whether `request` asks for the goal the middle was last Reset for.
  bool SameGoal(const Request& request) const;
  // The goal zone's tails and the middle potential, for `request`'s goal.
  void ResetGoal(const Request& request);

  const Cch* cch_;
  std::unique_ptr<CchPotential> start_, middle_;
  const ZoneBorder* start_zone_ = nullptr;
  double start_floor_ = kInfCost;  // the start potential's cheapest seed
  CchPotential* goal_zero_ = nullptr;
  std::vector<CchEndpoint> seeds_;  // scratch
  // By node, a byte each: whether it is a tail of the goal zone's arcs (one of goal_tails_).
  std::vector<std::uint8_t> goal_tail_;
  std::vector<std::uint32_t> goal_tails_;
  // What the middle was last Reset for (SameGoal).
  std::uint64_t band_serial_ = 0;
  const CchMetric* band_zero_ = nullptr;
  const ZoneBorder* goal_zone_ = nullptr;
  std::vector<CchEndpoint> targets_;
  std::uint64_t kept_goals_ = 0;
  std::uint64_t kept_starts_ = 0;
};

}  // namespace walk::nav
