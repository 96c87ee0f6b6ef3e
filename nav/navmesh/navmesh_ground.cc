#include "nav/navmesh/navmesh_ground.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "nav/cost/danger.h"
#include "nav/grid/content_hash.h"
#include "nav/navmesh/nav_areas.h"
// Detour is third-party: its headers are included inside nav/navmesh/*.cc only.
#include "DetourNavMesh.h"

namespace walk::nav {
namespace {

// A slot's district bits (NavMeshGround::district_).
constexpr std::uint8_t kDistrictInside = 1;  // inside a district
constexpr std::uint8_t kDistrictCut = 2;     // a connection across a district's edge: unlinked

// What a polygon or connection was found to stand on, before classes share areas.
struct Found {
  NavMeshClass key;
  std::uint16_t zone = 0;  // the polygon's own zone
  bool inside = false;     // inside a district (kMarkDistrict): joined to the rest by lifts only
  bool cut = false;        // a connection across a district's edge that is no lift: unlinked
};

// True when some danger band prices `zone` of `world`.
bool PricedZone(const World& world, std::uint16_t zone) {
  const Zone* z = world.FindZone(zone);
  if (z == nullptr) return false;
  for (std::uint32_t band : kDangerBands) {
    if (band > 0 && DangerMultiplier(band, z->min_level) > 1.0) return true;
  }
  return false;
}

// The class of ground a polygon's own Detour area names (no grid to read).
NavMeshClass ClassOfArea(std::uint8_t area) {
  NavMeshClass c;
  if (area == kNavAreaWater) c.flags = kFlagWater;
  if (area == kNavAreaSteep) c.flags = kFlagSteep;
  if (area == kNavAreaRoad) c.marks = kMarkRoad;
  if (area == kNavAreaHubA) c.marks = kMarkHubA;
  if (area == kNavAreaHubB) c.marks = kMarkHubB;
  return c;
}

// The ground of `world`'s continent under a point (Detour axes), or nullopt over no surface.
struct GridView {
  const World* world = nullptr;
  const Continent* continent = nullptr;

  // The surface of the column under (p[0], p[2]) nearest height p[1] (the lower on a tie, as
  // snapping a place with a height does).
  std::optional<SurfaceId> SurfaceAt(const float* p) const {
    if (continent == nullptr) return std::nullopt;
    const WorldFrame frame = world->FrameOf(*continent);
    const std::int64_t x = frame.ColumnX(p[0]), y = frame.ColumnY(p[2]);
    if (!continent->OnMap(x, y)) return std::nullopt;
    SurfaceId first = 0, end = 0;
    continent->ColumnSurfaces(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), &first,
                              &end);
    std::optional<SurfaceId> best;
    double best_gap = 0.0;
    for (SurfaceId s = first; s < end; ++s) {
      const double gap = std::abs(double(continent->height_yards[s]) - p[1]);
      if (!best || gap < best_gap) {
        best = s;
        best_gap = gap;
      }
    }
    return best;
  }
  Found GroundOf(SurfaceId s) const {
    Found f;
    f.key.flags = continent->flags[s] & kNavMeshPricingFlags;
    f.key.marks = continent->marks[s] & kNavMeshPricingMarks;
    f.zone = continent->zone[s];
    f.key.zone = PricedZone(*world, f.zone) ? f.zone : 0;
    f.inside = (continent->marks[s] & kMarkDistrict) != 0;
    return f;
  }
};

Found ClassifyPolygon(const GridView& grid, const dtMeshTile& tile, const dtPoly& poly,
                      NavMeshGroundStats* stats) {
  float centre[3] = {0.0f, 0.0f, 0.0f};
  for (int k = 0; k < poly.vertCount; ++k) {
    const float* v = &tile.verts[3 * poly.verts[k]];
    for (int a = 0; a < 3; ++a) centre[a] += v[a] / float(poly.vertCount);
  }
  ++stats->polygons;
  if (const std::optional<SurfaceId> s = grid.SurfaceAt(centre)) return grid.GroundOf(*s);
  // A centre over an empty column (a tree, a wall, a thin polygon's bend): a corner's column.
  for (int k = 0; k < poly.vertCount; ++k) {
    const float* v = &tile.verts[3 * poly.verts[k]];
    const float corner[3] = {v[0], centre[1], v[2]};
    if (const std::optional<SurfaceId> s = grid.SurfaceAt(corner)) return grid.GroundOf(*s);
  }
  if (grid.continent != nullptr) ++stats->off_grid;
  Found f;
  f.key = ClassOfArea(poly.getArea());
  return f;
}

Found ClassifyConnection(const GridView& grid, const dtMeshTile& tile, const dtPoly& poly,
                         NavMeshGroundStats* stats) {
  ++stats->connections;
  const float* a = &tile.verts[3 * poly.verts[0]];
  const float* b = &tile.verts[3 * poly.verts[1]];
  const std::optional<SurfaceId> from = grid.SurfaceAt(a);
  const std::optional<SurfaceId> to = grid.SurfaceAt(b);
  Found f;
  if (!from || !to) return f;
  const LiftRide* ride = grid.continent->FindRide(*from, *to);
  const bool across = ((grid.continent->marks[*from] ^ grid.continent->marks[*to]) & kMarkDistrict);
  const double yards =
      std::sqrt(double(b[0] - a[0]) * (b[0] - a[0]) + double(b[1] - a[1]) * (b[1] - a[1]) +
                double(b[2] - a[2]) * (b[2] - a[2]));
  if (ride == nullptr || !(yards > 1e-3)) {
    f = grid.GroundOf(*to);
    f.cut = across;  // only the lifts the grid keeps join a district to the rest
    return f;
  }
  ++stats->lift_rides;
  f = grid.GroundOf(*to);  // a ride is priced by the ground it lands on
  f.key.lift = true;
  f.key.ride = *ride;
  f.key.ride.from = f.key.ride.to = kInvalidId;
  f.key.ride_yards = yards;
  return f;
}

using ClassKey =
    std::tuple<std::uint8_t, std::uint8_t, std::uint16_t, bool, float, float, float, double>;
ClassKey KeyOf(const NavMeshClass& c) {
  return {c.flags,
          c.marks,
          c.zone,
          c.lift,
          c.ride.shaft_yards,
          c.ride.wait_seconds,
          c.ride.shaft_yards_per_second,
          c.ride_yards};
}

// `value` rounded to the nearest of 2^(k / steps).
double RoundLog(double value, int steps) {
  if (!(value > 0.0)) return value;
  return std::exp2(std::round(std::log2(value) * steps) / steps);
}

// Shares classes beyond pricing alike until at most kNavMeshClassLimit remain: zones of one
// lowest level together, then rides by their seconds per yard, rounded ever coarser. False when
// even a doubling's rounding leaves too many.
bool Coarsen(const World* world, std::vector<Found>* found) {
  if (world != nullptr) {
    std::map<std::uint16_t, std::uint16_t> first_of_level;  // lowest level -> lowest zone id
    for (const Zone& z : world->zones) first_of_level.emplace(z.min_level, z.id);
    for (Found& f : *found) {
      if (const Zone* z = world->FindZone(f.key.zone)) f.key.zone = first_of_level[z->min_level];
    }
  }
  for (int steps = 64; steps >= 1; steps /= 2) {
    std::map<ClassKey, int> distinct;
    std::vector<Found> rounded = *found;
    for (Found& f : rounded) {
      if (f.key.lift) {
        const double per_yard = 1.0 / f.key.ride_yards;
        f.key.ride.shaft_yards = float(RoundLog(f.key.ride.shaft_yards * per_yard, steps));
        f.key.ride.wait_seconds = float(RoundLog(f.key.ride.wait_seconds * per_yard, steps));
        f.key.ride_yards = 1.0;
      }
      distinct.emplace(KeyOf(f.key), 0);
    }
    if (distinct.size() <= kNavMeshClassLimit) {
      *found = std::move(rounded);
      return true;
    }
  }
  return false;
}

// Unlinks, in both directions, every link of tile `index`'s polygons between a polygon inside a
// district and one outside, and every link of a connection `district` says to cut: the floor
// rule the grid's districts layer laid (nav/layers/district_layer.h). `district` (kInside,
// kCut bits) and `tile_base` are by slot. Returns the links cut.
std::uint64_t CutTileDistricts(dtNavMesh& mesh, int index,
                               const std::vector<std::uint8_t>& district,
                               const std::vector<std::uint32_t>& tile_base) {
  const dtNavMesh& view = mesh;
  auto slot_of = [&](dtPolyRef ref) -> std::size_t {
    unsigned int salt = 0, it = 0, ip = 0;
    view.decodePolyId(ref, salt, it, ip);
    return std::size_t{tile_base[it]} + ip;
  };
  // The navmesh is ours to change before any query runs (or under a tile cache's exclusive
  // lock); Detour lends only a const tile.
  auto* tile = const_cast<dtMeshTile*>(view.getTile(index));
  if (tile == nullptr || tile->header == nullptr) return 0;
  std::uint64_t cut = 0;
  for (int p = 0; p < tile->header->polyCount; ++p) {
    dtPoly& poly = tile->polys[p];
    const std::uint8_t self = district[tile_base[index] + p];
    unsigned int* into = &poly.firstLink;
    while (*into != DT_NULL_LINK) {
      dtLink& link = tile->links[*into];
      const std::uint8_t other = district[slot_of(link.ref)];
      const dtMeshTile* other_tile = nullptr;
      const dtPoly* other_poly = nullptr;
      view.getTileAndPolyByRefUnsafe(link.ref, &other_tile, &other_poly);
      const bool connection = poly.getType() == DT_POLYTYPE_OFFMESH_CONNECTION ||
                              other_poly->getType() == DT_POLYTYPE_OFFMESH_CONNECTION;
      const bool drop = connection ? ((self | other) & kDistrictCut) != 0
                                   : ((self ^ other) & kDistrictInside) != 0;
      if (drop) {
        *into = link.next;
        ++cut;
      } else {
        into = &link.next;
      }
    }
  }
  return cut;
}

std::uint16_t FlagsOf(const NavMeshClass& c) {
  if (c.flags & kFlagBlocked) return 0;  // no walker includes it
  if (c.lift) return kNavFlagWalk;
  if (c.flags & kFlagWater) return kNavFlagSwim;
  if (c.flags & kFlagForest) return kNavFlagForest;
  return kNavFlagWalk;
}

}  // namespace

absl::StatusOr<NavMeshGround> NavMeshGround::Classify(NavMesh& navmesh, const World* world,
                                                      ContinentId continent) {
  NavMeshGround ground;
  dtNavMesh& mesh = *navmesh.mutable_detour();
  ground.mesh_ = &mesh;
  GridView grid;
  if (world != nullptr) {
    grid.world = world;
    grid.continent = world->FindContinent(continent);
  }
  // Every polygon's ground, in slot order (tile index, then polygon index).
  std::vector<Found> found;
  std::vector<dtPolyRef> refs;
  ground.tile_base_.assign(static_cast<std::size_t>(mesh.getMaxTiles()), 0);
  const dtNavMesh& view = mesh;
  for (int i = 0; i < view.getMaxTiles(); ++i) {
    const dtMeshTile* tile = view.getTile(i);
    ground.tile_base_[i] = static_cast<std::uint32_t>(found.size());
    if (tile == nullptr || tile->header == nullptr) continue;
    const dtPolyRef base = view.getPolyRefBase(tile);
    for (int p = 0; p < tile->header->polyCount; ++p) {
      const dtPoly& poly = tile->polys[p];
      found.push_back(poly.getType() == DT_POLYTYPE_OFFMESH_CONNECTION
                          ? ClassifyConnection(grid, *tile, poly, &ground.stats_)
                          : ClassifyPolygon(grid, *tile, poly, &ground.stats_));
      refs.push_back(base | static_cast<dtPolyRef>(p));
    }
  }
  std::map<ClassKey, int> fine;
  for (const Found& f : found) fine.emplace(KeyOf(f.key), 0);
  ground.stats_.fine_classes = fine.size();
  if (fine.size() > kNavMeshClassLimit) {
    ground.exact_ = false;
    if (!Coarsen(world, &found)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "navmesh ground: ", fine.size(), " pricing classes do not fit Detour's ",
          kNavMeshClassLimit, " areas, even sharing zones of one level and rounding rides"));
    }
  }
  // Classes numbered in key order: the same ground gives the same areas however it was read.
  std::map<ClassKey, int> index;
  for (const Found& f : found) index.emplace(KeyOf(f.key), 0);
  ground.classes_.resize(index.size());
  int next = 0;
  for (auto& [key, number] : index) number = next++;
  for (const Found& f : found) ground.classes_[index[KeyOf(f.key)]] = f.key;
  ground.zone_.resize(found.size());
  ground.area_.resize(found.size());
  ground.flags_.resize(found.size());
  ground.district_.resize(found.size());
  ContentHasher hasher;
  hasher.AddString("walkd navmesh ground 1");
  for (std::size_t slot = 0; slot < found.size(); ++slot) {
    const int area = index[KeyOf(found[slot].key)];
    ground.zone_[slot] = found[slot].zone;
    ground.area_[slot] = static_cast<std::uint8_t>(area);
    ground.flags_[slot] = FlagsOf(found[slot].key);
    ground.district_[slot] =
        (found[slot].inside ? kDistrictInside : 0) | (found[slot].cut ? kDistrictCut : 0);
    ground.has_districts_ = ground.has_districts_ || ground.district_[slot] != 0;
    if (dtStatusFailed(mesh.setPolyArea(refs[slot], static_cast<unsigned char>(area))) ||
        dtStatusFailed(mesh.setPolyFlags(refs[slot], FlagsOf(found[slot].key)))) {
      return absl::InternalError(absl::StrCat("navmesh ground: Detour refused polygon ", slot));
    }
  }
  if (ground.has_districts_) {
    for (int i = 0; i < view.getMaxTiles(); ++i) {
      ground.stats_.district_links_cut +=
          CutTileDistricts(mesh, i, ground.district_, ground.tile_base_);
    }
  }
  // The id: the classes, then each tile's polygons in tile order (as content_hash orders them).
  for (const NavMeshClass& c : ground.classes_) {
    hasher.AddU64(c.flags | (c.marks << 8) | (std::uint64_t{c.zone} << 16) |
                  (std::uint64_t{c.lift} << 32));
    for (double v : {double(c.ride.shaft_yards), double(c.ride.wait_seconds),
                     double(c.ride.shaft_yards_per_second), c.ride_yards}) {
      hasher.AddDouble(v);
    }
  }
  navmesh.ForEachTile([&](const NavMeshTileView& tile) {
    const dtMeshTile* t = view.getTileAt(tile.x, tile.y, tile.layer);
    const std::uint32_t first = ground.tile_base_[view.decodePolyIdTile(view.getPolyRefBase(t))];
    for (int p = 0; p < t->header->polyCount; ++p) {
      hasher.AddU64(t->polys[p].getArea() | (std::uint64_t{ground.zone_[first + p]} << 8));
    }
  });
  ground.id_ = hasher.Finish();
  return ground;
}

void NavMeshGround::ApplyToTile(dtNavMesh& mesh, int index) const {
  const dtNavMesh& view = mesh;
  auto* tile = const_cast<dtMeshTile*>(view.getTile(index));
  if (tile == nullptr || tile->header == nullptr) return;
  const std::uint32_t first = tile_base_[index];
  for (int p = 0; p < tile->header->polyCount; ++p) {
    tile->polys[p].setArea(area_[first + p]);
    tile->polys[p].flags = flags_[first + p];
  }
  if (!has_districts_) return;
  // Its own links, and those its neighbours made into it.
  CutTileDistricts(mesh, index, district_, tile_base_);
  const dtMeshHeader& h = *tile->header;
  std::vector<const dtMeshTile*> around(64);
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      const int n = view.getTilesAt(h.x + dx, h.y + dy, around.data(), 64);
      for (int k = 0; k < n; ++k) {
        const int other = static_cast<int>(view.decodePolyIdTile(view.getTileRef(around[k])));
        if (other != index) CutTileDistricts(mesh, other, district_, tile_base_);
      }
    }
  }
}

std::uint16_t NavMeshGround::PolygonZone(std::uint64_t ref) const {
  unsigned int salt = 0, it = 0, ip = 0;
  mesh_->decodePolyId(static_cast<dtPolyRef>(ref), salt, it, ip);
  if (it >= tile_base_.size()) return 0;
  const std::size_t slot = std::size_t{tile_base_[it]} + ip;
  const std::size_t end = it + 1 < tile_base_.size() ? tile_base_[it + 1] : zone_.size();
  return slot < end ? zone_[slot] : 0;
}

}  // namespace walk::nav
