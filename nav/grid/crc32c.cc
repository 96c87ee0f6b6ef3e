#include "nav/grid/crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace walk::nav {
namespace {

// The reflected Castagnoli polynomial.
constexpr std::uint32_t kPolynomial = 0x82f63b78u;

// tables[k][b]: the CRC of byte b followed by k zero bytes, for eight bytes a step.
using Tables = std::array<std::array<std::uint32_t, 256>, 8>;

constexpr Tables MakeTables() {
  Tables tables{};
  for (std::uint32_t b = 0; b < 256; ++b) {
    std::uint32_t crc = b;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1u) != 0 ? kPolynomial : 0u);
    tables[0][b] = crc;
  }
  for (std::size_t k = 1; k < tables.size(); ++k) {
    for (std::uint32_t b = 0; b < 256; ++b) {
      const std::uint32_t previous = tables[k - 1][b];
      tables[k][b] = (previous >> 8) ^ tables[0][previous & 0xffu];
    }
  }
  return tables;
}

constexpr Tables kTables = MakeTables();

// `crc` is the running register (inverted); the tables' way, eight bytes a step.
std::uint32_t ExtendByTables(std::uint32_t crc, const unsigned char* p, std::size_t size) {
  while (size >= 8) {
    std::uint32_t low, high;
    std::memcpy(&low, p, 4);  // little-endian, as every machine walkd serves on
    std::memcpy(&high, p + 4, 4);
    low ^= crc;
    crc = kTables[7][low & 0xffu] ^ kTables[6][(low >> 8) & 0xffu] ^
          kTables[5][(low >> 16) & 0xffu] ^ kTables[4][low >> 24] ^ kTables[3][high & 0xffu] ^
          kTables[2][(high >> 8) & 0xffu] ^ kTables[1][(high >> 16) & 0xffu] ^
          kTables[0][high >> 24];
    p += 8;
    size -= 8;
  }
  while (size-- > 0) crc = (crc >> 8) ^ kTables[0][(crc ^ *p++) & 0xffu];
  return crc;
}

#if defined(__x86_64__)
// The processor's crc32 instruction, eight bytes a step.
__attribute__((target("sse4.2"))) std::uint32_t ExtendByInstruction(std::uint32_t crc,
                                                                    const unsigned char* p,
                                                                    std::size_t size) {
  std::uint64_t wide = crc;
  while (size >= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    wide = _mm_crc32_u64(wide, word);
    p += 8;
    size -= 8;
  }
  crc = static_cast<std::uint32_t>(wide);
  while (size-- > 0) crc = _mm_crc32_u8(crc, *p++);
  return crc;
}

// Asked once; __builtin_cpu_init first, as this may run before the other constructors.
const bool kHasInstruction = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("sse4.2") != 0;
}();
#endif

}  // namespace

std::uint32_t Crc32c(const void* data, std::size_t size, std::uint32_t crc) {
  const auto* p = static_cast<const unsigned char*>(data);
  crc = ~crc;
#if defined(__x86_64__)
  if (kHasInstruction) return ~ExtendByInstruction(crc, p, size);
#endif
  return ~ExtendByTables(crc, p, size);
}

std::uint32_t Crc32cByTables(const void* data, std::size_t size, std::uint32_t crc) {
  return ~ExtendByTables(~crc, static_cast<const unsigned char*>(data), size);
}

}  // namespace walk::nav
