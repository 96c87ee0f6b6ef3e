// Where a world folder keeps its navmesh, beside grid.walkgrid: `navmesh.bin` (the all-tiles
// format) or `mmaps/` (the mmaps layout), never both.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nav/grid/grid.h"
#include "nav/navmesh/navmesh.h"
#include "nav/navmesh/navmesh_builder.h"

namespace walk::nav {

inline constexpr char kWorldMsetFile[] = "navmesh.bin";
inline constexpr char kWorldMmapsFolder[] = "mmaps";

enum class NavMeshFormat { kMset, kMmaps };
const char* NavMeshFormatName(NavMeshFormat format);  // "mset", "mmaps"

// The lift rides of `world`'s continent `continent` as off-mesh connections (one a ride, from
// landing to landing: each column's centre at its surface's height, in the world's frame), for
// a navmesh built beside the grid (NavMeshBuildOptions::connections). None for an unknown
// continent.
std::vector<NavMeshConnection> LiftConnections(const World& world, ContinentId continent);

// The small note a world folder keeps beside its navmesh (navmesh.json): what the navmesh is,
// so that a walkd given the folder without the navmesh's files still knows the model its saved
// answers are stored under (docs/navmesh.md, "Saved answers").
inline constexpr char kWorldNavMeshNote[] = "navmesh.json";
// One map of the note: a navmesh of the folder (navmesh.bin is map 0; mmaps/ holds one a .mmap).
struct NavMeshNoteMap {
  std::uint32_t map = 0;           // its number: MMM of MMM.mmap
  ContinentId continent = 0;       // the continent it walks
  std::uint64_t content_hash = 0;  // NavMesh::content_hash; 0: not given (its files must be there)
  std::uint32_t tiles = 0;
  std::uint64_t polygons = 0;
};
struct NavMeshNote {
  std::string format;                // "mset" or "mmaps"
  std::vector<NavMeshNoteMap> maps;  // by map number, each once
  // Map `map`'s entry, or null.
  const NavMeshNoteMap* Find(std::uint32_t map) const;
  // The continent map `map` walks: its entry's, else the same number.
  ContinentId ContinentOf(std::uint32_t map) const;
};
// Writes `note` into the world folder. Errors: INTERNAL naming the file.
absl::Status SaveNavMeshNote(const NavMeshNote& note, const std::string& world_dir);
// The world folder's note, or nullopt when it has none. Errors: INVALID_ARGUMENT naming the
// file and the field that is missing or wrong, or a note larger than kMaxNavMeshNoteBytes.
absl::StatusOr<std::optional<NavMeshNote>> LoadNavMeshNote(const std::string& world_dir);
// A note is a few lines; larger is not one (refused unread).
inline constexpr std::uint64_t kMaxNavMeshNoteBytes = 1 << 16;
// Parses a note's `text` as LoadNavMeshNote does; `path` names it in errors.
absl::StatusOr<NavMeshNote> ParseNavMeshNote(std::string_view text, const std::string& path);
// True when the folder holds a navmesh (navmesh.bin or mmaps/) or its note.
bool HasNavMesh(const std::string& world_dir);

// Reads a navmesh in either format: a folder is read as mmaps (its map `map`, or its only one),
// a file as an all-tiles file. Errors: those of ReadMsetFile and ReadMmapsFolder.
absl::StatusOr<NavMesh> ReadNavMesh(const std::string& path, NavMeshFormat* format = nullptr,
                                    std::optional<std::uint32_t> map = std::nullopt);

// A navmesh of a world folder: navmesh.bin (map 0) or one map of mmaps/.
struct WorldNavMeshMap {
  std::uint32_t map = 0;
  NavMesh navmesh;
};
// The world folder's navmeshes by map number (none when it holds none). Errors: INVALID_ARGUMENT
// (both navmesh.bin and mmaps/), and those of the readers.
absl::StatusOr<std::vector<WorldNavMeshMap>> LoadWorldNavMeshes(const std::string& world_dir,
                                                                NavMeshFormat* format = nullptr);

// The map numbers of the world folder's navmeshes (navmesh.bin: map 0; none without a navmesh),
// each with the bytes of its files, from the folder's listing alone. Errors: INVALID_ARGUMENT
// (both navmesh.bin and mmaps/, a .mmap not named by a number).
absl::StatusOr<std::map<std::uint32_t, std::uint64_t>> ListWorldNavMeshMaps(
    const std::string& world_dir, NavMeshFormat* format = nullptr);
// Map `map` of the world folder's navmeshes (as ListWorldNavMeshMaps names it). Errors: those of
// the readers.
absl::StatusOr<NavMesh> ReadWorldNavMeshMap(const std::string& world_dir, NavMeshFormat format,
                                            std::uint32_t map);

// The world folder's navmesh when it holds exactly one (map `map`, when given, of several), or
// nullopt when it holds none. Errors: those of LoadWorldNavMeshes, and INVALID_ARGUMENT for
// several maps and none named or NOT_FOUND for a map it lacks.
absl::StatusOr<std::optional<NavMesh>> LoadWorldNavMesh(
    const std::string& world_dir, NavMeshFormat* format = nullptr,
    std::optional<std::uint32_t> map = std::nullopt);

// Writes `navmesh` into the world folder (created if needed) in `format` as map `map`, walking
// continent `continent`, and records it in the note. mset: navmesh.bin (map 0 only), replacing
// mmaps/. mmaps: map `map`'s files in mmaps/, replacing that map's and keeping the other maps
// (and their entries in the note), removing navmesh.bin. Errors: INVALID_ARGUMENT (mset with a map
// other than 0), and those of the writers.
absl::Status SaveWorldNavMesh(const NavMesh& navmesh, const std::string& world_dir,
                              NavMeshFormat format, ContinentId continent = 0,
                              std::uint32_t map = 0);

}  // namespace walk::nav
