#include "nav/grid/grid.h"

#include <algorithm>
#include <cstdio>
#include <type_traits>
#include <vector>

#include "nav/grid/content_hash.h"
#include "nav/grid/world_fields.h"

namespace walk::nav {
namespace {

template <typename T>
std::uint64_t ArrayBytes(const T& values) {
  return values.size() * sizeof(values[0]);
}

// Counts the bytes of a continent's stored arrays (VisitContinentFields); numbers and lift rides
// are not counted.
class MemoryCounter {
 public:
  std::uint64_t bytes() const { return bytes_; }

  template <typename F>
  void Part(GridPart, F&& fields) {
    fields();
  }
  template <typename T>
  void Value(const T&) {}
  template <typename T>
  void Count(const std::vector<T>&) {}
  template <typename T>
  void StoredCount(const std::vector<T>&) {}
  template <typename T>
  void Stored(const T&) {}
  void Note() {}
  void SurfaceCount(const Continent&) {}
  template <typename T, typename F>
  void Items(const std::vector<T>& items, F&& fields) {
    for (const T& item : items) fields(item);
  }
  void TileArray(const Array<SurfaceId>& values) { bytes_ += ArrayBytes(values); }
  template <typename T>
  void SurfaceArray(const Array<T>& values) {
    bytes_ += ArrayBytes(values);
  }

 private:
  std::uint64_t bytes_ = 0;
};

// Hashes the fields that decide answers (VisitWorldFields, VisitContinentFields): every number
// as a u64 (integers) or a double (floats), every count and array with its length. A world's
// continents enter its hash by their content ids: afresh (`recompute`) or as set.
class ContentIdHasher {
 public:
  ContentIdHasher(const char* what, double column_yards, bool recompute = true)
      : column_yards_(column_yards), recompute_(recompute) {
    hasher_.AddString(what);
  }

  std::uint64_t Finish() const { return hasher_.Finish(); }

  template <typename F>
  void Part(GridPart, F&& fields) {
    fields();
  }
  template <typename T>
  void Value(const T& value) {
    if constexpr (std::is_floating_point_v<T>) {
      hasher_.AddDouble(value);
    } else {
      hasher_.AddU64(value);
    }
  }
  template <typename T>
  void Stored(const T&) {}
  void Note() {}
  template <typename T>
  void Count(const std::vector<T>& items) {
    hasher_.AddU64(items.size());
  }
  template <typename T>
  void StoredCount(const std::vector<T>&) {}
  void SurfaceCount(const Continent&) {}
  template <typename T, typename F>
  void Items(const std::vector<T>& items, F&& fields) {
    for (const T& item : items) fields(item);
  }
  template <typename F>
  void Items(const std::vector<Continent>& continents, F&&) {
    for (const Continent& c : continents) {
      hasher_.AddU64(recompute_ ? ComputeContinentContentId(c, column_yards_) : c.content_id);
    }
  }
  void TileArray(const Array<SurfaceId>& values) { hasher_.AddArray(values); }
  template <typename T>
  void SurfaceArray(const Array<T>& values) {
    hasher_.AddArray(values);
  }

 private:
  ContentHasher hasher_;
  double column_yards_;
  bool recompute_;
};

}  // namespace

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
  MemoryCounter counter;
  VisitContinentFields(*this, counter);
  // The arrays derived from the stored ones, never saved.
  const std::uint64_t derived = ArrayBytes(tile_index) + ArrayBytes(column_x) +
                                ArrayBytes(column_y) + ArrayBytes(level) + ArrayBytes(region) +
                                ArrayBytes(region_size) + ArrayBytes(road_blocks);
  return counter.bytes() + derived;
}

void Continent::LiftsFrom(SurfaceId from, const LiftRide** first, const LiftRide** end) const {
  auto range =
      std::equal_range(lifts.begin(), lifts.end(), LiftRide{from, 0, 0.0f},
                       [](const LiftRide& a, const LiftRide& b) { return a.from < b.from; });
  *first = lifts.data() + (range.first - lifts.begin());
  *end = lifts.data() + (range.second - lifts.begin());
}

void Continent::LiftsInto(SurfaceId to, const std::uint32_t** first,
                          const std::uint32_t** end) const {
  // Surface ids and ride indices are both u32: the two comparisons are spelled out.
  const auto lo =
      std::lower_bound(lifts_into.begin(), lifts_into.end(), to,
                       [this](std::uint32_t ride, SurfaceId s) { return lifts[ride].to < s; });
  const auto hi =
      std::upper_bound(lo, lifts_into.end(), to,
                       [this](SurfaceId s, std::uint32_t ride) { return s < lifts[ride].to; });
  *first = lifts_into.data() + (lo - lifts_into.begin());
  *end = lifts_into.data() + (hi - lifts_into.begin());
}

const LiftRide* Continent::FindRide(SurfaceId from, SurfaceId to) const {
  const LiftRide *ride, *end;
  LiftsFrom(from, &ride, &end);
  for (; ride != end; ++ride) {
    if (ride->to == to) return ride;
  }
  return nullptr;
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

std::uint64_t ComputeContinentContentId(const Continent& c, double column_yards) {
  ContentIdHasher hasher("walkd-continent-content-v1", column_yards);
  hasher.Value(column_yards);
  VisitContinentFields(c, hasher);
  return hasher.Finish();
}

std::uint64_t ComputeContentId(const World& world) {
  ContentIdHasher hasher("walkd-grid-content-v2", world.column_yards);
  VisitWorldFields(world, hasher);
  return hasher.Finish();
}

void AssignContentIds(World& world) {
  for (Continent& c : world.continents) {
    c.content_id = ComputeContinentContentId(c, world.column_yards);
  }
  ContentIdHasher hasher("walkd-grid-content-v2", world.column_yards, /*recompute=*/false);
  VisitWorldFields(world, hasher);
  world.content_id = hasher.Finish();
}

std::string FormatId(std::uint64_t id) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(id));
  return text;
}

}  // namespace walk::nav
