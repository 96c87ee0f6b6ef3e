// The path cache: LRU order, the key's four parts, and the counters.
#include "nav/live/path_cache.h"

#include <thread>

#include "gtest/gtest.h"

namespace walk::nav::live {
namespace {

std::shared_ptr<const CachedPath> Answer(std::uint32_t cost) {
  auto p = std::make_shared<CachedPath>();
  p->found = true;
  p->cost = cost;
  return p;
}

TEST(PathCacheTest, EvictsTheLeastRecentlyUsed) {
  PathCache cache(2);
  const PathCacheKey a{1, 2, 7, Passability::kLight};
  const PathCacheKey b{3, 4, 7, Passability::kLight};
  const PathCacheKey c{5, 6, 7, Passability::kLight};
  cache.Put(a, Answer(10));
  cache.Put(b, Answer(20));
  ASSERT_NE(cache.Get(a), nullptr);  // a is now the most recent
  cache.Put(c, Answer(30));          // evicts b
  EXPECT_EQ(cache.Get(b), nullptr);
  ASSERT_NE(cache.Get(a), nullptr);
  EXPECT_EQ(cache.Get(c)->cost, 30u);
  const PathCacheCounters n = cache.counters();
  EXPECT_EQ(n.hits, 3u);
  EXPECT_EQ(n.misses, 1u);
  EXPECT_EQ(n.evictions, 1u);
  EXPECT_EQ(n.entries, 2u);
}

TEST(PathCacheTest, RevisionAndPassabilityArePartOfTheKey) {
  PathCache cache;
  EXPECT_EQ(cache.capacity(), 2048u);
  cache.Put({1, 2, 7, Passability::kLight}, Answer(10));
  EXPECT_EQ(cache.Get({1, 2, 8, Passability::kLight}), nullptr);  // a newer revision
  EXPECT_EQ(cache.Get({1, 2, 7, Passability::kHeavy}), nullptr);  // a heavier unit
  EXPECT_EQ(cache.Get({2, 1, 7, Passability::kLight}), nullptr);  // the other way round
  EXPECT_NE(cache.Get({1, 2, 7, Passability::kLight}), nullptr);
}

TEST(PathCacheTest, ReplacingAnEntryDoesNotEvict) {
  PathCache cache(1);
  cache.Put({1, 2, 7, Passability::kLight}, Answer(10));
  cache.Put({1, 2, 7, Passability::kLight}, Answer(11));
  EXPECT_EQ(cache.Get({1, 2, 7, Passability::kLight})->cost, 11u);
  EXPECT_EQ(cache.counters().evictions, 0u);
}

TEST(PathCacheTest, OlderRevisionsExpireRatherThanEvict) {
  PathCache cache(2);
  cache.Put({1, 2, 7, Passability::kLight}, Answer(10));
  cache.Put({3, 4, 7, Passability::kLight}, Answer(20));
  cache.Put({1, 2, 8, Passability::kLight},
            Answer(11));  // a new revision: drops a revision-7 entry
  cache.Put({3, 4, 8, Passability::kLight}, Answer(21));
  cache.Put({5, 6, 8, Passability::kLight}, Answer(31));  // full of revision 8: a real eviction
  const PathCacheCounters n = cache.counters();
  EXPECT_EQ(n.expired, 2u);
  EXPECT_EQ(n.evictions, 1u);
}

TEST(PathCacheTest, CapacityZeroCachesNothing) {
  PathCache cache(0);
  cache.Put({1, 2, 7, Passability::kLight}, Answer(10));
  EXPECT_EQ(cache.Get({1, 2, 7, Passability::kLight}), nullptr);
  EXPECT_EQ(cache.counters().misses, 1u);
}

TEST(PathCacheTest, ConcurrentUseKeepsCountersExact) {
  PathCache cache(64);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&cache, t] {
      for (std::uint32_t k = 0; k < 2000; ++k) {
        const PathCacheKey key{k % 100, static_cast<CellIndex>(t), 1, Passability::kLight};
        if (cache.Get(key) == nullptr) cache.Put(key, Answer(k));
      }
    });
  }
  for (std::thread& t : threads) t.join();
  const PathCacheCounters n = cache.counters();
  EXPECT_EQ(n.hits + n.misses, 8000u);
  EXPECT_LE(n.entries, 64u);
}

}  // namespace
}  // namespace walk::nav::live
