#include "nav/navmesh/navmesh.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "nav/grid/content_hash.h"
#include "nav/grid/serial.h"
#include "nav/navmesh/file_bytes.h"
#include "nav/navmesh/tile_cache.h"
#include "nav/navmesh/tile_data.h"
// Detour is third-party: its headers are included inside nav/navmesh/*.cc only.
#include "DetourAlloc.h"
#include "DetourNavMesh.h"

namespace walk::nav {
namespace {

struct NavMeshDeleter {
  void operator()(dtNavMesh* mesh) const { dtFreeNavMesh(mesh); }
};

// Bits of a (32-bit) dtPolyRef for the tile and the polygon index; Detour keeps at least 10 for
// the salt.
constexpr int kRefIndexBits = 22;

int BitsFor(std::int64_t count) {
  int bits = 0;
  while ((std::int64_t{1} << bits) < count) ++bits;
  return bits;
}

absl::Status BadTiling(const std::string& what, const char* field, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat(what, ": navmesh parameters: ", field, " ", why));
}

// A tile's position agrees with the navmesh's parameters: the cell it names (the navmesh's origin
// plus its position times the tile size, along Detour x and z) lies within a walk's reach, and
// the tile's own bounds lie in that cell, give or take half a tile (Recast's borders and
// rounding). Detour looks for a tile's polygons in the cell its position names, so a tile placed
// elsewhere than its polygons would leave them unreachable.
absl::Status CheckTilePlace(const NavMeshTiling& t, const TileSummary& tile,
                            const std::string& what) {
  const double x0 = double{t.origin[0]} + double{t.tile_width} * tile.x;
  const double z0 = double{t.origin[2]} + double{t.tile_height} * tile.y;
  const double x1 = x0 + t.tile_width, z1 = z0 + t.tile_height;
  const std::string position = absl::StrCat("position ", tile.x, ",", tile.y);
  const double reach = kMaxTileCoordinate;
  if (!(std::abs(x0) <= reach && std::abs(x1) <= reach && std::abs(z0) <= reach &&
        std::abs(z1) <= reach)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": ", position, " puts its cell at x ", x0, ", z ", z0,
                     " yards (origin ", t.origin[0], ", ", t.origin[2], ", tiles of ", t.tile_width,
                     " x ", t.tile_height, "), beyond the +-", reach, " yards a walk reaches"));
  }
  const double slack_x = t.tile_width / 2.0, slack_z = t.tile_height / 2.0;
  if (tile.bmin[0] < x0 - slack_x || tile.bmax[0] > x1 + slack_x || tile.bmin[2] < z0 - slack_z ||
      tile.bmax[2] > z1 + slack_z) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, ": ", position, " names the cell x ", x0, " .. ", x1, ", z ", z0, " .. ", z1,
        " yards, but the tile's bounds are x ", tile.bmin[0], " .. ", tile.bmax[0], ", z ",
        tile.bmin[2], " .. ", tile.bmax[2], " (more than half a tile outside it)"));
  }
  return absl::OkStatus();
}

}  // namespace

struct NavMesh::Impl {
  std::uint64_t serial = NewSerial();
  std::unique_ptr<dtNavMesh, NavMeshDeleter> mesh;
  NavMeshTiling tiling;
  std::uint32_t tiles = 0;
  std::uint64_t polygons = 0;
  std::uint64_t off_mesh = 0;
  std::vector<TileRecord> records;  // by Detour tile index
  std::unique_ptr<NavMeshTileCache> cache;
};

NavMesh::NavMesh(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
std::uint64_t NavMesh::serial() const { return impl_->serial; }
NavMesh::NavMesh(NavMesh&&) noexcept = default;
NavMesh& NavMesh::operator=(NavMesh&&) noexcept = default;
NavMesh::~NavMesh() = default;

absl::StatusOr<NavMesh> NavMesh::Create(const NavMeshTiling& t, const std::string& what) {
  for (float v : t.origin) {
    if (!std::isfinite(v)) return BadTiling(what, "origin", "is not finite");
  }
  if (!(std::isfinite(t.tile_width) && t.tile_width > 0.0f)) {
    return BadTiling(what, "tile width", absl::StrCat("must be > 0 (got ", t.tile_width, ")"));
  }
  if (!(std::isfinite(t.tile_height) && t.tile_height > 0.0f)) {
    return BadTiling(what, "tile height", absl::StrCat("must be > 0 (got ", t.tile_height, ")"));
  }
  if (t.max_tiles < 1 || t.max_tiles > kMaxNavMeshTiles) {
    return BadTiling(
        what, "maxTiles",
        absl::StrCat("must be in 1 .. ", kMaxNavMeshTiles, " (got ", t.max_tiles, ")"));
  }
  if (t.max_polys < 1) {
    return BadTiling(what, "maxPolys", absl::StrCat("must be >= 1 (got ", t.max_polys, ")"));
  }
  if (BitsFor(t.max_tiles) + BitsFor(t.max_polys) > kRefIndexBits) {
    return BadTiling(
        what, "maxTiles x maxPolys",
        absl::StrCat("needs more than ", kRefIndexBits, " bits of a polygon reference (",
                     t.max_tiles, " x ", t.max_polys, ")"));
  }
  auto impl = std::make_unique<Impl>();
  impl->tiling = t;
  impl->mesh.reset(dtAllocNavMesh());
  if (impl->mesh == nullptr) return absl::InternalError(what + ": dtAllocNavMesh failed");
  dtNavMeshParams params;
  std::memcpy(&params, &t, sizeof params);
  if (dtStatusFailed(impl->mesh->init(&params))) {
    return absl::InvalidArgumentError(what + ": Detour refuses the navmesh parameters");
  }
  return NavMesh(std::move(impl));
}

absl::Status NavMesh::AddTile(std::string data, const std::string& what,
                              const NavMeshTileOrigin& origin) {
  TileSummary summary;
  if (absl::Status s = CheckTileData(data, what, &summary); !s.ok()) return s;
  if (absl::Status s = CheckTilePlace(impl_->tiling, summary, what); !s.ok()) return s;
  if (summary.polygons + summary.off_mesh > impl_->tiling.max_polys) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": ", summary.polygons + summary.off_mesh,
                                                   " polygons, the navmesh holds at most ",
                                                   impl_->tiling.max_polys, " a tile"));
  }
  if (impl_->mesh->getTileAt(summary.x, summary.y, summary.layer) != nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": a second tile at ", summary.x, ",",
                                                   summary.y, " layer ", summary.layer));
  }
  const int index = static_cast<int>(impl_->records.size());
  if (index >= impl_->tiling.max_tiles) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": more tiles than the navmesh's ", impl_->tiling.max_tiles));
  }
  TileRecord record;
  record.x = summary.x;
  record.y = summary.y;
  record.layer = summary.layer;
  record.ref = impl_->mesh->encodePolyId(1, static_cast<unsigned int>(index), 0);
  record.bytes = data.size();
  record.origin = origin;
  if (absl::Status s = RestoreTile(index, std::move(data), record.ref); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": ", s.message()));
  }
  impl_->records.push_back(std::move(record));
  ++impl_->tiles;
  impl_->polygons += summary.polygons;
  impl_->off_mesh += summary.off_mesh;
  return absl::OkStatus();
}

absl::Status NavMesh::RestoreTile(int index, std::string data, std::uint64_t ref) {
  // Detour frees the tile's bytes with dtFree when the tile or the navmesh goes
  // (DT_TILE_FREE_DATA).
  auto* bytes = static_cast<unsigned char*>(dtAlloc(data.size(), DT_ALLOC_PERM));
  if (bytes == nullptr) return absl::ResourceExhaustedError("no memory for the tile");
  std::memcpy(bytes, data.data(), data.size());
  const dtStatus status =
      impl_->mesh->addTile(bytes, static_cast<int>(data.size()), DT_TILE_FREE_DATA,
                           static_cast<dtTileRef>(ref), nullptr);
  if (dtStatusFailed(status)) {
    dtFree(bytes);
    const char* why = (status & DT_OUT_OF_MEMORY)   ? "out of tile slots or memory"
                      : (status & DT_WRONG_VERSION) ? "wrong Detour version"
                                                    : "bad tile data or position";
    return absl::InvalidArgumentError(
        absl::StrCat("Detour refuses the tile of index ", index, " (", why, ")"));
  }
  return absl::OkStatus();
}

absl::Status NavMesh::RestoreTile(int index, std::string data) {
  return RestoreTile(index, std::move(data), impl_->records.at(index).ref);
}

void NavMesh::RemoveTile(int index) {
  impl_->mesh->removeTile(static_cast<dtTileRef>(impl_->records.at(index).ref), nullptr, nullptr);
}

absl::StatusOr<std::string> NavMesh::ReadTileAgain(int index) const {
  const TileRecord& record = impl_->records.at(index);
  const NavMeshTileOrigin& origin = record.origin;
  std::ifstream in(origin.path, std::ios::binary);
  if (!in) return absl::DataLossError(origin.path + ": cannot open to read a tile again");
  std::string data(origin.size, '\0');
  in.seekg(static_cast<std::streamoff>(origin.offset));
  in.read(data.data(), static_cast<std::streamsize>(origin.size));
  if (!in) return absl::DataLossError(origin.path + ": a tile's bytes are gone (file changed?)");
  const std::string what = absl::StrCat(origin.path, " (tile ", record.x, ",", record.y, ")");
  TileSummary summary;
  if (absl::Status s = CheckTileData(data, what, &summary); !s.ok()) return s;
  if (summary.x != record.x || summary.y != record.y || summary.layer != record.layer) {
    return absl::DataLossError(what + ": the file now holds another tile");
  }
  if (!record.appended.empty()) data = AppendOffMeshConnections(data, record.appended);
  return data;
}

absl::Status NavMesh::AppendConnections(int index, const std::vector<NavMeshConnection>& more) {
  if (index < 0 || index >= static_cast<int>(impl_->records.size())) {
    return absl::InvalidArgumentError(absl::StrCat("no tile of index ", index));
  }
  TileRecord& record = impl_->records[index];
  const dtMeshTile* tile = impl_->mesh->getTileByRef(static_cast<dtTileRef>(record.ref));
  if (tile == nullptr) return absl::InvalidArgumentError("the tile is not resident");
  if (tile->header->polyCount + static_cast<int>(more.size()) > impl_->tiling.max_polys) {
    return absl::InvalidArgumentError(
        absl::StrCat("tile ", record.x, ",", record.y, ": ", more.size(),
                     " more off-mesh connections overflow the navmesh's polygons a tile"));
  }
  const std::string grown = AppendOffMeshConnections(
      CanonicalTileData(std::string_view(reinterpret_cast<const char*>(tile->data),
                                         static_cast<std::size_t>(tile->dataSize))),
      more);
  RemoveTile(index);
  if (absl::Status s = RestoreTile(index, grown); !s.ok()) return s;
  record.appended.insert(record.appended.end(), more.begin(), more.end());
  record.bytes = grown.size();
  impl_->off_mesh += more.size();
  return absl::OkStatus();
}

const std::vector<NavMesh::TileRecord>& NavMesh::tile_records() const { return impl_->records; }

void NavMesh::EnableTileCache(std::uint64_t budget_bytes,
                              std::function<void(dtNavMesh&, int)> after_add) {
  impl_->cache = std::make_unique<NavMeshTileCache>(this, budget_bytes, std::move(after_add));
}

NavMeshTileCache* NavMesh::tile_cache() const { return impl_->cache.get(); }

std::uint32_t NavMesh::tile_count() const { return impl_->tiles; }
std::uint64_t NavMesh::polygon_count() const { return impl_->polygons; }
std::uint64_t NavMesh::off_mesh_count() const { return impl_->off_mesh; }
const NavMeshTiling& NavMesh::tiling() const { return impl_->tiling; }
const dtNavMesh* NavMesh::detour() const { return impl_->mesh.get(); }
dtNavMesh* NavMesh::mutable_detour() { return impl_->mesh.get(); }

void NavMesh::ForEachTile(const std::function<void(const NavMeshTileView&)>& visit) const {
  const dtNavMesh& mesh = *impl_->mesh;
  std::vector<const dtMeshTile*> tiles;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const dtMeshTile* tile = mesh.getTile(i);
    if (tile != nullptr && tile->header != nullptr && tile->dataSize > 0) tiles.push_back(tile);
  }
  auto key = [](const dtMeshTile* t) {
    return std::make_tuple(t->header->y, t->header->x, t->header->layer);
  };
  std::sort(tiles.begin(), tiles.end(),
            [&](const dtMeshTile* a, const dtMeshTile* b) { return key(a) < key(b); });
  for (const dtMeshTile* tile : tiles) {
    const std::string canonical = CanonicalTileData(
        std::string_view(reinterpret_cast<const char*>(tile->data), tile->dataSize));
    NavMeshTileView view;
    view.x = tile->header->x;
    view.y = tile->header->y;
    view.layer = tile->header->layer;
    view.ref = mesh.getTileRef(tile);
    view.canonical_data = canonical;
    visit(view);
  }
}

std::uint64_t NavMesh::content_hash() const {
  ContentHasher hasher;
  hasher.AddString("walkd navmesh 1");
  hasher.AddBytes(&impl_->tiling, sizeof(NavMeshTiling));
  ForEachTile([&](const NavMeshTileView& tile) {
    hasher.AddU64(static_cast<std::uint32_t>(tile.x));
    hasher.AddU64(static_cast<std::uint32_t>(tile.y));
    hasher.AddU64(static_cast<std::uint32_t>(tile.layer));
    hasher.AddString(tile.canonical_data);
  });
  return hasher.Finish();
}

}  // namespace walk::nav
