#include "nav/demo/landmarks.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "nav/demo/plan.h"

namespace walk::nav::demo {
namespace {

DemoPoint Point(std::int64_t x, std::int64_t y, double z) {
  DemoPoint p;
  p.x = static_cast<std::uint32_t>(x);
  p.y = static_cast<std::uint32_t>(y);
  p.z = static_cast<float>(z);
  return p;
}

// Finds the landmarks one part at a time, looking at every feature of the plan.
class LandmarkFinder {
 public:
  explicit LandmarkFinder(const Plan& plan)
      : plan_(plan), cs_(plan.column_yards()), all_(plan.Everything()) {}

  absl::StatusOr<DemoLandmarks> Find();

 private:
  // Open ground at (or nearest) the centre of each faction's first town.
  absl::Status FindTowns();
  // The first bridge with a water column wholly under its deck and dry ends.
  absl::Status FindBridge();
  // Bridge b's landmarks, when it has them: true, and they are set.
  bool FindBridgeLandmarks(const Bridge& b);
  // Whether the column of point i of bridge b lies wholly under its deck, over water: then
  // true, with the column in *x, *y and the water's level in *level.
  bool UnderDeck(const Bridge& b, std::int64_t i, std::int64_t* x, std::int64_t* y,
                 double* level) const;
  // Bridge b's ends: on the road three yards beyond each ramp. False when one is wet.
  bool BridgeEnds(const Bridge& b);
  // A column of town A's main building: its ground floor and its top floor.
  absl::Status FindBuilding();
  // The first mesa's lift, its top just inside the lift's edge, and its foot on the far side.
  absl::Status FindMesa();
  // Open ground in the zone of the lowest levels and in the zone of the highest.
  absl::Status FindZones();

  // A column one can stand on in the open: not water, building, mesa, tree or crag; flat.
  // *height receives the highest of its corners.
  bool PlainGround(std::int64_t x, std::int64_t y, double* height) const;
  // Open ground nearest (x, y) (in rings of columns, up to `reach`) for which `accept` holds.
  template <typename Accept>
  bool NearestPlain(std::int64_t x, std::int64_t y, std::int64_t reach, Accept&& accept,
                    DemoPoint* out) const;
  // The column holding point p.
  void ColumnOf(Vec2 p, std::int64_t* x, std::int64_t* y) const {
    *x = static_cast<std::int64_t>(std::floor(p.x / cs_));
    *y = static_cast<std::int64_t>(std::floor(p.y / cs_));
  }

  const Plan& plan_;
  const double cs_;
  const Context all_;
  DemoLandmarks l_;
};

bool LandmarkFinder::PlainGround(std::int64_t x, std::int64_t y, double* height) const {
  if (x < 1 || y < 1 || x + 1 >= plan_.columns_x() || y + 1 >= plan_.columns_y()) return false;
  const Vec2 centre = plan_.ColumnCentre(x, y);
  for (std::uint32_t i : all_.buildings) {
    const Building& b = plan_.buildings()[i];
    if (x >= b.x0 - 1 && y >= b.y0 - 1 && x <= b.x0 + b.footprint_x() &&
        y <= b.y0 + b.footprint_y()) {
      return false;
    }
  }
  for (std::uint32_t i : all_.mesas) {
    const Mesa& m = plan_.mesas()[i];
    if (Length(centre - m.center) < m.radius * (1.0 + kMesaShape) + 2.0 * cs_) return false;
  }
  for (std::uint32_t i : all_.crags) {
    const Crag& crag = plan_.crags()[i];
    if (Length(centre - crag.center) < crag.radius + 2.0 * cs_) return false;
  }
  double level = 0.0;
  if (plan_.water().Distance(centre, 3.0 * cs_) < 3.0 * cs_) return false;
  if (plan_.water().At(centre, all_, &level)) return false;
  for (std::uint32_t i : all_.bridges) {
    if (plan_.bridges()[i].box.Contains(centre)) return false;
  }
  bool tree = false;
  plan_.GroundTag(x, y, centre, all_, &tree);
  if (tree) return false;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (int j = 0; j <= 1; ++j) {
    for (int i = 0; i <= 1; ++i) {
      const double h =
          plan_.Height({static_cast<double>(x + i) * cs_, static_cast<double>(y + j) * cs_}, all_);
      lo = std::min(lo, h);
      hi = std::max(hi, h);
    }
  }
  if (hi - lo > 0.5) return false;
  *height = hi;
  return true;
}

template <typename Accept>
bool LandmarkFinder::NearestPlain(std::int64_t x, std::int64_t y, std::int64_t reach,
                                  Accept&& accept, DemoPoint* out) const {
  for (std::int64_t r = 0; r <= reach; ++r) {
    for (std::int64_t dy = -r; dy <= r; ++dy) {
      for (std::int64_t dx = -r; dx <= r; ++dx) {
        if (std::max(std::abs(dx), std::abs(dy)) != r) continue;
        double h = 0.0;
        if (PlainGround(x + dx, y + dy, &h) && accept(x + dx, y + dy)) {
          *out = Point(x + dx, y + dy, h);
          return true;
        }
      }
    }
  }
  return false;
}

absl::StatusOr<DemoLandmarks> LandmarkFinder::Find() {
  if (absl::Status status = FindTowns(); !status.ok()) return status;
  if (absl::Status status = FindBridge(); !status.ok()) return status;
  if (absl::Status status = FindBuilding(); !status.ok()) return status;
  if (absl::Status status = FindMesa(); !status.ok()) return status;
  if (absl::Status status = FindZones(); !status.ok()) return status;
  return l_;
}

absl::Status LandmarkFinder::FindTowns() {
  for (int faction = 0; faction < 2; ++faction) {
    const Town* town = nullptr;
    for (const Town& t : plan_.towns()) {
      if (t.faction == faction) {
        town = &t;
        break;
      }
    }
    if (town == nullptr) return absl::InternalError("demo world: a faction has no town");
    std::int64_t x = 0, y = 0;
    ColumnOf(town->center, &x, &y);
    DemoPoint* out = faction == 0 ? &l_.town_a : &l_.town_b;
    auto in_town = [&](std::int64_t px, std::int64_t py) {
      return Length(plan_.ColumnCentre(px, py) - town->center) < town->radius - 4.0;
    };
    if (!NearestPlain(x, y, 20, in_town, out)) {
      return absl::InternalError("demo world: no open ground in a town");
    }
  }
  return absl::OkStatus();
}

absl::Status LandmarkFinder::FindBridge() {
  for (const Bridge& b : plan_.bridges()) {
    if (FindBridgeLandmarks(b)) return absl::OkStatus();
  }
  return absl::InternalError("demo world: no bridge over water");
}

bool LandmarkFinder::FindBridgeLandmarks(const Bridge& b) {
  // Points of the road from the deck's middle outward, alternately before and after it.
  const double middle = (b.deck_from + b.deck_to) / 2.0;
  const auto n = static_cast<std::int64_t>(b.points.size());
  const auto mid = static_cast<std::int64_t>(middle / 2.0);
  for (std::int64_t k = 0; k < n; ++k) {
    const std::int64_t i = mid + ((k & 1) ? (k + 1) / 2 : -(k / 2));
    if (i < 0 || i >= n) continue;
    std::int64_t x = 0, y = 0;
    double level = 0.0;
    if (!UnderDeck(b, i, &x, &y, &level)) continue;
    if (!BridgeEnds(b)) return false;
    l_.bridge_deck = Point(x, y, b.deck_level);
    l_.bridge_water = Point(x, y, level);
    return true;
  }
  return false;
}

bool LandmarkFinder::UnderDeck(const Bridge& b, std::int64_t i, std::int64_t* x, std::int64_t* y,
                               double* level) const {
  const double s = 2.0 * static_cast<double>(i);
  if (s < b.deck_from + 2.0 || s > b.deck_to - 2.0) return false;
  ColumnOf(b.points[static_cast<std::size_t>(i)], x, y);
  const Vec2 centre = plan_.ColumnCentre(*x, *y);
  if (!plan_.water().At(centre, all_, level)) return false;
  // Under the deck: the column's centre near the road's line, away from the deck's ends.
  double best = std::numeric_limits<double>::infinity();
  double arc = 0.0;
  for (std::size_t q = 0; q + 1 < b.points.size(); ++q) {
    double t = 0.0;
    const double d = SegmentDistance(centre, b.points[q], b.points[q + 1], &t);
    if (d < best) {
      best = d;
      arc = (static_cast<double>(q) + t) * 2.0;
    }
  }
  return !(best > kDeckHalfWidth - 0.75 * cs_ || arc < b.deck_from + cs_ || arc > b.deck_to - cs_);
}

bool LandmarkFinder::BridgeEnds(const Bridge& b) {
  const auto n = static_cast<std::int64_t>(b.points.size());
  bool ends = true;
  for (int side = 0; side < 2 && ends; ++side) {
    const double end_arc = side == 0 ? b.deck_from - b.ramp - 3.0 : b.deck_to + b.ramp + 3.0;
    const auto at = std::clamp<std::int64_t>(
        static_cast<std::int64_t>(std::floor(end_arc / 2.0 + 0.5)), 0, n - 1);
    std::int64_t ex = 0, ey = 0;
    ColumnOf(b.points[static_cast<std::size_t>(at)], &ex, &ey);
    double wet = 0.0;
    if (plan_.water().At(plan_.ColumnCentre(ex, ey), all_, &wet)) ends = false;
    (side == 0 ? l_.bridge_start : l_.bridge_end) =
        Point(ex, ey, plan_.Height(plan_.ColumnCentre(ex, ey), all_));
  }
  return ends;
}

absl::Status LandmarkFinder::FindBuilding() {
  for (const Building& b : plan_.buildings()) {
    if (plan_.towns()[static_cast<std::size_t>(b.town)].faction != 0 || b.floors < 3) continue;
    std::int64_t x = 0, y = 0;
    plan_.LocalColumn(b, b.width - 3, 2, &x, &y);
    l_.building_ground = Point(x, y, b.base);
    l_.building_upper = Point(x, y, b.base + kFloorHeight * (b.floors - 1));
    return absl::OkStatus();
  }
  return absl::InternalError("demo world: faction A has no three-floor building");
}

absl::Status LandmarkFinder::FindMesa() {
  if (plan_.mesas().empty()) return absl::InternalError("demo world: no mesa");
  const Mesa& m = plan_.mesas()[0];
  l_.lift_bottom = Point(m.lift_x, m.lift_y, m.lift_foot);
  l_.lift_top = Point(m.lift_x, m.lift_y, m.platform);
  {
    const std::int64_t x = m.lift_x - 3 * m.dx, y = m.lift_y - 3 * m.dy;
    l_.cliff_top = Point(x, y, plan_.Height(plan_.ColumnCentre(x, y), all_) + m.cliff);
  }
  // Out from the centre the other way: the first column outside, then three more.
  const std::int64_t cx = static_cast<std::int64_t>(std::floor(m.center.x / cs_));
  const std::int64_t cy = static_cast<std::int64_t>(std::floor(m.center.y / cs_));
  std::int64_t s = 1;
  while (s < 64 && MesaInside(m, plan_.ColumnCentre(cx - s * m.dx, cy - s * m.dy))) ++s;
  s += 3;
  auto outside = [&](std::int64_t px, std::int64_t py) {
    return Length(plan_.ColumnCentre(px, py) - m.center) > m.radius * (1.0 + kMesaShape) + cs_;
  };
  if (!NearestPlain(cx - s * m.dx, cy - s * m.dy, 12, outside, &l_.cliff_foot)) {
    return absl::InternalError("demo world: no open ground at a cliff's foot");
  }
  return absl::OkStatus();
}

absl::Status LandmarkFinder::FindZones() {
  const std::vector<Zone>& zones = plan_.zones();
  const Zone* low = &zones.front();
  const Zone* high = &zones.front();
  for (const Zone& z : zones) {
    if (z.min_level < low->min_level) low = &z;
    if (z.min_level > high->min_level) high = &z;
  }
  for (const Zone* z : {low, high}) {
    const Vec2 site = plan_.zone_map().site(z->id);
    std::int64_t x = 0, y = 0;
    ColumnOf({std::clamp(site.x, 0.0, plan_.width() - 1.0),
              std::clamp(site.y, 0.0, plan_.height() - 1.0)},
             &x, &y);
    auto in_zone = [&](std::int64_t px, std::int64_t py) {
      return plan_.zone_map().At(plan_.ColumnCentre(px, py)) == z->id;
    };
    DemoPoint* out = z == low ? &l_.low_zone : &l_.high_zone;
    if (!NearestPlain(x, y, 200, in_zone, out)) {
      return absl::InternalError(absl::StrCat("demo world: no open ground in zone ", z->id));
    }
  }
  l_.low_zone_id = low->id;
  l_.high_zone_id = high->id;
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<DemoLandmarks> LocateLandmarks(const Plan& plan) {
  return LandmarkFinder(plan).Find();
}

}  // namespace walk::nav::demo
