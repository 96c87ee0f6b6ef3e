#include "nav/grid/world_assembly.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "nav/grid/grid_format.h"

namespace walk::nav {
namespace {

// The zones of `piece` added to `zones` (sorted by id). A zone whose id `zones` gives another
// zone takes the lowest free id, and the surfaces of `c` (piece's continent) follow it.
absl::Status MergeZones(const std::vector<Zone>& piece, Continent& c, std::vector<Zone>* zones,
                        std::vector<std::string>* renumbered) {
  std::vector<std::uint16_t> new_id(65536);
  for (std::uint32_t z = 0; z < new_id.size(); ++z) new_id[z] = static_cast<std::uint16_t>(z);
  auto taken = [&](std::uint16_t id) {
    return std::any_of(zones->begin(), zones->end(), [&](const Zone& z) { return z.id == id; }) ||
           std::any_of(piece.begin(), piece.end(), [&](const Zone& z) { return z.id == id; });
  };
  bool moved = false;
  for (Zone zone : piece) {
    auto at =
        std::find_if(zones->begin(), zones->end(), [&](const Zone& z) { return z.id == zone.id; });
    if (at != zones->end() && at->name == zone.name && at->min_level == zone.min_level &&
        at->max_level == zone.max_level) {
      continue;  // the same zone
    }
    if (at != zones->end()) {
      std::uint32_t free = 1;
      while (free < 65536 && taken(static_cast<std::uint16_t>(free))) ++free;
      if (free == 65536) return absl::FailedPreconditionError("zones: no zone id is free");
      if (renumbered != nullptr) {
        renumbered->push_back(
            absl::StrCat("zone ", zone.id, " \"", zone.name, "\" is zone ", free));
      }
      new_id[zone.id] = static_cast<std::uint16_t>(free);
      zone.id = static_cast<std::uint16_t>(free);
      moved = true;
    }
    zones->insert(std::lower_bound(zones->begin(), zones->end(), zone.id,
                                   [](const Zone& z, std::uint16_t id) { return z.id < id; }),
                  zone);
  }
  if (moved) {
    for (std::uint16_t& zone : c.zone) zone = new_id[zone];
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status PutContinent(World& world, World piece, ContinentId id, bool replace,
                          std::vector<std::string>* renumbered) {
  if (piece.continents.size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("a continent to put holds ", piece.continents.size(), " continents, not 1"));
  }
  if (!world.continents.empty() && world.column_yards != piece.column_yards) {
    return absl::FailedPreconditionError(
        absl::StrCat("column size: the world's columns are ", world.column_yards,
                     " yards, the continent's ", piece.column_yards, " yards"));
  }
  auto at = std::lower_bound(world.continents.begin(), world.continents.end(), id,
                             [](const Continent& c, ContinentId i) { return c.id < i; });
  const bool present = at != world.continents.end() && at->id == id;
  if (present && !replace) {
    return absl::FailedPreconditionError(absl::StrCat("the world already has continent ", id, " (",
                                                      at->source, "): --replace replaces it"));
  }
  if (!present && world.continents.size() >= kMaxContinents) {
    return absl::FailedPreconditionError(
        absl::StrCat("the world holds ", kMaxContinents, " continents, the most it may"));
  }
  std::vector<Zone> zones = world.zones;
  if (absl::Status merged = MergeZones(piece.zones, piece.continents.front(), &zones, renumbered);
      !merged.ok()) {
    return merged;
  }
  world.zones = std::move(zones);
  for (WorldLayer& layer : piece.layers) {
    layer.summary = absl::StrCat("continent ", id, ": ", layer.summary);
    const bool known = std::any_of(world.layers.begin(), world.layers.end(), [&](auto& l) {
      return l.name == layer.name && l.summary == layer.summary;
    });
    if (!known && world.layers.size() < 64) world.layers.push_back(std::move(layer));
  }
  world.column_yards = piece.column_yards;
  Continent& c = piece.continents.front();
  c.id = id;
  if (present) {
    *at = std::move(c);
  } else {
    world.continents.insert(at, std::move(c));
  }
  AssignContentIds(world);
  return absl::OkStatus();
}

std::string AssembledNote(const World& world) {
  if (world.continents.size() == 1) return world.continents.front().source;
  std::string note = "continents";
  for (const Continent& c : world.continents) {
    absl::StrAppend(&note, c.id == world.continents.front().id ? " " : ", ", c.id, ": ", c.source);
  }
  return note;
}

}  // namespace walk::nav
