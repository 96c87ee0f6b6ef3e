// walkd's embedded default world: generated deterministically from a seed, so `scripts/run`
// needs no data. One continent of one tile (256 x 256 columns of ~2.08 yards): open ground,
// woods, walled houses with doors (indoor floors), a lake, and a river crossed by a bridge whose
// deck stands over the river bed (two surfaces in one column).
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "nav/grid.h"

namespace walk::nav {

inline constexpr std::uint64_t kDefaultWorldSeed = 20261130;
inline constexpr char kDefaultWorldName[] = "default";

// The same seed always gives the same world, byte for byte.
absl::StatusOr<World> GenerateDefaultWorld(std::uint64_t seed = kDefaultWorldSeed);

}  // namespace walk::nav
