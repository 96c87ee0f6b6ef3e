#include "nav/grid/world_assembly.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "nav/grid/grid_format.h"

namespace walk::nav {
namespace {

// The zones of `piece` added to `zones` (sorted by id); a zone id both hold must be one zone.
absl::Status MergeZones(const std::vector<Zone>& piece, std::vector<Zone>* zones) {
  for (const Zone& zone : piece) {
    auto at = std::lower_bound(zones->begin(), zones->end(), zone.id,
                               [](const Zone& z, std::uint16_t id) { return z.id < id; });
    if (at == zones->end() || at->id != zone.id) {
      zones->insert(at, zone);
    } else if (at->name != zone.name || at->min_level != zone.min_level ||
               at->max_level != zone.max_level) {
      return absl::FailedPreconditionError(
          absl::StrCat("zone ", zone.id, ": the world's is \"", at->name, "\" (levels ",
                       at->min_level, "-", at->max_level, "), the continent's \"", zone.name,
                       "\" (levels ", zone.min_level, "-", zone.max_level, ")"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status PutContinent(World& world, World piece, ContinentId id, bool replace) {
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
  if (absl::Status merged = MergeZones(piece.zones, &zones); !merged.ok()) return merged;
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
