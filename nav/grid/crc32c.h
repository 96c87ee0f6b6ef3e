// CRC-32C (Castagnoli, the polynomial iSCSI, ext4 and RocksDB use) of bytes, for the checksums
// walkd's binary files carry over their sections (the abstract graph, docs/formats.md). Uses the
// SSE 4.2 crc32 instruction where the processor has it (checked once, at run time), else tables.
// Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>

namespace walk::nav {

// The CRC-32C of `size` bytes at `data`, continuing from `crc` (the CRC of the bytes before
// them; 0 for none): Crc32c(b, n, Crc32c(a, m)) is the CRC of a's m bytes followed by b's n.
// Crc32c("123456789", 9) is 0xe3069283.
std::uint32_t Crc32c(const void* data, std::size_t size, std::uint32_t crc = 0);

// The same, always by tables (what Crc32c does without the instruction), for tests.
std::uint32_t Crc32cByTables(const void* data, std::size_t size, std::uint32_t crc = 0);

}  // namespace walk::nav
