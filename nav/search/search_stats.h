// What one search cost, in the counters every search reports.
#pragma once

#include <cstdint>

namespace walk::nav {

// What a search cost: the counters a search reports (nodes expanded, heap operations).
struct SearchStats {
  std::uint64_t nodes_expanded = 0;   // surfaces taken off the heap
  std::uint64_t heap_operations = 0;  // pushes, decrease-keys and pops

  // Adds what another search cost.
  void Add(const SearchStats& more) {
    nodes_expanded += more.nodes_expanded;
    heap_operations += more.heap_operations;
  }
};

}  // namespace walk::nav
