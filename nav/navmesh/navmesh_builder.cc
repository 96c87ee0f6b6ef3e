#include "nav/navmesh/navmesh_builder.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "nav/navmesh/navmesh_ground.h"
// Recast and Detour are third-party: their headers are included inside nav/navmesh/*.cc only.
#include "DetourAlloc.h"
#include "DetourNavMesh.h"
#include "DetourNavMeshBuilder.h"
#include "Recast.h"
#include "nav/grid/number_text.h"

namespace walk::nav {
namespace {

// Recast area ids 1 .. kRecastGroundKinds name the kinds of ground a triangle's tag prices
// (its pricing flags, marks and zone), so that Recast's regions, and so polygons, never straddle
// two kinds; RC_NULL_AREA is not walkable. More kinds than ids share ids by a hash (neighbours
// rarely collide). Each polygon's Detour area is then the nav_areas.h code of its kind.
constexpr int kRecastGroundKinds = 62;

struct RecastFree {
  void operator()(rcHeightfield* p) const { rcFreeHeightField(p); }
  void operator()(rcCompactHeightfield* p) const { rcFreeCompactHeightfield(p); }
  void operator()(rcContourSet* p) const { rcFreeContourSet(p); }
  void operator()(rcPolyMesh* p) const { rcFreePolyMesh(p); }
  void operator()(rcPolyMeshDetail* p) const { rcFreePolyMeshDetail(p); }
};
template <typename T>
using RecastPtr = std::unique_ptr<T, RecastFree>;

absl::Status BadOption(const char* field, double value, const char* rule) {
  return absl::InvalidArgumentError(absl::StrCat("NavMeshBuildOptions.", field, " must be ", rule,
                                                 " (got ", NumberText(value), ")"));
}

absl::Status Validate(const NavMeshBuildOptions& o) {
  auto positive = [](double v) { return std::isfinite(v) && v > 0.0; };
  auto non_negative = [](double v) { return std::isfinite(v) && v >= 0.0; };
  if (!positive(o.cell_yards)) return BadOption("cell_yards", o.cell_yards, "> 0");
  if (!positive(o.cell_height_yards)) {
    return BadOption("cell_height_yards", o.cell_height_yards, "> 0");
  }
  if (!positive(o.agent_height_yards)) {
    return BadOption("agent_height_yards", o.agent_height_yards, "> 0");
  }
  if (!non_negative(o.agent_radius_yards)) {
    return BadOption("agent_radius_yards", o.agent_radius_yards, ">= 0");
  }
  if (!non_negative(o.step_yards)) return BadOption("step_yards", o.step_yards, ">= 0");
  if (!std::isfinite(o.walk_slope_degrees) || o.walk_slope_degrees < 0 ||
      o.walk_slope_degrees >= 90) {
    return BadOption("walk_slope_degrees", o.walk_slope_degrees, "in [0, 90)");
  }
  if (o.tile_cells < 8 || o.tile_cells > 1024) {
    return BadOption("tile_cells", o.tile_cells, "in 8 .. 1024");
  }
  if (!non_negative(o.max_edge_yards)) {
    return BadOption("max_edge_yards", o.max_edge_yards, ">= 0");
  }
  if (!non_negative(o.max_simplification_cells)) {
    return BadOption("max_simplification_cells", o.max_simplification_cells, ">= 0");
  }
  if (o.min_region_cells < 0) return BadOption("min_region_cells", o.min_region_cells, ">= 0");
  if (o.merge_region_cells < 0) {
    return BadOption("merge_region_cells", o.merge_region_cells, ">= 0");
  }
  if (o.max_verts_per_poly < 3 || o.max_verts_per_poly > DT_VERTS_PER_POLYGON) {
    return BadOption("max_verts_per_poly", o.max_verts_per_poly, "in 3 .. 6");
  }
  // Recast takes these in whole cells and height steps, as ints.
  constexpr double kMostSteps = 1e6;
  if (o.agent_height_yards / o.cell_height_yards > kMostSteps) {
    return BadOption("agent_height_yards", o.agent_height_yards, "at most 1e6 x cell_height_yards");
  }
  if (o.step_yards / o.cell_height_yards > kMostSteps) {
    return BadOption("step_yards", o.step_yards, "at most 1e6 x cell_height_yards");
  }
  if (o.agent_radius_yards / o.cell_yards > kMostSteps) {
    return BadOption("agent_radius_yards", o.agent_radius_yards, "at most 1e6 x cell_yards");
  }
  if (o.max_edge_yards / o.cell_yards > kMostSteps) {
    return BadOption("max_edge_yards", o.max_edge_yards, "at most 1e6 x cell_yards");
  }
  if (!std::isfinite(o.detail_sample_cells)) {
    return BadOption("detail_sample_cells", o.detail_sample_cells, "finite");
  }
  if (!non_negative(o.detail_max_error_steps)) {
    return BadOption("detail_max_error_steps", o.detail_max_error_steps, ">= 0");
  }
  return absl::OkStatus();
}

// The options in Recast's units (cells and height steps), for a tile's heightfield.
rcConfig MakeConfig(const NavMeshBuildOptions& o, const float bmin[3], const float bmax[3]) {
  rcConfig c{};
  c.cs = static_cast<float>(o.cell_yards);
  c.ch = static_cast<float>(o.cell_height_yards);
  c.walkableSlopeAngle = static_cast<float>(o.walk_slope_degrees);
  c.walkableHeight = static_cast<int>(std::ceil(o.agent_height_yards / o.cell_height_yards));
  c.walkableClimb = static_cast<int>(std::floor(o.step_yards / o.cell_height_yards));
  c.walkableRadius = static_cast<int>(std::ceil(o.agent_radius_yards / o.cell_yards));
  c.maxEdgeLen = static_cast<int>(o.max_edge_yards / o.cell_yards);
  c.maxSimplificationError = static_cast<float>(o.max_simplification_cells);
  c.minRegionArea = o.min_region_cells * o.min_region_cells;
  c.mergeRegionArea = o.merge_region_cells * o.merge_region_cells;
  c.maxVertsPerPoly = o.max_verts_per_poly;
  c.tileSize = o.tile_cells;
  c.borderSize = c.walkableRadius + 3;  // so regions and filters see across the tile's edge
  c.width = c.tileSize + 2 * c.borderSize;
  c.height = c.tileSize + 2 * c.borderSize;
  c.detailSampleDist = o.detail_sample_cells < 0.9 ? 0.0f : c.cs * float(o.detail_sample_cells);
  c.detailSampleMaxError = c.ch * static_cast<float>(o.detail_max_error_steps);
  rcVcopy(c.bmin, bmin);
  rcVcopy(c.bmax, bmax);
  return c;
}

struct TileInput {
  const TriangleMesh* mesh = nullptr;
  std::vector<unsigned char> areas;  // per triangle: a ground kind (1 ..) or RC_NULL_AREA
  // By Recast area id: the Detour area (nav_areas.h) and flags of its kind.
  std::array<unsigned char, RC_WALKABLE_AREA + 1> detour_area{};
  std::array<unsigned short, RC_WALKABLE_AREA + 1> detour_flags{};
};

// The nav_areas.h area of ground tagged `tag`, by the cost model's precedence.
unsigned char DetourAreaOf(const TriangleTag& tag) {
  if (tag.flags & (kFlagSteep | kFlagClimb)) return kNavAreaSteep;
  if (tag.flags & kFlagWater) return kNavAreaWater;
  if (tag.marks & kMarkRoad) return kNavAreaRoad;
  if (tag.marks & kMarkHubA) return kNavAreaHubA;
  if (tag.marks & kMarkHubB) return kNavAreaHubB;
  return kNavAreaGround;
}

unsigned short DetourFlagsOf(const TriangleTag& tag) {
  if (tag.flags & kFlagBlocked) return 0;
  if (tag.flags & kFlagWater) return kNavFlagSwim;
  if (tag.flags & kFlagForest) return kNavFlagForest;
  return kNavFlagWalk;
}

// The connections whose start lies in one tile, as dtNavMeshCreateParams takes them (Detour
// keeps a connection in the tile of its start).
class TileConnections {
 public:
  TileConnections(const std::vector<NavMeshConnection>& all, const float tile_min[3],
                  const float tile_max[3]) {
    for (const NavMeshConnection& con : all) {
      if (con.from[0] < tile_min[0] || con.from[0] >= tile_max[0] || con.from[2] < tile_min[2] ||
          con.from[2] >= tile_max[2]) {
        continue;
      }
      verts_.insert(verts_.end(), con.from, con.from + 3);
      verts_.insert(verts_.end(), con.to, con.to + 3);
      radius_.push_back(kNavMeshConnectionRadiusYards);
      flags_.push_back(kNavFlagWalk);
      areas_.push_back(kNavAreaGround);
      directions_.push_back(0);  // one way
      ids_.push_back(static_cast<unsigned int>(ids_.size()));
    }
  }
  // Points `p` at the connections; they must outlive its use.
  void Fill(dtNavMeshCreateParams* p) const {
    p->offMeshConVerts = verts_.data();
    p->offMeshConRad = radius_.data();
    p->offMeshConFlags = flags_.data();
    p->offMeshConAreas = areas_.data();
    p->offMeshConDir = directions_.data();
    p->offMeshConUserID = ids_.data();
    p->offMeshConCount = static_cast<int>(ids_.size());
  }

 private:
  std::vector<float> verts_, radius_;
  std::vector<unsigned short> flags_;
  std::vector<unsigned char> areas_, directions_;
  std::vector<unsigned int> ids_;
};

absl::Status Failed(const char* step, int tx, int ty) {
  return absl::InternalError(absl::StrCat("navmesh tile ", tx, ",", ty, ": ", step, " failed"));
}

// Rasterizes and filters the tile's geometry and returns its compact heightfield, regions built.
absl::StatusOr<RecastPtr<rcCompactHeightfield>> CompactTile(rcContext& ctx, const TileInput& in,
                                                            const rcConfig& c, int tx, int ty) {
  RecastPtr<rcHeightfield> hf(rcAllocHeightfield());
  if (!hf || !rcCreateHeightfield(&ctx, *hf, c.width, c.height, c.bmin, c.bmax, c.cs, c.ch)) {
    return Failed("rcCreateHeightfield", tx, ty);
  }
  const TriangleMesh& m = *in.mesh;
  if (!rcRasterizeTriangles(&ctx, m.vertices.data(), static_cast<int>(m.vertex_count()),
                            reinterpret_cast<const int*>(m.indices.data()), in.areas.data(),
                            static_cast<int>(m.triangle_count()), *hf, c.walkableClimb)) {
    return Failed("rcRasterizeTriangles", tx, ty);
  }
  rcFilterLowHangingWalkableObstacles(&ctx, c.walkableClimb, *hf);
  rcFilterLedgeSpans(&ctx, c.walkableHeight, c.walkableClimb, *hf);
  rcFilterWalkableLowHeightSpans(&ctx, c.walkableHeight, *hf);
  RecastPtr<rcCompactHeightfield> chf(rcAllocCompactHeightfield());
  if (!chf || !rcBuildCompactHeightfield(&ctx, c.walkableHeight, c.walkableClimb, *hf, *chf)) {
    return Failed("rcBuildCompactHeightfield", tx, ty);
  }
  if (c.walkableRadius > 0 && !rcErodeWalkableArea(&ctx, c.walkableRadius, *chf)) {
    return Failed("rcErodeWalkableArea", tx, ty);
  }
  if (!rcBuildDistanceField(&ctx, *chf)) return Failed("rcBuildDistanceField", tx, ty);
  if (!rcBuildRegions(&ctx, *chf, c.borderSize, c.minRegionArea, c.mergeRegionArea)) {
    return Failed("rcBuildRegions", tx, ty);
  }
  return chf;
}

// Builds tile (tx, ty)'s Detour data; empty when the tile has no polygon.
absl::StatusOr<std::string> BuildTile(rcContext& ctx, const TileInput& in,
                                      const NavMeshBuildOptions& o, const float mesh_min[3],
                                      const float mesh_max[3], int tx, int ty) {
  const float tile_yards = float(o.tile_cells) * float(o.cell_yards);
  const float tile_min[3] = {mesh_min[0] + tx * tile_yards, mesh_min[1],
                             mesh_min[2] + ty * tile_yards};
  const float tile_max[3] = {mesh_min[0] + (tx + 1) * tile_yards, mesh_max[1],
                             mesh_min[2] + (ty + 1) * tile_yards};
  rcConfig c = MakeConfig(o, tile_min, tile_max);
  const float border_yards = float(c.borderSize) * c.cs;
  c.bmin[0] -= border_yards;
  c.bmin[2] -= border_yards;
  c.bmax[0] += border_yards;
  c.bmax[2] += border_yards;

  absl::StatusOr<RecastPtr<rcCompactHeightfield>> chf = CompactTile(ctx, in, c, tx, ty);
  if (!chf.ok()) return chf.status();
  RecastPtr<rcContourSet> cset(rcAllocContourSet());
  if (!cset || !rcBuildContours(&ctx, **chf, c.maxSimplificationError, c.maxEdgeLen, *cset)) {
    return Failed("rcBuildContours", tx, ty);
  }
  if (cset->nconts == 0) return std::string();
  RecastPtr<rcPolyMesh> pmesh(rcAllocPolyMesh());
  if (!pmesh || !rcBuildPolyMesh(&ctx, *cset, c.maxVertsPerPoly, *pmesh)) {
    return Failed("rcBuildPolyMesh", tx, ty);
  }
  if (pmesh->npolys == 0) return std::string();
  RecastPtr<rcPolyMeshDetail> dmesh(rcAllocPolyMeshDetail());
  if (!dmesh || !rcBuildPolyMeshDetail(&ctx, *pmesh, **chf, c.detailSampleDist,
                                       c.detailSampleMaxError, *dmesh)) {
    return Failed("rcBuildPolyMeshDetail", tx, ty);
  }
  for (int i = 0; i < pmesh->npolys; ++i) {
    const unsigned char kind = pmesh->areas[i];
    pmesh->flags[i] = in.detour_flags[kind];
    pmesh->areas[i] = in.detour_area[kind];
  }
  dtNavMeshCreateParams p{};
  p.verts = pmesh->verts;
  p.vertCount = pmesh->nverts;
  p.polys = pmesh->polys;
  p.polyAreas = pmesh->areas;
  p.polyFlags = pmesh->flags;
  p.polyCount = pmesh->npolys;
  p.nvp = pmesh->nvp;
  p.detailMeshes = dmesh->meshes;
  p.detailVerts = dmesh->verts;
  p.detailVertsCount = dmesh->nverts;
  p.detailTris = dmesh->tris;
  p.detailTriCount = dmesh->ntris;
  p.walkableHeight = float(o.agent_height_yards);
  p.walkableRadius = float(o.agent_radius_yards);
  p.walkableClimb = float(o.step_yards);
  p.tileX = tx;
  p.tileY = ty;
  p.tileLayer = 0;
  rcVcopy(p.bmin, pmesh->bmin);
  rcVcopy(p.bmax, pmesh->bmax);
  p.cs = c.cs;
  p.ch = c.ch;
  p.buildBvTree = true;
  const TileConnections connections(o.connections, tile_min, tile_max);
  connections.Fill(&p);
  unsigned char* data = nullptr;
  int size = 0;
  if (!dtCreateNavMeshData(&p, &data, &size)) return Failed("dtCreateNavMeshData", tx, ty);
  std::string bytes(reinterpret_cast<const char*>(data), size);
  dtFree(data);
  return bytes;
}

absl::StatusOr<TileInput> PrepareTriangles(const TriangleMesh& mesh, const NavMeshBuildOptions& o) {
  if (mesh.triangle_count() == 0 || mesh.indices.size() != 3 * mesh.tags.size()) {
    return absl::InvalidArgumentError("navmesh build: an empty or malformed mesh");
  }
  for (std::uint32_t index : mesh.indices) {
    if (index >= mesh.vertex_count()) {
      return absl::InvalidArgumentError(absl::StrCat("navmesh build: vertex index ", index, " of ",
                                                     mesh.vertex_count(), " vertices"));
    }
  }
  TileInput in;
  in.mesh = &mesh;
  in.areas.assign(mesh.triangle_count(), RC_NULL_AREA);
  rcContext ctx(/*state=*/false);
  rcMarkWalkableTriangles(&ctx, float(o.walk_slope_degrees), mesh.vertices.data(),
                          static_cast<int>(mesh.vertex_count()),
                          reinterpret_cast<const int*>(mesh.indices.data()),
                          static_cast<int>(mesh.triangle_count()), in.areas.data());
  // Kinds numbered as first met; the rest by a hash of their tag.
  std::map<std::tuple<std::uint8_t, std::uint8_t, std::uint16_t>, unsigned char> kinds;
  in.detour_flags.fill(kNavFlagWalk);
  for (std::uint32_t t = 0; t < mesh.triangle_count(); ++t) {
    if (in.areas[t] == RC_NULL_AREA) continue;
    const TriangleTag& tag = mesh.tags[t];
    const auto key = std::make_tuple(std::uint8_t(tag.flags & kNavMeshPricingFlags),
                                     std::uint8_t(tag.marks & kNavMeshPricingMarks), tag.zone);
    auto it = kinds.find(key);
    if (it == kinds.end()) {
      const std::size_t hash =
          std::get<0>(key) * 1000003u + std::get<1>(key) * 8191u + std::get<2>(key) * 131u;
      const auto id = static_cast<unsigned char>(
          kinds.size() < kRecastGroundKinds ? kinds.size() + 1 : 1 + hash % kRecastGroundKinds);
      it = kinds.emplace(key, id).first;
      if (id == kinds.size()) {  // the first kind with this id names its area
        in.detour_area[id] = DetourAreaOf(tag);
        in.detour_flags[id] = DetourFlagsOf(tag);
      }
    }
    in.areas[t] = it->second;
  }
  return in;
}

}  // namespace

absl::StatusOr<NavMesh> BuildNavMesh(const TriangleMesh& mesh, const NavMeshBuildOptions& o,
                                     NavMeshBuildStats* stats) {
  const auto started = std::chrono::steady_clock::now();
  if (absl::Status s = Validate(o); !s.ok()) return s;
  absl::StatusOr<TileInput> in = PrepareTriangles(mesh, o);
  if (!in.ok()) return in.status();
  float mesh_min[3], mesh_max[3];
  mesh.Bounds(mesh_min, mesh_max);
  int width = 0, height = 0;
  rcCalcGridSize(mesh_min, mesh_max, float(o.cell_yards), &width, &height);
  const int tiles_x = (width + o.tile_cells - 1) / o.tile_cells;
  const int tiles_y = (height + o.tile_cells - 1) / o.tile_cells;
  // Detour's 32-bit references: tile bits + polygon bits = 22; keep at least 8 for polygons.
  int tile_bits = 0;
  while ((1 << tile_bits) < tiles_x * tiles_y) ++tile_bits;
  if (tile_bits > 14) {
    return absl::InvalidArgumentError(
        absl::StrCat("navmesh build: ", tiles_x, " x ", tiles_y, " tiles is more than Detour's ",
                     "references hold (16384); raise NavMeshBuildOptions.tile_cells"));
  }
  NavMeshTiling tiling;
  std::copy(mesh_min, mesh_min + 3, tiling.origin);
  tiling.tile_width = tiling.tile_height = float(o.tile_cells) * float(o.cell_yards);
  tiling.max_tiles = 1 << tile_bits;
  tiling.max_polys = 1 << (22 - tile_bits);
  absl::StatusOr<NavMesh> navmesh = NavMesh::Create(tiling, "navmesh build");
  if (!navmesh.ok()) return navmesh.status();
  rcContext ctx(/*state=*/false);
  std::uint32_t built = 0;
  for (int ty = 0; ty < tiles_y; ++ty) {
    for (int tx = 0; tx < tiles_x; ++tx) {
      absl::StatusOr<std::string> data = BuildTile(ctx, *in, o, mesh_min, mesh_max, tx, ty);
      if (!data.ok()) return data.status();
      if (data->empty()) continue;
      const std::string what = absl::StrCat("navmesh build: tile ", tx, ",", ty);
      if (absl::Status s = navmesh->AddTile(*std::move(data), what); !s.ok()) return s;
      ++built;
    }
  }
  if (stats != nullptr) {
    stats->tiles_built = built;
    stats->tiles_x = tiles_x;
    stats->tiles_y = tiles_y;
    stats->seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }
  return navmesh;
}

}  // namespace walk::nav
