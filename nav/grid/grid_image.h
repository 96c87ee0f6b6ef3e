// A grid image: a world laid out as it lies in memory, every per-surface and per-column array
// (the derived ones too) page-aligned in one file, so walkd maps it instead of reading it. A
// continent's arrays are then views of the mapping (nav/grid/array.h): resident memory follows the
// tiles walks touch, and the kernel may drop what they no longer touch (its pages come back from
// the page cache, not from the grid file's parse). docs/formats.md has the layout.
//
// An image is a cache of a grid file: it records the grid file's size, modification time and
// content id, and is used only while they match. Mapping it recomputes the content id over the
// mapped arrays (a damaged image is refused, never served), then hands the pages that check
// touched back. The page cache holds an image in single pages (written a page a write, read
// ahead a page at a time when mapped), so a fault maps the 64 KB around it, not a large folio
// of megabytes.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "nav/grid/grid_format.h"

namespace walk::nav {

inline constexpr std::uint32_t kGridImageVersion = 2;

// What an image was made from: its grid file's size, modification time and content id.
struct GridStamp {
  std::uint64_t bytes = 0;
  std::int64_t modified_ns = 0;
  std::uint64_t content_id = 0;
  bool operator==(const GridStamp&) const = default;
};

// The stamp of `dir`'s grid file, its content id from the file's preamble. NOT_FOUND without one.
absl::StatusOr<GridStamp> StampGrid(const std::string& dir);

// Writes the image of `world` (read from a grid file stamped `stamp`, `source` its note) to
// `path`, through a temporary file and a rename.
absl::Status SaveGridImage(const World& world, const std::string& source, const GridStamp& stamp,
                           const std::string& path);

// Maps the image at `path` if it was made from a grid stamped `stamp`. Errors: NOT_FOUND (no
// image), FAILED_PRECONDITION (made from another grid file, or another image version),
// DATA_LOSS (damaged: cut off, out of bounds, or its content does not hash to its id).
absl::StatusOr<LoadedWorld> MapGridImage(const std::string& path, const GridStamp& stamp);

// Bytes of `world`'s mapped image resident in this process now (its pages mapped, from
// /proc/self/smaps), and the image's size (both 0 when its grid was read whole).
struct MappedBytes {
  std::uint64_t resident = 0;
  std::uint64_t mapped = 0;
};
MappedBytes MappedResidence(const World& world);
// Hands every resident page of `world`'s mapped image back: what walks read next comes back from
// the page cache (a minor fault), not from disk. Nothing when its grid was read whole (false).
bool ReleaseMappedPages(const World& world);

// `dir`'s grid, mapped from the image at `image_path`: the image when it matches the grid file,
// else the grid file parsed (LoadWorld), its image written and mapped. `note` (may be null) says
// which, or why the world is served from the parse (an image that could not be written).
absl::StatusOr<LoadedWorld> LoadWorldMapped(const std::string& dir, const std::string& image_path,
                                            std::string* note);

}  // namespace walk::nav
