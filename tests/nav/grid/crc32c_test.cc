// CRC-32C: the standard check values, the instruction and the tables agree on every length and
// alignment, and a CRC continues across pieces.
#include "nav/grid/crc32c.h"

#include <random>
#include <string>

#include "gtest/gtest.h"

namespace walk::nav {
namespace {

TEST(Crc32cTest, StandardCheckValues) {
  EXPECT_EQ(Crc32c("123456789", 9), 0xe3069283u);
  EXPECT_EQ(Crc32cByTables("123456789", 9), 0xe3069283u);
  EXPECT_EQ(Crc32c("", 0), 0u);
  const std::string zeros(32, '\0'), ones(32, '\xff');
  EXPECT_EQ(Crc32c(zeros.data(), zeros.size()), 0x8a9136aau);  // RFC 3720, B.4
  EXPECT_EQ(Crc32c(ones.data(), ones.size()), 0x62a8ab43u);
}

TEST(Crc32cTest, TheInstructionAndTheTablesAgreeAndPiecesContinue) {
  std::mt19937 random(7);
  std::string bytes(1000, '\0');
  for (char& c : bytes) c = static_cast<char>(random());
  for (std::size_t start = 0; start < 9; ++start) {
    for (std::size_t size = 0; start + size <= bytes.size(); size += 1 + size / 3) {
      const char* p = bytes.data() + start;
      const std::uint32_t whole = Crc32c(p, size);
      ASSERT_EQ(whole, Crc32cByTables(p, size)) << start << " + " << size;
      const std::size_t cut = size / 3;
      ASSERT_EQ(Crc32c(p + cut, size - cut, Crc32c(p, cut)), whole);
      ASSERT_EQ(Crc32cByTables(p + cut, size - cut, Crc32cByTables(p, cut)), whole);
    }
  }
}

}  // namespace
}  // namespace walk::nav
