// Saves and loads a World in walkd's on-disk grid format (docs/formats.md): one file,
// `grid.walkgrid`, in the world's folder. Loading verifies the structure and recomputes the
// content id, so a damaged file is refused rather than served.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nav/grid/grid.h"

namespace walk::nav {

inline constexpr char kGridFileName[] = "grid.walkgrid";
// 4: each continent carries its own origin (its frame), and the content id is the hash of the
// continents' own content ids. Files of version 3 are refused (FAILED_PRECONDITION): rebuild them.
inline constexpr std::uint32_t kGridFormatVersion = 4;

// Writes `world` to `dir`/grid.walkgrid (creating `dir`), through a temporary file and a rename,
// so a reader never sees half a file. `source` is a free note of where the grid came from.
// `world.content_id` must be set (AssignContentIds).
absl::Status SaveWorld(const World& world, const std::string& source, const std::string& dir);

// A loaded world and the note it was saved with.
struct LoadedWorld {
  World world;
  std::string source;
};

// What a grid file may hold (docs/formats.md, "Limits"); a file beyond them is refused as damaged
// before anything that size is allocated. Every array's length is checked against the bytes
// left before it is read, so a file's own bytes bound the rest.
inline constexpr double kMinColumnYards = 1e-3;
inline constexpr double kMaxColumnYards = 1e3;
// |origin_column_x| and |origin_column_y| at most 2^40: a frame coordinate stays exact in double.
inline constexpr std::int64_t kMaxOriginColumns = std::int64_t{1} << 40;
inline constexpr std::uint32_t kMaxContinents = 4096;
// Tiles of every continent's extent together (each costs its tile index and road blocks, about
// 516 bytes, whether or not the file holds it): four continents of 65,536 x 65,536 columns.
inline constexpr std::uint64_t kMaxWorldTileSlots = std::uint64_t{1} << 18;

// Reads `dir`/grid.walkgrid. Errors: NOT_FOUND (no grid file), DATA_LOSS (truncated, damaged,
// beyond the limits above, or its content does not hash to the id it carries),
// FAILED_PRECONDITION (another format version).
absl::StatusOr<LoadedWorld> LoadWorld(const std::string& dir);

// Parses a grid file's `bytes` as LoadWorld does; `path` names it in errors.
absl::StatusOr<LoadedWorld> ParseGrid(const std::string& bytes, const std::string& path);

// True when `dir` holds a grid file.
bool HasGrid(const std::string& dir);

}  // namespace walk::nav
