#include "nav/demo/tile_mesh.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "nav/demo/triangles.h"

namespace walk::nav::demo {
namespace {

constexpr int kMarginColumns = 4;  // geometry made beyond each side of a tile
constexpr double kTreeHeight = 7.0;

// The quad of one column of open ground: its corners, inset from the column's boundaries, their
// heights, and the ground's heights at the column's own corners.
struct ColumnQuad {
  Vec2 a, b, c, d;  // (x0, z0), (x1, z0), (x1, z1), (x0, z1)
  double ha = 0.0, hb = 0.0, hc = 0.0, hd = 0.0;
  double h00 = 0.0, h10 = 0.0, h01 = 0.0, h11 = 0.0;
};

// Makes one tile's triangles: the window of columns it covers, the ground's height at their
// corners, which columns hold buildings and mesas, a quad per column, then the structures.
class TileMesher {
 public:
  TileMesher(const Plan& plan, std::uint32_t tx, std::uint32_t ty);

  TriangleMesh Make();

 private:
  void SampleCorners();
  void RasterizeBuildings();
  void RasterizeMesas();
  void ReserveMesh();
  // The quad of column (x, y) of the window: water at its level, or ground (with its cliffs and
  // tree); nothing under a building, whose own floors cover it.
  void EmitColumn(std::int64_t x, std::int64_t y);
  // Cliffs: a vertical wall along each side of mesa column (x, y) facing ground that is not
  // mesa `on_mesa`'s.
  void EmitCliffs(std::int64_t x, std::int64_t y, std::uint32_t on_mesa, const ColumnQuad& q,
                  std::uint16_t zone);
  // A tree: two crossed vertical quads standing on `ground` at `centre`.
  void EmitTree(Vec2 centre, double ground, std::uint16_t zone);
  // The buildings, bridge decks and lift balconies that reach into the window.
  void EmitStructures();

  double corner_at(std::int64_t i, std::int64_t j) const {
    return corner_[static_cast<std::size_t>(j * (nx_ + 1) + i)];
  }
  std::uint32_t mesa_at(std::int64_t x, std::int64_t y) const {
    return mesa_[static_cast<std::size_t>((y - cy0_ + 1) * rx_ + (x - cx0_ + 1))];
  }

  const Plan& plan_;
  const double cs_;
  // The window of columns [cx0_, cx1_) x [cy0_, cy1_): the tile and its margin, within the world.
  std::int64_t cx0_ = 0, cy0_ = 0, cx1_ = 0, cy1_ = 0;
  std::int64_t nx_ = 0, ny_ = 0;
  Context c_;
  // Heights at column corners, (nx_ + 1) x (ny_ + 1).
  std::vector<double> corner_;
  // Which columns are buildings' (index + 1), nx_ x ny_.
  std::vector<std::uint32_t> building_;
  // Which columns are mesas' (index + 1), with one column more on every side (rx_ wide).
  std::int64_t rx_ = 0;
  std::vector<std::uint32_t> mesa_;
  TriangleMesh mesh_;
};

TileMesher::TileMesher(const Plan& plan, std::uint32_t tx, std::uint32_t ty)
    : plan_(plan), cs_(plan.column_yards()) {
  cx0_ = std::max<std::int64_t>(0, std::int64_t{tx} * kTileColumns - kMarginColumns);
  cy0_ = std::max<std::int64_t>(0, std::int64_t{ty} * kTileColumns - kMarginColumns);
  cx1_ = std::min<std::int64_t>(plan.columns_x(),
                                (std::int64_t{tx} + 1) * kTileColumns + kMarginColumns);
  cy1_ = std::min<std::int64_t>(plan.columns_y(),
                                (std::int64_t{ty} + 1) * kTileColumns + kMarginColumns);
  nx_ = cx1_ - cx0_;
  ny_ = cy1_ - cy0_;
  const Box box{static_cast<double>(cx0_) * cs_, static_cast<double>(cy0_) * cs_,
                static_cast<double>(cx1_) * cs_, static_cast<double>(cy1_) * cs_};
  c_ = plan.ContextFor(box.Grown(cs_));
}

TriangleMesh TileMesher::Make() {
  SampleCorners();
  RasterizeBuildings();
  RasterizeMesas();
  ReserveMesh();
  for (std::int64_t y = cy0_; y < cy1_; ++y) {
    for (std::int64_t x = cx0_; x < cx1_; ++x) EmitColumn(x, y);
  }
  EmitStructures();
  return std::move(mesh_);
}

void TileMesher::SampleCorners() {
  corner_.resize(static_cast<std::size_t>((nx_ + 1) * (ny_ + 1)));
  for (std::int64_t j = 0; j <= ny_; ++j) {
    for (std::int64_t i = 0; i <= nx_; ++i) {
      corner_[static_cast<std::size_t>(j * (nx_ + 1) + i)] = plan_.Height(
          {static_cast<double>(cx0_ + i) * cs_, static_cast<double>(cy0_ + j) * cs_}, c_);
    }
  }
}

void TileMesher::RasterizeBuildings() {
  building_.assign(static_cast<std::size_t>(nx_ * ny_), 0);
  for (std::uint32_t k : c_.buildings) {
    const Building& b = plan_.buildings()[k];
    for (std::int64_t y = std::max(cy0_, b.y0); y < std::min(cy1_, b.y0 + b.footprint_y()); ++y) {
      for (std::int64_t x = std::max(cx0_, b.x0); x < std::min(cx1_, b.x0 + b.footprint_x()); ++x) {
        building_[static_cast<std::size_t>((y - cy0_) * nx_ + (x - cx0_))] = k + 1;
      }
    }
  }
}

void TileMesher::RasterizeMesas() {
  rx_ = nx_ + 2;
  mesa_.assign(static_cast<std::size_t>((nx_ + 2) * (ny_ + 2)), 0);
  for (std::uint32_t k : c_.mesas) {
    const Mesa& m = plan_.mesas()[k];
    const double reach = m.radius * (1.0 + kMesaShape) + cs_;
    const std::int64_t x0 =
        std::max(cx0_ - 1, static_cast<std::int64_t>(std::floor((m.center.x - reach) / cs_)));
    const std::int64_t x1 =
        std::min(cx1_, static_cast<std::int64_t>(std::floor((m.center.x + reach) / cs_)));
    const std::int64_t y0 =
        std::max(cy0_ - 1, static_cast<std::int64_t>(std::floor((m.center.y - reach) / cs_)));
    const std::int64_t y1 =
        std::min(cy1_, static_cast<std::int64_t>(std::floor((m.center.y + reach) / cs_)));
    for (std::int64_t y = y0; y <= y1; ++y) {
      for (std::int64_t x = x0; x <= x1; ++x) {
        if (MesaInside(m, plan_.ColumnCentre(x, y))) {
          mesa_[static_cast<std::size_t>((y - cy0_ + 1) * rx_ + (x - cx0_ + 1))] = k + 1;
        }
      }
    }
  }
}

void TileMesher::ReserveMesh() {
  mesh_.vertices.reserve(static_cast<std::size_t>(nx_ * ny_) * 12 + 4096);
  mesh_.indices.reserve(static_cast<std::size_t>(nx_ * ny_) * 6 + 4096);
  mesh_.tags.reserve(static_cast<std::size_t>(nx_ * ny_) * 2 + 1024);
}

void TileMesher::EmitColumn(std::int64_t x, std::int64_t y) {
  const std::int64_t i = x - cx0_, j = y - cy0_;
  if (building_[static_cast<std::size_t>(j * nx_ + i)] != 0) return;
  const Vec2 centre = plan_.ColumnCentre(x, y);
  // The cell's quad, inset from its boundaries so that no column picks up a sliver of its
  // neighbour's triangles (Recast would merge their areas).
  const double x0 = static_cast<double>(x) * cs_ + kInset,
               x1 = static_cast<double>(x + 1) * cs_ - kInset;
  const double z0 = static_cast<double>(y) * cs_ + kInset,
               z1 = static_cast<double>(y + 1) * cs_ - kInset;
  ColumnQuad q;
  q.a = {x0, z0};
  q.b = {x1, z0};
  q.c = {x1, z1};
  q.d = {x0, z1};
  const std::uint32_t on_mesa = mesa_at(x, y);
  double level = 0.0;
  if (on_mesa == 0 && plan_.water().At(centre, c_, &level)) {
    const TriangleTag tag{static_cast<std::uint8_t>(kFlagTerrain | kFlagWater), 0,
                          plan_.zone_map().At(centre)};
    AddFloorQuad(mesh_, q.a, q.b, q.c, q.d, level, level, level, level, tag);
    return;
  }
  q.h00 = corner_at(i, j);
  q.h10 = corner_at(i + 1, j);
  q.h01 = corner_at(i, j + 1);
  q.h11 = corner_at(i + 1, j + 1);
  auto bilinear = [&q](double u, double v) {
    return (q.h00 * (1.0 - u) + q.h10 * u) * (1.0 - v) + (q.h01 * (1.0 - u) + q.h11 * u) * v;
  };
  const double f = kInset / cs_;
  const double cliff = on_mesa != 0 ? plan_.mesas()[on_mesa - 1].cliff : 0.0;
  q.ha = bilinear(f, f) + cliff;
  q.hb = bilinear(1.0 - f, f) + cliff;
  q.hc = bilinear(1.0 - f, 1.0 - f) + cliff;
  q.hd = bilinear(f, 1.0 - f) + cliff;
  bool tree = false;
  const TriangleTag tag = plan_.GroundTag(x, y, centre, c_, &tree);
  AddFloorQuad(mesh_, q.a, q.b, q.c, q.d, q.ha, q.hb, q.hc, q.hd, tag);
  if (on_mesa != 0) EmitCliffs(x, y, on_mesa, q, tag.zone);
  if (tree) EmitTree(centre, std::max({q.ha, q.hb, q.hc, q.hd}), tag.zone);
}

void TileMesher::EmitCliffs(std::int64_t x, std::int64_t y, std::uint32_t on_mesa,
                            const ColumnQuad& q, std::uint16_t zone) {
  const TriangleTag rock{kFlagTerrain, 0, zone};
  struct Side {
    int dx, dy;
    Vec2 a, b;
    double ha, hb, foot_a, foot_b;
  };
  const Side sides[4] = {
      {1, 0, q.b, q.c, q.hb, q.hc, q.h10, q.h11},
      {-1, 0, q.a, q.d, q.ha, q.hd, q.h00, q.h01},
      {0, 1, q.d, q.c, q.hd, q.hc, q.h01, q.h11},
      {0, -1, q.a, q.b, q.ha, q.hb, q.h00, q.h10},
  };
  for (const Side& s : sides) {
    const std::int64_t sx = x + s.dx, sy = y + s.dy;
    if (sx < 0 || sy < 0 || sx >= plan_.columns_x() || sy >= plan_.columns_y()) continue;
    if (mesa_at(sx, sy) == on_mesa) continue;
    const double foot = std::min(s.foot_a, s.foot_b) - 0.3;
    AddWall(mesh_, s.a, s.b, foot, foot, s.ha, s.hb, rock);
  }
}

void TileMesher::EmitTree(Vec2 centre, double ground, std::uint16_t zone) {
  const double r = 0.45;
  const TriangleTag bark{static_cast<std::uint8_t>(kFlagTerrain | kFlagForest), 0, zone};
  AddWall(mesh_, centre + Vec2{-r, 0.0}, centre + Vec2{r, 0.0}, ground - 0.3, ground - 0.3,
          ground + kTreeHeight, ground + kTreeHeight, bark);
  AddWall(mesh_, centre + Vec2{0.0, -r}, centre + Vec2{0.0, r}, ground - 0.3, ground - 0.3,
          ground + kTreeHeight, ground + kTreeHeight, bark);
}

void TileMesher::EmitStructures() {
  for (std::uint32_t k : c_.buildings) plan_.EmitBuilding(plan_.buildings()[k], mesh_);
  for (std::uint32_t k : c_.bridges) plan_.EmitBridge(plan_.bridges()[k], mesh_);
  for (std::uint32_t k : c_.mesas) plan_.EmitBalcony(plan_.mesas()[k], mesh_);
}

}  // namespace

TriangleMesh TileMesh(const Plan& plan, std::uint32_t tx, std::uint32_t ty) {
  return TileMesher(plan, tx, ty).Make();
}

}  // namespace walk::nav::demo
