// What the elimination-tree queries (CchQuery, CchSplitQuery) share: the walk up the elimination
// tree from each side's endpoints. It marks the ancestors each direction visits, keeps a label
// per rank and direction (cost and the arc it was reached by), sets the endpoints' costs,
// and concludes a meeting into a result with its path unpacked.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "nav/cch/cch.h"
#include "nav/cch/cch_metric.h"
#include "nav/cch/cch_path_unpacker.h"
#include "nav/cch/cch_rank_marks.h"
#include "nav/cch/cch_request.h"
#include "nav/grid/ids.h"

namespace walk::nav {

// Its buffers are sized once to the Cch and generation-stamped, so nothing is cleared or
// allocated per query after the first. One per query object; not thread-safe, except that
// StartAlone and the labels of its direction may be used for the two directions on two threads.
// Keeps a pointer to the Cch, which must outlive it.
class CchAncestorWalk {
 public:
  explicit CchAncestorWalk(const Cch& cch);
  CchAncestorWalk(const CchAncestorWalk&) = delete;
  CchAncestorWalk& operator=(const CchAncestorWalk&) = delete;

  const Cch& cch() const { return *cch_; }
  // Starts a new query: every label of the last one is stale from here on.
  void NextGeneration();
  // Direction d's start when both directions sweep one set of ancestors (CchQuery): marks in
  // `marks` the elimination-tree ancestors of `endpoints` that neither direction had (their
  // labels reset both ways), and sets the endpoints' costs.
  void StartShared(std::uint32_t d, const std::vector<CchEndpoint>& endpoints, CchRankMarks& marks);
  // Direction d's start when it sweeps its ancestors alone (CchSplitQuery): marks in `marks`
  // every elimination-tree ancestor of `endpoints`, resets only d's half of their labels, and
  // sets the endpoints' costs. Touches nothing of the other direction.
  void StartAlone(std::uint32_t d, const std::vector<CchEndpoint>& endpoints, CchRankMarks& marks);

  // Direction d's labels (Cch::kForward: from the sources; Cch::kBackward: from the targets),
  // by rank, each direction in arrays of its own, so that a sweep loads and stores the labels of
  // consecutive ranks as vectors (nav/cch/cch_rank_relax.h): the cost, and the arc from the
  // lower rank reached from (kInvalidId at an endpoint). Valid where Reached(r, d).
  double* costs(std::uint32_t d) { return cost_[d].data(); }
  std::uint32_t* pred_arcs(std::uint32_t d) { return pred_arc_[d].data(); }
  double cost(std::uint32_t d, std::uint32_t r) const { return cost_[d][r]; }
  std::uint32_t pred_arc(std::uint32_t d, std::uint32_t r) const { return pred_arc_[d][r]; }
  // Whether direction d has reached rank r in this query (its half of r's label is valid).
  bool Reached(std::uint32_t r, std::uint32_t d) const { return stamp_[r][d] == generation_; }

  // A meeting at `meet` (kInvalidId: none) of cost `cost` as a result, its way followed down
  // the labels' arcs to the endpoints, the path appended to `arc_path` when non-null (its way
  // up and way down unpacked by `both`, through `patch` over `metric` when non-null).
  CchResult Conclude(const CchMetric& metric, std::uint32_t meet, double cost,
                     std::vector<std::uint32_t>* arc_path, CchRunBoth both = CchOneAfterTheOther,
                     const CchMetricPatch* patch = nullptr);

 private:
  // Sets the costs of `endpoints` in direction d (their ranks started), noting which endpoint
  // each rank's cost comes from.
  void SetEndpointCosts(std::uint32_t d, const std::vector<CchEndpoint>& endpoints);

  const Cch* cch_;
  std::uint32_t generation_ = 0;
  std::vector<double> cost_[2];                      // by direction, then rank
  std::vector<std::uint32_t> pred_arc_[2];           // by direction, then rank
  std::vector<std::array<std::uint32_t, 2>> stamp_;  // by rank and direction
  // {rank, index of the endpoint whose cost the rank holds}, per direction
  std::vector<std::pair<std::uint32_t, std::uint32_t>> endpoint_at_[2];
  CchPathUnpacker unpacker_;
};

}  // namespace walk::nav
