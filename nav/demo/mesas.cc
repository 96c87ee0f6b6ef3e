#include "nav/demo/mesas.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "nav/demo/plan.h"
#include "nav/demo/random.h"
#include "nav/demo/triangles.h"

namespace walk::nav::demo {

bool MesaInside(const Mesa& m, Vec2 p) {
  const Vec2 d = p - m.center;
  const double len = Length(d);
  if (len < 1e-9) return true;
  const double r =
      m.radius * (1.0 + kMesaShape * Noise(m.shape, 1.6 * d.x / len + 3.0, 1.6 * d.y / len + 3.0));
  return len < r;
}

void Plan::LayMesas() {
  const int count =
      std::clamp<int>(static_cast<int>(options_.tiles_x * options_.tiles_y / 2), 1, 400);
  const Context all = Everything();  // rivers, lakes, towns, bridges: the mesas sit on them
  for (int k = 0; k < count; ++k) {
    Rng rng(Salt(options_.seed, 500 + static_cast<std::uint64_t>(k)));
    Mesa best;
    double best_penalty = std::numeric_limits<double>::infinity();
    for (int attempt = 0; attempt < 300 && best_penalty > 0.0; ++attempt) {
      Mesa m;
      m.radius = rng.Uniform(24.0, 36.0);
      m.cliff = rng.Uniform(6.0, 8.5);
      m.shape = rng.Next();
      const double reach = m.radius * (1.0 + kMesaShape);
      const double margin = reach + 20.0;
      m.center = {rng.Uniform(margin, std::max(margin, width_ - margin)),
                  rng.Uniform(margin, std::max(margin, height_ - margin))};
      const int first_axis = rng.Int(0, 3);
      const bool lift = PlaceMesaLift(m, first_axis);
      const double penalty = MesaPenalty(m, lift);
      if (penalty < best_penalty) {
        best_penalty = penalty;
        best = m;
      }
    }
    // The first mesa is always laid (its lift is a landmark); the others only where they fit.
    if (best_penalty >= 1e6 || (k > 0 && best_penalty > 0.0)) continue;
    const Vec2 top = ColumnCentre(best.lift_x - best.dx, best.lift_y - best.dy);
    best.platform = Height(top, all) + best.cliff;
    best.lift_foot = Height(ColumnCentre(best.lift_x, best.lift_y), all);
    mesas_.push_back(best);
  }
}

bool Plan::PlaceMesaLift(Mesa& m, int first_axis) const {
  // Walk out from the centre column along an axis to the first column outside; the balcony
  // needs it and the next outside, the top needs room inside.
  const std::int64_t cx = static_cast<std::int64_t>(std::floor(m.center.x / cs_));
  const std::int64_t cy = static_cast<std::int64_t>(std::floor(m.center.y / cs_));
  for (int a = 0; a < 4; ++a) {
    static constexpr int kAxes[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    const int dx = kAxes[(first_axis + a) % 4][0], dy = kAxes[(first_axis + a) % 4][1];
    std::int64_t out = 0;
    for (std::int64_t s = 1; s < 64; ++s) {
      if (!MesaInside(m, ColumnCentre(cx + s * dx, cy + s * dy))) {
        out = s;
        break;
      }
    }
    if (out < 5) continue;
    bool ok = !MesaInside(m, ColumnCentre(cx + (out + 1) * dx, cy + (out + 1) * dy));
    for (std::int64_t s = 0; s < out && ok; ++s) {
      ok = MesaInside(m, ColumnCentre(cx + s * dx, cy + s * dy));
    }
    // The balcony's two columns have no mesa beside them.
    for (std::int64_t s = out; s <= out + 1 && ok; ++s) {
      for (int side = -1; side <= 1 && ok; side += 2) {
        ok = !MesaInside(m, ColumnCentre(cx + s * dx + side * dy, cy + s * dy + side * dx));
      }
    }
    if (!ok) continue;
    m.dx = dx;
    m.dy = dy;
    m.lift_x = cx + out * dx;
    m.lift_y = cy + out * dy;
    return true;
  }
  return false;
}

double Plan::MesaPenalty(const Mesa& m, bool has_lift) const {
  const double reach = m.radius * (1.0 + kMesaShape);
  double penalty = has_lift ? 0.0 : 1e6;
  penalty += std::max(0.0, reach + 40.0 - water_.Distance(m.center, reach + 40.0));
  for (const Town& t : towns_) {
    penalty += std::max(0.0, t.radius + reach + 40.0 - Length(t.center - m.center));
  }
  penalty += std::max(0.0, reach + 30.0 - roads_.Distance(m.center, reach + 30.0));
  for (const Mesa& o : mesas_) {
    penalty += std::max(
        0.0, (o.radius + m.radius) * (1.0 + kMesaShape) + 30.0 - Length(o.center - m.center));
  }
  return penalty;
}

void Plan::EmitBalcony(const Mesa& m, TriangleMesh& mesh) const {
  // Over the lift column and the next one out, at the top's height.
  const std::int64_t ax = std::min(m.lift_x, m.lift_x + m.dx),
                     bx = std::max(m.lift_x, m.lift_x + m.dx);
  const std::int64_t ay = std::min(m.lift_y, m.lift_y + m.dy),
                     by = std::max(m.lift_y, m.lift_y + m.dy);
  const double x0 = static_cast<double>(ax) * cs_ + kInset,
               x1 = static_cast<double>(bx + 1) * cs_ - kInset;
  const double z0 = static_cast<double>(ay) * cs_ + kInset,
               z1 = static_cast<double>(by + 1) * cs_ - kInset;
  const TriangleTag tag{kFlagBuilding, 0, zone_map_.At(ColumnCentre(m.lift_x, m.lift_y))};
  AddFloorQuad(mesh, {x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}, m.platform, m.platform, m.platform,
               m.platform, tag);
}

}  // namespace walk::nav::demo
