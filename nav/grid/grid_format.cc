#include "nav/grid/grid_format.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "nav/grid/binary_io.h"
#include "nav/grid/grid_builder.h"

namespace walk::nav {
namespace {

constexpr char kMagic[8] = {'W', 'A', 'L', 'K', 'G', 'R', 'I', 'D'};

using Writer = BinaryWriter;
using Reader = BinaryReader;

absl::Status Damaged(const std::string& path, const std::string& what) {
  return absl::DataLossError(absl::StrCat(path, ": damaged grid file (", what, ")"));
}

}  // namespace

bool HasGrid(const std::string& dir) {
  std::error_code ec;
  return std::filesystem::is_regular_file(std::filesystem::path(dir) / kGridFileName, ec);
}

absl::Status SaveWorld(const World& world, const std::string& source, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot create ", dir, ": ", ec.message()));
  const std::filesystem::path path = std::filesystem::path(dir) / kGridFileName;
  const std::filesystem::path temp = path.string() + ".tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) return absl::InternalError(absl::StrCat("cannot write ", temp.string()));
    Writer w(out);
    out.write(kMagic, sizeof kMagic);
    w.Put<std::uint32_t>(kGridFormatVersion);
    w.Put<std::uint64_t>(world.content_id);
    w.Put<double>(world.column_yards);
    w.PutString(source);
    w.Put<std::uint32_t>(static_cast<std::uint32_t>(world.continents.size()));
    for (const Continent& c : world.continents) {
      w.Put<std::uint32_t>(c.id);
      w.Put<std::uint32_t>(c.tiles_x);
      w.Put<std::uint32_t>(c.tiles_y);
      w.Put<std::uint32_t>(c.width_columns);
      w.Put<std::uint32_t>(c.height_columns);
      w.Put<std::uint32_t>(static_cast<std::uint32_t>(c.tiles.size()));
      w.Put<std::uint32_t>(c.surface_count());
      for (const Tile& tile : c.tiles) {
        w.Put<std::uint32_t>(tile.tile_x);
        w.Put<std::uint32_t>(tile.tile_y);
        w.PutArray(tile.first_surface);
      }
      w.PutArray(c.height_yards);
      w.PutArray(c.headroom_yards);
      w.PutArray(c.flags);
      w.PutArray(c.zone);
      w.PutArray(c.marks);
      w.PutArray(c.links);
      w.Put<std::uint32_t>(static_cast<std::uint32_t>(c.lifts.size()));
      for (const LiftRide& lift : c.lifts) {
        w.Put<std::uint32_t>(lift.from);
        w.Put<std::uint32_t>(lift.to);
        w.Put<float>(lift.shaft_yards);
      }
    }
    w.Put<std::uint32_t>(static_cast<std::uint32_t>(world.zones.size()));
    for (const Zone& zone : world.zones) {
      w.Put<std::uint16_t>(zone.id);
      w.Put<std::uint16_t>(zone.min_level);
      w.Put<std::uint16_t>(zone.max_level);
      w.PutString(zone.name);
    }
    out.flush();
    if (!out) return absl::InternalError(absl::StrCat("write failed: ", temp.string()));
  }
  std::filesystem::rename(temp, path, ec);
  if (ec)
    return absl::InternalError(
        absl::StrCat("cannot rename to ", path.string(), ": ", ec.message()));
  return absl::OkStatus();
}

absl::StatusOr<LoadedWorld> LoadWorld(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / kGridFileName).string();
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": no grid file"));
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Reader r(bytes);

  char magic[8];
  if (bytes.size() < sizeof magic || std::memcmp(bytes.data(), kMagic, sizeof magic) != 0) {
    return Damaged(path, "not a walkd grid: bad magic");
  }
  std::uint64_t skipped;
  r.Get(&skipped);  // the magic, already checked
  std::uint32_t version;
  if (!r.Get(&version)) return Damaged(path, "truncated header");
  if (version != kGridFormatVersion) {
    return absl::FailedPreconditionError(
        absl::StrCat(path, ": grid format ", version, ", this walkd reads ", kGridFormatVersion));
  }
  LoadedWorld loaded;
  World& world = loaded.world;
  std::uint32_t continent_count;
  if (!r.Get(&world.content_id) || !r.Get(&world.column_yards) || !r.GetString(&loaded.source) ||
      !r.Get(&continent_count)) {
    return Damaged(path, "truncated header");
  }
  if (!std::isfinite(world.column_yards) || world.column_yards <= 0) {
    return Damaged(path, "column size is not a positive number");
  }
  for (std::uint32_t k = 0; k < continent_count; ++k) {
    Continent c;
    std::uint32_t tile_count, surface_count;
    if (!r.Get(&c.id) || !r.Get(&c.tiles_x) || !r.Get(&c.tiles_y) || !r.Get(&c.width_columns) ||
        !r.Get(&c.height_columns) || !r.Get(&tile_count) || !r.Get(&surface_count)) {
      return Damaged(path, "truncated continent header");
    }
    if (c.tiles_x == 0 || c.tiles_y == 0 || c.tiles_x > 256 || c.tiles_y > 256 ||
        c.width_columns > c.tiles_x * kTileColumns || c.height_columns > c.tiles_y * kTileColumns ||
        tile_count > c.tiles_x * c.tiles_y) {
      return Damaged(path, absl::StrCat("continent ", c.id, " has impossible sizes"));
    }
    c.tile_index.assign(static_cast<std::size_t>(c.tiles_x) * c.tiles_y, kInvalidId);
    SurfaceId expected_first = 0;
    for (std::uint32_t t = 0; t < tile_count; ++t) {
      Tile tile;
      if (!r.Get(&tile.tile_x) || !r.Get(&tile.tile_y) ||
          !r.GetArray(kColumnsPerTile + 1, &tile.first_surface)) {
        return Damaged(path, "truncated tile");
      }
      if (tile.tile_x >= c.tiles_x || tile.tile_y >= c.tiles_y ||
          c.tile_index[tile.tile_y * c.tiles_x + tile.tile_x] != kInvalidId) {
        return Damaged(path, "tile out of place or repeated");
      }
      if (tile.first_surface[0] != expected_first)
        return Damaged(path, "tile surfaces out of order");
      for (std::uint32_t col = 0; col < kColumnsPerTile; ++col) {
        const std::uint32_t count = tile.first_surface[col + 1] - tile.first_surface[col];
        if (tile.first_surface[col + 1] < tile.first_surface[col] || count > kMaxFloors) {
          return Damaged(path, "column stack out of order or too tall");
        }
      }
      expected_first = tile.first_surface[kColumnsPerTile];
      if (expected_first > surface_count) return Damaged(path, "more surfaces than declared");
      c.tile_index[tile.tile_y * c.tiles_x + tile.tile_x] =
          static_cast<std::uint32_t>(c.tiles.size());
      c.tiles.push_back(std::move(tile));
    }
    if (expected_first != surface_count) return Damaged(path, "surface count mismatch");
    if (!r.GetArray(surface_count, &c.height_yards) ||
        !r.GetArray(surface_count, &c.headroom_yards) || !r.GetArray(surface_count, &c.flags) ||
        !r.GetArray(surface_count, &c.zone) || !r.GetArray(surface_count, &c.marks) ||
        !r.GetArray(surface_count, &c.links)) {
      return Damaged(path, "truncated surfaces");
    }
    // Derived per-surface arrays: column and level.
    c.column_x.resize(surface_count);
    c.column_y.resize(surface_count);
    c.level.resize(surface_count);
    for (const Tile& tile : c.tiles) {
      for (std::uint32_t col = 0; col < kColumnsPerTile; ++col) {
        for (SurfaceId s = tile.first_surface[col]; s < tile.first_surface[col + 1]; ++s) {
          c.column_x[s] =
              static_cast<std::uint16_t>(tile.tile_x * kTileColumns + col % kTileColumns);
          c.column_y[s] =
              static_cast<std::uint16_t>(tile.tile_y * kTileColumns + col / kTileColumns);
          c.level[s] = static_cast<std::uint8_t>(s - tile.first_surface[col]);
        }
      }
    }
    // Every link must land on a surface that exists.
    for (SurfaceId s = 0; s < surface_count; ++s) {
      if (!std::isfinite(c.height_yards[s])) return Damaged(path, "non-finite height");
      for (int d = 0; d < kDirectionCount; ++d) {
        const Link link = c.links[s][d];
        if (!HasLink(link)) continue;
        const std::int64_t nx = c.column_x[s] + kDirectionDx[d];
        const std::int64_t ny = c.column_y[s] + kDirectionDy[d];
        if (!c.OnMap(nx, ny)) return Damaged(path, "a link leaves the map");
        SurfaceId first, end;
        c.ColumnSurfaces(static_cast<std::uint32_t>(nx), static_cast<std::uint32_t>(ny), &first,
                         &end);
        if (first + LinkLevel(link) >= end) return Damaged(path, "a link leads to no surface");
      }
    }
    std::uint32_t lift_count;
    if (!r.Get(&lift_count) || lift_count > surface_count * 2u + 16u)
      return Damaged(path, "truncated lifts");
    for (std::uint32_t i = 0; i < lift_count; ++i) {
      LiftRide lift;
      if (!r.Get(&lift.from) || !r.Get(&lift.to) || !r.Get(&lift.shaft_yards)) {
        return Damaged(path, "truncated lifts");
      }
      if (lift.from >= surface_count || lift.to >= surface_count || lift.from == lift.to ||
          c.column_x[lift.from] != c.column_x[lift.to] ||
          c.column_y[lift.from] != c.column_y[lift.to] || !(c.marks[lift.from] & kMarkLift) ||
          !std::isfinite(lift.shaft_yards) || lift.shaft_yards < 0 ||
          (!c.lifts.empty() && c.lifts.back().from > lift.from)) {
        return Damaged(path, "a lift ride is out of place");
      }
      c.lifts.push_back(lift);
    }
    FinishContinent(c);
    world.continents.push_back(std::move(c));
  }
  std::uint32_t zone_count;
  if (!r.Get(&zone_count) || zone_count > 65535) return Damaged(path, "truncated zones");
  for (std::uint32_t i = 0; i < zone_count; ++i) {
    Zone zone;
    if (!r.Get(&zone.id) || !r.Get(&zone.min_level) || !r.Get(&zone.max_level) ||
        !r.GetString(&zone.name)) {
      return Damaged(path, "truncated zones");
    }
    if (zone.id == 0 || (!world.zones.empty() && world.zones.back().id >= zone.id)) {
      return Damaged(path, "zone ids out of order");
    }
    world.zones.push_back(std::move(zone));
  }
  if (!r.AtEnd()) return Damaged(path, "trailing bytes");
  for (std::size_t k = 1; k < world.continents.size(); ++k) {
    if (world.continents[k - 1].id >= world.continents[k].id)
      return Damaged(path, "continent ids out of order");
  }
  if (ComputeContentId(world) != world.content_id) {
    return Damaged(path, "content does not match its content id");
  }
  return loaded;
}

}  // namespace walk::nav
