// A customizable contraction hierarchy (CCH) over a small directed graph, after RoutingKit: the
// topology built once from a node order (Cch, here), weights customized onto it (CchMetric,
// cch_metric.h), and per-thread queries from many sources to many targets (CchQuery,
// CchSplitQuery, CchDijkstraQuery).
//
// Conventions, as in RoutingKit:
//  - Nodes are renamed to their rank (0 = contracted first); the hierarchy is the chordal
//    supergraph of the input graph (read as undirected) under that order.
//  - Its arcs are stored upward only, in rank space: the arcs of rank r are
//    first_out()[r] .. first_out()[r + 1] - 1, to head()[arc] > r, heads sorted ascending.
//  - A metric keeps two weights per arc, named by "slots": slot 2 * arc + kForward for
//    lower -> higher rank, slot 2 * arc + kBackward for higher -> lower.
//  - The elimination-tree parent of a rank is its lowest upward neighbour; every upward
//    neighbour is an elimination-tree ancestor, so a query only visits the ancestors of its
//    endpoints.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "nav/grid/ids.h"

namespace walk::nav {

// The topology: built once from an order, independent of weights. Immutable; safe to share
// across threads.
class Cch {
 public:
  static constexpr std::uint32_t kForward = 0;   // slot of lower -> higher rank
  static constexpr std::uint32_t kBackward = 1;  // slot of higher -> lower rank

  // Builds the hierarchy of the graph with arcs `tails[a] -> heads[a]` (a = input arc id) on
  // nodes 0 .. node_count - 1, contracted in `order` (order[rank] = node, a permutation, e.g.
  // NestedDissectionOrder). Self loops are kept as input arcs that map to no slot.
  Cch(std::uint32_t node_count, const std::vector<std::uint32_t>& order,
      const std::vector<std::uint32_t>& tails, const std::vector<std::uint32_t>& heads);

  std::uint32_t node_count() const { return node_count_; }
  // Arcs of the chordal supergraph, each stored once (upward).
  std::uint64_t arc_count() const { return head_.size(); }
  std::uint32_t input_arc_count() const { return static_cast<std::uint32_t>(input_slot_.size()); }
  // Nodes on the longest root-to-leaf path of the elimination tree (0 for an empty graph).
  std::uint32_t elimination_tree_height() const { return elimination_tree_height_; }
  // Bytes held by this object's arrays.
  std::uint64_t MemoryBytes() const;

  std::uint32_t rank(std::uint32_t node) const { return rank_[node]; }
  std::uint32_t node_at(std::uint32_t rank) const { return order_[rank]; }
  // The elimination-tree parent of `rank`, kInvalidId at a root.
  std::uint32_t parent(std::uint32_t rank) const { return parent_[rank]; }
  const std::vector<std::uint32_t>& first_out() const { return first_out_; }
  const std::vector<std::uint32_t>& head() const { return head_; }
  // The slot (2 * arc + direction) input arc `a` customizes, kInvalidId for a self loop.
  std::uint32_t input_slot(std::uint32_t a) const { return input_slot_[a]; }
  // The lower rank of arc `arc` (a binary search).
  std::uint32_t TailOf(std::uint32_t arc) const;
  // The input arcs by the lower rank of the arc they customize, for unpacking:
  // lower_input_first()[r] .. lower_input_first()[r + 1] - 1 index lower_input() (input arc ids,
  // ascending).
  const std::vector<std::uint32_t>& lower_input_first() const { return lower_input_first_; }
  const std::vector<std::uint32_t>& lower_input() const { return lower_input_; }
  // The arc from rank `lower` up to rank `upper`, kInvalidId if there is none.
  std::uint32_t FindArc(std::uint32_t lower, std::uint32_t upper) const;
  // Rank `middle`'s arc up to rank `upper` (which it must have), found after its arc `below`
  // (to a lower head): a triangle's other side. The next few arcs are looked at first (the
  // upper end is often close), then a binary search.
  std::uint32_t ArcAfter(std::uint32_t below, std::uint32_t middle, std::uint32_t upper) const {
    const std::uint32_t* const head = head_.data();
    const std::uint32_t end = first_out_[middle + 1];
    const std::uint32_t near_end = std::min(end, below + 9);
    for (std::uint32_t a = below + 1; a < near_end; ++a) {
      if (head[a] == upper) return a;
    }
    return static_cast<std::uint32_t>(std::lower_bound(head + near_end, head + end, upper) - head);
  }
  // The arcs up into a rank, for customization: down_first()[r] .. down_first()[r + 1] - 1
  // index down_arc() (the arc) and down_tail() (its lower rank), lower ranks ascending.
  const std::vector<std::uint32_t>& down_first() const { return down_first_; }
  const std::vector<std::uint32_t>& down_arc() const { return down_arc_; }
  const std::vector<std::uint32_t>& down_tail() const { return down_tail_; }

 private:
  std::uint32_t node_count_;
  std::uint32_t elimination_tree_height_ = 0;
  std::vector<std::uint32_t> order_;       // rank -> node
  std::vector<std::uint32_t> rank_;        // node -> rank
  std::vector<std::uint32_t> parent_;      // rank -> elimination-tree parent rank
  std::vector<std::uint32_t> first_out_;   // rank -> first upward arc; node_count + 1 entries
  std::vector<std::uint32_t> head_;        // arc -> upper rank
  std::vector<std::uint32_t> input_slot_;  // input arc -> slot
  std::vector<std::uint32_t> down_first_;  // rank -> first arc up into it; node_count + 1 entries
  std::vector<std::uint32_t> down_arc_;    // arcs up into each rank, by lower rank
  std::vector<std::uint32_t> down_tail_;   // their lower ranks
  std::vector<std::uint32_t> lower_input_first_;  // rank -> first of lower_input_
  std::vector<std::uint32_t> lower_input_;        // input arcs by their arc's lower rank
};

}  // namespace walk::nav
