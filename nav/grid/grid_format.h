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
inline constexpr std::uint32_t kGridFormatVersion = 3;

// Writes `world` to `dir`/grid.walkgrid (creating `dir`), through a temporary file and a rename,
// so a reader never sees half a file. `source` is a free note of where the grid came from.
// `world.content_id` must be set (ComputeContentId).
absl::Status SaveWorld(const World& world, const std::string& source, const std::string& dir);

// A loaded world and the note it was saved with.
struct LoadedWorld {
  World world;
  std::string source;
};

// Reads `dir`/grid.walkgrid. Errors: NOT_FOUND (no grid file), DATA_LOSS (truncated, damaged,
// or its content does not hash to the id it carries), FAILED_PRECONDITION (another format
// version).
absl::StatusOr<LoadedWorld> LoadWorld(const std::string& dir);

// True when `dir` holds a grid file.
bool HasGrid(const std::string& dir);

}  // namespace walk::nav
