// A 4-ary indexed min-heap of (key, id) for Dijkstra searches: push, decrease-key, pop.
//
// The caller knows which ids are in the heap (its own stamps); the heap only keeps each id's
// position. Sized once to the largest id count; nothing is allocated per search.
#pragma once

#include <cstdint>
#include <vector>

namespace walk::nav {

class IndexedMinHeap {
 public:
  // Makes room for ids 0 .. id_count - 1 and empties the heap.
  void Reset(std::uint32_t id_count) {
    if (position_.size() < id_count) {
      position_.resize(id_count);
      entries_.resize(id_count);
    }
    size_ = 0;
  }
  bool empty() const { return size_ == 0; }
  // The id with the smallest key (the heap not empty).
  std::uint32_t Top() const { return entries_[0].id; }

  // Adds `id` (not in the heap) with `key`.
  void Push(std::uint32_t id, double key) { SiftUp(size_++, Entry{key, id}); }
  // Lowers the key of `id` (in the heap) to `key`.
  void Decrease(std::uint32_t id, double key) { SiftUp(position_[id], Entry{key, id}); }
  // Removes the entry with the smallest key; returns its id and sets *key.
  std::uint32_t PopMin(double* key) {
    const Entry top = entries_[0];
    if (--size_ > 0) SiftDown(0, entries_[size_]);
    *key = top.key;
    return top.id;
  }

 private:
  struct Entry {
    double key;
    std::uint32_t id;
  };
  void SiftUp(std::uint32_t pos, Entry entry) {
    while (pos > 0) {
      const std::uint32_t up = (pos - 1) / 4;
      if (!(entry.key < entries_[up].key)) break;
      Place(pos, entries_[up]);
      pos = up;
    }
    Place(pos, entry);
  }
  void SiftDown(std::uint32_t pos, Entry entry) {
    for (;;) {
      const std::uint32_t first = 4 * pos + 1;
      if (first >= size_) break;
      const std::uint32_t last = first + 4 < size_ ? first + 4 : size_;
      std::uint32_t best = first;
      for (std::uint32_t child = first + 1; child < last; ++child) {
        if (entries_[child].key < entries_[best].key) best = child;
      }
      if (!(entries_[best].key < entry.key)) break;
      Place(pos, entries_[best]);
      pos = best;
    }
    Place(pos, entry);
  }
  void Place(std::uint32_t pos, Entry entry) {
    entries_[pos] = entry;
    position_[entry.id] = pos;
  }

  std::vector<std::uint32_t> position_;
  std::vector<Entry> entries_;
  std::uint32_t size_ = 0;
};

}  // namespace walk::nav
