#include "nav/cch/cch_order.h"

#include <algorithm>
#include <cassert>
#include <tuple>
#include <utility>

#include "nav/grid/ids.h"

namespace walk::nav {
namespace {

// Parts this small are ordered by degree: no separator could pay for itself.
constexpr std::size_t kSmallPart = 8;
// Cuts are tried between these quantiles of the coordinate, so both halves shrink.
constexpr double kLowestCut = 0.3;
constexpr double kHighestCut = 0.7;
// The cheapest cuts (by cut arcs) per axis whose vertex cover is actually computed.
constexpr std::size_t kCoveredCandidates = 4;

// The undirected simple graph: no loops, no parallel edges, both directions listed.
struct Adjacency {
  std::vector<std::uint32_t> first_out;
  std::vector<std::uint32_t> head;
};

Adjacency BuildAdjacency(std::uint32_t node_count, const std::vector<std::uint32_t>& tails,
                         const std::vector<std::uint32_t>& heads) {
  Adjacency adj;
  adj.first_out.assign(node_count + 1, 0);
  for (std::size_t a = 0; a < tails.size(); ++a) {
    if (tails[a] == heads[a]) continue;
    ++adj.first_out[tails[a] + 1];
    ++adj.first_out[heads[a] + 1];
  }
  for (std::uint32_t v = 0; v < node_count; ++v) adj.first_out[v + 1] += adj.first_out[v];
  std::vector<std::uint32_t> fill(adj.first_out.begin(), adj.first_out.end() - 1);
  adj.head.resize(adj.first_out[node_count]);
  for (std::size_t a = 0; a < tails.size(); ++a) {
    if (tails[a] == heads[a]) continue;
    adj.head[fill[tails[a]]++] = heads[a];
    adj.head[fill[heads[a]]++] = tails[a];
  }
  // Sort and deduplicate each list, compacting in place.
  std::uint32_t out = 0;
  for (std::uint32_t v = 0; v < node_count; ++v) {
    const std::uint32_t begin = adj.first_out[v];
    const std::uint32_t end = adj.first_out[v + 1];
    std::sort(adj.head.begin() + begin, adj.head.begin() + end);
    adj.first_out[v] = out;
    for (std::uint32_t e = begin; e < end; ++e) {
      if (e == begin || adj.head[e] != adj.head[e - 1]) adj.head[out++] = adj.head[e];
    }
  }
  adj.first_out[node_count] = out;
  adj.head.resize(out);
  return adj;
}

// One bisection of a node set.
struct Split {
  std::vector<std::uint32_t> left;
  std::vector<std::uint32_t> right;
  std::vector<std::uint32_t> separator;
};

class Dissector {
 public:
  Dissector(std::uint32_t node_count, Adjacency adj, const std::vector<float>& x,
            const std::vector<float>& y)
      : adj_(std::move(adj)),
        coordinate_{&x, &y},
        set_mark_(node_count, 0),
        seen_mark_(node_count, 0),
        right_mark_(node_count, 0),
        right_local_(node_count, 0) {
    position_[0].resize(node_count);
    position_[1].resize(node_count);
    order_.reserve(node_count);
  }

  std::vector<std::uint32_t> Run(std::uint32_t node_count) {
    std::vector<std::uint32_t> all(node_count);
    for (std::uint32_t v = 0; v < node_count; ++v) all[v] = v;
    Dissect(std::move(all), /*connected=*/false);
    assert(order_.size() == node_count);
    return std::move(order_);
  }

 private:
  // Appends `nodes` to the order: parts below, their separator above.
  void Dissect(std::vector<std::uint32_t> nodes, bool connected);
  void OrderByDegree(std::vector<std::uint32_t>& nodes);
  // The connected components of the marked set, each in the order of `nodes`.
  std::vector<std::vector<std::uint32_t>> Components(const std::vector<std::uint32_t>& nodes);
  // Splits the marked, connected set `nodes` (more than kSmallPart of them).
  Split Bisect(const std::vector<std::uint32_t>& nodes);
  // The size of a minimum vertex cover of the arcs cut between positions < cut and >= cut
  // along `axis`; appends the cover's nodes to `cover` when non-null.
  std::uint32_t CoverCut(int axis, std::uint32_t cut, std::vector<std::uint32_t>* cover);
  // Hopcroft-Karp on the bipartite graph in bip_first_/bip_head_; returns the matching size.
  std::uint32_t MaximumMatching(std::uint32_t left_count, std::uint32_t right_count);
  bool Augment(std::uint32_t root);

  void Mark(const std::vector<std::uint32_t>& nodes) {
    ++set_stamp_;
    for (std::uint32_t v : nodes) set_mark_[v] = set_stamp_;
  }
  bool InSet(std::uint32_t v) const { return set_mark_[v] == set_stamp_; }

  const Adjacency adj_;
  const std::vector<float>* coordinate_[2];
  std::vector<std::uint32_t> order_;

  // Membership of the set being split, generation-stamped.
  std::vector<std::uint32_t> set_mark_;
  std::uint32_t set_stamp_ = 0;
  std::vector<std::uint32_t> seen_mark_;  // components and separator membership
  std::uint32_t seen_stamp_ = 0;

  // Per axis: the set sorted by coordinate, each node's position there, and for each position
  // the furthest position of a neighbour (so a cut knows which nodes it touches).
  std::vector<std::uint32_t> sorted_[2];
  std::vector<std::uint32_t> position_[2];
  std::vector<std::uint32_t> reach_[2];
  std::vector<std::int64_t> cut_delta_;

  // The bipartite graph of one cut: left endpoints (by position) to local right ids.
  std::vector<std::uint32_t> left_nodes_;
  std::vector<std::uint32_t> right_nodes_;
  std::vector<std::uint32_t> right_mark_;
  std::uint32_t right_stamp_ = 0;
  std::vector<std::uint32_t> right_local_;
  std::vector<std::uint32_t> bip_first_;
  std::vector<std::uint32_t> bip_head_;
  std::vector<std::uint32_t> match_left_;
  std::vector<std::uint32_t> match_right_;
  std::vector<std::uint32_t> layer_;
  std::vector<std::uint32_t> next_edge_;
  std::vector<std::uint32_t> queue_;
  std::vector<std::uint32_t> stack_;
};

void Dissector::Dissect(std::vector<std::uint32_t> nodes, bool connected) {
  Mark(nodes);
  if (nodes.size() <= kSmallPart) {
    OrderByDegree(nodes);
    return;
  }
  if (!connected) {
    std::vector<std::vector<std::uint32_t>> parts = Components(nodes);
    if (parts.size() > 1) {
      // Components share no arc: ordered one after the other, they need no separator.
      for (std::vector<std::uint32_t>& part : parts) Dissect(std::move(part), true);
      return;
    }
  }
  Split split = Bisect(nodes);
  Dissect(std::move(split.left), false);
  Dissect(std::move(split.right), false);
  order_.insert(order_.end(), split.separator.begin(), split.separator.end());
}

void Dissector::OrderByDegree(std::vector<std::uint32_t>& nodes) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> keyed;  // (degree in the set, node)
  keyed.reserve(nodes.size());
  for (std::uint32_t v : nodes) {
    std::uint32_t degree = 0;
    for (std::uint32_t e = adj_.first_out[v]; e < adj_.first_out[v + 1]; ++e) {
      degree += InSet(adj_.head[e]) ? 1 : 0;
    }
    keyed.emplace_back(degree, v);
  }
  std::sort(keyed.begin(), keyed.end());
  for (const auto& [degree, v] : keyed) order_.push_back(v);
}

std::vector<std::vector<std::uint32_t>> Dissector::Components(
    const std::vector<std::uint32_t>& nodes) {
  std::vector<std::vector<std::uint32_t>> parts;
  ++seen_stamp_;
  for (std::uint32_t root : nodes) {
    if (seen_mark_[root] == seen_stamp_) continue;
    seen_mark_[root] = seen_stamp_;
    std::vector<std::uint32_t> part{root};
    for (std::size_t i = 0; i < part.size(); ++i) {
      const std::uint32_t v = part[i];
      for (std::uint32_t e = adj_.first_out[v]; e < adj_.first_out[v + 1]; ++e) {
        const std::uint32_t w = adj_.head[e];
        if (InSet(w) && seen_mark_[w] != seen_stamp_) {
          seen_mark_[w] = seen_stamp_;
          part.push_back(w);
        }
      }
    }
    parts.push_back(std::move(part));
  }
  return parts;
}

Split Dissector::Bisect(const std::vector<std::uint32_t>& nodes) {
  const std::uint32_t n = static_cast<std::uint32_t>(nodes.size());
  const auto lowest =
      std::max<std::uint32_t>(1, static_cast<std::uint32_t>(n * kLowestCut + 0.999));
  const auto highest = std::min<std::uint32_t>(n - 1, static_cast<std::uint32_t>(n * kHighestCut));
  // (separator size, cut arcs, distance from the median, axis, cut position): the smallest wins.
  using Choice = std::tuple<std::uint32_t, std::int64_t, std::uint32_t, int, std::uint32_t>;
  Choice best{kInvalidId, 0, 0, 0, 0};
  for (int axis = 0; axis < 2; ++axis) {
    const std::vector<float>& coordinate = *coordinate_[axis];
    std::vector<std::uint32_t>& sorted = sorted_[axis];
    std::vector<std::uint32_t>& position = position_[axis];
    std::vector<std::uint32_t>& reach = reach_[axis];
    sorted = nodes;
    std::sort(sorted.begin(), sorted.end(), [&](std::uint32_t a, std::uint32_t b) {
      return coordinate[a] < coordinate[b] || (coordinate[a] == coordinate[b] && a < b);
    });
    for (std::uint32_t i = 0; i < n; ++i) position[sorted[i]] = i;
    // An arc between positions i < j is cut by every cut position in (i, j].
    cut_delta_.assign(n + 1, 0);
    reach.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint32_t v = sorted[i];
      std::uint32_t furthest = i;
      for (std::uint32_t e = adj_.first_out[v]; e < adj_.first_out[v + 1]; ++e) {
        const std::uint32_t w = adj_.head[e];
        if (!InSet(w)) continue;
        const std::uint32_t j = position[w];
        if (j <= i) continue;
        ++cut_delta_[i + 1];
        --cut_delta_[j + 1];
        furthest = std::max(furthest, j);
      }
      reach[i] = furthest;
    }
    // Candidates: (cut arcs, distance from the median, position), between distinct
    // coordinates where there are any.
    std::vector<std::tuple<std::int64_t, std::uint32_t, std::uint32_t>> candidates;
    std::vector<std::tuple<std::int64_t, std::uint32_t, std::uint32_t>> tied;
    std::int64_t cut_arcs = 0;
    for (std::uint32_t p = 1; p <= highest; ++p) {
      cut_arcs += cut_delta_[p];
      if (p < lowest) continue;
      const std::uint32_t off_center = p * 2 > n ? p * 2 - n : n - p * 2;
      if (coordinate[sorted[p - 1]] < coordinate[sorted[p]]) {
        candidates.emplace_back(cut_arcs, off_center, p);
      } else {
        tied.emplace_back(cut_arcs, off_center, p);
      }
    }
    if (candidates.empty()) candidates = std::move(tied);  // degenerate coordinates: any cut
    const std::size_t tried = std::min(kCoveredCandidates, candidates.size());
    std::partial_sort(candidates.begin(), candidates.begin() + tried, candidates.end());
    for (std::size_t c = 0; c < tried; ++c) {
      const auto [arcs, off_center, p] = candidates[c];
      const Choice choice{CoverCut(axis, p, nullptr), arcs, off_center, axis, p};
      best = std::min(best, choice);
    }
  }
  assert(std::get<0>(best) != kInvalidId);
  const int axis = std::get<3>(best);
  const std::uint32_t cut = std::get<4>(best);
  Split split;
  CoverCut(axis, cut, &split.separator);
  ++seen_stamp_;
  for (std::uint32_t v : split.separator) seen_mark_[v] = seen_stamp_;
  const std::vector<std::uint32_t>& sorted = sorted_[axis];
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t v = sorted[i];
    if (seen_mark_[v] == seen_stamp_) continue;
    (i < cut ? split.left : split.right).push_back(v);
  }
  return split;
}

std::uint32_t Dissector::CoverCut(int axis, std::uint32_t cut, std::vector<std::uint32_t>* cover) {
  const std::vector<std::uint32_t>& sorted = sorted_[axis];
  const std::vector<std::uint32_t>& position = position_[axis];
  const std::vector<std::uint32_t>& reach = reach_[axis];
  ++right_stamp_;
  left_nodes_.clear();
  right_nodes_.clear();
  bip_first_.clear();
  bip_head_.clear();
  for (std::uint32_t i = 0; i < cut; ++i) {
    if (reach[i] < cut) continue;
    const std::uint32_t v = sorted[i];
    left_nodes_.push_back(v);
    bip_first_.push_back(static_cast<std::uint32_t>(bip_head_.size()));
    for (std::uint32_t e = adj_.first_out[v]; e < adj_.first_out[v + 1]; ++e) {
      const std::uint32_t w = adj_.head[e];
      if (!InSet(w) || position[w] < cut) continue;
      if (right_mark_[w] != right_stamp_) {
        right_mark_[w] = right_stamp_;
        right_local_[w] = static_cast<std::uint32_t>(right_nodes_.size());
        right_nodes_.push_back(w);
      }
      bip_head_.push_back(right_local_[w]);
    }
  }
  bip_first_.push_back(static_cast<std::uint32_t>(bip_head_.size()));
  const std::uint32_t left_count = static_cast<std::uint32_t>(left_nodes_.size());
  const std::uint32_t right_count = static_cast<std::uint32_t>(right_nodes_.size());
  const std::uint32_t matched = MaximumMatching(left_count, right_count);
  if (cover == nullptr) return matched;

  // König: with Z the nodes reachable from unmatched left nodes by alternating paths, the
  // left nodes outside Z and the right nodes inside Z cover every cut arc.
  std::vector<std::uint8_t> left_reached(left_count, 0);
  std::vector<std::uint8_t> right_reached(right_count, 0);
  queue_.clear();
  for (std::uint32_t l = 0; l < left_count; ++l) {
    if (match_left_[l] == kInvalidId) {
      left_reached[l] = 1;
      queue_.push_back(l);
    }
  }
  for (std::size_t q = 0; q < queue_.size(); ++q) {
    const std::uint32_t l = queue_[q];
    for (std::uint32_t e = bip_first_[l]; e < bip_first_[l + 1]; ++e) {
      const std::uint32_t r = bip_head_[e];
      if (right_reached[r]) continue;
      right_reached[r] = 1;
      const std::uint32_t next = match_right_[r];
      assert(next != kInvalidId);  // else the matching were not maximum
      if (!left_reached[next]) {
        left_reached[next] = 1;
        queue_.push_back(next);
      }
    }
  }
  const std::size_t before = cover->size();
  for (std::uint32_t l = 0; l < left_count; ++l) {
    if (!left_reached[l]) cover->push_back(left_nodes_[l]);
  }
  for (std::uint32_t r = 0; r < right_count; ++r) {
    if (right_reached[r]) cover->push_back(right_nodes_[r]);
  }
  assert(cover->size() - before == matched);
  static_cast<void>(before);
  return matched;
}

std::uint32_t Dissector::MaximumMatching(std::uint32_t left_count, std::uint32_t right_count) {
  match_left_.assign(left_count, kInvalidId);
  match_right_.assign(right_count, kInvalidId);
  std::uint32_t matched = 0;
  for (std::uint32_t l = 0; l < left_count; ++l) {  // greedy start
    for (std::uint32_t e = bip_first_[l]; e < bip_first_[l + 1]; ++e) {
      const std::uint32_t r = bip_head_[e];
      if (match_right_[r] == kInvalidId) {
        match_right_[r] = l;
        match_left_[l] = r;
        ++matched;
        break;
      }
    }
  }
  layer_.resize(left_count);
  next_edge_.resize(left_count);
  for (;;) {
    // Layer the left nodes by alternating distance from the unmatched ones.
    queue_.clear();
    for (std::uint32_t l = 0; l < left_count; ++l) {
      if (match_left_[l] == kInvalidId) {
        layer_[l] = 0;
        queue_.push_back(l);
      } else {
        layer_[l] = kInvalidId;
      }
    }
    bool free_right_reached = false;
    for (std::size_t q = 0; q < queue_.size(); ++q) {
      const std::uint32_t l = queue_[q];
      for (std::uint32_t e = bip_first_[l]; e < bip_first_[l + 1]; ++e) {
        const std::uint32_t next = match_right_[bip_head_[e]];
        if (next == kInvalidId) {
          free_right_reached = true;
        } else if (layer_[next] == kInvalidId) {
          layer_[next] = layer_[l] + 1;
          queue_.push_back(next);
        }
      }
    }
    if (!free_right_reached) return matched;
    for (std::uint32_t l = 0; l < left_count; ++l) next_edge_[l] = bip_first_[l];
    for (std::uint32_t l = 0; l < left_count; ++l) {
      if (match_left_[l] == kInvalidId && Augment(l)) ++matched;
    }
  }
}

bool Dissector::Augment(std::uint32_t root) {
  // Depth-first along the layers; stack_[k]'s current edge leads to stack_[k + 1].
  stack_.clear();
  stack_.push_back(root);
  while (!stack_.empty()) {
    const std::uint32_t l = stack_.back();
    if (next_edge_[l] == bip_first_[l + 1]) {
      layer_[l] = kInvalidId;  // a dead end for the rest of this phase
      stack_.pop_back();
      if (!stack_.empty()) ++next_edge_[stack_.back()];
      continue;
    }
    const std::uint32_t r = bip_head_[next_edge_[l]];
    const std::uint32_t next = match_right_[r];
    if (next == kInvalidId) {
      for (std::uint32_t k : stack_) {
        const std::uint32_t rk = bip_head_[next_edge_[k]];
        match_left_[k] = rk;
        match_right_[rk] = k;
      }
      return true;
    }
    if (layer_[next] != kInvalidId && layer_[next] == layer_[l] + 1) {
      stack_.push_back(next);
    } else {
      ++next_edge_[l];
    }
  }
  return false;
}

}  // namespace

std::vector<std::uint32_t> NestedDissectionOrder(std::uint32_t node_count,
                                                 const std::vector<std::uint32_t>& tails,
                                                 const std::vector<std::uint32_t>& heads,
                                                 const std::vector<float>& x,
                                                 const std::vector<float>& y) {
  assert(tails.size() == heads.size());
  assert(x.size() >= node_count && y.size() >= node_count);
  Dissector dissector(node_count, BuildAdjacency(node_count, tails, heads), x, y);
  return dissector.Run(node_count);
}

}  // namespace walk::nav
