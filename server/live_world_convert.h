// LiveService's world lifecycle messages (CreateWorld, ResetWorld, DropWorld, ListWorlds, Info's
// live worlds) and nav/live's world set (nav/live/world_set.h).
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "nav/live/world_set.h"
#include "walk/v1/walk.pb.h"

namespace walk::server {

// What CreateWorld asks for: the map as text (a MovingAI header is added when the text has none:
// its width from the first row, its height from the rows) or as a cell array, the layer file, the
// cell size and the origin. INVALID_ARGUMENT naming the field: no map, a cell array whose values
// do not fill width x height, a value that is not a map's (naming its index and cell).
absl::StatusOr<nav::live::LiveWorldSource> ToLiveWorldSource(
    const walk::v1::CreateWorldRequest& request);

// A world as ListWorlds, Info and the lifecycle replies describe it. `fallbacks_waiting` is the
// fallback queue's count for it.
void ToProto(const nav::live::LiveWorldEntry& entry, std::uint64_t fallbacks_waiting,
             walk::v1::LiveWorldInfo* out);

}  // namespace walk::server
