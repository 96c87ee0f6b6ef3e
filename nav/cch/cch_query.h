// The elimination-tree query of a CCH: both directions walk up the elimination tree from their
// endpoints in one sweep, rank by rank, and meet at common ancestors.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "nav/cch/cch.h"
#include "nav/cch/cch_ancestor_walk.h"
#include "nav/cch/cch_bound.h"
#include "nav/cch/cch_metric.h"
#include "nav/cch/cch_rank_marks.h"
#include "nav/cch/cch_request.h"

namespace walk::nav {

// A reusable query: its buffers are sized once to the Cch and generation-stamped, so nothing is
// cleared or allocated per query after the first. One CchQuery per thread; not thread-safe.
// Keeps a pointer to the Cch, which must outlive it.
class CchQuery {
 public:
  // A query with labels of its own.
  explicit CchQuery(const Cch& cch);
  // A query on `walk`'s labels (borrowed: it must outlive the query), shared with the other
  // queries of one thread (CchSplitQuery) so that they keep one set of labels warm between them.
  explicit CchQuery(CchAncestorWalk& walk);
  CchQuery(const CchQuery&) = delete;
  CchQuery& operator=(const CchQuery&) = delete;

  // The cheapest way `request` asks for, priced by `metric` (customized on this query's Cch).
  // Ties are broken deterministically (the first meeting found at the best cost). When
  // `arc_path` is non-null it is cleared and, when found, receives the input arc ids of the path
  // from sources[source].node to targets[target].node in order (empty when they are the same
  // node). With `request.bound`, a rank whose cost plus the bound of the rest of the way to the
  // other side's endpoints (its geometric disc, and its landmarks when it has them) is no better
  // than the best meeting found so far is not relaxed: far fewer ranks of the long separators are
  // (the cost is the same; among equally cheap ways another may win). With `request.below`, ranks
  // are pruned against it from the start.
  CchResult Run(const CchMetric& metric, const CchRequest& request,
                std::vector<std::uint32_t>* arc_path = nullptr);

 private:
  std::unique_ptr<CchAncestorWalk> own_walk_;  // null when the labels are borrowed
  CchAncestorWalk& walk_;
  // The ranks StartShared marks, read in order and cleared into visited_ (so it needs no sort).
  CchRankMarks marks_;
  std::vector<std::uint32_t> visited_;  // ranks either direction visits, ascending
};

}  // namespace walk::nav
