// The sifts of an indexed 4-ary min-heap whose entries carry their own keys, for searches that
// keep each id's heap position in their own per-node arrays (the fine-grid A*, jump point
// search): sifting compares entries without touching the nodes, and `place(pos, entry)` stores
// an entry and records where it now lies.
#pragma once

#include <algorithm>
#include <cstdint>

namespace walk::nav {

// Moves `entry` up from `pos` to where `before` (a strict order: true when a goes first) puts it.
template <typename Heap, typename Entry, typename Before, typename Place>
void SiftUp4(const Heap& heap, std::uint32_t pos, const Entry& entry, Before before, Place place) {
  while (pos > 0) {
    const std::uint32_t up = (pos - 1) / 4;
    if (!before(entry, heap[up])) break;
    place(pos, heap[up]);
    pos = up;
  }
  place(pos, entry);
}

// Moves `entry` down from `pos` in a heap of `size` entries.
template <typename Heap, typename Entry, typename Before, typename Place>
void SiftDown4(const Heap& heap, std::uint32_t size, std::uint32_t pos, const Entry& entry,
               Before before, Place place) {
  for (;;) {
    const std::uint32_t first = 4 * pos + 1;
    if (first >= size) break;
    const std::uint32_t last = std::min(first + 4, size);
    std::uint32_t best = first;
    for (std::uint32_t child = first + 1; child < last; ++child) {
      if (before(heap[child], heap[best])) best = child;
    }
    if (!before(heap[best], entry)) break;
    place(pos, heap[best]);
    pos = best;
  }
  place(pos, entry);
}

}  // namespace walk::nav
