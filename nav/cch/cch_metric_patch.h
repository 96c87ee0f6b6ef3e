// A CchMetric with some input arcs made cheaper, kept as the difference alone: the ranks whose
// upward arcs change, each with all its arcs' weights and vias, over a base metric that is left
// as it is. Partial customization after RoutingKit's CustomizableContractionHierarchyPartial-
// Customization, for weights that only go down: a lowered arc can only lower the arcs of the
// triangles it is a lower side of, so the changes are pushed up from rank to rank in ascending
// order, and no arc outside them is read again.
//
// A danger band's metric with the zones of a walk's ends exempt (nav/abstract/band_metrics.h)
// is such a patch over the band's metric: only the arcs through those zones get cheaper.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "nav/cch/cch.h"
#include "nav/cch/cch_metric.h"
#include "nav/grid/ids.h"

namespace walk::nav {

// Immutable once made; safe to share across threads. Read with the base metric it was made over
// (the same Cch and weights): a rank it does not hold has the base's weights.
class CchMetricPatch {
 public:
  // An input arc and its new weight.
  struct Lowered {
    std::uint32_t arc;
    double weight;
  };

  CchMetricPatch() = default;
  // The patch that turns `base` into the metric customized from base's input weights with each
  // of `lowered` at its new weight, which must be at most its old one (a higher one is
  // ignored). The weights are those a full customization gives; among equally cheap ways, the
  // vias may name another (the path unpacked costs the same).
  static CchMetricPatch Lower(const CchMetric& base, std::span<const Lowered> lowered);

  bool empty() const { return rank_.empty(); }
  // The ranks whose arcs the patch holds, and those arcs (each rank's all).
  std::uint32_t rank_count() const { return static_cast<std::uint32_t>(rank_.size()); }
  std::uint64_t arc_count() const { return weight_[0].size(); }
  // Bytes held by this object's arrays.
  std::uint64_t MemoryBytes() const;

  // The index of rank r among the patch's ranks, kInvalidId when it holds none of r's arcs.
  // Looks from `from` on (an index found for a lower rank, or 0), so ascending ranks read the
  // patch once over.
  std::uint32_t Find(std::uint32_t r, std::uint32_t from = 0) const;
  // The weights of direction d of the arcs of the patch's `index`-th rank, first arc first.
  const double* weights(std::uint32_t d, std::uint32_t index) const {
    return weight_[d].data() + first_[index];
  }
  // Where the patch holds rank r, points *up and *down at its arcs' weights of each direction
  // and sets *from to its index (else leaves them): for ranks read in ascending order, *from
  // starting at 0.
  void RankWeights(std::uint32_t r, std::uint32_t* from, const double** up,
                   const double** down) const {
    if (const std::uint32_t i = Find(r, *from); i != kInvalidId) {
      *up = weights(Cch::kForward, i);
      *down = weights(Cch::kBackward, i);
      *from = i;
    }
  }
  // What `base` (the metric it was made over) holds at `slot`, with the patch over it.
  double weight(const CchMetric& base, std::uint32_t slot) const;
  // How `slot` (its arc's lower rank `tail`) was reached, with the patch over `base`.
  CchStep StepOf(const CchMetric& base, std::uint32_t slot, std::uint32_t tail) const;

 private:
  // The index of the patched rank holding arc `arc`, kInvalidId when none does.
  std::uint32_t IndexOfArc(std::uint32_t arc) const;

  std::vector<std::uint32_t> rank_;       // the patched ranks, ascending
  std::vector<std::uint32_t> first_arc_;  // by index: the rank's first hierarchy arc
  std::vector<std::uint32_t> first_;      // by index, + 1: its first arc in weight_ and via_
  std::vector<double> weight_[2];         // by direction
  std::vector<std::uint32_t> via_[2];
  friend class CchPatchBuilder;
};

}  // namespace walk::nav
