#include "store/walk_value.h"

#include <limits>
#include <random>

#include "gtest/gtest.h"

namespace walk::store {
namespace {

StoredWalk Sample() {
  StoredWalk walk;
  walk.status = nav::WalkStatus::kOk;
  walk.method = nav::Method::kFineGrid;
  walk.seconds = 123.456789;
  walk.yards = 987.654321;
  walk.retried = true;
  walk.from_band_zero = true;
  walk.zone_cells = {{-3, 7, 12, 40.25}, {0, 0, 0, 0.1}, {2147483647, -2147483647 - 1, 65535, 1e9}};
  walk.from_zone = 12;
  walk.to_zone = 65535;
  return walk;
}

StoredWalk RandomWalk(std::mt19937_64& rng) {
  StoredWalk walk;
  walk.status = static_cast<nav::WalkStatus>(rng() % 4);
  walk.method = static_cast<nav::Method>(rng() % 4);
  std::uniform_real_distribution<double> real(0.0, 1e5);
  walk.seconds = real(rng);
  walk.yards = real(rng);
  walk.retried = rng() % 2 == 0;
  walk.from_band_zero = rng() % 3 == 0;
  walk.from_zone = static_cast<std::uint16_t>(rng());
  walk.to_zone = static_cast<std::uint16_t>(rng());
  const int cells = static_cast<int>(rng() % 12);
  for (int i = 0; i < cells; ++i) {
    walk.zone_cells.push_back({static_cast<std::int32_t>(rng()),
                               static_cast<std::int32_t>(rng() % 100) - 50,
                               static_cast<std::uint16_t>(rng()), real(rng)});
  }
  return walk;
}

TEST(WalkValueTest, RoundTripsBitForBit) {
  const StoredWalk walk = Sample();
  const std::string bytes = EncodeWalkValue(walk);
  EXPECT_EQ(static_cast<std::uint8_t>(bytes[0]), kWalkValueVersion);
  StoredWalk back;
  ASSERT_TRUE(DecodeWalkValue(bytes, &back).ok());
  EXPECT_EQ(back, walk);

  std::mt19937_64 rng(3);
  for (int i = 0; i < 5000; ++i) {
    const StoredWalk w = RandomWalk(rng);
    // Decoding into a used value reuses it without keeping old cells.
    ASSERT_TRUE(DecodeWalkValue(EncodeWalkValue(w), &back).ok());
    ASSERT_EQ(back, w);
  }
}

TEST(WalkValueTest, KeepsOddDoublesExactly) {
  StoredWalk walk;
  walk.seconds = std::numeric_limits<double>::infinity();
  walk.yards = -0.0;
  walk.zone_cells = {{1, 2, 3, std::numeric_limits<double>::denorm_min()}};
  StoredWalk back;
  ASSERT_TRUE(DecodeWalkValue(EncodeWalkValue(walk), &back).ok());
  EXPECT_EQ(back, walk);
  EXPECT_TRUE(std::signbit(back.yards));
  StoredWalk zero = walk;
  zero.yards = 0.0;
  EXPECT_FALSE(zero == walk) << "equality is bit for bit";
}

// A version 1 value (no ends' zones, no band-0 flag) still reads, with zones 0.
TEST(WalkValueTest, ReadsAVersionOneValue) {
  StoredWalk walk = Sample();
  walk.from_band_zero = false;
  std::string bytes = EncodeWalkValue(walk);
  bytes[0] = 1;
  bytes.resize(bytes.size() - 4);  // both zones: 12 and 65535 take 1 and 3 bytes as varints
  StoredWalk back;
  ASSERT_TRUE(DecodeWalkValue(bytes, &back).ok()) << DecodeWalkValue(bytes, &back);
  walk.from_zone = walk.to_zone = 0;
  EXPECT_EQ(back, walk);
}

TEST(WalkValueTest, AnEmptyAnswerIsSmall) {
  StoredWalk no_walk;
  no_walk.status = nav::WalkStatus::kNoWalk;
  no_walk.method = nav::Method::kRegions;
  EXPECT_EQ(EncodeWalkValue(no_walk).size(), 23u);
}

TEST(WalkValueTest, ConvertsFromAndToAnAnswer) {
  nav::WalkAnswer answer;
  answer.status = nav::WalkStatus::kOk;
  answer.method = nav::Method::kStraightLine;
  answer.seconds = 12.5;
  answer.yards = 80.0;
  answer.retried = true;
  answer.zone_cells = {{1, 2, 3, 80.0}};
  answer.from_end = nav::End();
  answer.stats.nodes_expanded = 99;
  const StoredWalk stored = FromAnswer(answer);
  EXPECT_EQ(stored.status, answer.status);
  EXPECT_EQ(stored.method, answer.method);
  EXPECT_EQ(stored.seconds, 12.5);
  EXPECT_EQ(stored.yards, 80.0);
  EXPECT_TRUE(stored.retried);
  ASSERT_EQ(stored.zone_cells.size(), 1u);
  const nav::WalkAnswer back = ToAnswer(stored);
  EXPECT_EQ(back.status, answer.status);
  EXPECT_EQ(back.method, answer.method);
  EXPECT_EQ(back.seconds, answer.seconds);
  EXPECT_EQ(back.yards, answer.yards);
  EXPECT_EQ(back.retried, answer.retried);
  EXPECT_EQ(back.zone_cells.size(), 1u);
  EXPECT_FALSE(back.from_end.has_value()) << "ends are not stored";
  EXPECT_EQ(back.stats.nodes_expanded, 0u) << "a stored answer costs no search";
  EXPECT_EQ(FromAnswer(back), stored);
}

void ExpectDataLoss(const std::string& bytes, const std::string& says) {
  StoredWalk out;
  const absl::Status s = DecodeWalkValue(bytes, &out);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_NE(s.message().find(says), absl::string_view::npos) << s.message();
}

TEST(WalkValueTest, GarbageIsDataLossNamingWhatIsWrong) {
  const std::string good = EncodeWalkValue(Sample());
  ExpectDataLoss("", "0 bytes");
  std::string v = good;
  v[0] = 9;
  ExpectDataLoss(v, "version 9");
  v = good;
  v[1] = 7;
  ExpectDataLoss(v, "unknown status 7");
  v = good;
  v[2] = static_cast<char>(nav::kMethodCount);  // one past the last method
  ExpectDataLoss(v, "unknown method " + std::to_string(nav::kMethodCount));
  v = good;
  v[3] = static_cast<char>(0x81);
  ExpectDataLoss(v, "unknown flag bits 0x80");
  ExpectDataLoss(good + "x", "1 bytes left over");
  v = good;
  v[20] = 100;  // the cell count
  ExpectDataLoss(v, "100 zone cells cannot fit");
  // Every cut-off prefix of a good value is refused.
  for (std::size_t n = 0; n < good.size(); ++n) {
    StoredWalk out;
    EXPECT_EQ(DecodeWalkValue(good.substr(0, n), &out).code(), absl::StatusCode::kDataLoss)
        << "prefix of " << n << " bytes";
  }
}

TEST(WalkValueTest, RandomBytesNeverCrash) {
  std::mt19937_64 rng(5);
  const std::string good = EncodeWalkValue(Sample());
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string bytes = good;
    // Flip a few bytes of a good value (to get past the first checks) or take pure noise.
    if (i % 2 == 0) {
      for (int k = 0; k < 3; ++k) bytes[rng() % bytes.size()] = static_cast<char>(rng());
    } else {
      bytes.resize(rng() % 64);
      for (char& c : bytes) c = static_cast<char>(rng());
    }
    StoredWalk out;
    const absl::Status s = DecodeWalkValue(bytes, &out);
    if (s.ok()) {
      ++accepted;
      EXPECT_EQ(EncodeWalkValue(out), bytes) << "what decodes re-encodes to the same bytes";
    } else {
      EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
    }
  }
  EXPECT_GT(accepted, 0);
}

}  // namespace
}  // namespace walk::store
