// A folder built beside the place it is meant for and renamed into place only once it is whole:
// a new store an ingest fills (`<store>.ingest-tmp`), a store pack an export writes
// (`<pack>.export-tmp`). A process killed while building leaves nothing at the target, only the
// staging folder, which says what it was (a marker file inside it holds the builder's pid and
// the command that builds it again). The next build of the same target clears a staging folder
// whose builder is gone; everything else that finds one names it and the command that mends it
// (StagedLeftover). docs/store.md, "Interrupted ingests and exports".
#pragma once

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace walk::store {

// The staging folders' suffixes: a new store an ingest builds, a pack an export writes.
inline constexpr char kIngestStagingSuffix[] = ".ingest-tmp";
inline constexpr char kExportStagingSuffix[] = ".export-tmp";

// The file inside a staging folder that says who builds it: "pid N" and "command C", a line each.
// Its builder holds an flock on it while it builds.
inline constexpr char kStagingMarkerName[] = "STAGING";

// Where `target` is staged with `suffix`: `target` without trailing slashes, then `suffix`.
std::string StagingPathOf(const std::string& target, const std::string& suffix);

// A staging folder being built. Not thread-safe; one build a target at a time (a second is
// refused while the first runs).
class StagedDir {
 public:
  // Starts building `target` (which must not exist, or be an empty directory, when Commit renames
  // into it) in its staging folder, creating the folders above it. `command` is what builds it
  // again, for the messages that find it left over. A staging folder of the same target whose
  // builder is gone is removed first (cleared_leftover()). Errors: INVALID_ARGUMENT (`target`
  // names no folder: empty, `.`, `..`, `/`), FAILED_PRECONDITION (another process is building
  // it now, naming its pid; the folder cannot be made or cleared).
  static absl::StatusOr<std::unique_ptr<StagedDir>> Begin(const std::string& target,
                                                          const std::string& suffix,
                                                          const std::string& command);

  // Removes the staging folder (best effort) unless Commit succeeded.
  ~StagedDir();
  StagedDir(const StagedDir&) = delete;
  StagedDir& operator=(const StagedDir&) = delete;

  // The folder to build in.
  const std::string& path() const { return path_; }
  // True when a leftover staging folder of a dead build was removed by Begin.
  bool cleared_leftover() const { return cleared_leftover_; }

  // Renames the staging folder into place, once everything in it is written and closed: syncs
  // it, removes the marker, renames it onto the target (absent, or an empty directory) and syncs
  // the folder above, so the target appears whole or not at all, also after a power cut.
  // FAILED_PRECONDITION when the target is there and not empty, or cannot be renamed onto (a
  // mount point, another file system), naming both folders.
  absl::Status Commit();

 private:
  StagedDir(std::string target, std::string path, int marker_fd)
      : target_(std::move(target)), path_(std::move(path)), marker_fd_(marker_fd) {}

  std::string target_;
  std::string path_;
  int marker_fd_ = -1;  // the marker, flock'ed while building
  bool committed_ = false;
  bool cleared_leftover_ = false;
};

// What the staging folder `staging` is, when there is one: FAILED_PRECONDITION naming it, `what`
// it is ("the half store of an interrupted ingest"), its builder's command, and what to do: wait
// for a builder still running, else run that command again (which clears it) or remove it (the
// exact `rm` command). OK when there is no such folder.
absl::Status StagedLeftover(const std::string& staging, const std::string& what);

// Syncs the directory `dir`, so the names made, removed or renamed in it survive a power cut.
// INTERNAL naming it when it cannot be opened or synced.
absl::Status SyncDir(const std::string& dir);

// `path` quoted for a POSIX shell when it needs to be (single quotes), as the commands messages
// give are meant to be pasted.
std::string ShellQuoted(const std::string& path);

}  // namespace walk::store
