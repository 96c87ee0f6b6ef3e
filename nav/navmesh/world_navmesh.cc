#include "nav/navmesh/world_navmesh.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#include "absl/algorithm/container.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "nav/navmesh/mmaps_folder.h"
#include "nav/navmesh/mset_file.h"
#include "nlohmann/json.hpp"

namespace walk::nav {

namespace fs = std::filesystem;

const char* NavMeshFormatName(NavMeshFormat format) {
  return format == NavMeshFormat::kMset ? "mset" : "mmaps";
}

std::vector<NavMeshConnection> LiftConnections(const World& world, ContinentId continent) {
  std::vector<NavMeshConnection> connections;
  const Continent* c = world.FindContinent(continent);
  if (c == nullptr) return connections;
  const WorldFrame frame = world.FrameOf(*c);
  auto place = [&](SurfaceId s, float* out) {
    out[0] = static_cast<float>(frame.CentreX(c->column_x[s]));
    out[1] = c->height_yards[s];
    out[2] = static_cast<float>(frame.CentreY(c->column_y[s]));
  };
  for (const LiftRide& ride : c->lifts) {
    NavMeshConnection con;
    place(ride.from, con.from);
    place(ride.to, con.to);
    connections.push_back(con);
  }
  return connections;
}

absl::StatusOr<NavMesh> ReadNavMesh(const std::string& path, NavMeshFormat* format,
                                    std::optional<std::uint32_t> map) {
  std::error_code error;
  const bool folder = fs::is_directory(path, error);
  if (format != nullptr) *format = folder ? NavMeshFormat::kMmaps : NavMeshFormat::kMset;
  return folder ? ReadMmapsFolder(path, map) : ReadMsetFile(path);
}

absl::StatusOr<std::vector<WorldNavMeshMap>> LoadWorldNavMeshes(const std::string& world_dir,
                                                                NavMeshFormat* format) {
  const fs::path mset = fs::path(world_dir) / kWorldMsetFile;
  const fs::path mmaps = fs::path(world_dir) / kWorldMmapsFolder;
  std::error_code error;
  const bool has_mset = fs::exists(mset, error);
  const bool has_mmaps = fs::is_directory(mmaps, error);
  if (has_mset && has_mmaps) {
    return absl::InvalidArgumentError(world_dir + ": both navmesh.bin and mmaps/ (keep one)");
  }
  std::vector<WorldNavMeshMap> maps;
  if (has_mset) {
    if (format != nullptr) *format = NavMeshFormat::kMset;
    absl::StatusOr<NavMesh> navmesh = ReadMsetFile(mset.string());
    if (!navmesh.ok()) return navmesh.status();
    maps.push_back(WorldNavMeshMap{0, *std::move(navmesh)});
  } else if (has_mmaps) {
    if (format != nullptr) *format = NavMeshFormat::kMmaps;
    absl::StatusOr<std::vector<MmapsMap>> read = ReadMmapsMaps(mmaps.string());
    if (!read.ok()) return read.status();
    for (MmapsMap& m : *read) maps.push_back(WorldNavMeshMap{m.map, std::move(m.navmesh)});
  }
  return maps;
}

absl::StatusOr<std::map<std::uint32_t, std::uint64_t>> ListWorldNavMeshMaps(
    const std::string& world_dir, NavMeshFormat* format) {
  const fs::path mset = fs::path(world_dir) / kWorldMsetFile;
  const fs::path mmaps = fs::path(world_dir) / kWorldMmapsFolder;
  std::error_code error;
  const bool has_mset = fs::exists(mset, error);
  const bool has_mmaps = fs::is_directory(mmaps, error);
  if (has_mset && has_mmaps) {
    return absl::InvalidArgumentError(world_dir + ": both navmesh.bin and mmaps/ (keep one)");
  }
  if (format != nullptr) *format = has_mmaps ? NavMeshFormat::kMmaps : NavMeshFormat::kMset;
  if (has_mmaps) return ListMmapsMaps(mmaps.string());
  std::map<std::uint32_t, std::uint64_t> maps;
  if (has_mset) maps[0] = fs::file_size(mset, error);
  return maps;
}

absl::StatusOr<NavMesh> ReadWorldNavMeshMap(const std::string& world_dir, NavMeshFormat format,
                                            std::uint32_t map) {
  if (format == NavMeshFormat::kMset) {
    return ReadMsetFile((fs::path(world_dir) / kWorldMsetFile).string());
  }
  return ReadMmapsFolder((fs::path(world_dir) / kWorldMmapsFolder).string(), map);
}

absl::StatusOr<std::optional<NavMesh>> LoadWorldNavMesh(const std::string& world_dir,
                                                        NavMeshFormat* format,
                                                        std::optional<std::uint32_t> map) {
  absl::StatusOr<std::vector<WorldNavMeshMap>> maps = LoadWorldNavMeshes(world_dir, format);
  if (!maps.ok()) return maps.status();
  if (maps->empty()) return std::optional<NavMesh>();
  if (!map.has_value()) {
    if (maps->size() > 1) {
      return absl::InvalidArgumentError(
          absl::StrCat(world_dir, ": ", maps->size(), " navmesh maps: name the one to read"));
    }
    return std::optional<NavMesh>(std::move(maps->front().navmesh));
  }
  for (WorldNavMeshMap& m : *maps) {
    if (m.map == *map) return std::optional<NavMesh>(std::move(m.navmesh));
  }
  return absl::NotFoundError(absl::StrCat(world_dir, ": no navmesh map ", *map));
}

const NavMeshNoteMap* NavMeshNote::Find(std::uint32_t map) const {
  for (const NavMeshNoteMap& m : maps) {
    if (m.map == map) return &m;
  }
  return nullptr;
}

ContinentId NavMeshNote::ContinentOf(std::uint32_t map) const {
  const NavMeshNoteMap* m = Find(map);
  return m != nullptr ? m->continent : map;
}

absl::Status SaveNavMeshNote(const NavMeshNote& note, const std::string& world_dir) {
  nlohmann::ordered_json j;
  j["format"] = note.format;
  j["maps"] = nlohmann::ordered_json::array();
  for (const NavMeshNoteMap& m : note.maps) {
    nlohmann::ordered_json entry;
    entry["map"] = m.map;
    entry["continent"] = m.continent;
    if (m.content_hash != 0) entry["content_hash"] = FormatId(m.content_hash);
    entry["tiles"] = m.tiles;
    entry["polygons"] = m.polygons;
    j["maps"].push_back(entry);
  }
  const fs::path path = fs::path(world_dir) / kWorldNavMeshNote;
  std::ofstream out(path, std::ios::trunc);
  out << j.dump(2) << "\n";
  out.close();
  if (!out) return absl::InternalError(path.string() + ": could not write the navmesh note");
  return absl::OkStatus();
}

absl::StatusOr<std::optional<NavMeshNote>> LoadNavMeshNote(const std::string& world_dir) {
  const fs::path path = fs::path(world_dir) / kWorldNavMeshNote;
  std::error_code error;
  if (!fs::exists(path, error)) return std::optional<NavMeshNote>();
  const std::uintmax_t size = fs::file_size(path, error);
  if (!error && size > kMaxNavMeshNoteBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat(path.string(), ": ", size, " bytes, larger than a navmesh note can be"));
  }
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  absl::StatusOr<NavMeshNote> note = ParseNavMeshNote(text, path.string());
  if (!note.ok()) return note.status();
  return std::optional<NavMeshNote>(*note);
}

namespace {

// One map's entry (or the whole note of the older, one-map form): `field` names it in errors.
absl::StatusOr<NavMeshNoteMap> ParseNoteMap(const nlohmann::json& j, bool hash_required,
                                            const std::string& field) {
  auto bad = [&](const std::string& why) { return absl::InvalidArgumentError(field + why); };
  NavMeshNoteMap m;
  const auto hash = j.find("content_hash");
  if (hash != j.end() || hash_required) {
    if (hash == j.end() || !hash->is_string() || hash->get<std::string>().size() != 16 ||
        !absl::c_all_of(hash->get<std::string>(), absl::ascii_isxdigit) ||
        !absl::SimpleHexAtoi(hash->get<std::string>(), &m.content_hash)) {
      return bad("content_hash: required, 16 hex digits");
    }
  }
  auto id = [&](const char* name, std::uint32_t* out) -> absl::Status {
    const auto it = j.find(name);
    if (it == j.end()) return absl::OkStatus();
    if (!it->is_number_unsigned() || it->get<std::uint64_t>() > 0xffffffffu) {
      return bad(absl::StrCat(name, ": must be a number from 0 to 4294967295"));
    }
    *out = it->get<std::uint32_t>();
    return absl::OkStatus();
  };
  if (absl::Status s = id("map", &m.map); !s.ok()) return s;
  m.continent = m.map;  // a map walks the continent of its number unless the note says
  if (absl::Status s = id("continent", &m.continent); !s.ok()) return s;
  if (absl::Status s = id("tiles", &m.tiles); !s.ok()) return s;
  if (const auto p = j.find("polygons"); p != j.end() && p->is_number_unsigned()) {
    m.polygons = p->get<std::uint64_t>();
  }
  return m;
}

}  // namespace

absl::StatusOr<NavMeshNote> ParseNavMeshNote(std::string_view text, const std::string& path) {
  auto bad = [&](const std::string& why) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", why));
  };
  if (text.size() > kMaxNavMeshNoteBytes) return bad("larger than a navmesh note can be");
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return bad("not a JSON object");
  NavMeshNote note;
  if (const auto f = j.find("format"); f != j.end() && f->is_string()) note.format = *f;
  const auto maps = j.find("maps");
  if (maps == j.end()) {  // the one-map form: its navmesh is map 0
    absl::StatusOr<NavMeshNoteMap> m = ParseNoteMap(j, /*hash_required=*/true, "");
    if (!m.ok()) return bad(std::string(m.status().message()));
    m->map = 0;
    note.maps.push_back(*m);
    return note;
  }
  if (!maps->is_array()) return bad("maps: must be a list");
  for (std::size_t i = 0; i < maps->size(); ++i) {
    const std::string field = absl::StrCat("maps[", i, "].");
    if (!(*maps)[i].is_object()) return bad(field + ": not an object");
    absl::StatusOr<NavMeshNoteMap> m = ParseNoteMap((*maps)[i], false, field);
    if (!m.ok()) return bad(std::string(m.status().message()));
    if (note.Find(m->map) != nullptr) return bad(absl::StrCat(field, "map: ", m->map, " twice"));
    note.maps.push_back(*m);
  }
  std::sort(note.maps.begin(), note.maps.end(),
            [](const NavMeshNoteMap& a, const NavMeshNoteMap& b) { return a.map < b.map; });
  return note;
}

bool HasNavMesh(const std::string& world_dir) {
  std::error_code error;
  const fs::path dir(world_dir);
  return fs::exists(dir / kWorldMsetFile, error) ||
         fs::is_directory(dir / kWorldMmapsFolder, error) ||
         fs::exists(dir / kWorldNavMeshNote, error);
}

absl::Status SaveWorldNavMesh(const NavMesh& navmesh, const std::string& world_dir,
                              NavMeshFormat format, ContinentId continent, std::uint32_t map) {
  if (format == NavMeshFormat::kMset && map != 0) {
    return absl::InvalidArgumentError("--map: navmesh.bin holds map 0 only (write mmaps)");
  }
  std::error_code error;
  fs::create_directories(world_dir, error);
  if (error) return absl::InternalError(world_dir + ": " + error.message());
  const fs::path mset = fs::path(world_dir) / kWorldMsetFile;
  const fs::path mmaps = fs::path(world_dir) / kWorldMmapsFolder;
  NavMeshNote note;
  note.format = NavMeshFormatName(format);
  absl::Status written;
  if (format == NavMeshFormat::kMset) {
    fs::remove_all(mmaps, error);
    written = WriteMsetFile(navmesh, mset.string());
  } else {
    // The other maps stay, with their entries (none of a navmesh.bin, which goes).
    absl::StatusOr<std::optional<NavMeshNote>> old = LoadNavMeshNote(world_dir);
    if (fs::exists(mset, error)) {
      fs::remove(mset, error);
    } else if (old.ok() && old->has_value() && (*old)->format == note.format) {
      for (const NavMeshNoteMap& m : (*old)->maps) {
        if (m.map != map) note.maps.push_back(m);
      }
    }
    if (absl::Status s = RemoveMmapsMap(mmaps.string(), map); !s.ok()) return s;
    written = WriteMmapsFolder(navmesh, mmaps.string(), map);
  }
  if (!written.ok()) return written;
  NavMeshNoteMap entry;
  entry.map = map;
  entry.continent = continent;
  entry.content_hash = navmesh.content_hash();
  entry.tiles = navmesh.tile_count();
  entry.polygons = navmesh.polygon_count();
  note.maps.push_back(entry);
  std::sort(note.maps.begin(), note.maps.end(),
            [](const NavMeshNoteMap& a, const NavMeshNoteMap& b) { return a.map < b.map; });
  return SaveNavMeshNote(note, world_dir);
}

}  // namespace walk::nav
