#include "nav/demo/buildings.h"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "nav/demo/plan.h"
#include "nav/demo/random.h"
#include "nav/demo/roads.h"
#include "nav/demo/triangles.h"

namespace walk::nav::demo {
namespace {

constexpr int kStepsPerFlight = 8;
constexpr double kStepRise = 0.4;  // kFloorHeight / kStepsPerFlight
constexpr double kDoorHeight = 2.7;
constexpr double kGroundFloorRise = 0.3;  // a building's ground floor above the town

}  // namespace

Vec2 Plan::Local(const Building& b, double u, double v) const {
  double x = 0.0, y = 0.0;
  switch (b.orient) {
    case 0:
      x = u;
      y = v;
      break;
    case 1:
      x = u;
      y = b.depth - v;
      break;
    case 2:
      x = v;
      y = u;
      break;
    default:
      x = b.depth - v;
      y = u;
      break;
  }
  return {(static_cast<double>(b.x0) + x) * cs_, (static_cast<double>(b.y0) + y) * cs_};
}

void Plan::LocalColumn(const Building& b, int u, int v, std::int64_t* x, std::int64_t* y) const {
  const Vec2 p = Local(b, u + 0.5, v + 0.5);
  *x = static_cast<std::int64_t>(std::floor(p.x / cs_));
  *y = static_cast<std::int64_t>(std::floor(p.y / cs_));
}

void Plan::LayBuildings() {
  struct Spec {
    int width, depth, floors;
  };
  constexpr std::array<Spec, 3> kSpecs = {{{13, 10, 3}, {12, 7, 2}, {12, 7, 2}}};
  constexpr std::array<double, 5> kRadii = {0.42, 0.5, 0.34, 0.58, 0.26};
  for (std::uint32_t t = 0; t < towns_.size(); ++t) {
    const Town& town = towns_[t];
    Rng rng(Salt(options_.seed, 400 + t));
    const int start = rng.Int(0, 7);
    for (std::size_t s = 0; s < kSpecs.size(); ++s) {
      bool placed = false;
      for (double radius : kRadii) {
        for (int k = 0; k < 8 && !placed; ++k) {
          const Vec2 dir =
              kEightWays[static_cast<std::size_t>((start + k + 3 * static_cast<int>(s)) % 8)];
          const Vec2 centre = town.center + dir * (radius * town.radius);
          Building b;
          b.town = static_cast<int>(t);
          b.width = kSpecs[s].width;
          b.depth = kSpecs[s].depth;
          b.floors = kSpecs[s].floors;
          b.lift = s == 0 && town.faction == 1;
          if (std::abs(dir.x) >= std::abs(dir.y)) {
            b.orient = dir.x > 0.0 ? 2 : 3;  // east of the centre: the door faces west
          } else {
            b.orient = dir.y > 0.0 ? 0 : 1;
          }
          b.x0 =
              static_cast<std::int64_t>(std::floor(centre.x / cs_ - b.footprint_x() / 2.0 + 0.5));
          b.y0 =
              static_cast<std::int64_t>(std::floor(centre.y / cs_ - b.footprint_y() / 2.0 + 0.5));
          if (!BuildingFits(b, town)) continue;
          b.base = town.level + kGroundFloorRise;
          b.zone = 0;  // set with the zones
          b.hub = town.faction == 0 ? kMarkHubA : kMarkHubB;
          buildings_.push_back(b);
          placed = true;
        }
        if (placed) break;
      }
    }
  }
}

bool Plan::BuildingFits(const Building& b, const Town& town) const {
  if (b.x0 < 2 || b.y0 < 2 || b.x0 + b.footprint_x() + 2 > columns_x_ ||
      b.y0 + b.footprint_y() + 2 > columns_y_) {
    return false;
  }
  // Inside the town.
  for (int cx = 0; cx <= 1; ++cx) {
    for (int cy = 0; cy <= 1; ++cy) {
      const Vec2 corner{static_cast<double>(b.x0 + cx * b.footprint_x()) * cs_,
                        static_cast<double>(b.y0 + cy * b.footprint_y()) * cs_};
      if (Length(corner - town.center) > town.radius - 2.0) return false;
    }
  }
  // Apart from the others, by two columns.
  for (const Building& o : buildings_) {
    if (b.x0 - 2 < o.x0 + o.footprint_x() && o.x0 - 2 < b.x0 + b.footprint_x() &&
        b.y0 - 2 < o.y0 + o.footprint_y() && o.y0 - 2 < b.y0 + b.footprint_y()) {
      return false;
    }
  }
  // Off the roads, and the door's front clear of them.
  for (std::int64_t y = b.y0 - 1; y <= b.y0 + b.footprint_y(); ++y) {
    for (std::int64_t x = b.x0 - 1; x <= b.x0 + b.footprint_x(); ++x) {
      if (roads_.Distance(ColumnCentre(x, y), kRoadHalfWidth + 3.0) < kRoadHalfWidth + 3.0) {
        return false;
      }
    }
  }
  return true;
}

void Plan::EmitBuilding(const Building& b, TriangleMesh& mesh) const {
  const double e = kInset / cs_;  // the inset, in columns
  const TriangleTag indoor{static_cast<std::uint8_t>(kFlagBuilding | kFlagIndoor), b.hub, b.zone};
  const TriangleTag outdoor{kFlagBuilding, b.hub, b.zone};
  const double top = b.base + kFloorHeight * b.floors;
  const double W = b.width, D = b.depth;
  auto slab = [&](double u0, double v0, double u1, double v1, double y, TriangleTag tag) {
    if (u1 <= u0 || v1 <= v0) return;
    AddFloorQuad(mesh, Local(b, u0, v0), Local(b, u1, v0), Local(b, u1, v1), Local(b, u0, v1), y, y,
                 y, y, tag);
  };
  auto wall = [&](double u0, double v0, double u1, double v1, double bottom, double up) {
    AddWall(mesh, Local(b, u0, v0), Local(b, u1, v1), bottom, bottom, up, up, outdoor);
  };
  // The stair core, from the back wall: the first flight's lane (two columns), a wall, the second
  // flight's lane, a wall; each wall one column thick, along the flights' columns (u 2 .. 9).
  auto lane = [&](int flight, double* v0, double* v1) {
    *v0 = flight == 0 ? D - 3.0 : D - 6.0;
    *v1 = *v0 + 2.0;
  };
  // Floors, each with a hole over the flight that comes up to it.
  for (int k = 0; k < b.floors; ++k) {
    const double y = b.base + kFloorHeight * k;
    if (k == 0) {
      slab(e, e, W - e, D - e, y, indoor);
      continue;
    }
    double hv0 = 0.0, hv1 = 0.0;
    lane(k - 1, &hv0, &hv1);
    const double hu0 = 2.0 - e, hu1 = 2.0 + kStepsPerFlight + e;
    hv0 -= e;
    hv1 += e;
    slab(e, e, hu0, D - e, y, indoor);
    slab(hu1, e, W - e, D - e, y, indoor);
    slab(hu0, e, hu1, hv0, y, indoor);
    slab(hu0, hv1, hu1, D - e, y, indoor);
  }
  slab(e, e, W - e, D - e, top, outdoor);  // the roof
  // Stairs: flight f climbs from floor f to floor f + 1, 8 steps of 0.4 yards, one column each;
  // the first eastward (in u) from u = 2, the second back westward over the same columns.
  for (int f = 0; f + 1 < b.floors; ++f) {
    double v0 = 0.0, v1 = 0.0;
    lane(f, &v0, &v1);
    for (int j = 0; j < kStepsPerFlight; ++j) {
      const int u = f == 0 ? 2 + j : 1 + kStepsPerFlight - j;
      const double y = b.base + kFloorHeight * f + kStepRise * (j + 1);
      slab(u + e, v0 + e, u + 1 - e, v1 - e, y, indoor);
      const double riser = f == 0 ? u + e : u + 1 - e;  // on the side of the step below
      AddWall(mesh, Local(b, riser, v0 + e), Local(b, riser, v1 - e), y - kStepRise, y - kStepRise,
              y, y, indoor);
    }
  }
  // Walls along the middle of the outermost columns, a door of two columns in the front one.
  const double bottom = b.base - 0.5;
  for (int f = 0; f + 1 < b.floors; ++f) {
    double v0 = 0.0, v1 = 0.0;
    lane(f, &v0, &v1);
    wall(2.0 + e, v0 - 0.5, 2.0 + kStepsPerFlight - e, v0 - 0.5, bottom, top);
  }
  const double door = std::floor(W / 2.0) - 1.0;
  wall(0.5, D - 0.5, W - 0.5, D - 0.5, bottom, top);
  wall(0.5, 0.5, 0.5, D - 0.5, bottom, top);
  wall(W - 0.5, 0.5, W - 0.5, D - 0.5, bottom, top);
  wall(0.5, 0.5, door - e, 0.5, bottom, top);
  wall(door + 2.0 + e, 0.5, W - 0.5, 0.5, bottom, top);
  wall(door - e, 0.5, door + 2.0 + e, 0.5, b.base + kDoorHeight, top);  // over the door
}

}  // namespace walk::nav::demo
