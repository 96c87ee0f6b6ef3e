#include "nav/cch/cch_split_query.h"

#include <cassert>
#include <memory>

#include "nav/cch/cch_rank_relax.h"

namespace walk::nav {

CchSplitQuery::CchSplitQuery(const Cch& cch)
    : own_walk_(std::make_unique<CchAncestorWalk>(cch)),
      walk_(*own_walk_),
      marks_{CchRankMarks(cch.node_count()), CchRankMarks(cch.node_count())} {}

CchSplitQuery::CchSplitQuery(CchAncestorWalk& walk)
    : walk_(walk),
      marks_{CchRankMarks(walk.cch().node_count()), CchRankMarks(walk.cch().node_count())} {}

CchResult CchSplitQuery::Run(const CchMetric& metric, const CchRequest& request,
                             std::vector<std::uint32_t>* arc_path, CchRunBoth both) {
  Begin(metric);
  const CchBound* const bound = request.bound;
  const Cch& cch = walk_.cch();
  const CchEndpointArea target_area =
      bound != nullptr ? CchEndpointArea::Of(*bound, cch, request.targets) : CchEndpointArea{};
  const CchEndpointArea source_area =
      bound != nullptr ? CchEndpointArea::Of(*bound, cch, request.sources) : CchEndpointArea{};
  both(
      [&] {
        Side(Cch::kForward, metric,
             {.endpoints = request.sources,
              .bound = bound,
              .other = target_area,
              .below = request.below,
              .patch = request.patch});
      },
      [&] {
        Side(Cch::kBackward, metric,
             {.endpoints = request.targets,
              .bound = bound,
              .other = source_area,
              .below = request.below,
              .patch = request.patch});
      });
  return End(metric, request.below, arc_path, both, request.patch);
}

void CchSplitQuery::Begin(const CchMetric& metric) {
  assert(&metric.cch() == &walk_.cch());
  walk_.NextGeneration();
}

void CchSplitQuery::MarkSide(std::uint32_t d, const std::vector<CchEndpoint>& endpoints) {
  walk_.StartAlone(d, endpoints, marks_[d]);
  marks_[d].Collect(&visited_[d]);
}

void CchSplitQuery::Side(std::uint32_t d, const CchMetric& metric, const SideRequest& request) {
  assert(&metric.cch() == &walk_.cch());
  // This direction's ancestors of its endpoints, in its own marks and its own half of the
  // labels: nothing here touches the other direction's state, so the two sides may run at once.
  MarkSide(d, request.endpoints);
  const Cch& cch = walk_.cch();
  const CchRankLabels labels{walk_.costs(d), walk_.pred_arcs(d), nullptr};
  const CchBound* const bound = request.bound;
  const CchEndpointArea other = request.other;
  const double below = request.below;

  // Up the ancestors in rank order, against `below` only (the other direction's costs are not
  // known yet): a rank whose cost, plus the least the way on to the other side's endpoints costs,
  // is not below it leads to no way below it.
  const std::uint32_t* const first_out = cch.first_out().data();
  const bool pruned = bound != nullptr && bound->cost_per_unit > 0.0;
  std::uint32_t patched_from = 0;  // where the patch's next rank is looked for
  for (const std::uint32_t r : visited_[d]) {
    const double cost = labels.cost[r];
    if (!(cost < below)) continue;
    if (pruned && !(cost + bound->cost_per_unit * other.Columns((*bound->x)[r], (*bound->y)[r]) +
                        other.cheapest <
                    below)) {
      continue;
    }
    // r's weights, by arc less first_out[r]: the patch's where it holds r, else the metric's,
    // in doubles or in floats (each kind its own loop). Every head is an ancestor, so it has a
    // label.
    const double* patched[2] = {nullptr, nullptr};
    if (request.patch != nullptr) {
      request.patch->RankWeights(r, &patched_from, &patched[Cch::kForward],
                                 &patched[Cch::kBackward]);
    }
    if (patched[d] != nullptr) {
      RelaxRankArcs(cch, r, cost, patched[d], labels);
    } else {
      metric.WithArcWeights(first_out[r], [&](auto up, auto down) {
        RelaxRankArcs(cch, r, cost, d == Cch::kForward ? up : down, labels);
      });
    }
  }
}

CchResult CchSplitQuery::End(const CchMetric& metric, double below,
                             std::vector<std::uint32_t>* arc_path, CchRunBoth both,
                             const CchMetricPatch* patch) {
  if (arc_path != nullptr) arc_path->clear();
  // The cheapest meeting, the lowest rank among equals.
  double best = below;
  std::uint32_t meet = kInvalidId;
  for (const std::uint32_t r : visited_[Cch::kForward]) {
    if (!walk_.Reached(r, Cch::kBackward)) continue;
    const double way = walk_.cost(Cch::kForward, r) + walk_.cost(Cch::kBackward, r);
    if (way < best) {
      best = way;
      meet = r;
    }
  }
  return walk_.Conclude(metric, meet, best, arc_path, both, patch);
}

}  // namespace walk::nav
