// LiveWorldSet: the live worlds a server holds, by name. Worlds loaded from folders at start stay
// for the process's life; worlds created over the server's API come and go while the others serve,
// within limits on their count, their cells (each and all together) and their source's bytes.
//
// A world is handed out as a shared_ptr: a call that found it keeps it alive to its end, so
// dropping a world only takes it out of the set, and its memory goes when the last call on it
// finishes. A reset builds the world again from the source it was made from and swaps it in; its
// revisions count on from the old world's, so no answer keyed by an old revision is mistaken for
// a new one. Building runs outside the set's lock, with the name and cells reserved, so a large
// world being built holds up neither the other worlds nor a second create of another name.
//
// Thread safety: every member is safe to call from any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nav/live/live_world.h"
#include "nav/live/world_limits.h"

namespace walk::nav::live {

// What a world is made from: kept, so a reset builds it again.
struct LiveWorldSource {
  std::string map_text;    // MovingAI form (Layers::FromMovingAi's alphabet)
  std::string layer_text;  // the layer file (layer_file.h)
  // World units per cell; 0: the layer file's cell_size line, else 1. A layer file naming
  // another size is INVALID_ARGUMENT.
  double cell_size = 0.0;
  // Cell (0, 0)'s corner; unset: the layer file's origin line, else (0, 0).
  std::optional<WorldPoint> origin;
};

// Where a world came from: a folder at start (cannot be dropped), or a create.
enum class WorldKind : std::uint8_t { kFolder, kCreated };
const char* WorldKindName(WorldKind kind);  // "folder", "created"

// One world of the set, as List, Add, Reset and Drop describe it.
struct LiveWorldEntry {
  std::string name;
  std::shared_ptr<LiveWorld> world;
  WorldKind kind = WorldKind::kCreated;
  std::chrono::steady_clock::time_point since;  // created, loaded or last reset
  std::uint64_t resets = 0;
  std::shared_ptr<const LiveWorldSource> source;
};

// The world `source` describes, with its cell size and origin applied before its layer text.
// Errors: INVALID_ARGUMENT naming `map_text: ...` (the row), `layers: layer line N: ...`, or
// `cell_size`/`origin` when the layer file disagrees with the source's.
absl::StatusOr<std::unique_ptr<LiveWorld>> BuildLiveWorld(const LiveWorldSource& source,
                                                          const LiveWorldOptions& options);

class LiveWorldSet {
 public:
  LiveWorldSet(const LiveWorldLimits& limits, const LiveWorldOptions& options);
  LiveWorldSet(const LiveWorldSet&) = delete;
  LiveWorldSet& operator=(const LiveWorldSet&) = delete;

  // INVALID_ARGUMENT naming `name` unless it is letters, digits, '-', '_' and '.', not empty and
  // not starting with '.' (names become folder names); RESOURCE_EXHAUSTED naming
  // live-max-name-length when it is longer than max_name_length.
  absl::Status CheckName(absl::string_view name) const;
  // Builds `source` as world `name`. kCreated worlds are held to every limit; kFolder worlds
  // (loaded at start) only count toward them. `keep`, when given, runs once the world is built
  // and before anyone can find it (writing it to disk); its error leaves nothing added. Errors:
  // CheckName's, ALREADY_EXISTS for a name in use or being built, RESOURCE_EXHAUSTED naming the
  // flag, BuildLiveWorld's, keep's.
  absl::StatusOr<LiveWorldEntry> Add(
      const std::string& name, LiveWorldSource source, WorldKind kind,
      const std::function<absl::Status(const LiveWorldSource&)>& keep = nullptr);
  // World `name` built again from its source and swapped in. NOT_FOUND when there is none (or it
  // was dropped while it was being built again).
  absl::StatusOr<LiveWorldEntry> Reset(const std::string& name);
  // Takes a created world out of the set. NOT_FOUND, or FAILED_PRECONDITION for a folder world.
  absl::StatusOr<LiveWorldEntry> Drop(const std::string& name);
  // The world named, for one call. INVALID_ARGUMENT for an empty name, NOT_FOUND for none.
  absl::StatusOr<std::shared_ptr<LiveWorld>> Find(const std::string& name) const;
  // Every world, by name.
  std::vector<LiveWorldEntry> List() const;
  std::vector<std::string> Names() const;
  std::size_t size() const;
  // Cells of every world held or being built.
  std::uint64_t cells() const;
  const LiveWorldLimits& limits() const { return limits_; }

 private:
  // Reserves `name` and `cells` for a world about to be built; errors as Add's.
  absl::Status Reserve(const std::string& name, std::uint64_t cells, WorldKind kind);

  const LiveWorldLimits limits_;
  const LiveWorldOptions options_;
  mutable std::mutex mu_;
  std::map<std::string, LiveWorldEntry> worlds_;   // guarded by mu_
  std::map<std::string, std::uint64_t> reserved_;  // guarded by mu_: name -> cells
  std::uint64_t cells_ = 0;                        // guarded by mu_: held and reserved
};

}  // namespace walk::nav::live
