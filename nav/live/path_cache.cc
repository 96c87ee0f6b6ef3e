#include "nav/live/path_cache.h"

#include <algorithm>

namespace walk::nav::live {
namespace {

std::size_t BytesOf(const std::shared_ptr<const CachedPath>& p) {
  if (p == nullptr) return 0;
  return sizeof(CachedPath) + (p->cells.capacity() + p->waypoints.capacity()) * sizeof(Cell);
}

}  // namespace

std::size_t PathCache::KeyHash::operator()(const PathCacheKey& k) const {
  // splitmix64 over the packed fields.
  std::uint64_t x = (std::uint64_t{k.start} << 32) ^ k.goal;
  x ^= k.revision * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(k.passability) +
       (std::uint64_t{k.body.need} << 8) + (std::uint64_t{k.body.half_width} << 24);
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return static_cast<std::size_t>(x);
}

PathCache::PathCache(std::size_t capacity) : capacity_(capacity) { index_.reserve(capacity); }

std::shared_ptr<const CachedPath> PathCache::Get(const PathCacheKey& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = index_.find(key);
  if (it == index_.end()) {
    ++misses_;
    return nullptr;
  }
  ++hits_;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->second;
}

void PathCache::Put(const PathCacheKey& key, std::shared_ptr<const CachedPath> value) {
  if (capacity_ == 0) return;
  std::shared_ptr<const CachedPath> dropped;  // released after the lock
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = index_.find(key);
  if (it != index_.end()) {
    dropped = std::move(it->second->second);
    value_bytes_ += BytesOf(value) - BytesOf(dropped);
    it->second->second = std::move(value);
    lru_.splice(lru_.begin(), lru_, it->second);
    return;
  }
  newest_revision_ = std::max(newest_revision_, key.revision);
  if (index_.size() >= capacity_) {
    ++(lru_.back().first.revision < newest_revision_ ? expired_ : evictions_);
    dropped = std::move(lru_.back().second);
    value_bytes_ -= BytesOf(dropped);
    index_.erase(lru_.back().first);
    lru_.pop_back();
  }
  value_bytes_ += BytesOf(value);
  lru_.emplace_front(key, std::move(value));
  index_.emplace(key, lru_.begin());
}

void PathCache::Clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  index_.clear();
  lru_.clear();
  value_bytes_ = 0;
}

std::size_t PathCache::MemoryBytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  // A list node (two pointers and the entry) and a hash node (next pointer, hash, key, iterator).
  constexpr std::size_t kPerEntry =
      2 * sizeof(void*) + sizeof(Entry) + 3 * sizeof(void*) + sizeof(PathCacheKey);
  return value_bytes_ + index_.size() * kPerEntry + index_.bucket_count() * sizeof(void*);
}

PathCacheCounters PathCache::counters() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return PathCacheCounters{hits_, misses_, evictions_, expired_, index_.size()};
}

}  // namespace walk::nav::live
