#include "store/answer_cache.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/hash/hash.h"

namespace walk::store {
namespace {

// An encoded key, hashed by its bytes.
struct KeyBytes {
  std::array<char, kWalkKeyBytes> bytes;

  friend bool operator==(const KeyBytes& a, const KeyBytes& b) {
    return std::memcmp(a.bytes.data(), b.bytes.data(), kWalkKeyBytes) == 0;
  }
  template <typename H>
  friend H AbslHashValue(H h, const KeyBytes& k) {
    return H::combine_contiguous(std::move(h), k.bytes.data(), k.bytes.size());
  }
};

KeyBytes Encode(const WalkKey& key) {
  KeyBytes k;
  EncodeWalkKeyTo(key, k.bytes.data());
  return k;
}

// A hash table slot: the key, the outcome and absl's control byte.
constexpr std::size_t kSlotBytes = sizeof(KeyBytes) + sizeof(WalkOutcome) + 1;

// Answers a young map may hold so that its table stays within `bytes`: absl's tables have
// 2^k - 1 slots and grow once 7/8 of them are full, so the limit is 7/8 of the largest such
// table that fits.
std::size_t YoungLimit(std::size_t bytes) {
  std::size_t slots = 255;
  while ((2 * slots + 2) * kSlotBytes <= bytes) slots = 2 * slots + 1;
  return slots - slots / 8;
}

// The shard of a hash: its high bits (absl's tables use the low ones).
std::size_t ShardOf(std::size_t hash, std::size_t shards) { return (hash >> 48) % shards; }

}  // namespace

struct AnswerCache::Shard {
  mutable std::mutex mu;
  absl::flat_hash_map<KeyBytes, WalkOutcome> young, old;
};

AnswerCache::AnswerCache(std::size_t max_bytes)
    // Two generations share the budget.
    : young_limit_(YoungLimit(max_bytes / kShards / 2)) {
  for (auto& shard : shards_) shard = std::make_unique<Shard>();
}

AnswerCache::~AnswerCache() = default;

bool AnswerCache::Find(const WalkKey& key, WalkOutcome* out) {
  const KeyBytes k = Encode(key);
  const std::size_t hash = absl::Hash<KeyBytes>()(k);
  Shard& shard = *shards_[ShardOf(hash, kShards)];
  std::lock_guard<std::mutex> lock(shard.mu);
  if (auto it = shard.young.find(k); it != shard.young.end()) {
    *out = it->second;
    return true;
  }
  auto it = shard.old.find(k);
  if (it == shard.old.end()) return false;
  *out = it->second;
  // Asked again: young once more.
  shard.old.erase(it);
  if (shard.young.size() >= young_limit_.load(std::memory_order_relaxed)) {
    shard.old = std::move(shard.young);
    shard.young = {};
  }
  shard.young.emplace(k, *out);
  return true;
}

void AnswerCache::Insert(const WalkKey& key, const WalkOutcome& outcome) {
  const KeyBytes k = Encode(key);
  const std::size_t hash = absl::Hash<KeyBytes>()(k);
  Shard& shard = *shards_[ShardOf(hash, kShards)];
  std::lock_guard<std::mutex> lock(shard.mu);
  if (shard.young.size() >= young_limit_.load(std::memory_order_relaxed)) {
    shard.old = std::move(shard.young);
    shard.young = {};
  }
  shard.young.insert_or_assign(k, outcome);
}

void AnswerCache::SetCapacity(std::size_t max_bytes) {
  const std::size_t limit = YoungLimit(max_bytes / kShards / 2);
  if (young_limit_.exchange(limit, std::memory_order_relaxed) <= limit) return;
  for (auto& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard->mu);
    // Assigning a fresh map frees the table (clearing keeps its slots).
    shard->old = {};
    if (shard->young.size() > limit) shard->young = {};
  }
}

std::size_t AnswerCache::Size() const {
  std::size_t n = 0;
  for (const auto& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard->mu);
    n += shard->young.size() + shard->old.size();
  }
  return n;
}

std::size_t AnswerCache::Bytes() const {
  std::size_t slots = 0;
  for (const auto& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard->mu);
    slots += shard->young.capacity() + shard->old.capacity();
  }
  return slots * kSlotBytes;
}

}  // namespace walk::store
