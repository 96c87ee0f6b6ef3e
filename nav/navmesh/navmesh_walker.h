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
// length, lift rides left out (no smoothing factor: the path is already taut). seconds is the
// straight path priced segment by segment: each segment's length x the seconds per yard of the
// class of the polygon it crosses (findStraightPath with all crossings puts a vertex wherever
// the path enters another polygon), a lift ride at its ride's seconds; the zones of the polygons
// the ends snapped to carry no danger (navmesh_pricing.h). Zone cells count each segment's yards
// in the 200-yard cells it crosses, in its polygon's zone (a ride: 0 yards where it lands).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/cost/zone_cells.h"
#include "nav/navmesh/navmesh.h"
#include "nav/navmesh/navmesh_pricing.h"
#include "nav/query/answer.h"

namespace walk::nav {

class NavMeshTileCache;

inline constexpr int kNavMeshWalkerNodes = 65535;          // Detour's node pool (its ceiling)
inline constexpr int kNavMeshWalkerMaxPolys = 4096;        // polygons a found path may hold
inline constexpr int kNavMeshWalkerMaxPoints = 8192;       // straight path vertices
inline constexpr float kSnapHalfExtentYards = 2.0f;        // across (x, y), each way
inline constexpr float kSnapHalfHeightYards = 4.0f;        // up and down, a place with a height
inline constexpr float kSnapTallHalfHeightYards = 1.0e4f;  // up and down, a place without one

struct NavMeshWalk {
  WalkStatus status = WalkStatus::kNoWalk;
  double seconds = 0.0;              // set when kOk
  double yards = 0.0;                // set when kOk
  std::vector<PathPoint> points;     // the straight path's corners, our axes (z = height); when kOk
  std::vector<ZoneCell> zone_cells;  // sorted by cell, then zone; when kOk
  std::uint16_t from_zone = 0;       // the zones of the polygons the ends snapped to
  std::uint16_t to_zone = 0;
  std::size_t polys_visited = 0;  // polygons of the corridor findPath returned
};

// The answer a navmesh walk gives (method kNavMesh): status, seconds, yards, zone cells and the
// ends' zones, and, when `want_path`, the straight path's points (no kinds, falls or steps: a
// navmesh walk has none of the grid's). Search counters: the corridor's polygons.
WalkAnswer ToWalkAnswer(NavMeshWalk walk, bool want_path);

class NavMeshWalker {
 public:
  // A walker on `navmesh` (which must outlive it). Errors: INTERNAL (Detour's query refused to
  // initialize, e.g. out of memory).
  static absl::StatusOr<NavMeshWalker> Create(const NavMesh& navmesh);

  // Binds the walker to `navmesh` instead (which must outlive it), keeping its node pool: one
  // walker serves every navmesh a search thread walks on. Errors: as Create's.
  absl::Status Bind(const NavMesh& navmesh);
  const NavMesh* navmesh() const;  // the navmesh it walks on

  NavMeshWalker(NavMeshWalker&&) noexcept;
  NavMeshWalker& operator=(NavMeshWalker&&) noexcept;
  ~NavMeshWalker();

  // The walk from `from` to `to` priced by `pricing` (whose ground must be this navmesh's);
  // `want_points` false leaves the points out (a walk's figures need none). With a tile cache
  // (NavMesh::tile_cache), the tiles the walk needs are made resident first, round by round, so
  // the answer is the one every tile resident gives. Errors also: those of reading a tile again.
  // Errors: INTERNAL (a Detour query failed other than by finding nothing).
  absl::StatusOr<NavMeshWalk> Walk(const Place& from, const Place& to,
                                   const NavMeshPricing& pricing, bool want_points = true);

 private:
  struct Impl;
  struct Tally;
  explicit NavMeshWalker(std::unique_ptr<Impl> impl);
  // The walk, every tile it reads resident: with a `cache`, the tiles beside the polygons its
  // search reached that are not resident are put in Impl::wanted, and the walk stops there.
  absl::StatusOr<NavMeshWalk> WalkResident(const Place& from, const Place& to,
                                           const NavMeshPricing& pricing, bool want_points,
                                           const NavMeshTileCache* cache);
  // Adds to Impl::wanted the tiles not resident beside the polygons in the query's node pool.
  void AddFrontier(const NavMeshTileCache& cache);
  // Pulls the corridor `polys[0 .. count)` taut from `from` to `to` (Detour's axes) and adds
  // its seconds, yards, corners and zone cells to `tally`. RESOURCE_EXHAUSTED when the straight
  // path outgrows its buffer; INTERNAL when Detour fails.
  absl::Status PullStretch(const float* from, const float* to, const std::uint32_t* polys,
                           int count, Tally* tally);
  std::unique_ptr<Impl> impl_;
};

}  // namespace walk::nav
