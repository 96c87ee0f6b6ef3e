// Where a world folder keeps its navmesh, beside grid.walkgrid: `navmesh.bin` (the all-tiles
// format) or `mmaps/` (the mmaps layout), never both.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nav/grid/grid.h"
#include "nav/navmesh/navmesh.h"
#include "nav/navmesh/navmesh_builder.h"

namespace walk::nav {

inline constexpr char kWorldMsetFile[] = "navmesh.bin";
inline constexpr char kWorldMmapsFolder[] = "mmaps";

enum class NavMeshFormat { kMset, kMmaps };
const char* NavMeshFormatName(NavMeshFormat format);  // "mset", "mmaps"

// The lift rides of `world`'s continent `continent` as off-mesh connections (one a ride, from
// landing to landing: each column's centre at its surface's height, in the world's frame), for
// a navmesh built beside the grid (NavMeshBuildOptions::connections). None for an unknown
// continent.
std::vector<NavMeshConnection> LiftConnections(const World& world, ContinentId continent);

// Reads a navmesh in either format: a folder is read as mmaps, a file as an all-tiles file.
// Errors: those of ReadMsetFile and ReadMmapsFolder.
absl::StatusOr<NavMesh> ReadNavMesh(const std::string& path, NavMeshFormat* format = nullptr);

// The world folder's navmesh, or nullopt when it holds none. Errors: INVALID_ARGUMENT (both
// navmesh.bin and mmaps/), and those of the readers.
absl::StatusOr<std::optional<NavMesh>> LoadWorldNavMesh(const std::string& world_dir,
                                                        NavMeshFormat* format = nullptr);

// Writes `navmesh` into the world folder (created if needed) in `format`, removing a navmesh of
// the other format there. Errors: those of the writers.
absl::Status SaveWorldNavMesh(const NavMesh& navmesh, const std::string& world_dir,
                              NavMeshFormat format);

}  // namespace walk::nav
