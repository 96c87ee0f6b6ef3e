#include "nav/grid/grid_format.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "nav/grid/binary_io.h"
#include "nav/grid/grid_builder.h"
#include "nav/grid/world_fields.h"

namespace walk::nav {
namespace {

constexpr char kMagic[8] = {'W', 'A', 'L', 'K', 'G', 'R', 'I', 'D'};

absl::Status Damaged(const std::string& path, const std::string& what) {
  return absl::DataLossError(absl::StrCat(path, ": damaged grid file (", what, ")"));
}

// Writes a world's fields (VisitWorldFields) as the grid file lays them out.
class GridWriter {
 public:
  GridWriter(std::ofstream& out, const std::string& source) : w_(out), source_(source) {}

  template <typename F>
  void Part(GridPart, F&& fields) {
    fields();
  }
  template <typename T>
  void Value(const T& value) {
    w_.Put<T>(value);
  }
  template <typename T>
  void Stored(const T& value) {
    w_.Put<T>(value);
  }
  void Stored(const std::string& text) { w_.PutString(text); }
  void Note() { w_.PutString(source_); }
  template <typename T>
  void Count(const std::vector<T>& items) {
    w_.Put<std::uint32_t>(static_cast<std::uint32_t>(items.size()));
  }
  template <typename T>
  void StoredCount(const std::vector<T>& items) {
    Count(items);
  }
  void SurfaceCount(const Continent& c) { w_.Put<std::uint32_t>(c.surface_count()); }
  template <typename T, typename F>
  void Items(const std::vector<T>& items, F&& fields) {
    for (const T& item : items) fields(item);
  }
  void TileArray(const Array<SurfaceId>& values) { w_.PutArray(values); }
  template <typename T>
  void SurfaceArray(const Array<T>& values) {
    w_.PutArray(values);
  }

 private:
  BinaryWriter w_;
  const std::string& source_;
};

// Reads a grid file: its magic, version and content id, then the world's fields
// (VisitWorldFields), checking each part once read, then that nothing trails and that the
// content hashes to its id. The first failure ends the read; every later field is skipped.
class GridReader {
 public:
  // Reads the `size` bytes of `in` from where it stands.
  GridReader(const std::string& path, std::istream& in, std::uint64_t size)
      : path_(path), r_(in, size) {}

  // The world the file holds. Errors: as LoadWorld's.
  absl::StatusOr<LoadedWorld> Read();

  // The visitor of VisitWorldFields.
  template <typename F>
  void Part(GridPart part, F&& fields);
  template <typename T>
  void Value(T& value) {
    if (status_.ok() && !r_.Get(&value)) Truncated();
  }
  template <typename T>
  void Stored(T& value) {
    Value(value);
  }
  void Stored(std::string& text) {
    if (status_.ok() && !r_.GetString(&text)) Truncated();
  }
  void Note() { Stored(loaded_.source); }
  template <typename T>
  void Count(std::vector<T>& items);
  template <typename T>
  void StoredCount(std::vector<T>& items) {
    Count(items);
  }
  void SurfaceCount(Continent&) { Value(surface_count_); }
  template <typename T, typename F>
  void Items(std::vector<T>& items, F&& fields);
  void TileArray(Array<SurfaceId>& values) {
    if (status_.ok() && !r_.GetArray(kColumnsPerTile + 1, &values)) Truncated();
  }
  template <typename T>
  void SurfaceArray(Array<T>& values) {
    if (status_.ok() && !r_.GetArray(surface_count_, &values)) Truncated();
  }

 private:
  // The magic, the format version and the content id.
  absl::Status ReadPreamble();
  void Fail(const std::string& what) { status_ = Damaged(path_, what); }
  // Fails naming part_ as truncated: the file ends inside it, or a count in it is impossible.
  void Truncated();
  // Checks a part just read.
  void CheckPart(GridPart part);
  // The column size and the origin are within the limits.
  void CheckHeader();
  // The continent's extent holds its tile count, and the world's extents stay within
  // kMaxWorldTileSlots; sizes its tile index.
  void CheckExtent();
  // The tile lies in the extent, once, and its columns' stacks follow on from the last tile's.
  void CheckTile(const Tile& tile);
  // Every surface's column and level, from the tiles (they are not stored).
  void DeriveColumns();
  // Every height is finite and every link lands on a surface that exists.
  void CheckLinks();
  // The ride joins two landings (both marked), in order of `from` and `to`, its timing sound.
  void CheckLift(const LiftRide& lift);
  // Nothing trails, the continents are in order, the content hashes to its id.
  absl::Status CheckEnd();

  // The most items a count may announce: lift rides are bounded by the surfaces, zones by
  // their 16-bit ids.
  template <typename T>
  std::uint32_t MostItems() const {
    if constexpr (std::is_same_v<T, LiftRide>) {
      return static_cast<std::uint32_t>(
          std::min<std::uint64_t>(std::uint64_t{surface_count_} * 2 + 16, 0xFFFFFFFFu));
    } else if constexpr (std::is_same_v<T, Continent>) {
      return kMaxContinents;
    } else if constexpr (std::is_same_v<T, Zone>) {
      return 65535;
    } else if constexpr (std::is_same_v<T, WorldLayer>) {
      return 64;
    } else {
      return std::numeric_limits<std::uint32_t>::max();
    }
  }
  // Starts reading an item; the continent being read is the one later parts check.
  template <typename T>
  void Begin(T&) {}
  void Begin(Continent& c) { continent_ = &c; }
  // Takes an item just read: checks it and keeps it.
  void Accept(std::vector<Continent>& continents, Continent&& c);
  void Accept(std::vector<Tile>& tiles, Tile&& tile);
  void Accept(std::vector<LiftRide>& lifts, LiftRide&& lift);
  void Accept(std::vector<Zone>& zones, Zone&& zone);
  void Accept(std::vector<WorldLayer>& layers, WorldLayer&& layer) {
    layers.push_back(std::move(layer));
  }

  const std::string& path_;
  StreamReader r_;
  absl::Status status_;
  LoadedWorld loaded_;
  GridPart part_ = GridPart::kHeader;
  // The count last read: of the items that follow.
  std::uint32_t pending_count_ = 0;
  // The continent being read, its declared surface count, and the first surface its next tile
  // must start at.
  Continent* continent_ = nullptr;
  std::uint32_t surface_count_ = 0;
  SurfaceId expected_first_ = 0;
  // The tiles of the extents of the continents read so far (kMaxWorldTileSlots).
  std::uint64_t tile_slots_ = 0;
};

absl::StatusOr<LoadedWorld> GridReader::Read() {
  if (absl::Status status = ReadPreamble(); !status.ok()) return status;
  VisitWorldFields(loaded_.world, *this);
  if (!status_.ok()) return status_;
  if (absl::Status status = CheckEnd(); !status.ok()) return status;
  return std::move(loaded_);
}

absl::Status GridReader::ReadPreamble() {
  char magic[8];
  if (!r_.Get(&magic) || std::memcmp(magic, kMagic, sizeof magic) != 0) {
    return Damaged(path_, "not a walkd grid: bad magic");
  }
  std::uint32_t version;
  if (!r_.Get(&version)) return Damaged(path_, "truncated header");
  if (version != kGridFormatVersion) {
    return absl::FailedPreconditionError(
        absl::StrCat(path_, ": grid format ", version, ", this walkd reads ", kGridFormatVersion));
  }
  if (!r_.Get(&loaded_.world.content_id)) return Damaged(path_, "truncated header");
  return absl::OkStatus();
}

// How messages name a part of the file.
const char* PartName(GridPart part) {
  switch (part) {
    case GridPart::kHeader:
      return "header";
    case GridPart::kContinentHeader:
      return "continent header";
    case GridPart::kTiles:
      return "tile";
    case GridPart::kSurfaces:
      return "surfaces";
    case GridPart::kLifts:
      return "lifts";
    case GridPart::kZones:
      return "zones";
    case GridPart::kLayers:
      return "layers";
  }
  return "part";
}

void GridReader::Truncated() { Fail(absl::StrCat("truncated ", PartName(part_))); }

template <typename F>
void GridReader::Part(GridPart part, F&& fields) {
  if (!status_.ok()) return;
  part_ = part;
  fields();
  if (status_.ok()) CheckPart(part);
}

template <typename T>
void GridReader::Count(std::vector<T>&) {
  if (!status_.ok()) return;
  if (!r_.Get(&pending_count_)) return Truncated();
  if (pending_count_ > MostItems<T>()) {
    Fail(absl::StrCat(PartName(part_), ": a count of ", pending_count_, ", more than the ",
                      MostItems<T>(), " it may hold"));
  }
}

template <typename T, typename F>
void GridReader::Items(std::vector<T>& items, F&& fields) {
  const std::uint32_t count = pending_count_;
  for (std::uint32_t i = 0; i < count && status_.ok(); ++i) {
    T item;
    Begin(item);
    fields(item);
    if (status_.ok()) Accept(items, std::move(item));
  }
}

void GridReader::CheckPart(GridPart part) {
  switch (part) {
    case GridPart::kHeader:
      return CheckHeader();
    case GridPart::kContinentHeader:
      return CheckExtent();
    case GridPart::kTiles:
      if (expected_first_ != surface_count_) Fail("surface count mismatch");
      return;
    case GridPart::kSurfaces:
      DeriveColumns();
      return CheckLinks();
    case GridPart::kLifts:
    case GridPart::kZones:
    case GridPart::kLayers:
      return;
  }
}

void GridReader::CheckHeader() {
  const World& world = loaded_.world;
  if (!(world.column_yards >= kMinColumnYards && world.column_yards <= kMaxColumnYards)) {
    return Fail(absl::StrCat("column size ", world.column_yards, " yards is not in ",
                             kMinColumnYards, " .. ", kMaxColumnYards));
  }
}

void GridReader::CheckExtent() {
  Continent& c = *continent_;
  const auto far = [](std::int64_t origin) {
    return origin < -kMaxOriginColumns || origin > kMaxOriginColumns;
  };
  if (far(c.origin_column_x) || far(c.origin_column_y)) {
    return Fail(absl::StrCat("continent ", c.id, "'s origin column ", c.origin_column_x, ", ",
                             c.origin_column_y, " lies beyond +-", kMaxOriginColumns));
  }
  const std::uint32_t tile_count = pending_count_;
  if (c.tiles_x == 0 || c.tiles_y == 0 || c.tiles_x > 256 || c.tiles_y > 256 ||
      c.width_columns > c.tiles_x * kTileColumns || c.height_columns > c.tiles_y * kTileColumns ||
      tile_count > c.tiles_x * c.tiles_y) {
    return Fail(absl::StrCat("continent ", c.id, " has impossible sizes"));
  }
  tile_slots_ += std::uint64_t{c.tiles_x} * c.tiles_y;
  if (tile_slots_ > kMaxWorldTileSlots) {
    return Fail(absl::StrCat("the continents' extents hold ", tile_slots_,
                             " tiles up to continent ", c.id, ", more than the ",
                             kMaxWorldTileSlots, " a world may"));
  }
  c.tile_index.assign(static_cast<std::size_t>(c.tiles_x) * c.tiles_y, kInvalidId);
  expected_first_ = 0;
}

void GridReader::CheckTile(const Tile& tile) {
  const Continent& c = *continent_;
  if (tile.tile_x >= c.tiles_x || tile.tile_y >= c.tiles_y ||
      c.tile_index[tile.tile_y * c.tiles_x + tile.tile_x] != kInvalidId) {
    return Fail("tile out of place or repeated");
  }
  if (tile.first_surface[0] != expected_first_) return Fail("tile surfaces out of order");
  for (std::uint32_t col = 0; col < kColumnsPerTile; ++col) {
    const std::uint32_t count = tile.first_surface[col + 1] - tile.first_surface[col];
    if (tile.first_surface[col + 1] < tile.first_surface[col] || count > kMaxFloors) {
      return Fail("column stack out of order or too tall");
    }
  }
  expected_first_ = tile.first_surface[kColumnsPerTile];
  if (expected_first_ > surface_count_) return Fail("more surfaces than declared");
}

void GridReader::DeriveColumns() {
  Continent& c = *continent_;
  c.column_x.resize(surface_count_);
  c.column_y.resize(surface_count_);
  c.level.resize(surface_count_);
  for (const Tile& tile : c.tiles) {
    for (std::uint32_t col = 0; col < kColumnsPerTile; ++col) {
      for (SurfaceId s = tile.first_surface[col]; s < tile.first_surface[col + 1]; ++s) {
        c.column_x[s] = static_cast<std::uint16_t>(tile.tile_x * kTileColumns + col % kTileColumns);
        c.column_y[s] = static_cast<std::uint16_t>(tile.tile_y * kTileColumns + col / kTileColumns);
        c.level[s] = static_cast<std::uint8_t>(s - tile.first_surface[col]);
      }
    }
  }
}

void GridReader::CheckLinks() {
  const Continent& c = *continent_;
  for (SurfaceId s = 0; s < surface_count_; ++s) {
    if (!std::isfinite(c.height_yards[s])) return Fail("non-finite height");
    if (!(c.headroom_yards[s] >= 0.0f)) return Fail("a headroom that is not a number >= 0");
    for (int d = 0; d < kDirectionCount; ++d) {
      const Link link = c.links[s][d];
      if (!HasLink(link)) continue;
      const std::int64_t nx = c.column_x[s] + kDirectionDx[d];
      const std::int64_t ny = c.column_y[s] + kDirectionDy[d];
      if (!c.OnMap(nx, ny)) return Fail("a link leaves the map");
      SurfaceId first, end;
      c.ColumnSurfaces(static_cast<std::uint32_t>(nx), static_cast<std::uint32_t>(ny), &first,
                       &end);
      if (first + LinkLevel(link) >= end) return Fail("a link leads to no surface");
    }
  }
}

void GridReader::CheckLift(const LiftRide& lift) {
  const Continent& c = *continent_;
  const bool in_order = c.lifts.empty() || c.lifts.back().from < lift.from ||
                        (c.lifts.back().from == lift.from && c.lifts.back().to <= lift.to);
  if (lift.from >= surface_count_ || lift.to >= surface_count_ || lift.from == lift.to ||
      !(c.marks[lift.from] & kMarkLift) || !(c.marks[lift.to] & kMarkLift) || !in_order) {
    return Fail("a lift ride is out of place");
  }
  if (!std::isfinite(lift.shaft_yards) || lift.shaft_yards < 0 ||
      !std::isfinite(lift.wait_seconds) || lift.wait_seconds < 0 ||
      !std::isfinite(lift.shaft_yards_per_second) || !(lift.shaft_yards_per_second > 0)) {
    Fail("a lift ride's length or timing is not a sound number");
  }
}

void GridReader::Accept(std::vector<Continent>& continents, Continent&& c) {
  FinishContinent(c);
  continents.push_back(std::move(c));
  continent_ = nullptr;
}

void GridReader::Accept(std::vector<Tile>& tiles, Tile&& tile) {
  CheckTile(tile);
  if (!status_.ok()) return;
  continent_->tile_index[tile.tile_y * continent_->tiles_x + tile.tile_x] =
      static_cast<std::uint32_t>(tiles.size());
  tiles.push_back(std::move(tile));
}

void GridReader::Accept(std::vector<LiftRide>& lifts, LiftRide&& lift) {
  CheckLift(lift);
  if (status_.ok()) lifts.push_back(lift);
}

void GridReader::Accept(std::vector<Zone>& zones, Zone&& zone) {
  if (zone.id == 0 || (!zones.empty() && zones.back().id >= zone.id)) {
    return Fail("zone ids out of order");
  }
  zones.push_back(std::move(zone));
}

absl::Status GridReader::CheckEnd() {
  if (!r_.AtEnd()) return Damaged(path_, "trailing bytes");
  World& world = loaded_.world;
  for (std::size_t k = 1; k < world.continents.size(); ++k) {
    if (world.continents[k - 1].id >= world.continents[k].id)
      return Damaged(path_, "continent ids out of order");
  }
  const std::uint64_t stored = world.content_id;
  AssignContentIds(world);
  if (world.content_id != stored) {
    return Damaged(path_, "content does not match its content id");
  }
  return absl::OkStatus();
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
    out.write(kMagic, sizeof kMagic);
    BinaryWriter preamble(out);
    preamble.Put<std::uint32_t>(kGridFormatVersion);
    preamble.Put<std::uint64_t>(world.content_id);
    GridWriter writer(out, source);
    VisitWorldFields(world, writer);
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
  std::error_code ec;
  const std::uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) return absl::DataLossError(absl::StrCat(path, ": read failed: ", ec.message()));
  return GridReader(path, in, size).Read();
}

absl::StatusOr<LoadedWorld> ParseGrid(const std::string& bytes, const std::string& path) {
  MemoryStreamBuf buffer(bytes.data(), bytes.size());
  std::istream in(&buffer);
  return GridReader(path, in, bytes.size()).Read();
}

}  // namespace walk::nav
