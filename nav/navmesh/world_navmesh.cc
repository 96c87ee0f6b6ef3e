#include "nav/navmesh/world_navmesh.h"

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

absl::StatusOr<NavMesh> ReadNavMesh(const std::string& path, NavMeshFormat* format) {
  std::error_code error;
  const bool folder = fs::is_directory(path, error);
  if (format != nullptr) *format = folder ? NavMeshFormat::kMmaps : NavMeshFormat::kMset;
  return folder ? ReadMmapsFolder(path) : ReadMsetFile(path);
}

absl::StatusOr<std::optional<NavMesh>> LoadWorldNavMesh(const std::string& world_dir,
                                                        NavMeshFormat* format) {
  const fs::path mset = fs::path(world_dir) / kWorldMsetFile;
  const fs::path mmaps = fs::path(world_dir) / kWorldMmapsFolder;
  std::error_code error;
  const bool has_mset = fs::exists(mset, error);
  const bool has_mmaps = fs::is_directory(mmaps, error);
  if (has_mset && has_mmaps) {
    return absl::InvalidArgumentError(world_dir + ": both navmesh.bin and mmaps/ (keep one)");
  }
  if (!has_mset && !has_mmaps) return std::optional<NavMesh>();
  absl::StatusOr<NavMesh> navmesh = ReadNavMesh((has_mset ? mset : mmaps).string(), format);
  if (!navmesh.ok()) return navmesh.status();
  return std::optional<NavMesh>(*std::move(navmesh));
}

absl::Status SaveNavMeshNote(const NavMeshNote& note, const std::string& world_dir) {
  nlohmann::ordered_json j;
  j["content_hash"] = FormatId(note.content_hash);
  j["continent"] = note.continent;
  j["format"] = note.format;
  j["tiles"] = note.tiles;
  j["polygons"] = note.polygons;
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

absl::StatusOr<NavMeshNote> ParseNavMeshNote(std::string_view text, const std::string& path) {
  auto bad = [&](const std::string& why) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", why));
  };
  if (text.size() > kMaxNavMeshNoteBytes) return bad("larger than a navmesh note can be");
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return bad("not a JSON object");
  NavMeshNote note;
  const auto hash = j.find("content_hash");
  if (hash == j.end() || !hash->is_string() || hash->get<std::string>().size() != 16 ||
      !absl::c_all_of(hash->get<std::string>(), absl::ascii_isxdigit) ||
      !absl::SimpleHexAtoi(hash->get<std::string>(), &note.content_hash)) {
    return bad("content_hash: required, 16 hex digits");
  }
  if (const auto c = j.find("continent"); c != j.end()) {
    if (!c->is_number_unsigned() || c->get<std::uint64_t>() > 0xffffffffu) {
      return bad("continent: must be a continent id");
    }
    note.continent = c->get<ContinentId>();
  }
  if (const auto f = j.find("format"); f != j.end() && f->is_string()) note.format = *f;
  if (const auto t = j.find("tiles"); t != j.end() && t->is_number_unsigned()) {
    if (t->get<std::uint64_t>() > 0xffffffffu) return bad("tiles: more than a navmesh holds");
    note.tiles = t->get<std::uint32_t>();
  }
  if (const auto p = j.find("polygons"); p != j.end() && p->is_number_unsigned()) {
    note.polygons = p->get<std::uint64_t>();
  }
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
                              NavMeshFormat format, ContinentId continent) {
  std::error_code error;
  fs::create_directories(world_dir, error);
  if (error) return absl::InternalError(world_dir + ": " + error.message());
  const fs::path mset = fs::path(world_dir) / kWorldMsetFile;
  const fs::path mmaps = fs::path(world_dir) / kWorldMmapsFolder;
  absl::Status written;
  if (format == NavMeshFormat::kMset) {
    fs::remove_all(mmaps, error);
    written = WriteMsetFile(navmesh, mset.string());
  } else {
    fs::remove(mset, error);
    fs::remove_all(mmaps, error);  // no tiles of an older build stay behind
    written = WriteMmapsFolder(navmesh, mmaps.string());
  }
  if (!written.ok()) return written;
  NavMeshNote note;
  note.content_hash = navmesh.content_hash();
  note.continent = continent;
  note.format = NavMeshFormatName(format);
  note.tiles = navmesh.tile_count();
  note.polygons = navmesh.polygon_count();
  return SaveNavMeshNote(note, world_dir);
}

}  // namespace walk::nav
