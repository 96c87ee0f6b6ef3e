// The mmaps layout game servers ship (TrinityCore, AzerothCore, CMaNGOS): a folder with one
// `MMM.mmap` (the navmesh parameters of map MMM) and one `MMMXXYY.mmtile` per tile (a small
// header, then the tile's Detour data). Layout in docs/formats.md ("Navmeshes").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nav/navmesh/navmesh.h"

namespace walk::nav {

inline constexpr std::uint32_t kMmapMagic = 0x4d4d4150;  // 'MMAP' read as a little-endian u32
// The mmap version written (with the 20-byte tile header). Read: any version, with the 20-byte
// header or AzerothCore's 56-byte one (version 18 adds its Recast settings).
inline constexpr std::uint32_t kMmapVersionWritten = 15;

// Reads one map of the folder: `map`, or, when unset, the folder's only one. Its `.mmap` file
// and every `.mmtile` named after its number (MMMXXYY.mmtile, or MMMM_XX_YY.mmtile); a tile's
// position comes from its Detour header, not its name. Each tile remembers its file
// (NavMeshTileOrigin), to be read again by a tile cache. Errors name the file and what is wrong:
// NOT_FOUND (no folder, no .mmap, no such map), INVALID_ARGUMENT (several maps and none named, a
// .mmap not named by a number, a .mmap that is not 28 bytes, a tile with bad magic, a Detour
// version other than ours saying both, a size that disagrees with the file, a tile Detour
// refuses).
absl::StatusOr<NavMesh> ReadMmapsFolder(const std::string& dir,
                                        std::optional<std::uint32_t> map = std::nullopt);

// One map of an mmaps folder.
struct MmapsMap {
  std::uint32_t map = 0;  // its number: MMM of MMM.mmap
  NavMesh navmesh;
};
// Reads every map of the folder (as game servers ship them: one .mmap a map), by map number.
// Errors: those of ReadMmapsFolder.
absl::StatusOr<std::vector<MmapsMap>> ReadMmapsMaps(const std::string& dir);

// The folder's maps by number, each with the bytes of its .mmap and .mmtile files, read from the
// folder's listing alone. Errors: those of ReadMmapsFolder for the folder and its .mmap names.
absl::StatusOr<std::map<std::uint32_t, std::uint64_t>> ListMmapsMaps(const std::string& dir);

// Removes map `map`'s files (MMM.mmap, MMMXXYY.mmtile) from `dir`, keeping the other maps.
// Errors: INTERNAL (a file could not be removed).
absl::Status RemoveMmapsMap(const std::string& dir, std::uint32_t map);

// The largest .mmtile read (docs/formats.md, "Limits"): larger ones are refused unread. A .mmap
// is read only when it is exactly its 28 bytes.
inline constexpr std::uint64_t kMaxMmapTileBytes = std::uint64_t{64} << 20;  // 64 MiB

// The navmesh a .mmap's `bytes` set up, with no tiles yet; `path` names it in errors.
// INVALID_ARGUMENT as ReadMmapsFolder's for its .mmap.
absl::StatusOr<NavMesh> ParseMmapFile(std::string_view bytes, const std::string& path);
// Adds the tile an .mmtile's `bytes` hold to `navmesh`; `path` names it in errors.
// INVALID_ARGUMENT as ReadMmapsFolder's for a tile.
absl::Status AddMmapTile(std::string_view bytes, const std::string& path, NavMesh* navmesh);

// Writes `navmesh` into `dir` (created if needed) as map `map_id`: `MMM.mmap` and one
// `MMMXXYY.mmtile` per tile (x and y its Detour tile position). Errors: INVALID_ARGUMENT (a map
// id over 999, a tile position outside 0..99 or a layer other than 0, which the names cannot
// hold), INTERNAL (a write failed).
absl::Status WriteMmapsFolder(const NavMesh& navmesh, const std::string& dir,
                              std::uint32_t map_id = 0);

}  // namespace walk::nav
