// A nested-dissection order for a customizable contraction hierarchy (nav/cch/cch.h).
//
// Recursive geometric bisection: a node set is cut along a coordinate, the cut arcs are covered
// by a minimum vertex cover (König), and that cover becomes the set's separator, ranked above
// both halves. Small separators high up keep the chordal supergraph, and so customization and
// queries, small. The graph is read as undirected; self loops and parallel arcs are ignored.
#pragma once

#include <cstdint>
#include <vector>

namespace walk::nav {

// Returns order[rank] = node, a permutation of 0 .. node_count - 1: each set's separator is
// ranked above the two halves it splits, so the top separator gets the highest ranks.
// `tails[a] -> heads[a]` are the arcs (their direction ignored); `x[node]`, `y[node]` the
// nodes' coordinates in any unit. Deterministic: the same input gives the same order.
std::vector<std::uint32_t> NestedDissectionOrder(std::uint32_t node_count,
                                                 const std::vector<std::uint32_t>& tails,
                                                 const std::vector<std::uint32_t>& heads,
                                                 const std::vector<float>& x,
                                                 const std::vector<float>& y);

}  // namespace walk::nav
