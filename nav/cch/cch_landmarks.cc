#include "nav/cch/cch_landmarks.h"

#include <algorithm>
#include <limits>

#include "nav/search/indexed_heap.h"

namespace walk::nav {
namespace {

// Costs from `source` to every node over the CSR (first, head, weight), kInfCost where none.
void Distances(std::uint32_t source, const std::vector<std::uint32_t>& first,
               const std::vector<std::uint32_t>& head, const std::vector<double>& weight,
               IndexedMinHeap& heap, std::vector<double>* cost) {
  const std::uint32_t n = static_cast<std::uint32_t>(first.size() - 1);
  cost->assign(n, kInfCost);
  heap.Reset(n);
  std::vector<std::uint8_t> queued(n, 0);
  (*cost)[source] = 0.0;
  heap.Push(source, 0.0);
  queued[source] = 1;
  while (!heap.empty()) {
    double c;
    const std::uint32_t v = heap.PopMin(&c);
    for (std::uint32_t a = first[v]; a < first[v + 1]; ++a) {
      const double via = c + weight[a];
      const std::uint32_t h = head[a];
      if (!(via < (*cost)[h])) continue;
      (*cost)[h] = via;
      if (queued[h]) {
        heap.Decrease(h, via);
      } else {
        queued[h] = 1;
        heap.Push(h, via);
      }
    }
  }
}

}  // namespace

CchLandmarks CchLandmarks::Compute(const Cch& cch, const std::vector<std::uint32_t>& tails,
                                   const std::vector<std::uint32_t>& heads,
                                   const std::vector<double>& weights, std::uint32_t count) {
  const std::uint32_t n = cch.node_count();
  CchLandmarks marks;
  if (n == 0 || count == 0) return marks;
  // Both directions as CSR over the arcs that can be taken.
  std::vector<std::uint32_t> first[2], head[2];
  std::vector<double> weight[2];
  for (int d = 0; d < 2; ++d) {
    const auto& from = d == 0 ? tails : heads;
    const auto& to = d == 0 ? heads : tails;
    first[d].assign(n + 1, 0);
    for (std::size_t a = 0; a < from.size(); ++a) {
      if (weights[a] < kInfCost) ++first[d][from[a] + 1];
    }
    for (std::uint32_t v = 0; v < n; ++v) first[d][v + 1] += first[d][v];
    head[d].resize(first[d][n]);
    weight[d].resize(first[d][n]);
    std::vector<std::uint32_t> at(first[d].begin(), first[d].end() - 1);
    for (std::size_t a = 0; a < from.size(); ++a) {
      if (!(weights[a] < kInfCost)) continue;
      head[d][at[from[a]]] = to[a];
      weight[d][at[from[a]]++] = weights[a];
    }
  }
  marks.count = count;
  marks.from.assign(std::size_t{n} * count, std::numeric_limits<float>::infinity());
  marks.to.assign(std::size_t{n} * count, std::numeric_limits<float>::infinity());
  IndexedMinHeap heap;
  std::vector<double> cost;
  std::vector<double> nearest(n, kInfCost);  // cost from the nearest chosen landmark
  // Start from the node farthest from node 0, then always the farthest from those chosen.
  Distances(0, first[0], head[0], weight[0], heap, &cost);
  std::uint32_t next = 0;
  for (std::uint32_t v = 0; v < n; ++v) {
    if (cost[v] < kInfCost && cost[v] > cost[next]) next = v;
  }
  for (std::uint32_t l = 0; l < count; ++l) {
    const std::uint32_t mark = next;
    for (int d = 0; d < 2; ++d) {
      Distances(mark, first[d], head[d], weight[d], heap, &cost);
      std::vector<float>& out = d == 0 ? marks.from : marks.to;
      for (std::uint32_t v = 0; v < n; ++v) {
        if (cost[v] < kInfCost)
          out[std::size_t{cch.rank(v)} * count + l] = static_cast<float>(cost[v]);
        if (d == 0) nearest[v] = std::min(nearest[v], cost[v]);
      }
    }
    double farthest = -1.0;
    for (std::uint32_t v = 0; v < n; ++v) {
      if (nearest[v] < kInfCost && nearest[v] > farthest) {
        farthest = nearest[v];
        next = v;
      }
    }
  }
  return marks;
}

CchLandmarkBound::CchLandmarkBound(const CchLandmarks& m, const Cch& cch,
                                   const std::vector<CchEndpoint>& endpoints, bool to)
    : marks(&m),
      to_endpoints(to),
      p(m.count, to ? kInfCost : -kInfCost),
      q(m.count, to ? -kInfCost : kInfCost) {
  for (const CchEndpoint& s : endpoints) {
    if (!(s.cost < kInfCost)) continue;
    const std::size_t at = std::size_t{cch.rank(s.node)} * m.count;
    for (std::uint32_t l = 0; l < m.count; ++l) {
      const double from_l = Cost(m.from[at + l]), to_l = Cost(m.to[at + l]);
      if (to) {
        p[l] = std::min(p[l], from_l + s.cost);
        q[l] = std::max(q[l], to_l - s.cost);
      } else {
        p[l] = std::max(p[l], from_l - s.cost);
        q[l] = std::min(q[l], to_l + s.cost);
      }
    }
  }
}

}  // namespace walk::nav
