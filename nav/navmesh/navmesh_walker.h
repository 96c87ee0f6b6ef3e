// A walk on a navmesh: ends snapped to polygons, Detour's findPath between them, the straight
// path pulled along it, priced by the cost model. One walker per search thread: it owns a
// dtNavMeshQuery (whose node pool is allocated once, kNavMeshWalkerNodes nodes) bound to one
// NavMesh, which must outlive it. Detour's headers stay in navmesh_walker.cc.
//
// Ends: a place with a height snaps to the nearest polygon within kSnapHalfExtentYards
// horizontally and kSnapHalfHeightYards vertically of it; a place without one is looked for at
// height 0 within kSnapTallHalfHeightYards vertically (the polygon nearest height 0 in 3D).
// No polygon there: kOffMap. The place's continent is not read: a NavMesh is one continent.
//
// Answers: kOk with the walk; kNoWalk when findPath reaches no further than a polygon short of
// the goal (DT_PARTIAL_RESULT, or a path cut by its buffers). yards is the straight path's 3D
// length (no smoothing factor: the path is already taut). seconds is the straight path priced
// segment by segment: each segment's length x the seconds per yard of the polygon it crosses
// (findStraightPath with area crossings puts a vertex at every area change), so plain ground
// costs yards / run speed. Danger is not priced (nav_areas.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/navmesh/navmesh.h"
#include "nav/navmesh/navmesh_pricing.h"
#include "nav/query/answer.h"

namespace walk::nav {

inline constexpr int kNavMeshWalkerNodes = 65535;          // Detour's node pool (its ceiling)
inline constexpr int kNavMeshWalkerMaxPolys = 4096;        // polygons a found path may hold
inline constexpr int kNavMeshWalkerMaxPoints = 8192;       // straight path vertices
inline constexpr float kSnapHalfExtentYards = 2.0f;        // across (x, y), each way
inline constexpr float kSnapHalfHeightYards = 4.0f;        // up and down, a place with a height
inline constexpr float kSnapTallHalfHeightYards = 1.0e4f;  // up and down, a place without one

struct NavMeshWalk {
  WalkStatus status = WalkStatus::kNoWalk;
  double seconds = 0.0;           // set when kOk
  double yards = 0.0;             // set when kOk
  std::vector<PathPoint> points;  // the straight path, our axes (x, y, z = height); when kOk
  std::size_t polys_visited = 0;  // polygons of the corridor findPath returned
};

class NavMeshWalker {
 public:
  // A walker on `navmesh` (which must outlive it). Errors: INTERNAL (Detour's query refused to
  // initialize, e.g. out of memory).
  static absl::StatusOr<NavMeshWalker> Create(const NavMesh& navmesh);

  NavMeshWalker(NavMeshWalker&&) noexcept;
  NavMeshWalker& operator=(NavMeshWalker&&) noexcept;
  ~NavMeshWalker();

  // The walk from `from` to `to` priced by `pricing`. Errors: INTERNAL (a Detour query failed
  // other than by finding nothing).
  absl::StatusOr<NavMeshWalk> Walk(const Place& from, const Place& to,
                                   const NavMeshPricing& pricing);

 private:
  struct Impl;
  explicit NavMeshWalker(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace walk::nav
