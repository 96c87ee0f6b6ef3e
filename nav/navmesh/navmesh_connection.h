// An off-mesh connection as walkd makes them: a one-way move between two points that no polygon
// carries, such as a lift ride (built into new tiles by navmesh_builder.h, appended to read
// tiles by tile_data.h).
#pragma once

namespace walk::nav {

// A one-way move from `from` to `to` (Detour's axes, the mesh's coordinates). Its start must lie
// on the navmesh within kNavMeshConnectionRadiusYards across and the agent's step up or down,
// and its end alike.
struct NavMeshConnection {
  float from[3] = {0.0f, 0.0f, 0.0f};
  float to[3] = {0.0f, 0.0f, 0.0f};
};
inline constexpr float kNavMeshConnectionRadiusYards = 1.5f;

}  // namespace walk::nav
