// A bounded in-memory map from walk keys to their answers' outcome (status, method, seconds,
// yards): what a batch answer in columns carries, without RocksDB's per-key work (a table's
// filter, index and block cache; docs/store.md compares the two). A key names its model, so an
// entry never goes stale: nothing is ever invalidated, only evicted.
//
// Eviction is by generations: each shard keeps a young and an old map; a full young map becomes
// the old one (the old one is dropped), and a hit in the old map moves the answer back to the
// young one. Answers asked again stay; an answer not asked for two generations goes. O(1) a
// lookup, one mutex a shard.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "store/walk_key.h"
#include "store/walk_value.h"

namespace walk::store {

class AnswerCache {
 public:
  // Holds at most about `max_bytes` of answers (at least a few thousand): each generation's
  // tables are sized to half of it, at 81-byte slots no more than 7/8 full (~93 bytes an answer
  // when full).
  explicit AnswerCache(std::size_t max_bytes);
  ~AnswerCache();
  AnswerCache(const AnswerCache&) = delete;
  AnswerCache& operator=(const AnswerCache&) = delete;

  // The outcome stored under `key`, if cached.
  bool Find(const WalkKey& key, WalkOutcome* out);
  // Caches `outcome` under `key` (replacing an equal one).
  void Insert(const WalkKey& key, const WalkOutcome& outcome);
  // Answers cached now, both generations (for the gauge).
  std::size_t Size() const;
  // Bytes its tables hold now, both generations (at most about max_bytes).
  std::size_t Bytes() const;
  // Answers the young maps hold before any ages: what a warm-up may insert without evicting.
  std::size_t YoungCapacity() const {
    return young_limit_.load(std::memory_order_relaxed) * kShards;
  }
  // Holds at most about `max_bytes` from now on. Shrinking drops the old generation, and the
  // young one where it holds more than the new size: their tables' memory goes at once (the
  // answers stay in the store).
  void SetCapacity(std::size_t max_bytes);

 private:
  struct Shard;
  static constexpr std::size_t kShards = 16;
  std::atomic<std::size_t> young_limit_;  // answers a shard's young map holds before it ages
  std::array<std::unique_ptr<Shard>, kShards> shards_;
};

}  // namespace walk::store
