#include "nav/grid/grid.h"

#include <algorithm>
#include <cstdio>

#include "nav/grid/content_hash.h"

namespace walk::nav {

std::uint64_t Continent::CountColumns() const {
  std::uint64_t columns = 0;
  for (const Tile& tile : tiles) {
    for (std::uint32_t c = 0; c < kColumnsPerTile; ++c) {
      columns += tile.first_surface[c + 1] > tile.first_surface[c] ? 1 : 0;
    }
  }
  return columns;
}

std::uint32_t Continent::MaxFloors() const {
  std::uint32_t most = 0;
  for (const Tile& tile : tiles) {
    for (std::uint32_t c = 0; c < kColumnsPerTile; ++c) {
      most = std::max(most, tile.first_surface[c + 1] - tile.first_surface[c]);
    }
  }
  return most;
}

std::uint64_t Continent::MemoryBytes() const {
  std::uint64_t bytes =
      tile_index.size() * sizeof(std::uint32_t) + region.size() * 4 + region_size.size() * 4;
  for (const Tile& tile : tiles) bytes += tile.first_surface.size() * sizeof(SurfaceId);
  const std::uint64_t per_surface = sizeof(float) * 2 + 1 + 2 + 1 + sizeof(LinkSet) + 2 + 2 + 1;
  return bytes + per_surface * surface_count();
}

void Continent::LiftsFrom(SurfaceId from, const LiftRide** first, const LiftRide** end) const {
  auto range =
      std::equal_range(lifts.begin(), lifts.end(), LiftRide{from, 0, 0.0f},
                       [](const LiftRide& a, const LiftRide& b) { return a.from < b.from; });
  *first = lifts.data() + (range.first - lifts.begin());
  *end = lifts.data() + (range.second - lifts.begin());
}

const Zone* World::FindZone(std::uint16_t id) const {
  for (const Zone& zone : zones) {
    if (zone.id == id) return &zone;
  }
  return nullptr;
}

const Continent* World::FindContinent(ContinentId id) const {
  for (const Continent& continent : continents) {
    if (continent.id == id) return &continent;
  }
  return nullptr;
}

std::uint64_t World::MemoryBytes() const {
  std::uint64_t bytes = 0;
  for (const Continent& continent : continents) bytes += continent.MemoryBytes();
  return bytes;
}

std::uint64_t ComputeContentId(const World& world) {
  ContentHasher hasher;
  hasher.AddString("walkd-grid-content-v1");
  hasher.AddDouble(world.column_yards);
  hasher.AddU64(world.continents.size());
  for (const Continent& c : world.continents) {
    hasher.AddU64(c.id);
    hasher.AddU64(c.tiles_x);
    hasher.AddU64(c.tiles_y);
    hasher.AddU64(c.width_columns);
    hasher.AddU64(c.height_columns);
    hasher.AddU64(c.tiles.size());
    for (const Tile& tile : c.tiles) {
      hasher.AddU64(tile.tile_x);
      hasher.AddU64(tile.tile_y);
      hasher.AddArray(tile.first_surface);
    }
    hasher.AddArray(c.height_yards);
    hasher.AddArray(c.headroom_yards);
    hasher.AddArray(c.flags);
    hasher.AddArray(c.zone);
    hasher.AddArray(c.marks);
    hasher.AddArray(c.links);
    hasher.AddU64(c.lifts.size());
    for (const LiftRide& lift : c.lifts) {
      hasher.AddU64(lift.from);
      hasher.AddU64(lift.to);
      hasher.AddDouble(lift.shaft_yards);
    }
  }
  hasher.AddU64(world.zones.size());
  for (const Zone& zone : world.zones) {
    hasher.AddU64(zone.id);  // names and the top of the range decide no answer
    hasher.AddU64(zone.min_level);
  }
  return hasher.Finish();
}

std::string FormatId(std::uint64_t id) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(id));
  return text;
}

}  // namespace walk::nav
