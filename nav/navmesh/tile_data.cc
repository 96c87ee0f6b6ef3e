#include "nav/navmesh/tile_data.h"

#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
// Detour is third-party: its headers are included inside nav/navmesh/*.cc only.
#include "DetourNavMesh.h"
#include "nav/navmesh/nav_areas.h"

namespace walk::nav {
namespace {

std::uint64_t Align4(std::uint64_t size) { return (size + 3) & ~std::uint64_t{3}; }

// Byte offsets of a tile's arrays, as dtNavMesh::addTile computes them from the header.
struct TileLayout {
  std::uint64_t verts = 0, polys = 0, links = 0, detail_meshes = 0, detail_verts = 0,
                detail_tris = 0, bv_tree = 0, off_mesh = 0, end = 0;
};

TileLayout LayoutOf(const dtMeshHeader& h) {
  TileLayout l;
  l.verts = Align4(sizeof(dtMeshHeader));
  l.polys = l.verts + Align4(sizeof(float) * 3 * std::uint64_t(h.vertCount));
  l.links = l.polys + Align4(sizeof(dtPoly) * std::uint64_t(h.polyCount));
  l.detail_meshes = l.links + Align4(sizeof(dtLink) * std::uint64_t(h.maxLinkCount));
  l.detail_verts =
      l.detail_meshes + Align4(sizeof(dtPolyDetail) * std::uint64_t(h.detailMeshCount));
  l.detail_tris = l.detail_verts + Align4(sizeof(float) * 3 * std::uint64_t(h.detailVertCount));
  l.bv_tree = l.detail_tris + Align4(4 * std::uint64_t(h.detailTriCount));
  l.off_mesh = l.bv_tree + Align4(sizeof(dtBVNode) * std::uint64_t(h.bvNodeCount));
  l.end = l.off_mesh + Align4(sizeof(dtOffMeshConnection) * std::uint64_t(h.offMeshConCount));
  return l;
}

template <typename T>
const T* At(std::string_view data, std::uint64_t offset) {
  return reinterpret_cast<const T*>(data.data() + offset);
}

absl::Status Bad(const std::string& what, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat(what, ": ", why));
}

// True when `v` is a coordinate Detour can measure distances from without overflowing a float:
// finite and within kMaxTileCoordinate.
bool SoundCoordinate(float v) { return std::abs(v) <= kMaxTileCoordinate; }

// The `count` x 3 floats at `offset` are sound coordinates; else which one is not.
absl::Status CheckPoints(std::string_view data, std::uint64_t offset, std::int32_t count,
                         const char* what_points, const std::string& what) {
  const auto* points = At<float>(data, offset);
  for (std::int64_t i = 0; i < 3 * std::int64_t{count}; ++i) {
    float v;
    std::memcpy(&v, points + i, sizeof v);
    if (!SoundCoordinate(v)) {
      return Bad(what, absl::StrCat(what_points, " ", i / 3, " has coordinate ", v,
                                    ", not a finite number within +-", kMaxTileCoordinate));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckHeader(std::string_view data, const std::string& what, dtMeshHeader* h) {
  if (data.size() < sizeof(dtMeshHeader)) {
    return Bad(what, absl::StrCat("truncated tile: ", data.size(), " bytes, a Detour tile header ",
                                  "alone is ", sizeof(dtMeshHeader)));
  }
  std::memcpy(h, data.data(), sizeof(dtMeshHeader));
  if (h->magic != DT_NAVMESH_MAGIC) return Bad(what, "bad magic: not Detour tile data ('DNAV')");
  if (h->version != DT_NAVMESH_VERSION) {
    return Bad(what, absl::StrCat("Detour version mismatch: the tile is version ", h->version,
                                  ", this walkd reads version ", DT_NAVMESH_VERSION));
  }
  const std::int32_t counts[] = {h->vertCount,       h->polyCount,       h->maxLinkCount,
                                 h->detailMeshCount, h->detailVertCount, h->detailTriCount,
                                 h->bvNodeCount,     h->offMeshConCount};
  for (std::int32_t count : counts) {
    if (count < 0) return Bad(what, "a negative count in the tile header");
  }
  if (h->offMeshConCount > h->polyCount || h->offMeshBase != h->polyCount - h->offMeshConCount ||
      h->detailMeshCount < h->offMeshBase) {
    return Bad(what, "the tile header's polygon, detail and off-mesh counts disagree");
  }
  // dtNavMesh::addTile writes links[maxLinkCount - 1] unchecked: with no link that is the 12
  // bytes before the array (the tile's last polygon, or its header). Recast's tiles have 3 links
  // a polygon at least.
  if (h->maxLinkCount < 1) return Bad(what, "the tile header has room for no link");
  const std::uint64_t end = LayoutOf(*h).end;
  if (end > data.size()) {
    return Bad(what, absl::StrCat("truncated tile: its header needs ", end, " bytes, there are ",
                                  data.size()));
  }
  for (int k = 0; k < 3; ++k) {
    if (!SoundCoordinate(h->bmin[k]) || !SoundCoordinate(h->bmax[k]) ||
        !(h->bmin[k] <= h->bmax[k])) {
      return Bad(what, "the tile header's bounds are not finite, in range and in order");
    }
  }
  if (!std::isfinite(h->bvQuantFactor) || !std::isfinite(h->walkableHeight) ||
      !std::isfinite(h->walkableRadius) || !std::isfinite(h->walkableClimb)) {
    return Bad(what, "the tile header's agent sizes or tree scale are not finite");
  }
  return absl::OkStatus();
}

// Ground polygon `i`'s detail mesh `d` (of polygon `p`): inside the tile, naming vertices it
// has, and at least one triangle with an edge on the polygon's boundary. Detour's
// closestPointOnPoly reads through a null pointer for a polygon without one (it looks for the
// nearest boundary edge and finds none).
absl::Status CheckDetail(std::string_view data, const dtMeshHeader& h, const TileLayout& l,
                         const dtPoly& p, const dtPolyDetail& d, std::int32_t i,
                         const std::string& what) {
  if (std::uint64_t{d.vertBase} + d.vertCount > std::uint64_t(h.detailVertCount) ||
      std::uint64_t{d.triBase} + d.triCount > std::uint64_t(h.detailTriCount)) {
    return Bad(what, absl::StrCat("polygon ", i, "'s detail mesh lies outside the tile"));
  }
  const auto* tris = At<unsigned char>(data, l.detail_tris) + 4 * std::uint64_t{d.triBase};
  bool boundary = false;
  for (std::uint64_t t = 0; t < d.triCount; ++t) {
    const unsigned char* tri = tris + 4 * t;
    for (int k = 0; k < 3; ++k) {
      if (tri[k] >= p.vertCount + d.vertCount) {
        return Bad(what, absl::StrCat("polygon ", i, "'s detail triangles name a vertex it lacks"));
      }
      boundary = boundary || (dtGetDetailTriEdgeFlags(tri[3], k) & DT_DETAIL_EDGE_BOUNDARY) != 0;
    }
  }
  if (!boundary) {
    return Bad(what, absl::StrCat("polygon ", i, "'s detail mesh has no triangle on its boundary"));
  }
  return absl::OkStatus();
}

absl::Status CheckPolygons(std::string_view data, const dtMeshHeader& h, const TileLayout& l,
                           const std::string& what) {
  const auto* polys = At<dtPoly>(data, l.polys);
  const auto* details = At<dtPolyDetail>(data, l.detail_meshes);
  for (std::int32_t i = 0; i < h.polyCount; ++i) {
    const dtPoly& p = polys[i];
    if (p.vertCount < (p.getType() == DT_POLYTYPE_OFFMESH_CONNECTION ? 2 : 3) ||
        p.vertCount > DT_VERTS_PER_POLYGON) {
      return Bad(what, absl::StrCat("polygon ", i, " has ", int{p.vertCount}, " vertices"));
    }
    for (int j = 0; j < p.vertCount; ++j) {
      if (p.verts[j] >= h.vertCount) {
        return Bad(what,
                   absl::StrCat("polygon ", i, " names vertex ", p.verts[j], " of ", h.vertCount));
      }
      const unsigned short nei = p.neis[j];
      if (nei != 0 && (nei & DT_EXT_LINK) == 0 && nei > h.polyCount) {
        return Bad(what,
                   absl::StrCat("polygon ", i, " names neighbour ", nei - 1, " of ", h.polyCount));
      }
    }
    if (i >= h.offMeshBase) continue;
    if (absl::Status s = CheckDetail(data, h, l, p, details[i], i, what); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status CheckTreeAndOffMesh(std::string_view data, const dtMeshHeader& h, const TileLayout& l,
                                 const std::string& what) {
  const auto* nodes = At<dtBVNode>(data, l.bv_tree);
  for (std::int32_t i = 0; i < h.bvNodeCount; ++i) {
    // A leaf names a polygon; an inner node (negative) how many nodes to skip.
    const std::int64_t index = nodes[i].i;
    if ((index >= 0 && index >= h.polyCount) || (index < 0 && -index > h.bvNodeCount - i)) {
      return Bad(what, absl::StrCat("bounding-volume node ", i, " points outside the tile"));
    }
  }
  const auto* cons = At<dtOffMeshConnection>(data, l.off_mesh);
  for (std::int32_t i = 0; i < h.offMeshConCount; ++i) {
    if (cons[i].poly < h.offMeshBase || cons[i].poly >= h.polyCount) {
      return Bad(what, absl::StrCat("off-mesh connection ", i, " names polygon ", cons[i].poly));
    }
    bool sound = std::isfinite(cons[i].rad) && cons[i].rad >= 0.0f;
    for (float v : cons[i].pos) sound = sound && SoundCoordinate(v);
    if (!sound) {
      return Bad(what, absl::StrCat("off-mesh connection ", i,
                                    "'s ends or radius are not finite numbers in range"));
    }
  }
  return absl::OkStatus();
}

// The side of a tile (bounds bmin .. bmax) a point lies beyond, as Detour's classifyOffMeshPoint
// numbers them (0 = +x, then anticlockwise), or 0xff inside the tile's cell.
unsigned char SideOf(const float* p, const float* bmin, const float* bmax) {
  constexpr unsigned char kXp = 1, kZp = 2, kXm = 4, kZm = 8;
  const unsigned char out = (p[0] >= bmax[0] ? kXp : 0) | (p[2] >= bmax[2] ? kZp : 0) |
                            (p[0] < bmin[0] ? kXm : 0) | (p[2] < bmin[2] ? kZm : 0);
  switch (out) {
    case kXp:
      return 0;
    case kXp | kZp:
      return 1;
    case kZp:
      return 2;
    case kXm | kZp:
      return 3;
    case kXm:
      return 4;
    case kXm | kZm:
      return 5;
    case kZm:
      return 6;
    case kXp | kZm:
      return 7;
    default:
      return 0xff;
  }
}

// Appends `bytes` bytes from `data` at `from` to `out`, padded to a multiple of 4.
void CopyAligned(std::string* out, std::string_view data, std::uint64_t from, std::uint64_t bytes) {
  out->append(data.substr(from, bytes));
  out->resize(Align4(out->size()));
}

}  // namespace

std::string AppendOffMeshConnections(std::string_view data,
                                     const std::vector<NavMeshConnection>& connections) {
  dtMeshHeader h;
  std::memcpy(&h, data.data(), sizeof h);
  const TileLayout l = LayoutOf(h);
  const auto n = static_cast<std::int32_t>(connections.size());
  dtMeshHeader grown = h;
  grown.vertCount += 2 * n;
  grown.polyCount += n;
  grown.maxLinkCount += 4 * n;
  grown.offMeshConCount += n;
  std::string out(reinterpret_cast<const char*>(&grown), sizeof grown);
  out.resize(Align4(out.size()));
  out.append(data.substr(l.verts, sizeof(float) * 3 * std::uint64_t(h.vertCount)));
  for (const NavMeshConnection& c : connections) {
    out.append(reinterpret_cast<const char*>(c.from), sizeof c.from);
    out.append(reinterpret_cast<const char*>(c.to), sizeof c.to);
  }
  out.resize(Align4(out.size()));
  out.append(data.substr(l.polys, sizeof(dtPoly) * std::uint64_t(h.polyCount)));
  for (std::int32_t k = 0; k < n; ++k) {
    dtPoly p;
    std::memset(&p, 0, sizeof p);
    p.verts[0] = static_cast<unsigned short>(h.vertCount + 2 * k);
    p.verts[1] = static_cast<unsigned short>(h.vertCount + 2 * k + 1);
    p.vertCount = 2;
    p.flags = kNavFlagWalk;
    p.setArea(kNavAreaGround);
    p.setType(DT_POLYTYPE_OFFMESH_CONNECTION);
    out.append(reinterpret_cast<const char*>(&p), sizeof p);
  }
  out.resize(Align4(out.size()));
  out.append(Align4(sizeof(dtLink) * std::uint64_t(grown.maxLinkCount)), '\0');
  CopyAligned(&out, data, l.detail_meshes, l.off_mesh - l.detail_meshes);
  out.append(
      data.substr(l.off_mesh, sizeof(dtOffMeshConnection) * std::uint64_t(h.offMeshConCount)));
  for (std::int32_t k = 0; k < n; ++k) {
    dtOffMeshConnection con;
    std::memset(&con, 0, sizeof con);
    std::memcpy(&con.pos[0], connections[k].from, sizeof connections[k].from);
    std::memcpy(&con.pos[3], connections[k].to, sizeof connections[k].to);
    con.rad = kNavMeshConnectionRadiusYards;
    con.poly = static_cast<unsigned short>(h.polyCount + k);
    con.flags = 0;  // one way: a ride back is a ride of its own
    con.side = SideOf(connections[k].to, h.bmin, h.bmax);
    out.append(reinterpret_cast<const char*>(&con), sizeof con);
  }
  out.resize(Align4(out.size()));
  return out;
}

absl::Status CheckTileData(std::string_view data, const std::string& what, TileSummary* summary) {
  dtMeshHeader h;
  if (absl::Status s = CheckHeader(data, what, &h); !s.ok()) return s;
  const TileLayout l = LayoutOf(h);
  if (absl::Status s = CheckPoints(data, l.verts, h.vertCount, "vertex", what); !s.ok()) return s;
  if (absl::Status s = CheckPoints(data, l.detail_verts, h.detailVertCount, "detail vertex", what);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckPolygons(data, h, l, what); !s.ok()) return s;
  if (absl::Status s = CheckTreeAndOffMesh(data, h, l, what); !s.ok()) return s;
  if (summary != nullptr) {
    summary->x = h.x;
    summary->y = h.y;
    summary->layer = h.layer;
    summary->polygons = h.offMeshBase;
    summary->off_mesh = h.offMeshConCount;
    for (int k = 0; k < 3; ++k) {
      summary->bmin[k] = h.bmin[k];
      summary->bmax[k] = h.bmax[k];
    }
  }
  return absl::OkStatus();
}

std::string CanonicalTileData(std::string_view data) {
  std::string out(data);
  dtMeshHeader h;
  std::memcpy(&h, out.data(), sizeof h);
  const TileLayout l = LayoutOf(h);
  std::memset(out.data() + l.links, 0, l.detail_meshes - l.links);
  char* polys = out.data() + l.polys;
  for (std::int32_t i = 0; i < h.polyCount; ++i) {
    dtPoly p;
    std::memcpy(&p, polys + i * sizeof(dtPoly), sizeof p);
    p.firstLink = 0;
    std::memcpy(polys + i * sizeof(dtPoly), &p, sizeof p);
  }
  char* verts = out.data() + l.verts;
  for (std::int32_t i = 0; i < h.offMeshConCount; ++i) {
    dtOffMeshConnection con;
    std::memcpy(&con, out.data() + l.off_mesh + i * sizeof con, sizeof con);
    dtPoly p;
    std::memcpy(&p, polys + con.poly * sizeof(dtPoly), sizeof p);
    std::memcpy(verts + p.verts[0] * 3 * sizeof(float), &con.pos[0], 3 * sizeof(float));
    std::memcpy(verts + p.verts[1] * 3 * sizeof(float), &con.pos[3], 3 * sizeof(float));
  }
  return out;
}

}  // namespace walk::nav
