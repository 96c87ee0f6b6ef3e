// Live worlds on disk: the folders walkd loads them from. A folder holds `map.map` (MovingAI form,
// docs/live_grids.md) and optionally `layers.txt` (the layer file); it is named by the world.
// Worlds given by --live-worlds are read from there; worlds created over LiveService.CreateWorld
// are written to <data-dir>/live in their created state, so a restart brings them back as they
// were created (blocker updates since are not kept).
//
// A created world's folder is written under a temporary name beginning with '.', its files
// flushed, then renamed into place: an interrupted create leaves no folder, or the whole one. A
// drop renames the folder to a '.' name before removing it. Folders whose name begins with '.'
// are leftovers of an interruption and are removed when walkd starts.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nav/live/world_set.h"

namespace walk::server {

// The world in `folder` (map.map and optional layers.txt), read whole. Errors: NOT_FOUND for a
// missing map.map, RESOURCE_EXHAUSTED over nav::kMaxMovingAiFileBytes, naming the file.
absl::StatusOr<nav::live::LiveWorldSource> ReadLiveWorldFolder(const std::string& folder);

// Every world folder under `dir` (subfolders holding map.map), by name, read whole. With
// `clean_leftovers`, folders whose name begins with '.' are removed first. A missing `dir` has no
// worlds.
absl::StatusOr<std::vector<std::pair<std::string, nav::live::LiveWorldSource>>> ReadLiveWorlds(
    const std::string& dir, bool clean_leftovers);

// Writes world `name` into `dir`/name atomically (see above). `source`'s cell size and origin
// become the layer file's first lines. Errors: INTERNAL naming the path that failed.
absl::Status WriteCreatedWorld(const std::string& dir, const std::string& name,
                               const nav::live::LiveWorldSource& source);

// Removes `dir`/name (renamed away first). A missing folder is not an error.
absl::Status RemoveCreatedWorld(const std::string& dir, const std::string& name);

}  // namespace walk::server
