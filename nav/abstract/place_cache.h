// What is computed once per place and kept: a place's legs (nav/abstract/legs.h), its reaches
// across its zone (nav/abstract/zone_reach.h) and its tables' sides (nav/cch/cch_many_to_many.h),
// each in a bounded, sharded LRU cache by bytes, keyed by (continent, surface, profile,
// direction, band). Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "nav/grid/ids.h"

namespace walk::nav {

struct PlaceKey {
  std::uint32_t continent_index = 0;
  SurfaceId surface = 0;
  std::uint16_t profile_index = 0;
  bool backward = false;
  std::uint32_t band = 0;  // what the value was priced for (a leg serves every band: 0)
  bool operator==(const PlaceKey&) const = default;
};

// `Value` has MemoryBytes().
template <typename Value>
class PlaceCache {
 public:
  using Key = PlaceKey;
  explicit PlaceCache(std::uint64_t capacity_bytes) : shard_capacity_(capacity_bytes / kShards) {}

  // The cached value, or nullptr.
  std::shared_ptr<const Value> Find(const Key& key) {
    Shard& shard = ShardOf(key);
    std::lock_guard<std::mutex> lock(shard.mu);
    auto it = shard.index.find(key);
    if (it == shard.index.end()) {
      misses_.fetch_add(1, std::memory_order_relaxed);
      return nullptr;
    }
    hits_.fetch_add(1, std::memory_order_relaxed);
    shard.lru.splice(shard.lru.begin(), shard.lru, it->second);
    return it->second->second;
  }
  // Whether a value is cached, without counting a hit or a miss or refreshing it.
  bool Contains(const Key& key) const {
    const Shard& shard = shards_[KeyHash{}(key) % kShards];
    std::lock_guard<std::mutex> lock(shard.mu);
    return shard.index.count(key) != 0;
  }
  void Insert(const Key& key, std::shared_ptr<const Value> value) {
    Shard& shard = ShardOf(key);
    std::lock_guard<std::mutex> lock(shard.mu);
    if (shard.index.count(key) != 0) return;  // another thread computed it too
    shard.bytes += value->MemoryBytes();
    shard.lru.emplace_front(key, std::move(value));
    shard.index.emplace(key, shard.lru.begin());
    while (shard.bytes > shard_capacity_ && shard.lru.size() > 1) {
      shard.bytes -= shard.lru.back().second->MemoryBytes();
      shard.index.erase(shard.lru.back().first);
      shard.lru.pop_back();
    }
  }
  // Drops every value (values in use stay alive where held): benchmarks walk the same pairs cold.
  void Clear() {
    for (Shard& shard : shards_) {
      std::lock_guard<std::mutex> lock(shard.mu);
      shard.index.clear();
      shard.lru.clear();
      shard.bytes = 0;
    }
  }

  std::uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }
  std::uint64_t misses() const { return misses_.load(std::memory_order_relaxed); }
  std::uint64_t bytes() const {
    std::uint64_t total = 0;
    for (const Shard& shard : shards_) {
      std::lock_guard<std::mutex> lock(shard.mu);
      total += shard.bytes;
    }
    return total;
  }

 private:
  static constexpr std::size_t kShards = 16;
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      std::uint64_t h = (std::uint64_t{k.surface} << 32) ^
                        (std::uint64_t{k.continent_index} << 17) ^ (std::uint64_t{k.band} << 24) ^
                        (std::uint64_t{k.profile_index} << 1) ^ (k.backward ? 1 : 0);
      h ^= h >> 33;
      h *= 0xff51afd7ed558ccdULL;
      h ^= h >> 33;
      return static_cast<std::size_t>(h);
    }
  };
  struct Shard {
    mutable std::mutex mu;
    std::list<std::pair<Key, std::shared_ptr<const Value>>> lru;  // most recent first
    std::unordered_map<Key, typename decltype(lru)::iterator, KeyHash> index;
    std::uint64_t bytes = 0;
  };
  Shard& ShardOf(const Key& key) { return shards_[KeyHash()(key) % kShards]; }

  std::uint64_t shard_capacity_;
  Shard shards_[kShards];
  std::atomic<std::uint64_t> hits_{0};
  std::atomic<std::uint64_t> misses_{0};
};

}  // namespace walk::nav
