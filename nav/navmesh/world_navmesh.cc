#include "nav/navmesh/world_navmesh.h"

#include <filesystem>
#include <system_error>

#include "nav/navmesh/mmaps_folder.h"
#include "nav/navmesh/mset_file.h"

namespace walk::nav {

namespace fs = std::filesystem;

const char* NavMeshFormatName(NavMeshFormat format) {
  return format == NavMeshFormat::kMset ? "mset" : "mmaps";
}

std::vector<NavMeshConnection> LiftConnections(const World& world, ContinentId continent) {
  std::vector<NavMeshConnection> connections;
  const Continent* c = world.FindContinent(continent);
  if (c == nullptr) return connections;
  const WorldFrame frame = world.frame();
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

absl::Status SaveWorldNavMesh(const NavMesh& navmesh, const std::string& world_dir,
                              NavMeshFormat format) {
  std::error_code error;
  fs::create_directories(world_dir, error);
  if (error) return absl::InternalError(world_dir + ": " + error.message());
  const fs::path mset = fs::path(world_dir) / kWorldMsetFile;
  const fs::path mmaps = fs::path(world_dir) / kWorldMmapsFolder;
  if (format == NavMeshFormat::kMset) {
    fs::remove_all(mmaps, error);
    return WriteMsetFile(navmesh, mset.string());
  }
  fs::remove(mset, error);
  fs::remove_all(mmaps, error);  // no tiles of an older build stay behind
  return WriteMmapsFolder(navmesh, mmaps.string());
}

}  // namespace walk::nav
