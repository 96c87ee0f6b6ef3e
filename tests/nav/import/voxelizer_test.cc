// Voxelizing triangle meshes with Recast: tiny meshes built in code (a floor, a two-floor
// building, a ledge, a steep slope, water, a low ceiling, a mesh across two tiles), the OBJ
// reader, and every level mesh of the shared data set.
#include "nav/import/voxelizer.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nav/import/triangle_mesh.h"
#include "tests/nav/ascii_grid.h"

namespace walk::nav {
namespace {

using testing::SharedDataDir;

constexpr TriangleTag kGroundTag{};
constexpr TriangleTag kBuilding{kFlagBuilding, 0, 0};
constexpr TriangleTag kWater{kFlagTerrain | kFlagWater, 0, 0};

// A quad of four corners, wound so its normal points up (ceilings: down).
void AddQuad(TriangleMesh& mesh, const float (&p)[4][3], TriangleTag tag, bool facing_up = true) {
  std::uint32_t v[4];
  for (int i = 0; i < 4; ++i) v[i] = mesh.AddVertex(p[i][0], p[i][1], p[i][2]);
  const double e0[3] = {p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
  const double e1[3] = {p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]};
  const double ny = e0[2] * e1[0] - e0[0] * e1[2];
  if ((ny >= 0) == facing_up) {
    mesh.AddQuad(v[0], v[1], v[2], v[3], tag);
  } else {
    mesh.AddQuad(v[0], v[3], v[2], v[1], tag);
  }
}

// A level rectangle [x0, x1] x [z0, z1] at height y.
void AddFloor(TriangleMesh& mesh, float x0, float z0, float x1, float z1, float y,
              TriangleTag tag = kGroundTag, bool facing_up = true) {
  AddQuad(mesh, {{x0, y, z0}, {x0, y, z1}, {x1, y, z1}, {x1, y, z0}}, tag, facing_up);
}

// A slope along x: from height y0 at x0 to y1 at x1, over [z0, z1].
void AddSlopeX(TriangleMesh& mesh, float x0, float y0, float x1, float y1, float z0, float z1,
               TriangleTag tag = kGroundTag) {
  AddQuad(mesh, {{x0, y0, z0}, {x0, y0, z1}, {x1, y1, z1}, {x1, y1, z0}}, tag);
}

// A closed box's top and four walls (no bottom): a raised platform.
void AddBox(TriangleMesh& mesh, float x0, float z0, float x1, float z1, float y0, float y1,
            TriangleTag tag = kBuilding) {
  AddFloor(mesh, x0, z0, x1, z1, y1, tag);
  AddQuad(mesh, {{x0, y0, z0}, {x1, y0, z0}, {x1, y1, z0}, {x0, y1, z0}}, tag);
  AddQuad(mesh, {{x0, y0, z1}, {x1, y0, z1}, {x1, y1, z1}, {x0, y1, z1}}, tag);
  AddQuad(mesh, {{x0, y0, z0}, {x0, y0, z1}, {x0, y1, z1}, {x0, y1, z0}}, tag);
  AddQuad(mesh, {{x1, y0, z0}, {x1, y0, z1}, {x1, y1, z1}, {x1, y1, z0}}, tag);
}

Continent Voxelize(const TriangleMesh& mesh, const VoxelizeOptions& options = {},
                   VoxelizeStats* stats = nullptr) {
  std::uint32_t width = 0, height = 0;
  MeshExtent(mesh, options, &width, &height);
  absl::StatusOr<Continent> c = VoxelizeMesh(mesh, options, 0, width, height, stats);
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? *std::move(c) : Continent{};
}

// The column of mesh point (x, z) with the default 0.5-yard columns from origin 0.
std::uint32_t Col(double yards) { return static_cast<std::uint32_t>(std::floor(yards / 0.5)); }

std::vector<SurfaceId> Surfaces(const Continent& c, std::uint32_t x, std::uint32_t y) {
  std::vector<SurfaceId> out;
  if (!c.OnMap(x, y)) return out;
  SurfaceId first, end;
  c.ColumnSurfaces(x, y, &first, &end);
  for (SurfaceId s = first; s < end; ++s) out.push_back(s);
  return out;
}

// The surface of column (x, y) nearest height `yards`, or kInvalidId.
SurfaceId SurfaceNear(const Continent& c, std::uint32_t x, std::uint32_t y, double yards) {
  SurfaceId best = kInvalidId;
  for (SurfaceId s : Surfaces(c, x, y)) {
    if (best == kInvalidId ||
        std::abs(c.height_yards[s] - yards) < std::abs(c.height_yards[best] - yards)) {
      best = s;
    }
  }
  return best;
}

// The link of `s` towards (dx, dy), or kNoLink.
Link LinkToward(const Continent& c, SurfaceId s, int dx, int dy) {
  for (int d = 0; d < kDirectionCount; ++d) {
    if (kDirectionDx[d] == dx && kDirectionDy[d] == dy) return c.links[s][d];
  }
  return kNoLink;
}

// True when `to` is reached from `from` following links forward (falls only if allowed).
bool Reaches(const Continent& c, SurfaceId from, SurfaceId to, bool falls) {
  std::vector<bool> seen(c.surface_count(), false);
  std::deque<SurfaceId> queue = {from};
  seen[from] = true;
  while (!queue.empty()) {
    const SurfaceId s = queue.front();
    queue.pop_front();
    if (s == to) return true;
    for (int d = 0; d < kDirectionCount; ++d) {
      const Link link = c.links[s][d];
      if (!HasLink(link) || (!falls && LinkKindOf(link) == LinkKind::kFall)) continue;
      const SurfaceId t = c.LinkTarget(s, d);
      if (!seen[t]) {
        seen[t] = true;
        queue.push_back(t);
      }
    }
  }
  return false;
}

TEST(VoxelizerTest, FlatFloorGivesOneSurfacePerColumnAndOneRegion) {
  TriangleMesh mesh;
  AddFloor(mesh, 0.25f, 0.25f, 10.25f, 5.25f, 0.0f);
  VoxelizeStats stats;
  const Continent c = Voxelize(mesh, {}, &stats);
  ASSERT_EQ(c.width_columns, 21u);
  ASSERT_EQ(c.height_columns, 11u);
  for (std::uint32_t y = 0; y < c.height_columns; ++y) {
    for (std::uint32_t x = 0; x < c.width_columns; ++x) {
      const std::vector<SurfaceId> s = Surfaces(c, x, y);
      ASSERT_EQ(s.size(), 1u) << "column " << x << "," << y;
      EXPECT_NEAR(c.height_yards[s[0]], 0.1, 0.1 + 1e-4);  // the top of a 0.2-yard step
      EXPECT_TRUE(std::isinf(c.headroom_yards[s[0]]));
      EXPECT_EQ(c.flags[s[0]], kFlagTerrain);
    }
  }
  EXPECT_EQ(c.surface_count(), 21u * 11u);
  EXPECT_EQ(c.region_count(), 1u);
  EXPECT_EQ(c.MaxFloors(), 1u);
  const SurfaceId middle = Surfaces(c, 10, 5)[0];
  for (int d = 0; d < kDirectionCount; ++d) {
    ASSERT_TRUE(HasLink(c.links[middle][d]));
    EXPECT_EQ(LinkKindOf(c.links[middle][d]), LinkKind::kWalk);
  }
  EXPECT_EQ(stats.triangles, 2u);
  EXPECT_EQ(stats.spans, c.surface_count());
  EXPECT_EQ(stats.heightfields, 1u);
  EXPECT_EQ(stats.dropped_surfaces, 0u);
}

TriangleMesh TwoFloorBuilding(bool with_ramp) {
  TriangleMesh mesh;
  AddFloor(mesh, 0.25f, 0.25f, 20.25f, 10.25f, 0.0f);              // the ground
  AddFloor(mesh, 10.25f, 0.25f, 20.25f, 10.25f, 4.0f, kBuilding);  // the upper floor, 4 yd up
  if (with_ramp) AddSlopeX(mesh, 2.25f, 0.0f, 10.25f, 4.0f, 0.25f, 3.25f);  // 27 degrees
  return mesh;
}

TEST(VoxelizerTest, TwoFloorBuildingStacksTwoSurfacesAndARampJoinsThem) {
  const Continent c = Voxelize(TwoFloorBuilding(true));
  const std::vector<SurfaceId> stack = Surfaces(c, Col(15.1), Col(5.1));
  ASSERT_EQ(stack.size(), 2u);
  EXPECT_NEAR(c.height_yards[stack[0]], 0.1, 0.11);
  EXPECT_NEAR(c.height_yards[stack[1]], 4.0, 0.21);
  EXPECT_EQ(c.level[stack[0]], 0);
  EXPECT_EQ(c.level[stack[1]], 1);
  EXPECT_NEAR(c.headroom_yards[stack[0]], 3.8, 0.21);  // up to the upper floor's underside
  EXPECT_TRUE(std::isinf(c.headroom_yards[stack[1]]));
  EXPECT_EQ(c.flags[stack[1]], kFlagBuilding);
  EXPECT_EQ(c.MaxFloors(), 2u);

  // Up the ramp without falling; down by a fall off the edge (or the ramp).
  const SurfaceId ground = Surfaces(c, Col(1.1), Col(8.1))[0];
  EXPECT_TRUE(Reaches(c, ground, stack[1], /*falls=*/false));
  EXPECT_TRUE(Reaches(c, stack[1], ground, /*falls=*/true));
  EXPECT_EQ(c.region[ground], c.region[stack[1]]);

  // Without the ramp nothing walks up.
  const Continent no_ramp = Voxelize(TwoFloorBuilding(false));
  const SurfaceId ground2 = Surfaces(no_ramp, Col(1.1), Col(8.1))[0];
  const SurfaceId upper2 = SurfaceNear(no_ramp, Col(15.1), Col(5.1), 4.0);
  ASSERT_NE(upper2, kInvalidId);
  EXPECT_FALSE(Reaches(no_ramp, ground2, upper2, /*falls=*/true));
  EXPECT_TRUE(Reaches(no_ramp, upper2, ground2, /*falls=*/true));
}

TEST(VoxelizerTest, BuilderHookAddsLifts) {
  const TriangleMesh mesh = TwoFloorBuilding(false);
  std::uint32_t width, height;
  MeshExtent(mesh, {}, &width, &height);
  const std::uint32_t x = Col(15.1), y = Col(5.1);
  absl::StatusOr<Continent> c =
      VoxelizeMesh(mesh, {}, 3, width, height, nullptr,
                   [&](ContinentBuilder& builder) { builder.AddLift(x, y, 0.0f, 4.0f); });
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->id, 3u);
  ASSERT_EQ(c->lifts.size(), 2u);
  EXPECT_EQ(c->column_x[c->lifts[0].from], x);
}

TriangleMesh Ledge() {
  // Ground around a hole that a 3-yard platform fills.
  TriangleMesh mesh;
  AddFloor(mesh, 0.25f, 0.25f, 5.25f, 15.25f, 0.0f);
  AddFloor(mesh, 10.25f, 0.25f, 15.25f, 15.25f, 0.0f);
  AddFloor(mesh, 5.25f, 0.25f, 10.25f, 5.25f, 0.0f);
  AddFloor(mesh, 5.25f, 10.25f, 10.25f, 15.25f, 0.0f);
  AddBox(mesh, 5.25f, 5.25f, 10.25f, 10.25f, 0.0f, 3.0f);
  return mesh;
}

TEST(VoxelizerTest, LedgeFallsDownOneWay) {
  const Continent c = Voxelize(Ledge());
  const std::uint32_t row = Col(7.6);
  const SurfaceId rim = Surfaces(c, Col(5.3), row).at(0);  // the platform's west rim
  const SurfaceId below = Surfaces(c, Col(5.3) - 1, row).at(0);
  EXPECT_NEAR(c.height_yards[rim], 3.0, 0.21);
  EXPECT_NEAR(c.height_yards[below], 0.1, 0.11);
  const Link down = LinkToward(c, rim, -1, 0);
  ASSERT_TRUE(HasLink(down));
  EXPECT_EQ(LinkKindOf(down), LinkKind::kFall);
  EXPECT_FALSE(HasLink(LinkToward(c, below, 1, 0)));

  // No link anywhere leads up onto the platform; falls lead down from every rim.
  std::uint64_t falls = 0;
  for (SurfaceId s = 0; s < c.surface_count(); ++s) {
    for (int d = 0; d < kDirectionCount; ++d) {
      if (!HasLink(c.links[s][d])) continue;
      const SurfaceId t = c.LinkTarget(s, d);
      if (c.height_yards[s] < 1.0) {
        EXPECT_LT(c.height_yards[t], 1.0) << "a link up from " << s;
      }
      if (LinkKindOf(c.links[s][d]) == LinkKind::kFall) ++falls;
    }
  }
  EXPECT_GT(falls, 20u);
  EXPECT_FALSE(Reaches(c, below, rim, /*falls=*/true));
}

TEST(VoxelizerTest, LedgeFilterOnDropsTheRim) {
  VoxelizeOptions options;
  options.filter_ledges = true;
  const Continent c = Voxelize(Ledge(), options);
  const std::uint32_t row = Col(7.6);
  EXPECT_TRUE(Surfaces(c, Col(5.3), row).empty());   // the rim beside the drop
  EXPECT_EQ(Surfaces(c, Col(7.6), row).size(), 1u);  // the platform's middle
  EXPECT_EQ(Surfaces(c, Col(2.6), row).size(), 1u);  // the ground
}

TEST(VoxelizerTest, SteepSlopeGivesSteepSurfacesAndLinks) {
  const float rise = static_cast<float>(5.0 * std::tan(55.0 * std::numbers::pi / 180.0));
  TriangleMesh mesh;
  AddFloor(mesh, 0.25f, 0.25f, 5.25f, 5.25f, 0.0f);
  AddSlopeX(mesh, 5.25f, 0.0f, 10.25f, rise, 0.25f, 5.25f);
  AddFloor(mesh, 10.25f, 0.25f, 15.25f, 5.25f, rise);
  const Continent c = Voxelize(mesh);
  const std::uint32_t row = Col(2.6);
  std::uint32_t steep_columns = 0;
  for (std::uint32_t x = Col(6.0); x < Col(10.0); ++x) {
    const std::vector<SurfaceId> s = Surfaces(c, x, row);
    ASSERT_EQ(s.size(), 1u) << x;
    EXPECT_TRUE(c.flags[s[0]] & kFlagSteep) << x;
    EXPECT_FALSE(c.flags[s[0]] & kFlagClimb) << x;
    ++steep_columns;
    // Up the slope is a steep link (the last column's leads onto the plateau).
    const Link up = LinkToward(c, s[0], 1, 0);
    ASSERT_TRUE(HasLink(up)) << x;
    EXPECT_EQ(LinkKindOf(up), x + 1 < Col(10.0) ? LinkKind::kSteep : LinkKind::kWalk) << x;
  }
  EXPECT_EQ(steep_columns, 8u);
  // The ground and the plateau are plain; both reach each other.
  const SurfaceId ground = Surfaces(c, Col(2.6), row).at(0);
  const SurfaceId top = Surfaces(c, Col(12.6), row).at(0);
  EXPECT_FALSE(c.flags[ground] & kFlagSteep);
  EXPECT_FALSE(c.flags[top] & kFlagSteep);
  EXPECT_TRUE(Reaches(c, ground, top, /*falls=*/false));
  EXPECT_EQ(c.region_count(), 1u);
}

TEST(VoxelizerTest, SlopeClassesFollowTheOptions) {
  // The same 55-degree slope: climb when steep ends at 52 degrees, gone when climb ends there.
  const float rise = static_cast<float>(5.0 * std::tan(55.0 * std::numbers::pi / 180.0));
  TriangleMesh mesh;
  AddSlopeX(mesh, 0.25f, 0.0f, 5.25f, rise, 0.25f, 5.25f);
  VoxelizeOptions options;
  options.steep_slope_degrees = 52.0;
  Continent c = Voxelize(mesh, options);
  const SurfaceId s = Surfaces(c, Col(2.6), Col(2.6)).at(0);
  EXPECT_TRUE(c.flags[s] & kFlagClimb);
  EXPECT_FALSE(c.flags[s] & kFlagSteep);
  EXPECT_EQ(LinkKindOf(LinkToward(c, s, 1, 0)), LinkKind::kClimb);
  options.climb_slope_degrees = 52.0;
  c = Voxelize(mesh, options);
  EXPECT_EQ(c.surface_count(), 0u);
}

TEST(VoxelizerTest, WaterGivesWaterSurfacesAndSwimLinks) {
  TriangleMesh mesh;
  AddFloor(mesh, 0.25f, 0.25f, 5.25f, 5.25f, 0.0f);
  AddFloor(mesh, 5.25f, 0.25f, 10.25f, 5.25f, 0.0f, kWater);
  const Continent c = Voxelize(mesh);
  const std::uint32_t row = Col(2.6);
  // The shore column holds both: dry ground wins it.
  const SurfaceId shore = Surfaces(c, Col(5.3), row).at(0);
  EXPECT_FALSE(c.flags[shore] & kFlagWater);
  for (std::uint32_t x = Col(5.3) + 1; x <= Col(10.2); ++x) {
    const SurfaceId s = Surfaces(c, x, row).at(0);
    EXPECT_EQ(c.flags[s], kFlagTerrain | kFlagWater) << x;
    if (x < Col(10.2)) {
      EXPECT_EQ(LinkKindOf(LinkToward(c, s, 1, 0)), LinkKind::kSwim) << x;
    }
  }
  EXPECT_EQ(LinkKindOf(LinkToward(c, shore, 1, 0)), LinkKind::kSwim);
  EXPECT_EQ(LinkKindOf(LinkToward(c, shore, -1, 0)), LinkKind::kWalk);
  EXPECT_EQ(c.region_count(), 1u);
}

TEST(VoxelizerTest, LowCeilingRemovesTheSurfaceUnderIt) {
  TriangleMesh mesh;
  AddFloor(mesh, 0.25f, 0.25f, 12.25f, 5.25f, 0.0f);
  AddFloor(mesh, 3.25f, 0.25f, 6.25f, 5.25f, 1.5f, kBuilding, /*facing_up=*/false);   // too low
  AddFloor(mesh, 8.25f, 0.25f, 11.25f, 5.25f, 3.0f, kBuilding, /*facing_up=*/false);  // enough
  const Continent c = Voxelize(mesh);
  const std::uint32_t row = Col(2.6);
  for (std::uint32_t x = Col(3.25); x <= Col(6.25); ++x) {
    EXPECT_TRUE(Surfaces(c, x, row).empty()) << x;  // the ceiling itself faces down
  }
  for (std::uint32_t x = Col(8.3); x < Col(11.25); ++x) {
    const std::vector<SurfaceId> s = Surfaces(c, x, row);
    ASSERT_EQ(s.size(), 1u) << x;
    EXPECT_NEAR(c.headroom_yards[s[0]], 2.8, 0.21) << x;
  }
  EXPECT_EQ(Surfaces(c, Col(1.0), row).size(), 1u);
  EXPECT_EQ(c.region_count(), 2u);  // the low ceiling cuts the floor in two
}

TEST(VoxelizerTest, AgentRadiusErodesEdges) {
  TriangleMesh mesh;
  AddFloor(mesh, 0.25f, 0.25f, 10.25f, 10.25f, 0.0f);
  VoxelizeOptions options;
  options.agent_radius_yards = 1.0;  // two columns
  const Continent c = Voxelize(mesh, options);
  EXPECT_TRUE(Surfaces(c, 0, 10).empty());
  EXPECT_TRUE(Surfaces(c, 1, 10).empty());
  EXPECT_EQ(Surfaces(c, 10, 10).size(), 1u);
  EXPECT_LT(c.surface_count(), 21u * 21u);
  EXPECT_GT(c.surface_count(), 15u * 15u);
}

TEST(VoxelizerTest, KeepsTheHighest31SurfacesOfAColumn) {
  TriangleMesh mesh;
  for (int level = 0; level < 40; ++level) {
    AddFloor(mesh, 0.25f, 0.25f, 2.25f, 2.25f, 2.5f * static_cast<float>(level), kBuilding);
  }
  VoxelizeStats stats;
  const Continent c = Voxelize(mesh, {}, &stats);
  EXPECT_EQ(c.MaxFloors(), kMaxFloors);
  const std::vector<SurfaceId> s = Surfaces(c, 2, 2);
  ASSERT_EQ(s.size(), kMaxFloors);
  EXPECT_NEAR(c.height_yards[s.back()], 39 * 2.5, 0.21);
  EXPECT_NEAR(c.height_yards[s.front()], 9 * 2.5, 0.21);
  EXPECT_EQ(stats.dropped_surfaces, 9u * c.CountColumns());
}

// A gently rolling 256 x 128-yard terrain across two tiles, with a platform, an upper floor and a
// steep slope straddling the tile border at x = 128 yd.
TriangleMesh TwoTileMesh() {
  TriangleMesh mesh;
  const int n = 64;  // 4-yard quads
  std::vector<std::uint32_t> grid;
  for (int j = 0; j <= n / 2; ++j) {
    for (int i = 0; i <= n; ++i) {
      const float x = 4.0f * static_cast<float>(i), z = 4.0f * static_cast<float>(j);
      grid.push_back(mesh.AddVertex(x, 0.6f * std::sin(x / 9.0f) + 0.4f * std::cos(z / 7.0f), z));
    }
  }
  for (int j = 0; j < n / 2; ++j) {
    for (int i = 0; i < n; ++i) {
      const std::uint32_t a = grid[j * (n + 1) + i];
      mesh.AddQuad(a, grid[(j + 1) * (n + 1) + i], grid[(j + 1) * (n + 1) + i + 1], a + 1,
                   kGroundTag);
    }
  }
  AddBox(mesh, 124.3f, 40.3f, 131.7f, 50.7f, -1.0f, 3.1f);
  AddFloor(mesh, 120.3f, 70.3f, 136.3f, 80.3f, 5.1f, kBuilding);
  AddSlopeX(mesh, 125.3f, 1.0f, 130.3f, 8.0f, 100.3f, 110.3f);
  return mesh;
}

void ExpectSameSurfaces(const Continent& a, const Continent& b, const char* what) {
  ASSERT_EQ(a.width_columns, b.width_columns) << what;
  ASSERT_EQ(a.height_columns, b.height_columns) << what;
  EXPECT_EQ(a.surface_count(), b.surface_count()) << what;
  std::uint64_t differing = 0;
  for (std::uint32_t y = 0; y < a.height_columns; ++y) {
    for (std::uint32_t x = 0; x < a.width_columns; ++x) {
      const std::vector<SurfaceId> sa = Surfaces(a, x, y), sb = Surfaces(b, x, y);
      bool same = sa.size() == sb.size();
      for (std::size_t i = 0; same && i < sa.size(); ++i) {
        same = a.height_yards[sa[i]] == b.height_yards[sb[i]] && a.flags[sa[i]] == b.flags[sb[i]] &&
               a.links[sa[i]] == b.links[sb[i]] &&
               (a.headroom_yards[sa[i]] == b.headroom_yards[sb[i]]);
      }
      if (!same && ++differing <= 5) {
        ADD_FAILURE() << what << ": column " << x << "," << y << " differs (" << sa.size() << " vs "
                      << sb.size() << " surfaces)";
      }
    }
  }
  EXPECT_EQ(differing, 0u) << what;
}

TEST(VoxelizerTest, TileByTileMatchesWhole) {
  const TriangleMesh mesh = TwoTileMesh();
  VoxelizeOptions options;
  VoxelizeStats whole_stats;
  absl::StatusOr<Continent> whole = VoxelizeMesh(mesh, options, 0, 512, 256, &whole_stats);
  ASSERT_TRUE(whole.ok()) << whole.status();
  EXPECT_EQ(whole_stats.heightfields, 1u);
  EXPECT_EQ(whole->tiles_x, 2u);
  EXPECT_EQ(whole->MaxFloors(), 2u);

  // The tile border runs through the platform, the upper floor and the slope.
  for (std::uint32_t y : {Col(45.1), Col(75.1), Col(105.1)}) {
    for (std::uint32_t x = 250; x < 262; ++x) EXPECT_FALSE(Surfaces(*whole, x, y).empty());
  }

  // VoxelizeTiles, each tile handed the whole mesh (only the tile and its border are kept).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> asked;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> progress;
  VoxelizeOptions tile_options = options;
  tile_options.progress = [&](std::uint32_t done, std::uint32_t total) {
    progress.emplace_back(done, total);
  };
  VoxelizeStats tile_stats;
  absl::StatusOr<Continent> tiled = VoxelizeTiles(
      2, 1,
      [&](std::uint32_t tx, std::uint32_t ty) {
        asked.emplace_back(tx, ty);
        return mesh;
      },
      tile_options, 0, &tile_stats);
  ASSERT_TRUE(tiled.ok()) << tiled.status();
  EXPECT_EQ(asked, (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 0}, {1, 0}}));
  EXPECT_EQ(progress, (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{1, 2}, {2, 2}}));
  EXPECT_EQ(tile_stats.heightfields, 2u);
  EXPECT_EQ(tile_stats.triangles, 2u * mesh.triangle_count());
  ExpectSameSurfaces(*whole, *tiled, "VoxelizeTiles");

  // VoxelizeMesh's own tiling (forced by a small whole-mesh limit).
  VoxelizeOptions small = options;
  small.whole_mesh_max_columns = 256;
  VoxelizeStats split_stats;
  absl::StatusOr<Continent> split = VoxelizeMesh(mesh, small, 0, 512, 256, &split_stats);
  ASSERT_TRUE(split.ok()) << split.status();
  EXPECT_EQ(split_stats.heightfields, 2u);
  ExpectSameSurfaces(*whole, *split, "VoxelizeMesh by tiles");
}

TEST(VoxelizerTest, RejectsBadOptionsNamingTheField) {
  TriangleMesh mesh;
  AddFloor(mesh, 0.25f, 0.25f, 2.25f, 2.25f, 0.0f);
  auto error = [&](VoxelizeOptions options) {
    return VoxelizeMesh(mesh, options, 0, 8, 8).status();
  };
  VoxelizeOptions o;
  o.column_yards = 0;
  EXPECT_EQ(error(o).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(error(o).message().find("column_yards"), std::string::npos) << error(o);
  o = {};
  o.height_step_yards = -0.2;
  EXPECT_NE(error(o).message().find("height_step_yards"), std::string::npos) << error(o);
  o = {};
  o.agent_height_yards = std::nan("");
  EXPECT_NE(error(o).message().find("agent_height_yards"), std::string::npos) << error(o);
  o = {};
  o.agent_radius_yards = -1;
  EXPECT_NE(error(o).message().find("agent_radius_yards"), std::string::npos) << error(o);
  o = {};
  o.jump_yards = 0.1;  // below the step
  EXPECT_NE(error(o).message().find("jump_yards"), std::string::npos) << error(o);
  o = {};
  o.max_fall_yards = -1;
  EXPECT_NE(error(o).message().find("max_fall_yards"), std::string::npos) << error(o);
  o = {};
  o.steep_slope_degrees = 40;  // below walk_slope_degrees
  EXPECT_NE(error(o).message().find("steep_slope_degrees"), std::string::npos) << error(o);
  o = {};
  o.climb_slope_degrees = 90;
  EXPECT_NE(error(o).message().find("climb_slope_degrees"), std::string::npos) << error(o);
  o = {};
  o.walk_slope_degrees = -5;
  EXPECT_NE(error(o).message().find("walk_slope_degrees"), std::string::npos) << error(o);

  EXPECT_EQ(VoxelizeMesh(TriangleMesh{}, {}, 0, 8, 8).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(VoxelizeMesh(mesh, {}, 0, 0, 8).status().code(), absl::StatusCode::kInvalidArgument);
  TriangleMesh broken = mesh;
  broken.indices[0] = 99;
  EXPECT_EQ(VoxelizeMesh(broken, {}, 0, 8, 8).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(VoxelizeTiles(
                0, 1, [](std::uint32_t, std::uint32_t) { return TriangleMesh{}; }, {}, 0)
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(VoxelizerTest, TooManyAreaKindsInOneTileIsAnError) {
  TriangleMesh mesh;
  for (int i = 0; i < 63; ++i) {
    const float x = 0.25f + 2.0f * static_cast<float>(i % 8),
                z = 0.25f + 2.0f * static_cast<float>(i / 8);
    AddFloor(mesh, x, z, x + 1.5f, z + 1.5f, 0.0f,
             TriangleTag{kFlagTerrain, 0, static_cast<std::uint16_t>(i + 1)});
  }
  absl::StatusOr<Continent> c = VoxelizeTiles(
      1, 1, [&](std::uint32_t, std::uint32_t) { return mesh; }, {}, 0);
  ASSERT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument) << c.status();
  EXPECT_NE(c.status().message().find("tile 0,0"), std::string::npos) << c.status();
  // 62 kinds fit, and each surface keeps its zone.
  mesh.tags.resize(2 * 62);
  mesh.indices.resize(3 * 2 * 62);
  absl::StatusOr<Continent> fits = VoxelizeTiles(
      1, 1, [&](std::uint32_t, std::uint32_t) { return mesh; }, {}, 0);
  ASSERT_TRUE(fits.ok()) << fits.status();
  const SurfaceId s = Surfaces(*fits, Col(2.25 + 0.9), Col(0.25 + 0.9)).at(0);
  EXPECT_EQ(fits->zone[s], 2);
}

TEST(VoxelizerTest, TooManyAreaKindsForAWholeMeshGoesTileByTile) {
  // 40 zones in each of two tiles: 80 for the whole mesh, too many for one heightfield.
  TriangleMesh mesh;
  for (int i = 0; i < 80; ++i) {
    const float x = 4.3f + 2.0f * static_cast<float>(i % 40) + (i < 40 ? 0.0f : 128.0f);
    AddFloor(mesh, x, 4.3f, x + 1.5f, 5.8f, 0.0f,
             TriangleTag{kFlagTerrain, 0, static_cast<std::uint16_t>(i + 1)});
  }
  VoxelizeStats stats;
  absl::StatusOr<Continent> c = VoxelizeMesh(mesh, {}, 0, 512, 256, &stats);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(stats.heightfields, 2u);
  EXPECT_EQ(c->zone[Surfaces(*c, Col(128 + 4.3 + 0.7), Col(5.0)).at(0)], 41);
}

class TempFile {
 public:
  explicit TempFile(const std::string& text)
      : path_(std::filesystem::temp_directory_path() /
              ("voxelizer_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++) +
               ".obj")) {
    std::ofstream(path_) << text;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

TEST(ReadObjTest, ReadsVerticesFacesAndWater) {
  const TempFile file(
      "# a quad of ground and a triangle of water\n"
      "mtllib level.mtl\n"
      "o Ground\n"
      "v 0 0 0\nv 0 0 1\nv 1 0 1\nv 1 0 0\n"
      "vt 0 0\nvn 0 1 0\n"
      "f 1/1/1 2/1/1 3/1/1 4/1/1\n"
      "g pool\nusemtl Water_Blue\n"
      "v 2 0 0\r\nv 2 0 1\nv 3 0 1\n"
      "f -3//1 -2//1 -1//1\n"
      "usemtl stone\n"
      "f 5 6 7\n");
  absl::StatusOr<TriangleMesh> mesh = ReadObj(file.path());
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(mesh->vertex_count(), 7u);
  ASSERT_EQ(mesh->triangle_count(), 4u);
  EXPECT_EQ(mesh->indices, (std::vector<std::uint32_t>{0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 5, 6}));
  EXPECT_EQ(mesh->tags[0], TriangleTag{});
  EXPECT_EQ(mesh->tags[2].flags, kFlagTerrain | kFlagWater);
  EXPECT_EQ(mesh->tags[3], TriangleTag{});
  float min[3], max[3];
  mesh->Bounds(min, max);
  EXPECT_EQ(max[0], 3.0f);
  EXPECT_EQ(min[2], 0.0f);
}

TEST(ReadObjTest, ErrorsNameTheLine) {
  EXPECT_EQ(ReadObj("/nonexistent/level.obj").status().code(), absl::StatusCode::kNotFound);
  const TempFile bad_index("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\nf 1 2 9\n");
  absl::StatusOr<TriangleMesh> mesh = ReadObj(bad_index.path());
  ASSERT_EQ(mesh.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(mesh.status().message().find(":5:"), std::string::npos) << mesh.status();
  const TempFile bad_vertex("v 0 0\n");
  mesh = ReadObj(bad_vertex.path());
  ASSERT_EQ(mesh.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(mesh.status().message().find(":1:"), std::string::npos) << mesh.status();
  const TempFile short_face("v 0 0 0\nv 1 0 0\nf 1 2\n");
  EXPECT_EQ(ReadObj(short_face.path()).status().code(), absl::StatusCode::kInvalidArgument);
}

// The prober's meshes: 1e30 across once crashed build-mesh (an extent of 4294967295 columns
// wrapped the continent's tile count), 5e7 wide once aborted on bad_alloc. Both are refused,
// naming the extent and the limit, before anything that size is allocated.
TEST(VoxelizerTest, RefusesExtentsBeyondAContinentNamingThem) {
  for (float far : {1e30f, 5e7f, 32768.5f}) {
    TriangleMesh mesh;
    const std::uint32_t a = mesh.AddVertex(0, 0, 0), b = mesh.AddVertex(far, 0, 0),
                        c = mesh.AddVertex(0, 0, 1);
    mesh.AddTriangle(a, c, b, kGroundTag);
    VoxelizeOptions options;
    std::int64_t origin_x = 0, origin_y = 0;
    PlaceOriginAtMeshCorner(mesh, &options, &origin_x, &origin_y);
    std::uint32_t width = 0, height = 0;
    MeshExtent(mesh, options, &width, &height);
    EXPECT_GT(width, kMaxVoxelizeColumns) << far;
    absl::StatusOr<Continent> continent = VoxelizeMesh(mesh, options, 0, width, height);
    ASSERT_EQ(continent.status().code(), absl::StatusCode::kInvalidArgument) << far;
    const std::string message(continent.status().message());
    EXPECT_NE(message.find(absl::StrCat(width, " x ", height, " columns")), std::string::npos)
        << message;
    EXPECT_NE(message.find("at most 65536 x 65536"), std::string::npos) << message;
  }
  // A mesh far from the origin, placed at its corner, is as small as it is.
  TriangleMesh far_away;
  AddFloor(far_away, 9e7f, 9e7f, 9e7f + 64.0f, 9e7f + 64.0f, 0.0f);
  VoxelizeOptions options;
  options.column_yards = 8.0;  // float holds 8 yards at 9e7
  std::int64_t origin_x = 0, origin_y = 0;
  PlaceOriginAtMeshCorner(far_away, &options, &origin_x, &origin_y);
  std::uint32_t width = 0, height = 0;
  MeshExtent(far_away, options, &width, &height);
  EXPECT_LE(width, 9u);
  EXPECT_TRUE(VoxelizeMesh(far_away, options, 0, width, height).ok());
}

TEST(VoxelizerTest, RefusesAHeightfieldOfTooManySpans) {
  // 500 floors of 256 x 256 columns, 3 yards apart: up to 33.8 million spans in one tile.
  TriangleMesh mesh;
  for (int floor = 0; floor < 500; ++floor) {
    AddFloor(mesh, 0.0f, 0.0f, 127.9f, 127.9f, 3.0f * static_cast<float>(floor));
  }
  VoxelizeOptions options;
  options.height_step_yards = 0.5;  // 1,500 yards in Recast's 8,191 steps
  absl::StatusOr<Continent> c = VoxelizeMesh(mesh, options, 0, 256, 256);
  ASSERT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument) << c.status();
  EXPECT_NE(c.status().message().find("tile 0,0"), std::string::npos) << c.status();
  EXPECT_NE(c.status().message().find("spans"), std::string::npos) << c.status();
  // 100 of them fit.
  mesh.tags.resize(2 * 100);
  mesh.indices.resize(3 * 2 * 100);
  EXPECT_TRUE(VoxelizeMesh(mesh, options, 0, 256, 256).ok());
}

TEST(VoxelizerTest, RefusesTrianglesOverTooManyTiles) {
  // 4,097 triangles each over all 65,536 tiles of the largest continent: 268 million lists.
  TriangleMesh mesh;
  const std::uint32_t a = mesh.AddVertex(0, 0, 0), b = mesh.AddVertex(32767.5f, 0, 0),
                      c = mesh.AddVertex(0, 0, 32767.5f), d = mesh.AddVertex(32767.5f, 0, 32767.5f);
  for (int i = 0; i < 4097; ++i) mesh.AddTriangle(i % 2 ? a : d, c, b, kGroundTag);
  absl::StatusOr<Continent> refused = VoxelizeMesh(mesh, {}, 0, 65535, 65535);
  ASSERT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument) << refused.status();
  EXPECT_NE(refused.status().message().find("tiles in all"), std::string::npos) << refused.status();
}

TEST(ReadObjTest, RefusesWhatIsBeyondItsLimits) {
  const TempFile far("v 0 0 0\nv 1 0 0\nv 0 0 1e30\nf 1 2 3\n");
  absl::StatusOr<TriangleMesh> mesh = ReadObj(far.path());
  ASSERT_EQ(mesh.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(mesh.status().message().find(":3:"), std::string::npos) << mesh.status();
  EXPECT_NE(mesh.status().message().find("coordinate 1e+30 lies beyond +-100000000 yards"),
            std::string::npos)
      << mesh.status();
  EXPECT_FALSE(ParseObj("v 0 0 1e39\n", "overflow.obj").ok());  // beyond float
  EXPECT_FALSE(ParseObj("v 0 0 nan\n", "nan.obj").ok());
  EXPECT_FALSE(ParseObj("v 0 0 -inf\n", "inf.obj").ok());
  // The 5e7-wide mesh is read; the voxelizer refuses its extent (above).
  EXPECT_TRUE(ParseObj("v 0 0 0\nv 5e7 0 0\nv 0 0 1\nf 1 3 2\n", "wide.obj").ok());

  // A file larger than the limit is refused unread (a sparse file: no disk is used).
  const TempFile big("v 0 0 0\n");
  std::filesystem::resize_file(big.path(), kMaxObjFileBytes + 1);
  mesh = ReadObj(big.path());
  ASSERT_EQ(mesh.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(mesh.status().message().find("268435457 bytes"), std::string::npos) << mesh.status();
}

TEST(VoxelizerTest, EveryLevelMeshOfTheSharedDataVoxelizes) {
  const std::filesystem::path dir = std::filesystem::path(SharedDataDir()) / "meshes";
  if (!std::filesystem::is_directory(dir)) {
    GTEST_SKIP() << dir << " is absent: set WALKD_SHARED_DATA to the shared data folder";
  }
  std::vector<std::filesystem::path> meshes;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".obj") meshes.push_back(entry.path());
  }
  std::sort(meshes.begin(), meshes.end());
  ASSERT_FALSE(meshes.empty()) << dir;
  for (const std::filesystem::path& path : meshes) {
    SCOPED_TRACE(path.string());
    absl::StatusOr<TriangleMesh> mesh = ReadObj(path.string());
    ASSERT_TRUE(mesh.ok()) << mesh.status();
    VoxelizeOptions options;
    float min[3], max[3];
    mesh->Bounds(min, max);
    options.origin_x = min[0];
    options.origin_z = min[2];
    std::uint32_t width, height;
    MeshExtent(*mesh, options, &width, &height);
    VoxelizeStats stats;
    absl::StatusOr<Continent> c = VoxelizeMesh(*mesh, options, 0, width, height, &stats);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_GT(c->surface_count(), 0u);
    EXPECT_EQ(stats.spans, c->surface_count());
  }
}

}  // namespace
}  // namespace walk::nav
