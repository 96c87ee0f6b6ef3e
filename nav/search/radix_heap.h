// A radix heap of (seconds, id) for Dijkstra searches whose keys never go below the last one
// popped (a Dijkstra's are monotone). Keys are non-negative doubles, compared by their bit
// patterns (for non-negative doubles the order of the bits is the order of the values), so the
// heap is exact. Entries are never decreased: a better key is pushed again and the caller skips
// stale pops. Each entry moves down at most 64 buckets, which beats a binary or 4-ary heap's
// sifting on the cell searches' grid-shaped frontiers.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

namespace walk::nav {

class RadixHeap {
 public:
  void Clear() {
    for (std::vector<Entry>& bucket : buckets_) bucket.clear();
    last_ = 0;
    size_ = 0;
  }
  bool empty() const { return size_ == 0; }

  // Adds `id` with `seconds` (>= the last key popped).
  void Push(std::uint32_t id, double seconds) {
    const std::uint64_t key = Bits(seconds);
    buckets_[BucketOf(key)].push_back({key, id});
    ++size_;
  }
  // Removes an entry with the smallest key; returns its id and sets *seconds.
  std::uint32_t PopMin(double* seconds) {
    if (buckets_[0].empty()) {
      int i = 1;
      while (buckets_[i].empty()) ++i;
      std::vector<Entry>& bucket = buckets_[i];
      std::uint64_t smallest = bucket[0].key;
      for (const Entry& e : bucket) smallest = e.key < smallest ? e.key : smallest;
      last_ = smallest;
      for (const Entry& e : bucket) buckets_[BucketOf(e.key)].push_back(e);
      bucket.clear();
    }
    const Entry e = buckets_[0].back();
    buckets_[0].pop_back();
    --size_;
    std::memcpy(seconds, &e.key, sizeof *seconds);
    return e.id;
  }

 private:
  struct Entry {
    std::uint64_t key;
    std::uint32_t id;
  };
  static std::uint64_t Bits(double seconds) {
    std::uint64_t key;
    std::memcpy(&key, &seconds, sizeof key);
    return key;
  }
  int BucketOf(std::uint64_t key) const {
    return key == last_ ? 0 : 64 - std::countl_zero(key ^ last_);
  }

  std::vector<Entry> buckets_[65];
  std::uint64_t last_ = 0;
  std::size_t size_ = 0;
};

}  // namespace walk::nav
