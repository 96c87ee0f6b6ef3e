// Tests of the wire counter (server/wire_count.h) on bytes built by hand: entries of repeated
// fields counted at every nesting level, packed and one by one, unknown fields (groups too), and
// broken input (truncated, bad tags, lengths past the end, nesting too deep) refused as
// INVALID_ARGUMENT, never read past. Every verdict is checked against protobuf's own parse of the
// same bytes.
#include "server/wire_count.h"

#include <cstdint>
#include <random>
#include <string>

#include "absl/strings/match.h"
#include "google/protobuf/stubs/logging.h"
#include "gtest/gtest.h"
#include "walk/v1/walk.pb.h"

namespace walk::server {
namespace {

// Protobuf's encoding, written out by hand.
std::string Varint(std::uint64_t value) {
  std::string out;
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
  return out;
}
std::string Tag(std::uint32_t number, std::uint32_t wire) { return Varint(number << 3 | wire); }
std::string Delimited(std::uint32_t number, const std::string& payload) {
  return Tag(number, 2) + Varint(payload.size()) + payload;
}
std::string Repeat(const std::string& piece, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += piece;
  return out;
}

// WalkBatchRequest's fields: 1 index, 2 walk, 3 more, 4 block, 5 trip. PairBlock's: 6 index
// (uint64), 7 from_x (double).
constexpr std::uint32_t kMore = 3, kBlock = 4, kBlockIndex = 6, kBlockFromX = 7;

// The batch's rules with small limits: `more` at most 4, a block column at most 5 entries.
WireRules BatchRules(std::uint64_t max_more = 4, std::uint64_t max_block = 5) {
  const auto& batch = *walk::v1::WalkBatchRequest::descriptor();
  const auto& block = *walk::v1::PairBlock::descriptor();
  WireRules rules;
  rules.type = &batch;
  rules.limits.push_back(
      LimitOn(batch, "more", max_more, "max-pairs-per-message", "more", "send more messages"));
  rules.limits.push_back(
      LimitOn(block, "index", max_block, "max-block-pairs", "block.index", "send more blocks"));
  rules.limits.push_back(
      LimitOn(block, "from_x", max_block, "max-block-pairs", "block.from_x", "send more blocks"));
  rules.max_unknown_fields = 6;
  return rules;
}

bool Parses(const std::string& bytes) {
  walk::v1::WalkBatchRequest parsed;
  return parsed.ParseFromString(bytes);
}

TEST(WireCountTest, EmptyMoreEntriesAreCountedAndTheLimitNamed) {
  const std::string empty_more = Tag(kMore, 2) + Varint(0);
  EXPECT_TRUE(CheckWire(Repeat(empty_more, 4), BatchRules()).status.ok());
  const WireVerdict over = CheckWire(Repeat(empty_more, 2000000), BatchRules());
  EXPECT_EQ(over.status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(over.entries, 2000000u);
  EXPECT_EQ(over.status.message(),
            "max-pairs-per-message: more holds 2000000 entries, over the 4 allowed; send more "
            "messages");
  EXPECT_TRUE(Parses(Repeat(empty_more, 5)));  // well-formed: only the count refuses it
}

TEST(WireCountTest, NestedEntriesAreSummedOverEveryLevel) {
  // Two entries of `more`, each carrying two of its own, one of which carries one more: 2 x 4.
  const std::string leaf = Delimited(kMore, "");
  const std::string inner = Delimited(kMore, leaf);
  const std::string outer = Delimited(kMore, inner + leaf);
  const std::string bytes = outer + outer;
  ASSERT_TRUE(Parses(bytes));
  EXPECT_TRUE(CheckWire(bytes, BatchRules(8)).status.ok());
  const WireVerdict over = CheckWire(bytes, BatchRules(7));
  EXPECT_EQ(over.status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(over.entries, 8u);
  // A block inside an entry of `more` counts toward the same limit as the message's own.
  const std::string block = Delimited(kBlock, Repeat(Tag(kBlockIndex, 0) + Varint(7), 3));
  const std::string both = block + Delimited(kMore, block);
  ASSERT_TRUE(Parses(both));
  EXPECT_TRUE(CheckWire(both, BatchRules(4, 6)).status.ok());
  EXPECT_TRUE(absl::StartsWith(CheckWire(both, BatchRules(4, 5)).status.message(),
                               "max-block-pairs: block.index holds 6 entries"));
}

TEST(WireCountTest, PackedEntriesAreCountedOneByOne) {
  // Packed varints of 1, 2 and 10 bytes, and the same field one by one: 3 + 2 entries.
  const std::string packed =
      Delimited(kBlockIndex, Varint(1) + Varint(300) + Varint(~std::uint64_t{0}));
  const std::string unpacked = Repeat(Tag(kBlockIndex, 0) + Varint(5), 2);
  const std::string block = Delimited(kBlock, packed + unpacked);
  ASSERT_TRUE(Parses(block));
  EXPECT_TRUE(CheckWire(block, BatchRules(4, 5)).status.ok());
  EXPECT_EQ(CheckWire(block, BatchRules(4, 4)).entries, 5u);
  // Packed doubles: 6 of them.
  const std::string doubles = Delimited(kBlock, Delimited(kBlockFromX, std::string(48, '\0')));
  ASSERT_TRUE(Parses(doubles));
  const WireVerdict over = CheckWire(doubles, BatchRules(4, 5));
  EXPECT_TRUE(absl::StartsWith(over.status.message(), "max-block-pairs: block.from_x holds 6"))
      << over.status;
  // A partial double is not a message.
  const std::string partial = Delimited(kBlock, Delimited(kBlockFromX, std::string(13, '\0')));
  EXPECT_FALSE(Parses(partial));
  EXPECT_EQ(CheckWire(partial, BatchRules()).status.code(), absl::StatusCode::kInvalidArgument);
}

TEST(WireCountTest, UnknownFieldsAreCountedAtEveryLevel) {
  // Field 99 is unknown; `more` (3) sent as a varint is kept as an unknown field by the parser;
  // a group holds two fields of its own: 1 + 1 + 3.
  const std::string group = Tag(50, 3) + Tag(1, 0) + Varint(1) + Tag(2, 5) + "abcd" + Tag(50, 4);
  const std::string bytes =
      Tag(99, 0) + Varint(1) + Delimited(kMore, Tag(kMore, 0) + Varint(4)) + group;
  ASSERT_TRUE(Parses(bytes));
  WireRules rules = BatchRules();
  rules.max_unknown_fields = 5;
  EXPECT_TRUE(CheckWire(bytes, rules).status.ok());
  rules.max_unknown_fields = 4;
  const WireVerdict over = CheckWire(bytes, rules);
  EXPECT_EQ(over.status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(absl::StartsWith(over.status.message(), "unknown fields: the request carries 5"))
      << over.status;
}

TEST(WireCountTest, BrokenInputIsRefusedAsInvalid) {
  const std::string block = Delimited(kBlock, Delimited(kBlockIndex, Varint(1) + Varint(300)));
  const std::string good = Delimited(kMore, Delimited(kMore, "")) + block + Tag(1, 0) + Varint(9);
  ASSERT_TRUE(Parses(good));
  // Every prefix: a verdict, the same as protobuf's on whether it is a message.
  for (std::size_t n = 0; n < good.size(); ++n) {
    const std::string prefix = good.substr(0, n);
    const WireVerdict verdict = CheckWire(prefix, BatchRules());
    EXPECT_EQ(verdict.status.ok(), Parses(prefix)) << n << ": " << verdict.status;
    if (!verdict.status.ok()) {
      EXPECT_EQ(verdict.status.code(), absl::StatusCode::kInvalidArgument);
    }
  }
  const std::string broken[] = {
      std::string(1, '\0') + "x",           // a zero tag
      Tag(0, 0) + Varint(1),                // field number 0
      Tag(9, 6) + Varint(1),                // wire type 6
      Tag(9, 4),                            // an end-group outside a group
      Tag(9, 3) + Tag(1, 0) + Varint(1),    // a group that never ends
      Tag(9, 3) + Tag(8, 4),                // a group ended by another's tag
      Tag(kMore, 2) + Varint(1000) + "ab",  // a length past the end
      Tag(kMore, 2) + Varint(1u << 31),     // a length past 2 GiB
      Delimited(kBlock, Delimited(kBlockIndex, std::string(1, '\x80'))),  // a varint cut short
      Tag(1, 0) + std::string(11, '\xff'),                                // a varint of 11 bytes
  };
  for (const std::string& bytes : broken) {
    EXPECT_FALSE(Parses(bytes));
    const WireVerdict verdict = CheckWire(bytes, BatchRules());
    EXPECT_EQ(verdict.status.code(), absl::StatusCode::kInvalidArgument) << verdict.status;
    EXPECT_TRUE(absl::StartsWith(verdict.status.message(), "the request is not a valid walk.v1."))
        << verdict.status;
  }
}

TEST(WireCountTest, NestingIsBoundedAsProtobufBoundsIt) {
  std::string nested;
  for (int depth = 1; depth <= 101; ++depth) {
    nested = Delimited(kMore, nested);
    WireRules rules = BatchRules(1000);
    EXPECT_EQ(CheckWire(nested, rules).status.ok(), Parses(nested)) << depth;
  }
  EXPECT_FALSE(Parses(nested));
  EXPECT_EQ(CheckWire(nested, BatchRules(1000)).status.code(), absl::StatusCode::kInvalidArgument);
}

// Random messages: the counts are exactly what parsing makes; random byte flips of them never
// get past the counter unless protobuf parses them too.
TEST(WireCountTest, CountsEqualWhatParsingMakesOnRandomMessages) {
  std::mt19937 random(7);
  int flipped_refused = 0;
  const google::protobuf::LogSilencer quiet;  // flipped strings are not UTF-8: protobuf says so
  for (int round = 0; round < 300; ++round) {
    walk::v1::WalkBatchRequest message;
    std::uint64_t more = 0, index = 0;
    for (int i = static_cast<int>(random() % 6); i > 0; --i) {
      walk::v1::WalkBatchRequest* entry = message.add_more();
      ++more;
      entry->mutable_walk()->set_world("w");
      for (int k = static_cast<int>(random() % 3); k > 0; --k, ++more) entry->add_more();
      for (int k = static_cast<int>(random() % 4); k > 0; --k, ++index) {
        entry->mutable_block()->add_index(random());
      }
    }
    for (int k = static_cast<int>(random() % 8); k > 0; --k, ++index) {
      message.mutable_block()->add_index(random() % 1000);
    }
    const std::string bytes = message.SerializeAsString();
    EXPECT_TRUE(CheckWire(bytes, BatchRules(more, index)).status.ok());
    if (more > 0) {
      EXPECT_EQ(CheckWire(bytes, BatchRules(more - 1, 100)).entries, more);
    }
    if (index > 0) {
      EXPECT_EQ(CheckWire(bytes, BatchRules(100, index - 1)).entries, index);
    }
    std::string flipped = bytes;
    if (flipped.empty()) continue;
    flipped[random() % flipped.size()] ^= static_cast<char>(1 + random() % 255);
    const WireVerdict verdict = CheckWire(flipped, BatchRules(100, 100));
    if (Parses(flipped)) {
      EXPECT_NE(verdict.status.code(), absl::StatusCode::kInvalidArgument) << verdict.status;
    }
    if (verdict.status.code() == absl::StatusCode::kInvalidArgument) {
      EXPECT_FALSE(Parses(flipped));
      ++flipped_refused;
    }
  }
  std::printf("random flips refused as not a message: %d of 300\n", flipped_refused);
}

}  // namespace
}  // namespace walk::server
