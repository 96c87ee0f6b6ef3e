// Exact distances to a set of targets under a CCH metric, for any node, computed lazily: the
// potentials of CH-potentials (Strasser and Zeitz). One backward sweep up the elimination tree
// from the targets labels their ancestors; a node's distance is then the cheapest way up its
// own ancestors to one of those labels, memoized so each rank is priced once per target set.
// Under a metric no dearer than the one being searched (band 0 beside a danger band, which
// only adds), the distances are a consistent A* potential: the search stays exact and settles
// little beyond the way it finds.
#pragma once

#include <cstdint>
#include <vector>

#include "nav/cch/cch.h"
#include "nav/cch/cch_metric.h"
#include "nav/cch/cch_rank_marks.h"
#include "nav/cch/cch_request.h"

namespace walk::nav {

// Its buffers are sized once to the Cch and generation-stamped, so nothing is cleared or
// allocated per target set after the first. One per thread; not thread-safe. Keeps pointers to
// the Cch and to the metric of the last Reset, which must outlive their use.
class CchPotential {
 public:
  explicit CchPotential(const Cch& cch);
  CchPotential(const CchPotential&) = delete;
  CchPotential& operator=(const CchPotential&) = delete;

  // Starts a new target set under `metric` (customized on this potential's Cch): every
  // distance of the last one is stale from here on. Targets costing kInfCost are ignored.
  void Reset(const CchMetric& metric, const std::vector<CchEndpoint>& targets);
  // The same, unless the last Reset was under this very `metric` (the same object, alive
  // throughout, as a profile's band-0 metric is: never another at its address) with equal
  // `targets`: then every distance stands and what was priced is read again. Returns whether
  // it kept them.
  bool ResetUnlessSame(const CchMetric& metric, const std::vector<CchEndpoint>& targets);
  // The cheapest dist(node, t.node) + t.cost over the targets t, kInfCost when none is
  // reachable from `node`.
  double ToTargets(std::uint32_t node);
  // Ranks priced since the last Reset (its cost).
  std::uint64_t priced() const { return priced_; }

 private:
  const Cch* cch_;
  const CchMetric* metric_ = nullptr;
  std::uint32_t generation_ = 0;
  // By rank: the backward sweep's cost (valid where down_stamp_ is this generation) ...
  std::vector<double> down_;
  std::vector<std::uint32_t> down_stamp_;
  // ... and the memoized distance (valid where up_stamp_ is); a rank's is valid only once
  // every ancestor's is.
  std::vector<double> up_;
  std::vector<std::uint32_t> up_stamp_;
  std::vector<std::uint32_t> arc_;  // scratch: the arc each swept rank's cost came by
  CchRankMarks marks_;
  std::vector<std::uint32_t> ranks_;  // scratch: the swept ranks, then a chain to price
  std::uint64_t priced_ = 0;
  std::vector<CchEndpoint> targets_;  // the last Reset's
};

}  // namespace walk::nav
