#include "store/walk_key.h"

#include <algorithm>
#include <limits>
#include <random>

#include "gtest/gtest.h"
#include "nav/query/snap.h"
#include "tests/nav/ascii_grid.h"

namespace walk::store {
namespace {

EndKey RandomEnd(std::mt19937_64& rng) {
  std::uniform_int_distribution<std::int32_t> coord(-3, 3);
  std::uniform_int_distribution<std::int32_t> any(std::numeric_limits<std::int32_t>::min(),
                                                  std::numeric_limits<std::int32_t>::max());
  EndKey end;
  // Few distinct values, so that ties in early fields make later fields decide the order.
  end.continent = static_cast<std::uint32_t>(rng() % 3);
  end.x_decis = rng() % 2 ? coord(rng) : any(rng);
  end.y_decis = coord(rng);
  end.has_z = rng() % 2 == 0;
  end.z_decis = end.has_z ? coord(rng) : 0;
  end.surface = rng() % 4 == 0 ? nav::kInvalidId : static_cast<std::uint32_t>(rng() % 3);
  return end;
}

WalkKey RandomKey(std::mt19937_64& rng) {
  WalkKey key;
  const std::uint64_t models[] = {0, 1, 0x8000000000000000ULL, ~0ULL};
  key.model = models[rng() % 4];
  key.from = RandomEnd(rng);
  key.to = RandomEnd(rng);
  return key;
}

TEST(WalkKeyTest, EncodesToFixedWidthAndRoundTrips) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 10000; ++i) {
    const WalkKey key = RandomKey(rng);
    const std::string bytes = EncodeWalkKey(key);
    ASSERT_EQ(bytes.size(), kWalkKeyBytes);
    absl::StatusOr<WalkKey> back = DecodeWalkKey(bytes);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, key);
    EXPECT_EQ(DecodeModelPrefix(bytes), key.model);
    EXPECT_EQ(bytes.substr(0, kModelPrefixBytes), EncodeModelPrefix(key.model));
  }
}

TEST(WalkKeyTest, BytesSortByModelThenFromThenTo) {
  std::mt19937_64 rng(11);
  std::vector<WalkKey> keys;
  for (int i = 0; i < 5000; ++i) keys.push_back(RandomKey(rng));
  std::vector<WalkKey> by_fields = keys;
  std::sort(by_fields.begin(), by_fields.end());
  std::vector<std::string> by_bytes;
  for (const WalkKey& key : keys) by_bytes.push_back(EncodeWalkKey(key));
  std::sort(by_bytes.begin(), by_bytes.end());  // bytewise, as RocksDB's comparator
  for (std::size_t i = 0; i < keys.size(); ++i) {
    ASSERT_EQ(by_bytes[i], EncodeWalkKey(by_fields[i])) << "at " << i;
  }
}

TEST(WalkKeyTest, ModelComesFirstWhateverTheEnds) {
  WalkKey small_model;
  small_model.model = 1;
  small_model.from.continent = 0xFFFFFFFFu;
  small_model.from.x_decis = std::numeric_limits<std::int32_t>::max();
  WalkKey big_model;
  big_model.model = 2;
  big_model.from.x_decis = std::numeric_limits<std::int32_t>::min();
  EXPECT_LT(EncodeWalkKey(small_model), EncodeWalkKey(big_model));
  // Negative coordinates sort before positive ones.
  WalkKey negative = small_model, positive = small_model;
  negative.from.x_decis = -1;
  positive.from.x_decis = 1;
  EXPECT_LT(EncodeWalkKey(negative), EncodeWalkKey(positive));
}

TEST(WalkKeyTest, QuantizesToTenthsRoundingHalfAwayFromZero) {
  EXPECT_EQ(QuantizeDecis(0.0), 0);
  EXPECT_EQ(QuantizeDecis(100.0), 1000);
  EXPECT_EQ(QuantizeDecis(1.04), 10);
  EXPECT_EQ(QuantizeDecis(1.06), 11);
  EXPECT_EQ(QuantizeDecis(-1.06), -11);
  EXPECT_EQ(QuantizeDecis(0.25), 3);  // 2.5 tenths: half, away from zero
  EXPECT_EQ(QuantizeDecis(-0.25), -3);
  EXPECT_EQ(QuantizeDecis(0.75), 8);
  EXPECT_EQ(QuantizeDecis(0.04), 0);
  EXPECT_EQ(QuantizeDecis(-0.04), 0);
  EXPECT_EQ(QuantizeDecis(123456.78), 1234568);
  // Out of range saturates, NaN gives 0: never undefined behaviour.
  EXPECT_EQ(QuantizeDecis(1e300), std::numeric_limits<std::int32_t>::max());
  EXPECT_EQ(QuantizeDecis(-1e300), std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(QuantizeDecis(std::numeric_limits<double>::quiet_NaN()), 0);
}

TEST(WalkKeyTest, AnEndIsThePlaceToATenthPlusItsSurface) {
  nav::Place place;
  place.continent = 3;
  place.x_yards = 10.01;
  place.y_yards = 20.04;
  const EndKey a = MakeEndKey(place, 5);
  EXPECT_EQ(a.continent, 3u);
  EXPECT_EQ(a.x_decis, 100);
  EXPECT_EQ(a.y_decis, 200);
  EXPECT_FALSE(a.has_z);
  EXPECT_EQ(a.surface, 5u);
  // Within the same tenth: the same end.
  place.x_yards = 10.03;
  EXPECT_EQ(MakeEndKey(place, 5), a);
  // Moved by a tenth: a new end.
  place.x_yards = 10.11;
  EXPECT_NE(MakeEndKey(place, 5), a);
  place.x_yards = 10.01;
  // Another surface, or a height of its own: a new end.
  EXPECT_NE(MakeEndKey(place, 6), a);
  place.z_yards = 0.0;
  const EndKey with_z = MakeEndKey(place, 5);
  EXPECT_TRUE(with_z.has_z);
  EXPECT_EQ(with_z.z_decis, 0);
  EXPECT_NE(with_z, a);
  EXPECT_NE(EncodeWalkKey({1, with_z, with_z}), EncodeWalkKey({1, a, a}));
}

TEST(WalkKeyTest, MakeWalkKeySnapsAsTheWalkerDoes) {
  const nav::World world = nav::testing::AsciiWorld({
      "...@",
      "...@",
  });
  nav::Place on_ground;
  on_ground.x_yards = 1.5;
  on_ground.y_yards = 0.5;
  nav::Place in_wall = on_ground;
  in_wall.x_yards = 3.5;
  nav::Place off_map = on_ground;
  off_map.x_yards = 50.5;
  const WalkKey key = MakeWalkKey(9, world, on_ground, in_wall);
  EXPECT_EQ(key.model, 9u);
  const nav::Snap snap =
      nav::SnapPlace(world.continents[0], world.FrameOf(world.continents[0]), on_ground);
  ASSERT_EQ(snap.status, nav::WalkStatus::kOk);
  EXPECT_EQ(key.from.surface, snap.end.surface);
  EXPECT_EQ(key.to.surface, nav::kInvalidId);
  EXPECT_EQ(MakeWalkKey(9, world, off_map, on_ground).from.surface, nav::kInvalidId);
  nav::Place elsewhere = on_ground;
  elsewhere.continent = 77;  // no such continent
  EXPECT_EQ(MakeWalkKey(9, world, elsewhere, elsewhere).from.surface, nav::kInvalidId);
}

TEST(WalkKeyTest, MalformedBytesAreDataLossSayingWhy) {
  const std::string good = EncodeWalkKey(WalkKey{});
  absl::StatusOr<WalkKey> short_key = DecodeWalkKey(good.substr(0, 49));
  EXPECT_EQ(short_key.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(short_key.status().message().find("49 bytes"), absl::string_view::npos);
  EXPECT_EQ(DecodeWalkKey(good + "x").status().code(), absl::StatusCode::kDataLoss);

  std::string bad_flag = good;
  bad_flag[kModelPrefixBytes + 12] = 2;
  absl::StatusOr<WalkKey> flag = DecodeWalkKey(bad_flag);
  EXPECT_EQ(flag.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(flag.status().message().find("from end's height flag"), absl::string_view::npos);

  std::string stray_height = good;
  stray_height[kModelPrefixBytes + kEndKeyBytes + 16] = 1;  // the to end's z, flag 0
  absl::StatusOr<WalkKey> stray = DecodeWalkKey(stray_height);
  EXPECT_EQ(stray.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(stray.status().message().find("to end has no height"), absl::string_view::npos);
}

}  // namespace
}  // namespace walk::store
