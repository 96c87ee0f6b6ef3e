// Relaxing one rank's upward arcs into labels kept by rank (the elimination-tree sweeps of
// CchSplitQuery and CchSideSweep): four or eight arcs at a time (AVX2, AVX-512) where their heads
// are consecutive ranks, as most of a rank's arcs are near the top of the hierarchy, so that
// their labels load and store as one vector.
#pragma once

#include <cstdint>

#include "nav/cch/cch.h"
#include "nav/grid/ids.h"

namespace walk::nav {

// Labels by rank: the cost, the arc it was reached by, and that arc's lower rank (`from` may be
// null: not kept).
struct CchRankLabels {
  double* cost;
  std::uint32_t* arc;
  std::uint32_t* from;
};

// Relaxes rank r's arcs from its cost `cost` (weights `w`, by arc less first_out[r]; float or
// double) into `to`: each head's label drops to cost + weight (the weight widened to a double)
// where that is less, with the arc and r. Every head must have a label. The arcs of one rank
// have distinct heads, so every lane width gives the same labels as one arc at a time.
template <typename W>
void RelaxRankArcs(const Cch& cch, std::uint32_t r, double cost, const W* w,
                   const CchRankLabels& to);

// The tree query's relaxation of rank r (CchQuery, both directions on one set of labels,
// to[Cch::kForward] and to[Cch::kBackward]): each direction whose cost (`up`, `down`) is finite
// relaxes r's arcs with its weights as RelaxRankArcs does (`from` not kept), and each head so
// lowered whose two costs sum below *best becomes the best meeting (*best the sum, *meet the
// head), in head order, the first among equals: the same labels and meeting as relaxing arc by
// arc, each direction then the other, checking each lowered head as it goes. At least one of
// `up` and `down` must be finite.
template <typename W>
void RelaxRankArcsMeeting(const Cch& cch, std::uint32_t r, double up, const W* up_w, double down,
                          const W* down_w, const CchRankLabels (&to)[2], double* best,
                          std::uint32_t* meet);

// The least w[y] + labels[head] over rank r's arcs (weights `w`, by arc less first_out[r];
// heads' labels by rank, every one set), kInfCost where r has none: four or eight arcs at a time
// where their heads are consecutive ranks (sixteen into two minima at eight lanes). A least is
// the same in any order, so every lane width gives the same value.
template <typename W>
double LeastOverRankArcs(const Cch& cch, std::uint32_t r, const W* w, const double* labels);

// Every relaxation's lanes from now on: at most `most` (8, 4 or 1), as many as the processor has
// (tests compare them); returns the lanes used.
unsigned UseRankRelaxLanes(unsigned most);

}  // namespace walk::nav
