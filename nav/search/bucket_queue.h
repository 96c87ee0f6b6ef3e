// A monotone priority queue of (seconds, id) for Dijkstra searches in which every step costs at
// least `width` seconds: Dial's buckets. Keys are filed by floor(key / width), and the entries of
// the lowest bucket are taken in any order, each in one step (no bucket is ever sorted or split,
// where the radix heap moves an entry 3 to 4 times on the way down).
//
// Still exact: a surface in bucket k could be improved only through a surface at least `width`
// cheaper, which lies in a bucket below k and was taken, with its steps relaxed, before bucket k
// was started. Lift rides may cost less than any step (CellSearch then keeps to the radix heap).
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <vector>

namespace walk::nav {

class BucketQueue {
 public:
  // Empties the queue for a search whose steps each cost at least `width` (> 0). Only the
  // buckets the last search may have left entries in are cleared: a ring widened once by a
  // costly step (a climb in a hostile town spans thousands of buckets) stays wide.
  void Reset(double width) {
    if (ring_.empty()) ring_.resize(64);
    if (size_ > 0) {
      const std::uint64_t last = std::min(highest_, current_ + ring_.size() - 1);
      for (std::uint64_t b = current_; b <= last; ++b) ring_[b & (ring_.size() - 1)].clear();
    }
    per_second_ = 1.0 / width;
    current_ = highest_ = 0;
    size_ = 0;
  }
  // Push, PopMin and empty are the RadixHeap's, so a search may use either.
  bool empty() const { return size_ == 0; }

  // Adds `id` with `seconds` (no less than the last key taken).
  void Push(std::uint32_t id, double seconds) {
    const std::uint64_t b = BucketOf(seconds);
    assert(b >= current_);
    if (b - current_ >= ring_.size()) Grow(b - current_ + 1);
    ring_[b & (ring_.size() - 1)].push_back({seconds, id});
    highest_ = b > highest_ ? b : highest_;
    ++size_;
  }
  // Removes an entry of the lowest bucket; returns its id and sets *seconds.
  std::uint32_t PopMin(double* seconds) {
    const std::uint64_t mask = ring_.size() - 1;
    while (ring_[current_ & mask].empty()) ++current_;
    std::vector<Entry>& bucket = ring_[current_ & mask];
    const Entry e = bucket.back();
    bucket.pop_back();
    --size_;
    *seconds = e.seconds;
    return e.id;
  }

 private:
  struct Entry {
    double seconds;
    std::uint32_t id;
  };
  std::uint64_t BucketOf(double seconds) const {
    return static_cast<std::uint64_t>(seconds * per_second_);
  }
  // Widens the ring (a power of two) to hold at least `span` buckets from the current one on.
  void Grow(std::uint64_t span) {
    std::size_t size = ring_.size();
    while (size < span) size *= 2;
    std::vector<std::vector<Entry>> wider(size);
    for (std::vector<Entry>& bucket : ring_) {
      for (const Entry& e : bucket) wider[BucketOf(e.seconds) & (size - 1)].push_back(e);
    }
    ring_.swap(wider);
  }

  std::vector<std::vector<Entry>> ring_;  // bucket b at b mod ring_.size()
  double per_second_ = 1.0;
  std::uint64_t current_ = 0;  // the lowest bucket that may hold entries
  std::uint64_t highest_ = 0;  // the highest bucket pushed to since Reset
  std::size_t size_ = 0;
};

}  // namespace walk::nav
