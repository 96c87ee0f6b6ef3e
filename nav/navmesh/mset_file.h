// RecastDemo's all-tiles file (Sample_TileMesh's "all_tiles_navmesh.bin"): a header with the
// navmesh parameters, then every tile's reference, size and Detour data. Layout in
// docs/formats.md ("Navmeshes").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nav/navmesh/navmesh.h"

namespace walk::nav {

inline constexpr std::int32_t kMsetMagic = 'M' << 24 | 'S' << 16 | 'E' << 8 | 'T';
inline constexpr std::int32_t kMsetVersion = 1;

// The largest all-tiles file read (docs/formats.md, "Limits"): larger ones are refused unread.
// Every count inside is checked against the bytes there are before anything is allocated.
inline constexpr std::uint64_t kMaxMsetFileBytes = std::uint64_t{1} << 30;  // 1 GiB

// Reads an all-tiles file. Errors name the file and what is wrong: NOT_FOUND (no such file),
// INVALID_ARGUMENT (larger than kMaxMsetFileBytes, bad magic, a version other than 1, a tile
// count beyond the navmesh's or the file's, a truncated tile, bytes after the last tile, a tile
// Detour refuses or of another Detour version, saying both).
absl::StatusOr<NavMesh> ReadMsetFile(const std::string& path);

// Parses an all-tiles file's `bytes` as ReadMsetFile does; `path` names it in errors.
absl::StatusOr<NavMesh> ParseMsetFile(std::string_view bytes, const std::string& path);

// Writes `navmesh` as an all-tiles file at `path` (replacing it), tiles in canonical form.
// Errors: INTERNAL (the write failed).
absl::Status WriteMsetFile(const NavMesh& navmesh, const std::string& path);

}  // namespace walk::nav
