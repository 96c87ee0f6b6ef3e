// The grid's lift rides on a navmesh that lacks them. A navmesh walkgrid builds beside a grid has
// them built in (LiftConnections, world_navmesh.h); the maps game servers ship have none, so a
// navmesh read from files gets each ride it lacks appended to its tiles at load, as an off-mesh
// connection from landing to landing, and NavMeshGround prices it as the grid prices the ride.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "nav/grid/grid.h"
#include "nav/navmesh/navmesh.h"

namespace walk::nav {

// What AddMissingLiftConnections found and did.
struct LiftConnectionCounts {
  std::uint32_t rides = 0;     // lift rides of the continent
  std::uint32_t present = 0;   // of them, already off-mesh connections of the navmesh
  std::uint32_t added = 0;     // appended
  std::uint32_t unplaced = 0;  // no tile of the navmesh holds the ride's start
};

// An off-mesh connection stands for a ride when both its ends lie within this of the ride's
// landings, across and up or down.
inline constexpr float kLiftMatchYards = 1.5f;

// Appends to `navmesh` every lift ride of `world`'s continent `continent` that no off-mesh
// connection of it stands for, each to the tile whose cell holds the ride's start (at the layer
// whose height range holds it). Call before the navmesh is priced (NavMeshGround::Classify) and
// before any query runs. Errors: those of NavMesh::AppendConnections.
absl::StatusOr<LiftConnectionCounts> AddMissingLiftConnections(NavMesh& navmesh, const World& world,
                                                               ContinentId continent);

}  // namespace walk::nav
