// Legs: a place's way into the abstract graph. A start leg searches the start's cell outward to
// the portals it reaches (its entrances, on all four borders); a goal leg searches the goal's
// cell backward, toward the place.
// Each reached node keeps its band-0 seconds, yards and zone mix, so one leg serves every band.
//
// Legs are cached per (continent, surface, profile, direction) in a bounded, sharded LRU cache:
// a place with many walks is searched once. Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <span>
#include <unordered_map>
#include <vector>

#include "nav/abstract/abstract_graph.h"
#include "nav/abstract/cell_search.h"
#include "nav/cost/metric.h"

namespace walk::nav {

struct Leg {
  struct Entry {
    std::uint32_t node = 0;
    double seconds = 0.0;  // band 0
    float yards = 0.0f;
    std::uint32_t mix_first = 0;  // its shares in `mix`
    std::uint32_t mix_end = 0;
  };
  std::vector<Entry> entries;
  std::vector<ZoneShare> mix;
  std::span<const ZoneShare> MixOf(const Entry& e) const {
    return {mix.data() + e.mix_first, mix.data() + e.mix_end};
  }
  std::uint64_t MemoryBytes() const {
    return sizeof(Leg) + entries.size() * sizeof(Entry) + mix.size() * sizeof(ZoneShare);
  }
};

// What a leg is computed from. Nothing is owned; all must outlive the call.
struct LegRequest {
  const Continent& c;
  double column_yards;
  const ContinentGraph& graph;  // c's abstract graph
  std::uint32_t cell_columns;   // the graph's cell side
  const Metric& base;           // the profile's band-0 metric
  SurfaceId surface;            // the place
  bool backward = false;        // forward: a start leg; backward: a goal leg
};

// Computes the leg `request` asks for, searching the place's cell with `search`.
Leg ComputeLeg(const LegRequest& request, CellSearch& search);

class LegCache {
 public:
  explicit LegCache(std::uint64_t capacity_bytes) : shard_capacity_(capacity_bytes / kShards) {}

  struct Key {
    std::uint32_t continent_index = 0;
    SurfaceId surface = 0;
    std::uint16_t profile_index = 0;
    bool backward = false;
    bool operator==(const Key&) const = default;
  };
  // The cached leg, or nullptr.
  std::shared_ptr<const Leg> Find(const Key& key);
  // Whether a leg is cached, without counting a hit or a miss or refreshing it.
  bool Contains(const Key& key) const;
  void Insert(const Key& key, std::shared_ptr<const Leg> leg);
  // Drops every leg (legs in use stay alive where held): benchmarks walk the same pairs cold.
  void Clear();

  std::uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }
  std::uint64_t misses() const { return misses_.load(std::memory_order_relaxed); }
  std::uint64_t bytes() const;

 private:
  static constexpr std::size_t kShards = 16;
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      std::uint64_t h = (std::uint64_t{k.surface} << 32) ^
                        (std::uint64_t{k.continent_index} << 17) ^
                        (std::uint64_t{k.profile_index} << 1) ^ (k.backward ? 1 : 0);
      h ^= h >> 33;
      h *= 0xff51afd7ed558ccdULL;
      h ^= h >> 33;
      return static_cast<std::size_t>(h);
    }
  };
  struct Shard {
    mutable std::mutex mu;
    std::list<std::pair<Key, std::shared_ptr<const Leg>>> lru;  // most recent first
    std::unordered_map<Key, decltype(lru)::iterator, KeyHash> index;
    std::uint64_t bytes = 0;
  };
  Shard& ShardOf(const Key& key) { return shards_[KeyHash()(key) % kShards]; }

  std::uint64_t shard_capacity_;
  Shard shards_[kShards];
  std::atomic<std::uint64_t> hits_{0};
  std::atomic<std::uint64_t> misses_{0};
};

}  // namespace walk::nav
