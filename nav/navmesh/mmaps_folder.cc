#include "nav/navmesh/mmaps_folder.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <system_error>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nav/navmesh/file_bytes.h"
// Detour is third-party: its headers are included inside nav/navmesh/*.cc only.
#include "DetourNavMesh.h"

namespace walk::nav {
namespace {

namespace fs = std::filesystem;

struct MmapTileHeader {
  std::uint32_t magic = kMmapMagic;
  std::uint32_t dt_version = DT_NAVMESH_VERSION;
  std::uint32_t mmap_version = kMmapVersionWritten;
  std::uint32_t size = 0;  // bytes of Detour data after the header
  std::uint8_t uses_liquids = 0;
  std::uint8_t padding[3] = {0, 0, 0};
};
static_assert(sizeof(MmapTileHeader) == 20);
// AzerothCore's version 18 header carries its Recast settings after the 20 bytes above.
constexpr std::size_t kRecastConfigBytes = 36;

absl::Status BadMmaps(const std::string& path, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat(path, ": ", why));
}

// The folder's .mmap files by map number (each file's name, MMM.mmap or MMMM.mmap).
absl::StatusOr<std::map<std::uint32_t, std::string>> FindMapFiles(const std::string& dir) {
  std::error_code error;
  if (!fs::is_directory(dir, error)) return absl::NotFoundError(dir + ": not a folder");
  std::map<std::uint32_t, std::string> found;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    if (entry.path().extension() != ".mmap") continue;
    const std::string stem = entry.path().stem().string();
    std::uint32_t map = 0;
    if (stem.empty() || stem.size() > 4 || !absl::c_all_of(stem, absl::ascii_isdigit) ||
        !absl::SimpleAtoi(stem, &map)) {
      return BadMmaps(entry.path().string(),
                      "not a map's file: its name is not a map number (MMM.mmap)");
    }
    if (!found.emplace(map, entry.path().string()).second) {
      return BadMmaps(dir, absl::StrCat("two .mmap files of map ", map));
    }
  }
  if (error) return absl::NotFoundError(absl::StrCat(dir, ": ", error.message()));
  if (found.empty())
    return absl::NotFoundError(dir + ": no .mmap file (an mmaps folder has one a map)");
  return found;
}

// The tiles of map `stem`: MMMXXYY.mmtile (CMaNGOS, AzerothCore, older TrinityCore) or
// MMMM_XX_YY.mmtile (newer TrinityCore), sorted by name.
std::vector<std::string> FindTileFiles(const std::string& dir, const std::string& stem) {
  std::vector<std::string> tiles;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".mmtile" || name.rfind(stem, 0) != 0) continue;
    // MMMXXYY.mmtile: four digits after the map's; MMMM_XX_YY.mmtile: an underscore.
    const std::string rest = name.substr(stem.size(), name.size() - stem.size() - 7);
    const bool digits = rest.size() == 4 && absl::c_all_of(rest, absl::ascii_isdigit);
    if (digits || (!rest.empty() && rest[0] == '_')) tiles.push_back(entry.path().string());
  }
  std::sort(tiles.begin(), tiles.end());
  return tiles;
}

// The file at `path`, refused unread when larger than `most` bytes.
absl::StatusOr<std::string> ReadAtMost(const std::string& path, std::uint64_t most,
                                       const char* what) {
  std::error_code error;
  const std::uintmax_t size = fs::file_size(path, error);
  if (!error && size > most) {
    return BadMmaps(path,
                    absl::StrCat(size, " bytes, more than the ", most, " ", what, " may have"));
  }
  return ReadFileBytes(path);
}

absl::Status AddTileFile(const std::string& path, NavMesh* navmesh) {
  absl::StatusOr<std::string> bytes = ReadAtMost(path, kMaxMmapTileBytes, "an .mmtile");
  if (!bytes.ok()) return bytes.status();
  return AddMmapTile(*bytes, path, navmesh);
}

}  // namespace

absl::Status AddMmapTile(std::string_view bytes, const std::string& path, NavMesh* navmesh) {
  std::size_t offset = 0;
  MmapTileHeader header;
  if (!TakeBytes(bytes, &offset, &header)) {
    return BadMmaps(path, absl::StrCat("truncated: ", bytes.size(),
                                       " bytes, an .mmtile header alone is ", sizeof header));
  }
  if (header.magic != kMmapMagic) return BadMmaps(path, "bad magic: not an .mmtile ('MMAP')");
  if (header.dt_version != DT_NAVMESH_VERSION) {
    return BadMmaps(
        path, absl::StrCat("Detour version mismatch: the tile was built for version ",
                           header.dt_version, ", this walkd reads version ", DT_NAVMESH_VERSION));
  }
  const std::size_t after = bytes.size() - offset;
  if (after == header.size + kRecastConfigBytes) {
    offset += kRecastConfigBytes;
  } else if (after != header.size) {
    return BadMmaps(path,
                    absl::StrCat("size mismatch: the header says ", header.size,
                                 " bytes of tile data, the file holds ", after,
                                 " after its header (mmap version ", header.mmap_version, ")"));
  }
  return navmesh->AddTile(std::string(bytes.substr(offset, header.size)), path,
                          NavMeshTileOrigin{path, offset, header.size});
}

absl::StatusOr<NavMesh> ParseMmapFile(std::string_view bytes, const std::string& path) {
  if (bytes.size() != sizeof(NavMeshTiling)) {
    return BadMmaps(
        path, absl::StrCat(bytes.size(), " bytes: a .mmap holds the navmesh ",
                           "parameters (dtNavMeshParams, ", sizeof(NavMeshTiling), " bytes)"));
  }
  NavMeshTiling tiling;
  std::size_t offset = 0;
  TakeBytes(bytes, &offset, &tiling);
  return NavMesh::Create(tiling, path);
}

namespace {

// Map `stem`'s navmesh: its .mmap at `mmap_path` and its tiles in `dir`.
absl::StatusOr<NavMesh> ReadMap(const std::string& dir, const std::string& mmap_path) {
  absl::StatusOr<std::string> bytes =
      ReadAtMost(mmap_path, sizeof(NavMeshTiling), "a .mmap (dtNavMeshParams)");
  if (!bytes.ok()) return bytes.status();
  absl::StatusOr<NavMesh> navmesh = ParseMmapFile(*bytes, mmap_path);
  if (!navmesh.ok()) return navmesh.status();
  const std::string stem = fs::path(mmap_path).stem().string();
  const std::vector<std::string> tiles = FindTileFiles(dir, stem);
  const std::int32_t max_tiles = navmesh->tiling().max_tiles;
  if (tiles.size() > std::size_t(max_tiles)) {
    return BadMmaps(dir, absl::StrCat(tiles.size(), " tiles of map ", stem,
                                      ", its .mmap holds at most ", max_tiles));
  }
  for (const std::string& tile : tiles) {
    if (absl::Status s = AddTileFile(tile, &*navmesh); !s.ok()) return s;
  }
  return navmesh;
}

}  // namespace

absl::StatusOr<std::vector<MmapsMap>> ReadMmapsMaps(const std::string& dir) {
  absl::StatusOr<std::map<std::uint32_t, std::string>> maps = FindMapFiles(dir);
  if (!maps.ok()) return maps.status();
  std::vector<MmapsMap> read;
  for (const auto& [map, path] : *maps) {
    absl::StatusOr<NavMesh> navmesh = ReadMap(dir, path);
    if (!navmesh.ok()) return navmesh.status();
    read.push_back(MmapsMap{map, *std::move(navmesh)});
  }
  return read;
}

absl::StatusOr<NavMesh> ReadMmapsFolder(const std::string& dir, std::optional<std::uint32_t> map) {
  absl::StatusOr<std::map<std::uint32_t, std::string>> maps = FindMapFiles(dir);
  if (!maps.ok()) return maps.status();
  if (!map.has_value()) {
    if (maps->size() > 1) {
      return BadMmaps(dir, absl::StrCat(maps->size(), " maps (.mmap files): name the one to read"));
    }
    return ReadMap(dir, maps->begin()->second);
  }
  const auto it = maps->find(*map);
  if (it == maps->end()) return absl::NotFoundError(absl::StrCat(dir, ": no map ", *map));
  return ReadMap(dir, it->second);
}

absl::StatusOr<std::map<std::uint32_t, std::uint64_t>> ListMmapsMaps(const std::string& dir) {
  absl::StatusOr<std::map<std::uint32_t, std::string>> maps = FindMapFiles(dir);
  if (!maps.ok()) return maps.status();
  std::map<std::uint32_t, std::uint64_t> sizes;
  for (const auto& [map, path] : *maps) {
    std::vector<std::string> files = FindTileFiles(dir, fs::path(path).stem().string());
    files.push_back(path);
    std::uint64_t bytes = 0;
    for (const std::string& file : files) {
      std::error_code error;
      const std::uintmax_t size = fs::file_size(file, error);
      if (!error) bytes += size;
    }
    sizes[map] = bytes;
  }
  return sizes;
}

absl::Status RemoveMmapsMap(const std::string& dir, std::uint32_t map) {
  std::error_code error;
  if (!fs::is_directory(dir, error)) return absl::OkStatus();
  const std::string stem = absl::StrFormat("%03u", map);
  std::vector<std::string> doomed = FindTileFiles(dir, stem);
  doomed.push_back((fs::path(dir) / (stem + ".mmap")).string());
  for (const std::string& path : doomed) {
    fs::remove(path, error);
    if (error) return absl::InternalError(absl::StrCat(path, ": ", error.message()));
  }
  return absl::OkStatus();
}

absl::Status WriteMmapsFolder(const NavMesh& navmesh, const std::string& dir,
                              std::uint32_t map_id) {
  if (map_id > 999)
    return BadMmaps(dir, absl::StrCat("map id ", map_id, " has more than 3 digits"));
  absl::Status status;
  navmesh.ForEachTile([&](const NavMeshTileView& tile) {
    if (status.ok() && (tile.x < 0 || tile.x > 99 || tile.y < 0 || tile.y > 99 || tile.layer)) {
      status = BadMmaps(dir, absl::StrCat("tile ", tile.x, ",", tile.y, " layer ", tile.layer,
                                          " has no .mmtile name (positions 0..99, layer 0)"));
    }
  });
  if (!status.ok()) return status;
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) return absl::InternalError(absl::StrCat(dir, ": ", error.message()));
  const NavMeshTiling& tiling = navmesh.tiling();
  status = WriteFileBytes(absl::StrFormat("%s/%03u.mmap", dir, map_id),
                          std::string_view(reinterpret_cast<const char*>(&tiling), sizeof tiling));
  navmesh.ForEachTile([&](const NavMeshTileView& tile) {
    if (!status.ok()) return;
    MmapTileHeader header;
    header.size = static_cast<std::uint32_t>(tile.canonical_data.size());
    std::string out;
    AppendBytes(&out, header);
    out.append(tile.canonical_data);
    status =
        WriteFileBytes(absl::StrFormat("%s/%03u%02d%02d.mmtile", dir, map_id, tile.x, tile.y), out);
  });
  return status;
}

}  // namespace walk::nav
