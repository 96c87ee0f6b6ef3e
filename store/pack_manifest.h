// The manifest of a store pack, walkpack.json: the model, its count of answers, and every table
// file with its size, answers and CRC-32 (docs/store.md, "Store packs"). Export writes it last,
// so a pack with a manifest is complete; ingest checks the pack against it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace walk::store {

// The name of a store pack's manifest inside the pack directory.
inline constexpr char kPackManifestName[] = "walkpack.json";

// One table file of a pack, as its manifest lists it.
struct PackFile {
  std::string name;  // a plain file name inside the pack directory
  std::uint64_t bytes = 0;
  std::uint64_t answers = 0;
  std::uint32_t crc32 = 0;  // zlib's CRC-32 of the whole file
};

struct PackManifest {
  std::uint64_t model = 0;
  std::uint64_t answers = 0;  // of every file together
  std::vector<PackFile> files;
};

// The manifest's text: a JSON object (keys sorted, indented by 2, a newline at the end) that
// also names the pack format and version, the key size and the value version.
std::string ManifestText(const PackManifest& manifest);

// A manifest lists a pack's table files, about 100 bytes each: larger than this is not one.
inline constexpr std::size_t kMaxManifestBytes = std::size_t{16} << 20;  // 16 MiB

// Parses a manifest's `text`, read from `path` (for messages). DATA_LOSS naming the field that
// is missing or wrong, a text larger than kMaxManifestBytes, or a format, version, key size or
// value version of another walkd.
absl::StatusOr<PackManifest> ParseManifest(const std::string& text, const std::string& path);

}  // namespace walk::store
