// What a world folder's files look like: each file's path, size, modification time and inode.
// walkd records a world's stamp when it loads the world and reloads the world only when the
// stamp has changed (docs/operations.md, "Reloading worlds"). A file replaced by a rename (as
// walkgrid writes) has a new inode even when its size and time match; files named `*.tmp` are
// left out (a writer's half-written file, renamed into place when done).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace walk::server {

struct FolderStamp {
  struct File {
    std::string path;  // relative to the folder, '/'-separated
    std::uint64_t bytes = 0;
    std::int64_t modified_ns = 0;  // since the epoch
    std::uint64_t inode = 0;
    bool operator==(const File&) const = default;
  };
  std::vector<File> files;  // by path, every regular file under the folder (subfolders too)
  bool operator==(const FolderStamp&) const = default;
};

// The stamp of `dir` now. Errors: NOT_FOUND when `dir` is not a folder (it was removed).
absl::StatusOr<FolderStamp> StampFolder(const std::string& dir);

// The files that differ between `before` and `after` (added, removed or changed), by path, as
// "grid.walkgrid, graph.walkgraph (removed)": for the log and the reload's reply.
std::string ChangedFiles(const FolderStamp& before, const FolderStamp& after);

}  // namespace walk::server
