// What a server's live world set accepts (nav/live/world_set.h): kept apart so walkd's options
// can carry it without the world set's headers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace walk::nav::live {

// What the set accepts from a create. The flag names are walkd's (docs/operations.md); a create
// over a limit is RESOURCE_EXHAUSTED, its message starting with the flag's name.
struct LiveWorldLimits {
  std::size_t max_worlds = 64;                // --live-max-worlds: worlds at once, all sources
  std::uint64_t max_world_cells = 4'194'304;  // --live-max-world-cells: 2048 × 2048
  std::uint64_t max_cells = 33'554'432;       // --live-max-cells: all worlds together
  std::uint64_t max_map_bytes = 8u << 20;     // --live-max-map-bytes
  std::uint64_t max_layer_bytes = 4u << 20;   // --live-max-layer-bytes
  std::size_t max_name_length = 64;           // --live-max-name-length
};

}  // namespace walk::nav::live
