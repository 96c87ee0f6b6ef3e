// Assembling a world one continent at a time: a continent built on its own (from a mesh, a
// MovingAI map, the demo generator) is put into a world under the id the caller names, and every
// other continent stays exactly as it was (its fields, so its bytes in the grid file and its
// content id). This is how a route planner's world of several continents is built, and how one
// continent is rebuilt without re-asking the others' walks (docs/formats.md, "Several continents").
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "nav/grid/grid.h"

namespace walk::nav {

// Puts the only continent of `piece` into `world` as continent `id`, with `piece`'s zones and
// ground layer records, and sets the content ids. Zone ids are the world's: a zone of `piece`
// whose id the world gives another zone (another name or levels) takes the lowest free id, its
// surfaces with it, and *renumbered (when given) says so ("zone 1 \"Kestrel Downs\" is zone 5").
// Errors (nothing changed): INVALID_ARGUMENT when `piece` does not hold exactly one continent;
// FAILED_PRECONDITION when the column sizes differ (naming both), when `world` already has
// continent `id` and `replace` is false, or when no zone id is free.
absl::Status PutContinent(World& world, World piece, ContinentId id, bool replace,
                          std::vector<std::string>* renumbered = nullptr);

// The grid file's note of an assembled world: its continents' own notes, by id.
std::string AssembledNote(const World& world);

}  // namespace walk::nav
