// The demo world's plan: every feature laid out once for the whole world, as small vectors and
// polylines, from which each tile's triangles are made on demand (tile_mesh.h) and the landmarks
// are found (landmarks.h). Internal to nav/demo.
//
// The parts are laid in this order, each step using only what came before it (docs/demo_world.md,
// "The plan"):
//   rivers, lakes (water.cc) -> towns (towns.cc) -> roads (roads.cc) -> bridges (bridges.cc) ->
//   buildings (buildings.cc) -> mesas (mesas.cc) -> crags (crags.cc) -> zones (zones.cc).
// The hills (terrain.cc) and forests (ground.cc) are noise and need no laying.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nav/demo/bridges.h"
#include "nav/demo/buildings.h"
#include "nav/demo/context.h"
#include "nav/demo/crags.h"
#include "nav/demo/demo_world.h"
#include "nav/demo/ground.h"
#include "nav/demo/mesas.h"
#include "nav/demo/plane.h"
#include "nav/demo/roads.h"
#include "nav/demo/terrain.h"
#include "nav/demo/towns.h"
#include "nav/demo/water.h"
#include "nav/demo/zones.h"
#include "nav/grid/grid.h"
#include "nav/grid/grid_builder.h"
#include "nav/import/triangle_mesh.h"

namespace walk::nav::demo {

// Immutable once made; safe to share across threads.
class Plan {
 public:
  // Checks the options' sizes, lays every part and finds the landmarks. Errors:
  // INVALID_ARGUMENT naming the DemoOptions field; INTERNAL when a landmark has no place.
  static absl::StatusOr<std::unique_ptr<Plan>> Make(const DemoOptions& options);

  // The column grid the plan is laid out on.
  double column_yards() const { return cs_; }
  std::int64_t columns_x() const { return columns_x_; }
  std::int64_t columns_y() const { return columns_y_; }
  double width() const { return width_; }  // yards
  double height() const { return height_; }
  // The centre of column (x, y), yards.
  Vec2 ColumnCentre(std::int64_t x, std::int64_t y) const {
    return {(static_cast<double>(x) + 0.5) * cs_, (static_cast<double>(y) + 0.5) * cs_};
  }

  // The parts.
  const Water& water() const { return water_; }
  const std::vector<Town>& towns() const { return towns_; }
  const Roads& roads() const { return roads_; }
  const std::vector<Bridge>& bridges() const { return bridges_; }
  const std::vector<Building>& buildings() const { return buildings_; }
  const std::vector<Mesa>& mesas() const { return mesas_; }
  const std::vector<Crag>& crags() const { return crags_; }
  const ZoneMap& zone_map() const { return zone_map_; }
  const std::vector<Zone>& zones() const { return zone_map_.zones(); }
  const DemoLandmarks& landmarks() const { return landmarks_; }

  // The features of each part that reach into `box` (blends, shapes and margins included).
  Context ContextFor(const Box& box) const;
  // Every feature.
  Context Everything() const;

  // The ground's height at p (terrain.cc): the hills; towns flattened; water's valleys;
  // bridges' ramps; crags. Water comes after towns so that every bank meets its water at the
  // bank's height. Looks only at the features of `c`.
  double Height(Vec2 p, const Context& c) const;

  // The tag of open ground (or a mesa top) at column (x, y), whose centre is `centre`, and
  // whether a tree stands there (ground.cc).
  TriangleTag GroundTag(std::int64_t x, std::int64_t y, Vec2 centre, const Context& c,
                        bool* tree) const;

  // Building b's local point (u, v), in columns, as yards (buildings.cc).
  Vec2 Local(const Building& b, double u, double v) const;
  // The column holding building b's local column (u, v).
  void LocalColumn(const Building& b, int u, int v, std::int64_t* x, std::int64_t* y) const;

  // Adds the triangles of a building (buildings.cc), a bridge's deck (bridges.cc) and a mesa's
  // lift balcony (mesas.cc) to `mesh`.
  void EmitBuilding(const Building& b, TriangleMesh& mesh) const;
  void EmitBridge(const Bridge& b, TriangleMesh& mesh) const;
  void EmitBalcony(const Mesa& m, TriangleMesh& mesh) const;

  // Adds every lift to `builder`: each mesa's, from the cliff's foot to its balcony, and each
  // faction B main building's, from its ground floor to its top floor.
  void AddLifts(ContinentBuilder& builder) const;

 private:
  explicit Plan(const DemoOptions& options);
  absl::Status Lay();

  void LayTowns();      // towns.cc
  void LayBridges();    // bridges.cc
  void LayBuildings();  // buildings.cc
  void LayMesas();      // mesas.cc
  void LayCrags();      // crags.cc
  void LayZones();      // zones.cc: the zone map, and each building's zone

  // True when building b lies inside `town`, two columns from the others, off the roads and
  // with its door's front clear of them.
  bool BuildingFits(const Building& b, const Town& town) const;
  // Finds the side of mesa m for its lift, starting from axis `first_axis` (0 .. 3): sets
  // m.dx, m.dy, m.lift_x, m.lift_y and returns true, or returns false when no side fits.
  bool PlaceMesaLift(Mesa& m, int first_axis) const;
  // How badly mesa m fits: 1e6 without a lift, plus its crowding of water, towns, roads and the
  // mesas laid so far; 0 is a perfect fit.
  double MesaPenalty(const Mesa& m, bool has_lift) const;

  DemoOptions options_;
  double cs_ = 0.0;
  std::int64_t columns_x_ = 0, columns_y_ = 0;
  double width_ = 0.0, height_ = 0.0;  // yards

  Hills hills_;
  Forest forest_;
  Water water_;
  std::vector<Town> towns_;
  Roads roads_;
  std::vector<Bridge> bridges_;
  std::vector<Building> buildings_;
  std::vector<Mesa> mesas_;
  std::vector<Crag> crags_;
  ZoneMap zone_map_;

  DemoLandmarks landmarks_;
};

}  // namespace walk::nav::demo
