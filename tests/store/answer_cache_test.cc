// The answer cache: what goes in comes out, a small cache forgets answers nobody asks for, and
// answers asked again survive the ageing of their generation.
#include "store/answer_cache.h"

#include "gtest/gtest.h"

namespace walk::store {
namespace {

WalkKey Key(std::uint64_t model, std::int32_t x) {
  WalkKey key;
  key.model = model;
  key.from.x_decis = x;
  key.to.y_decis = x * 3;
  key.from.surface = 1;
  key.to.surface = 2;
  return key;
}

WalkOutcome Outcome(double seconds) {
  return WalkOutcome{nav::WalkStatus::kOk, nav::Method::kCch, false, seconds, seconds * 2};
}

TEST(AnswerCacheTest, FindsWhatWasInsertedAndNothingElse) {
  AnswerCache cache(std::size_t{1} << 20);
  cache.Insert(Key(7, 1), Outcome(1.5));
  WalkOutcome out;
  ASSERT_TRUE(cache.Find(Key(7, 1), &out));
  EXPECT_EQ(out.seconds, 1.5);
  EXPECT_EQ(out.yards, 3.0);
  EXPECT_EQ(out.method, nav::Method::kCch);
  EXPECT_FALSE(cache.Find(Key(8, 1), &out)) << "another model is another key";
  EXPECT_FALSE(cache.Find(Key(7, 2), &out));
  EXPECT_EQ(cache.Size(), 1u);
}

TEST(AnswerCacheTest, StaysBoundedAndKeepsTheAnswersAskedAgain) {
  // The smallest cache: 16 shards of 256 young answers (and as many old ones).
  AnswerCache cache(0);
  cache.Insert(Key(1, -1), Outcome(42.0));
  WalkOutcome out;
  for (std::int32_t x = 0; x < 100000; ++x) {
    cache.Insert(Key(1, x), Outcome(x));
    if (x % 1000 == 0) {
      ASSERT_TRUE(cache.Find(Key(1, -1), &out)) << "asked again at " << x;
    }
  }
  EXPECT_EQ(out.seconds, 42.0);
  EXPECT_LE(cache.Size(), 16u * 256u * 2u);
  EXPECT_FALSE(cache.Find(Key(1, 0), &out)) << "never asked again: aged out";
  ASSERT_TRUE(cache.Find(Key(1, 99999), &out)) << "the newest answers stay";
  EXPECT_EQ(out.seconds, 99999.0);
}

TEST(AnswerCacheTest, ShrinkingFreesItsTablesAndKeepsItBoundedAtTheNewSize) {
  AnswerCache cache(std::size_t{64} << 20);
  for (std::int32_t x = 0; x < 200000; ++x) cache.Insert(Key(1, x), Outcome(x));
  const std::size_t full = cache.Bytes();
  ASSERT_GT(full, std::size_t{8} << 20);
  cache.SetCapacity(std::size_t{2} << 20);
  EXPECT_LE(cache.Bytes(), std::size_t{2} << 20) << "past the new size: its tables are dropped";
  for (std::int32_t x = 0; x < 200000; ++x) cache.Insert(Key(2, x), Outcome(x));
  EXPECT_LE(cache.Bytes(), std::size_t{2} << 20);
  WalkOutcome out;
  ASSERT_TRUE(cache.Find(Key(2, 199999), &out));
  EXPECT_EQ(out.seconds, 199999.0);
  // Grown back, it holds as many as before.
  cache.SetCapacity(std::size_t{64} << 20);
  for (std::int32_t x = 0; x < 200000; ++x) cache.Insert(Key(3, x), Outcome(x));
  EXPECT_GT(cache.Bytes(), std::size_t{8} << 20);
  EXPECT_LE(cache.Bytes(), std::size_t{64} << 20);
  ASSERT_TRUE(cache.Find(Key(3, 0), &out)) << "the whole young generation held again";
}

}  // namespace
}  // namespace walk::store
