// What a navmesh's polygons stand on, as the cost model prices it: every polygon (and every
// off-mesh connection) gets a pricing class, and the class's number becomes the polygon's Detour
// area, so Detour's own search prices it through per-area costs (cost_filter.h).
//
// A class is the ground that decides a step's price on the grid: the pricing flags (water,
// steep, climb, forest, blocked), the marks (road, faction A's and B's towns) and the zone when
// some danger band prices it; an off-mesh connection that is a lift ride also carries the ride's
// timing and the yards between its ends. Where the world has a grid, a polygon takes the ground
// of the grid surface under its centre (else under a corner) nearest its height, and a connection
// the grid's lift ride between the surfaces under its two ends; without a grid, polygons keep the
// ground their Detour area names (nav_areas.h) and connections price as ground.
//
// Where the grid has districts joined to the rest only by lifts (nav/layers/district_layer.h),
// Classify unlinks the navmesh's links between polygons inside and polygons outside, and every
// off-mesh connection across a district's edge that is not one of the grid's lift rides: the
// same floor rule on both backends.
//
// Detour holds 64 areas. Classes that price alike in every band share one (zones that no band
// prices carry no zone; rides of equal seconds per yard and landing share). When more than 64
// remain, zones of equal lowest level share a class (so an end's zone exempts every zone of its
// class) and rides are rounded to 1/64 of a doubling of seconds per yard: `exact()` is then
// false, and docs/navmesh.md says what it costs.
//
// Thread safety: immutable once made; Classify writes the navmesh's areas and flags, so it runs
// before any query.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/grid/grid.h"
#include "nav/navmesh/navmesh.h"

namespace walk::nav {

inline constexpr int kNavMeshClassLimit = 64;  // Detour's areas (DT_MAX_AREAS)

// One pricing class.
struct NavMeshClass {
  std::uint8_t flags = 0;   // SurfaceFlag bits that price (kNavMeshPricingFlags)
  std::uint8_t marks = 0;   // AreaMark bits that price (road, hub A, hub B)
  std::uint16_t zone = 0;   // a zone some band prices, else 0
  bool lift = false;        // an off-mesh connection ridden as a lift
  LiftRide ride;            // when `lift`: the ride's timing (its surfaces are not used)
  double ride_yards = 0.0;  // when `lift`: the 3D yards between the connection's ends (> 0)

  friend bool operator==(const NavMeshClass&, const NavMeshClass&) = default;
};

// The surface flags that change a price (nav/cost/metric.cc).
inline constexpr std::uint8_t kNavMeshPricingFlags =
    kFlagWater | kFlagSteep | kFlagClimb | kFlagForest | kFlagBlocked;
inline constexpr std::uint8_t kNavMeshPricingMarks = kMarkRoad | kMarkHubA | kMarkHubB;

// How many polygons took what, for logs and Info.
struct NavMeshGroundStats {
  std::uint64_t polygons = 0;            // ground polygons classified
  std::uint64_t off_grid = 0;            // of them, over no surface of the grid (priced as ground)
  std::uint64_t connections = 0;         // off-mesh connections
  std::uint64_t lift_rides = 0;          // of them, lift rides of the grid
  std::uint64_t fine_classes = 0;        // classes before sharing the 64 areas
  std::uint64_t district_links_cut = 0;  // links unlinked by the grid's districts (floor rule)
};

class NavMeshGround {
 public:
  // Classifies every polygon of `navmesh` by the ground of `world`'s continent `continent`
  // (a world without that continent, or a null `world`: by the polygons' own areas), and writes
  // each polygon's class as its Detour area and its passability as its flags (nav_areas.h).
  // Errors: FAILED_PRECONDITION (more classes than Detour's areas hold, even shared as above),
  // INTERNAL (Detour refused an area or flag write).
  static absl::StatusOr<NavMeshGround> Classify(NavMesh& navmesh, const World* world,
                                                ContinentId continent);

  const std::vector<NavMeshClass>& classes() const { return classes_; }
  // Writes tile `index`'s polygons' classes and flags again, as Classify wrote them, and cuts
  // its districts' links (its own and its neighbours' into it): for a tile a tile cache added
  // again (NavMesh::EnableTileCache). Under the cache's exclusive lock.
  void ApplyToTile(dtNavMesh& mesh, int index) const;
  // The zone of the polygon of reference `ref` (its own zone, kept even where its class carries
  // none); 0 for an unknown reference or a connection.
  std::uint16_t PolygonZone(std::uint64_t ref) const;
  // False when classes had to be merged beyond pricing alike (see above).
  bool exact() const { return exact_; }
  // A stable hash of the classes and of every polygon's class and zone: the part of a navmesh
  // answer's model that the ground decides.
  std::uint64_t id() const { return id_; }
  const NavMeshGroundStats& stats() const { return stats_; }

 private:
  const dtNavMesh* mesh_ = nullptr;
  std::vector<NavMeshClass> classes_;
  std::vector<std::uint32_t> tile_base_;  // by Detour tile index: its first polygon's slot
  std::vector<std::uint16_t> zone_;       // by slot
  std::vector<std::uint8_t> area_;        // by slot: its class (Detour area)
  std::vector<std::uint16_t> flags_;      // by slot: its Detour flags
  std::vector<std::uint8_t> district_;    // by slot: inside a district, a connection cut
  bool has_districts_ = false;
  bool exact_ = true;
  std::uint64_t id_ = 0;
  NavMeshGroundStats stats_;
};

}  // namespace walk::nav
