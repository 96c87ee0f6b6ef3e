// A least-recently-used cache of search answers keyed by exact start cell, goal cell, grid
// revision, passability and body (radius class and formation half-width class, clearance.h).
//
// The revision is part of the key, so an answer computed for one revision is never served for
// another: after an update the old entries simply stop being asked for and age out. Passability is
// part of the key so a route computed for a light unit is never served to a heavy one, and the
// body so a route searched for a narrow body is never served to a wider one (nor one priced for
// another formation width).
//
// Thread safety: all members are safe to call concurrently (one internal mutex, held only for the
// map and list operations; values are shared immutable objects, never copied under the lock).
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "nav/live/cell.h"
#include "nav/live/clearance.h"

namespace walk::nav::live {

struct PathCacheKey {
  CellIndex start = kInvalidCell;
  CellIndex goal = kInvalidCell;
  std::uint64_t revision = 0;
  Passability passability = Passability::kLight;
  BodyClass body = {};  // radius 0 and no half-width: BodyClass{}
  friend bool operator==(const PathCacheKey&, const PathCacheKey&) = default;
};

// A cached answer: the searched cells (start to goal), the taut waypoints, the cost.
struct CachedPath {
  bool found = false;
  std::uint32_t cost = 0;
  std::vector<Cell> cells;
  std::vector<Cell> waypoints;
};

struct PathCacheCounters {
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  // Entries of the newest revision pushed out to make room: the cache is too small for the
  // questions being asked again.
  std::uint64_t evictions = 0;
  // Entries of an older revision pushed out to make room: answers nobody can ask for any more.
  std::uint64_t expired = 0;
  std::uint64_t entries = 0;  // now
};

class PathCache {
 public:
  // 2048 entries: enough that 1,000 units re-asking every tick never evict.
  static constexpr std::size_t kDefaultCapacity = 2048;

  // A cache of at most `capacity` entries (0 disables caching: every Get misses).
  explicit PathCache(std::size_t capacity = kDefaultCapacity);

  // The answer stored for `key` (and marks it most recently used), or null. Counts a hit or miss.
  std::shared_ptr<const CachedPath> Get(const PathCacheKey& key);
  // Stores `value` for `key` (replacing any), dropping the least recently used entry when full
  // (counted as expired when its revision is older than the newest stored, else as an eviction).
  void Put(const PathCacheKey& key, std::shared_ptr<const CachedPath> value);
  // Drops every entry (counters stay).
  void Clear();

  PathCacheCounters counters() const;
  // Bytes the entries hold (their cells and waypoints, and the index), estimated.
  std::size_t MemoryBytes() const;
  std::size_t capacity() const { return capacity_; }

 private:
  struct KeyHash {
    std::size_t operator()(const PathCacheKey& k) const;
  };
  using Entry = std::pair<PathCacheKey, std::shared_ptr<const CachedPath>>;

  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::list<Entry> lru_;  // front: most recently used
  std::unordered_map<PathCacheKey, std::list<Entry>::iterator, KeyHash> index_;
  std::uint64_t newest_revision_ = 0;  // the highest revision Put so far
  std::size_t value_bytes_ = 0;        // the entries' CachedPath bytes
  std::uint64_t hits_ = 0;
  std::uint64_t misses_ = 0;
  std::uint64_t evictions_ = 0;
  std::uint64_t expired_ = 0;
};

}  // namespace walk::nav::live
