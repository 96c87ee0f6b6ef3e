#include "nav/navmesh/mset_file.h"

#include <cstdint>
#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "nav/navmesh/file_bytes.h"

namespace walk::nav {
namespace {

struct MsetHeader {
  std::int32_t magic = kMsetMagic;
  std::int32_t version = kMsetVersion;
  std::int32_t tile_count = 0;
  NavMeshTiling tiling;
};
static_assert(sizeof(MsetHeader) == 40);

struct MsetTileHeader {
  std::uint32_t ref = 0;  // dtTileRef: 32 bits in Debian's (and RecastDemo's default) Detour
  std::int32_t data_size = 0;
};
static_assert(sizeof(MsetTileHeader) == 8);

absl::Status BadMset(const std::string& path, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat(path, ": ", why));
}

}  // namespace

absl::StatusOr<NavMesh> ReadMsetFile(const std::string& path) {
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (!error && size > kMaxMsetFileBytes) {
    return BadMset(path, absl::StrCat(size, " bytes, more than the ", kMaxMsetFileBytes,
                                      " an all-tiles file may have"));
  }
  absl::StatusOr<std::string> bytes = ReadFileBytes(path);
  if (!bytes.ok()) return bytes.status();
  return ParseMsetFile(*bytes, path);
}

absl::StatusOr<NavMesh> ParseMsetFile(std::string_view bytes, const std::string& path) {
  std::size_t offset = 0;
  MsetHeader header;
  if (!TakeBytes(bytes, &offset, &header)) {
    return BadMset(path, absl::StrCat("truncated: ", bytes.size(),
                                      " bytes, an all-tiles header alone is ", sizeof header));
  }
  if (header.magic != kMsetMagic) return BadMset(path, "bad magic: not an all-tiles file ('MSET')");
  if (header.version != kMsetVersion) {
    return BadMset(path, absl::StrCat("all-tiles version ", header.version, ", this walkd reads ",
                                      kMsetVersion));
  }
  const std::uint64_t room = (bytes.size() - offset) / sizeof(MsetTileHeader);
  if (header.tile_count < 0 || header.tile_count > header.tiling.max_tiles ||
      std::uint64_t(header.tile_count) > room) {
    return BadMset(path,
                   absl::StrCat("tile count ", header.tile_count, " for a navmesh of at most ",
                                header.tiling.max_tiles, " tiles in a file with room for ", room));
  }
  absl::StatusOr<NavMesh> navmesh = NavMesh::Create(header.tiling, path);
  if (!navmesh.ok()) return navmesh.status();
  for (std::int32_t i = 0; i < header.tile_count; ++i) {
    const std::string what = absl::StrCat(path, ": tile ", i);
    MsetTileHeader tile;
    if (!TakeBytes(bytes, &offset, &tile))
      return BadMset(what, "truncated before the tile's header");
    // RecastDemo's reader stops at an empty entry; so do we.
    if (tile.ref == 0 || tile.data_size == 0) break;
    if (tile.data_size < 0 || std::uint64_t(tile.data_size) > bytes.size() - offset) {
      return BadMset(what, absl::StrCat("truncated tile: ", tile.data_size, " bytes announced, ",
                                        bytes.size() - offset, " left in the file"));
    }
    absl::Status added =
        navmesh->AddTile(std::string(bytes.substr(offset, tile.data_size)), what,
                         NavMeshTileOrigin{path, offset, std::uint64_t(tile.data_size)});
    if (!added.ok()) return added;
    offset += tile.data_size;
  }
  if (offset != bytes.size() && navmesh->tile_count() == std::uint32_t(header.tile_count)) {
    return BadMset(path, absl::StrCat(bytes.size() - offset, " bytes after the last tile"));
  }
  return navmesh;
}

absl::Status WriteMsetFile(const NavMesh& navmesh, const std::string& path) {
  std::string out;
  MsetHeader header;
  header.tile_count = static_cast<std::int32_t>(navmesh.tile_count());
  header.tiling = navmesh.tiling();
  AppendBytes(&out, header);
  navmesh.ForEachTile([&](const NavMeshTileView& view) {
    MsetTileHeader tile;
    tile.ref = static_cast<std::uint32_t>(view.ref);
    tile.data_size = static_cast<std::int32_t>(view.canonical_data.size());
    AppendBytes(&out, tile);
    out.append(view.canonical_data);
  });
  return WriteFileBytes(path, out);
}

}  // namespace walk::nav
