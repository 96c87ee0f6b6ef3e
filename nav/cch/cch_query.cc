#include "nav/cch/cch_query.h"

#include <cassert>
#include <optional>

#include "nav/cch/cch_landmarks.h"
#include "nav/cch/cch_metric_patch.h"
#include "nav/cch/cch_rank_relax.h"

namespace walk::nav {

CchQuery::CchQuery(const Cch& cch)
    : own_walk_(std::make_unique<CchAncestorWalk>(cch)),
      walk_(*own_walk_),
      marks_(cch.node_count()) {}

CchQuery::CchQuery(CchAncestorWalk& walk) : walk_(walk), marks_(walk.cch().node_count()) {}

CchResult CchQuery::Run(const CchMetric& metric, const CchRequest& request,
                        std::vector<std::uint32_t>* arc_path) {
  assert(&metric.cch() == &walk_.cch());
  const std::vector<CchEndpoint>& sources = request.sources;
  const std::vector<CchEndpoint>& targets = request.targets;
  const CchBound* const bound = request.bound;
  if (arc_path != nullptr) arc_path->clear();
  walk_.NextGeneration();
  walk_.StartShared(Cch::kForward, sources, marks_);
  walk_.StartShared(Cch::kBackward, targets, marks_);
  marks_.Collect(&visited_);
  // One sweep up the union of the two ancestor sets, rank by rank, both directions at once:
  // near the top, where both sides share their ranks, each arc's two weights and its head's
  // label are read once for both. Pruned: a direction whose cost at a rank is no better than the
  // best meeting found cannot lead to a better one (weights are not negative), so its arcs are
  // not relaxed; with a bound, not even when its cost plus the least the rest costs is no better.
  const Cch& cch = walk_.cch();
  const std::uint32_t* const first_out = cch.first_out().data();
  double* const cost[2] = {walk_.costs(Cch::kForward), walk_.costs(Cch::kBackward)};
  std::uint32_t* const pred_arc[2] = {walk_.pred_arcs(Cch::kForward),
                                      walk_.pred_arcs(Cch::kBackward)};
  const CchMetricPatch* const patch = request.patch;
  assert(patch == nullptr || !metric.perfect());
  std::uint32_t patched_from = 0;  // where the patch's next rank is looked for
  double best = request.below;
  std::uint32_t meet = kInvalidId;
  // With a bound: the rest of the way from a rank of the forward side to the targets, and from
  // the sources to a rank of the backward side.
  std::optional<CchEndpointDisc> to_targets, from_sources;
  if (bound != nullptr && bound->cost_per_unit > 0.0) {
    to_targets.emplace(*bound, cch, targets);
    from_sources.emplace(*bound, cch, sources);
  }
  std::optional<CchLandmarkBound> alt_to_targets, alt_from_sources;
  if (bound != nullptr && bound->landmarks != nullptr && bound->landmarks->count > 0) {
    alt_to_targets.emplace(*bound->landmarks, cch, targets, true);
    alt_from_sources.emplace(*bound->landmarks, cch, sources, false);
  }
  // The cost direction d carries on from rank r, infinite where it cannot beat `best`.
  auto onward = [&](std::uint32_t r, std::uint32_t d) {
    const double at = cost[d][r];
    if (!(at < best)) return kInfCost;
    if (best == kInfCost) return at;
    if (to_targets) {
      const CchEndpointDisc& rest = d == Cch::kForward ? *to_targets : *from_sources;
      if (!(at + rest.At((*bound->x)[r], (*bound->y)[r]) < best)) return kInfCost;
    }
    if (alt_to_targets) {
      const CchLandmarkBound& rest = d == Cch::kForward ? *alt_to_targets : *alt_from_sources;
      if (!(at + rest.At(r) < best)) return kInfCost;
    }
    return at;
  };
  // A rank both directions reach is a way already, before either settles it: the best of those
  // bounds the search from the start, so the pruning above bites low in the tree too.
  auto reach = [&](std::uint32_t d, double reached, std::uint32_t arc, std::uint32_t h) {
    if (!(reached < cost[d][h])) return;
    cost[d][h] = reached;
    pred_arc[d][h] = arc;
    if (reached + cost[d ^ 1][h] < best) {
      best = reached + cost[d ^ 1][h];
      meet = h;
    }
  };

  for (const std::uint32_t r : visited_) {
    if (cost[0][r] + cost[1][r] < best) {
      best = cost[0][r] + cost[1][r];
      meet = r;
    }
    const double up = onward(r, Cch::kForward);
    const double down = onward(r, Cch::kBackward);
    if (up == kInfCost && down == kInfCost) continue;
    if (metric.perfect()) {  // only the arcs some shortest way needs, by direction
      for (std::uint32_t d = 0; d < 2; ++d) {
        const double from = d == Cch::kForward ? up : down;
        if (from == kInfCost) continue;
        const std::vector<std::uint32_t>& first = metric.kept_first(d);
        for (std::uint32_t k = first[r]; k < first[r + 1]; ++k) {
          const std::uint32_t h = metric.kept_head(d)[k];
          assert(walk_.Reached(h, d));
          reach(d, from + metric.kept_weight(d)[k], metric.kept_arc(d)[k], h);
        }
      }
      continue;
    }
    // The weights of r's arcs, by arc less first_out[r]: the patch's where it holds r, else the
    // metric's, in doubles or in floats, relaxed several arcs at a time where the processor can
    // (nav/cch/cch_rank_relax.h). Every head is an ancestor both ways it is relaxed.
    const CchRankLabels labels[2] = {{cost[Cch::kForward], pred_arc[Cch::kForward], nullptr},
                                     {cost[Cch::kBackward], pred_arc[Cch::kBackward], nullptr}};
    const double *patched_up = nullptr, *patched_down = nullptr;
    if (patch != nullptr) patch->RankWeights(r, &patched_from, &patched_up, &patched_down);
    if (patched_up != nullptr) {
      RelaxRankArcsMeeting(cch, r, up, patched_up, down, patched_down, labels, &best, &meet);
    } else {
      metric.WithArcWeights(first_out[r], [&](auto upw, auto downw) {
        RelaxRankArcsMeeting(cch, r, up, upw, down, downw, labels, &best, &meet);
      });
    }
  }
  return walk_.Conclude(metric, meet, best, arc_path, CchOneAfterTheOther, patch);
}

}  // namespace walk::nav
