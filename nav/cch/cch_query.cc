#include "nav/cch/cch_query.h"

#include <cassert>
#include <optional>
#include <type_traits>

#include "nav/cch/cch_landmarks.h"
#include "nav/cch/cch_metric_patch.h"

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
  const std::uint32_t* const head = cch.head().data();
  CchAncestorWalk::Label* const label = walk_.labels();
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
    const double cost = label[r].cost[d];
    if (!(cost < best)) return kInfCost;
    if (best == kInfCost) return cost;
    if (to_targets) {
      const CchEndpointDisc& rest = d == Cch::kForward ? *to_targets : *from_sources;
      if (!(cost + rest.At((*bound->x)[r], (*bound->y)[r]) < best)) return kInfCost;
    }
    if (alt_to_targets) {
      const CchLandmarkBound& rest = d == Cch::kForward ? *alt_to_targets : *alt_from_sources;
      if (!(cost + rest.At(r) < best)) return kInfCost;
    }
    return cost;
  };
  // A rank both directions reach is a way already, before either settles it: the best of those
  // bounds the search from the start, so the pruning above bites low in the tree too.
  auto reach = [&](CchAncestorWalk::Label& to, std::uint32_t d, double cost, std::uint32_t arc,
                   std::uint32_t h) {
    if (!(cost < to.cost[d])) return;
    to.cost[d] = cost;
    to.pred_arc[d] = arc;
    if (cost + to.cost[d ^ 1] < best) {
      best = cost + to.cost[d ^ 1];
      meet = h;
    }
  };

  for (const std::uint32_t r : visited_) {
    if (label[r].cost[0] + label[r].cost[1] < best) {
      best = label[r].cost[0] + label[r].cost[1];
      meet = r;
    }
    const double up = onward(r, Cch::kForward);
    const double down = onward(r, Cch::kBackward);
    if (up == kInfCost && down == kInfCost) continue;
    if (metric.perfect()) {  // only the arcs some shortest way needs, by direction
      for (std::uint32_t d = 0; d < 2; ++d) {
        const double cost = d == Cch::kForward ? up : down;
        if (cost == kInfCost) continue;
        const std::vector<std::uint32_t>& first = metric.kept_first(d);
        for (std::uint32_t k = first[r]; k < first[r + 1]; ++k) {
          const std::uint32_t h = metric.kept_head(d)[k];
          assert(walk_.Reached(h, d));
          reach(label[h], d, cost + metric.kept_weight(d)[k], metric.kept_arc(d)[k], h);
        }
      }
      continue;
    }
    // The weights of r's arcs, by arc less first_out[r]: the patch's where it holds r, else the
    // metric's, in doubles or in floats (each kind its own loop).
    const std::uint32_t begin = first_out[r];
    const double *patched_up = nullptr, *patched_down = nullptr;
    if (patch != nullptr) patch->RankWeights(r, &patched_from, &patched_up, &patched_down);
    auto relax = [&](auto forward, auto backward, auto upw, auto downw) {
      const std::uint32_t end = first_out[r + 1];
      for (std::uint32_t x = begin; x < end; ++x) {
        const std::uint32_t h = head[x];
        CchAncestorWalk::Label& to = label[h];
        assert(!forward || walk_.Reached(h, Cch::kForward));  // upward: ancestors
        assert(!backward || walk_.Reached(h, Cch::kBackward));
        if constexpr (forward) reach(to, Cch::kForward, up + upw[x - begin], x, h);
        if constexpr (backward) reach(to, Cch::kBackward, down + downw[x - begin], x, h);
      }
    };
    auto relax_rank = [&](auto upw, auto downw) {  // a direction not carried on is left out
      if (down == kInfCost) return relax(std::true_type{}, std::false_type{}, upw, downw);
      if (up == kInfCost) return relax(std::false_type{}, std::true_type{}, upw, downw);
      relax(std::true_type{}, std::true_type{}, upw, downw);
    };
    if (patched_up != nullptr) {
      relax_rank(patched_up, patched_down);
    } else {
      metric.WithArcWeights(begin, relax_rank);
    }
  }
  return walk_.Conclude(metric, meet, best, arc_path, CchOneAfterTheOther, patch);
}

}  // namespace walk::nav
