#include "nav/cch/cch.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "nav/cch/cch_metric.h"
#include "nav/cch/uninitialized_vector.h"

namespace walk::nav {

Cch::Cch(std::uint32_t node_count, const std::vector<std::uint32_t>& order,
         const std::vector<std::uint32_t>& tails, const std::vector<std::uint32_t>& heads)
    : node_count_(node_count),
      order_(order),
      rank_(node_count, kInvalidId),
      parent_(node_count, kInvalidId),
      first_out_(node_count + 1, 0),
      input_slot_(tails.size(), kInvalidId) {
  assert(order.size() == node_count);
  assert(tails.size() == heads.size());
  assert(tails.size() < CchMetric::kViaMiddle);  // input arc ids must not collide with kViaMiddle
  for (std::uint32_t r = 0; r < node_count; ++r) {
    assert(order[r] < node_count && rank_[order[r]] == kInvalidId);  // a permutation
    rank_[order[r]] = r;
  }

  // The input arcs as upward edges in rank space, grouped by lower rank (repeats allowed).
  std::vector<std::uint32_t> input_first(node_count + 1, 0);
  for (std::size_t a = 0; a < tails.size(); ++a) {
    assert(tails[a] < node_count && heads[a] < node_count);
    const std::uint32_t t = rank_[tails[a]];
    const std::uint32_t h = rank_[heads[a]];
    if (t != h) ++input_first[std::min(t, h) + 1];
  }
  for (std::uint32_t r = 0; r < node_count; ++r) input_first[r + 1] += input_first[r];
  // Their ids so grouped are kept for unpacking (lower_input_).
  std::vector<std::uint32_t> input_head(input_first[node_count]);
  lower_input_.resize(input_first[node_count]);
  {
    std::vector<std::uint32_t> fill(input_first.begin(), input_first.end() - 1);
    for (std::uint32_t a = 0; a < tails.size(); ++a) {
      const std::uint32_t t = rank_[tails[a]];
      const std::uint32_t h = rank_[heads[a]];
      if (t == h) continue;
      const std::uint32_t at = fill[std::min(t, h)]++;
      input_head[at] = std::max(t, h);
      lower_input_[at] = a;
    }
  }

  // Contract in rank order. Eliminating a rank joins its upward neighbours into a clique; all
  // of those edges but the ones at its lowest neighbour (its parent) reach their own lower end
  // by passing up the elimination tree, so a rank's upward neighbours are its input ones plus
  // its children's, itself removed. Children are finished before their parent.
  std::vector<std::uint32_t> first_child(node_count, kInvalidId);
  std::vector<std::uint32_t> next_sibling(node_count, kInvalidId);
  std::vector<std::uint32_t> mark(node_count, kInvalidId);
  std::vector<std::uint32_t> up;
  for (std::uint32_t r = 0; r < node_count; ++r) {
    up.clear();
    mark[r] = r;
    for (std::uint32_t e = input_first[r]; e < input_first[r + 1]; ++e) {
      const std::uint32_t h = input_head[e];
      if (mark[h] != r) {
        mark[h] = r;
        up.push_back(h);
      }
    }
    for (std::uint32_t c = first_child[r]; c != kInvalidId; c = next_sibling[c]) {
      for (std::uint32_t e = first_out_[c]; e < first_out_[c + 1]; ++e) {
        const std::uint32_t h = head_[e];
        if (mark[h] != r) {
          mark[h] = r;
          up.push_back(h);
        }
      }
    }
    std::sort(up.begin(), up.end());
    head_.insert(head_.end(), up.begin(), up.end());
    assert(head_.size() < CchMetric::kViaMiddle);  // slots 2 * arc + 1 must fit 32 bits
    first_out_[r + 1] = static_cast<std::uint32_t>(head_.size());
    if (!up.empty()) {
      const std::uint32_t p = up.front();
      parent_[r] = p;
      next_sibling[r] = first_child[p];
      first_child[p] = r;
    }
  }
  head_.shrink_to_fit();

  // The same arcs by upper rank, for customization (counting sort; lower ranks stay ascending).
  down_first_.assign(node_count + 1, 0);
  for (const std::uint32_t h : head_) ++down_first_[h + 1];
  for (std::uint32_t r = 0; r < node_count; ++r) down_first_[r + 1] += down_first_[r];
  down_arc_.resize(head_.size());
  down_tail_.resize(head_.size());
  {
    std::vector<std::uint32_t> fill(down_first_.begin(), down_first_.end() - 1);
    for (std::uint32_t r = 0; r < node_count; ++r) {
      for (std::uint32_t arc = first_out_[r]; arc < first_out_[r + 1]; ++arc) {
        const std::uint32_t at = fill[head_[arc]]++;
        down_arc_[at] = arc;
        down_tail_[at] = r;
      }
    }
  }

  std::vector<std::uint32_t> depth(node_count, 0);
  for (std::uint32_t r = node_count; r-- > 0;) {
    depth[r] = parent_[r] == kInvalidId ? 1 : depth[parent_[r]] + 1;
    elimination_tree_height_ = std::max(elimination_tree_height_, depth[r]);
  }

  for (std::size_t a = 0; a < tails.size(); ++a) {
    const std::uint32_t t = rank_[tails[a]];
    const std::uint32_t h = rank_[heads[a]];
    if (t == h) continue;
    const std::uint32_t arc = FindArc(std::min(t, h), std::max(t, h));
    assert(arc != kInvalidId);
    input_slot_[a] = 2 * arc + (t < h ? kForward : kBackward);
  }

  lower_input_first_ = std::move(input_first);
}

std::uint32_t Cch::TailOf(std::uint32_t arc) const {
  return static_cast<std::uint32_t>(std::upper_bound(first_out_.begin(), first_out_.end(), arc) -
                                    first_out_.begin()) -
         1;
}

std::uint32_t Cch::FindArc(std::uint32_t lower, std::uint32_t upper) const {
  const auto begin = head_.begin() + first_out_[lower];
  const auto end = head_.begin() + first_out_[lower + 1];
  const auto it = std::lower_bound(begin, end, upper);
  if (it == end || *it != upper) return kInvalidId;
  return static_cast<std::uint32_t>(it - head_.begin());
}

std::uint64_t Cch::MemoryBytes() const {
  return sizeof(*this) + CapacityBytes(order_) + CapacityBytes(rank_) + CapacityBytes(parent_) +
         CapacityBytes(first_out_) + CapacityBytes(head_) + CapacityBytes(input_slot_) +
         CapacityBytes(down_first_) + CapacityBytes(down_arc_) + CapacityBytes(down_tail_) +
         CapacityBytes(lower_input_first_) + CapacityBytes(lower_input_);
}

}  // namespace walk::nav
