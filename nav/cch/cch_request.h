// What a CCH query is asked and what it answers: the cheapest way from any of some sources to any
// of some targets, each with a cost of its own (a leg's seconds into or out of the graph).
#pragma once

#include <cstdint>
#include <vector>

#include "nav/grid/ids.h"

namespace walk::nav {

struct CchBound;
class CchMetricPatch;

// A node with a cost already paid to reach it (a source) or still to pay after it (a target).
struct CchEndpoint {
  std::uint32_t node;
  double cost;
  bool operator==(const CchEndpoint&) const = default;
};

// A query of the elimination-tree queries (CchQuery, CchSplitQuery): the cheapest
// s.cost + dist(s.node, t.node) + t.cost over all s in `sources` and t in `targets`. Endpoint
// nodes must be below the hierarchy's node_count(); endpoints costing kInfCost are ignored; an
// empty list finds nothing. The lists must outlive the query.
struct CchRequest {
  const std::vector<CchEndpoint>& sources;
  const std::vector<CchEndpoint>& targets;
  // Optional, not owned: prunes ranks by a lower bound on the rest of the way (see each query).
  const CchBound* bound = nullptr;
  // Only a way cheaper than this is sought: ranks are pruned against it from the start, and
  // when no such way exists the result is not found (ask again without it).
  double below = kInfCost;
  // Optional, not owned: lowered weights over the metric's (nav/cch/cch_metric_patch.h), made
  // over that metric.
  const CchMetricPatch* patch = nullptr;
};

// A query's answer.
struct CchResult {
  bool found = false;
  double cost = kInfCost;
  std::uint32_t source = kInvalidId;  // index into the sources
  std::uint32_t target = kInvalidId;  // index into the targets
};

}  // namespace walk::nav
