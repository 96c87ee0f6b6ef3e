#include "nav/navmesh/navmesh_walker.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <tuple>
#include <utility>

#include "DetourNavMesh.h"
#include "DetourNavMeshQuery.h"
#include "DetourNode.h"
#include "absl/strings/str_cat.h"
#include "nav/grid/checked_floor.h"
#include "nav/navmesh/cost_filter.h"
#include "nav/navmesh/tile_cache.h"

namespace walk::nav {

struct NavMeshWalker::Impl {
  const NavMesh* navmesh = nullptr;
  std::uint64_t navmesh_serial = 0;  // NavMesh::serial of `navmesh`: 0, none
  const dtNavMesh* mesh = nullptr;
  // With a tile cache: the tiles this walk has pinned, those it wants next, and which (tile,
  // side) pairs the frontier has looked at (stamped, by tile x 10 + side).
  std::vector<int> pinned, wanted;
  std::vector<std::uint32_t> side_seen;
  std::vector<float> side_cost;      // by tile x 9 + side: the cheapest node beside it
  std::vector<std::size_t> touched;  // the slots stamped this time
  std::uint32_t side_stamp = 0;
  dtNavMeshQuery query;
  std::optional<CostFilter> filter;  // reused walk after walk (CostFilter::Set)
  // One stretch's straight path: its corners, then with every polygon crossing.
  std::vector<float> corners = std::vector<float>(3 * kNavMeshWalkerMaxPoints);
  std::vector<dtPolyRef> polys = std::vector<dtPolyRef>(kNavMeshWalkerMaxPolys);
  std::vector<float> points = std::vector<float>(3 * kNavMeshWalkerMaxPoints);
  std::vector<dtPolyRef> point_refs = std::vector<dtPolyRef>(kNavMeshWalkerMaxPoints);
};

namespace {

// Snaps `place` to the nearest polygon (extents in navmesh_walker.h): its ref (0 when none) and
// the nearest point on it, in Detour's axes.
absl::StatusOr<dtPolyRef> Snap(const dtNavMeshQuery& query, const dtQueryFilter& filter,
                               const Place& place, float nearest[3]) {
  const bool has_z = place.z_yards.has_value();
  const float centre[3] = {static_cast<float>(place.x_yards),
                           has_z ? static_cast<float>(*place.z_yards) : 0.0f,
                           static_cast<float>(place.y_yards)};
  const float half[3] = {kSnapHalfExtentYards,
                         has_z ? kSnapHalfHeightYards : kSnapTallHalfHeightYards,
                         kSnapHalfExtentYards};
  dtPolyRef ref = 0;
  const dtStatus status = query.findNearestPoly(centre, half, &filter, &ref, nearest);
  if (dtStatusFailed(status)) {
    return absl::InternalError(absl::StrCat("findNearestPoly failed: status ", status));
  }
  return ref;
}

double Distance(const float* a, const float* b) {
  const double dx = double(b[0]) - a[0], dy = double(b[1]) - a[1], dz = double(b[2]) - a[2];
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

// Yards by (cell x, cell y, zone), in the frame the navmesh's coordinates are. A walk adds to a
// few cells in turn, so the one sought is nearly always among the last: a flat list searched
// from its end, sorted once at the end.
class CellYards {
 public:
  // Adds the segment a -> b (Detour axes), `yards` long in all, to the cells it crosses.
  void AddSegment(const float* a, const float* b, double yards, std::uint16_t zone) {
    // Split at every cell border along x (Detour x) and y (Detour z).
    double cuts[64];
    int n = 0;
    cuts[n++] = 0.0;
    for (int axis : {0, 2}) {
      const double from = a[axis], to = b[axis];
      if (from == to) continue;
      const double lo = std::min(from, to), hi = std::max(from, to);
      for (double edge = (std::floor(lo / kZoneCellYards) + 1) * kZoneCellYards;
           edge < hi && n < 63; edge += kZoneCellYards) {
        cuts[n++] = (edge - from) / (to - from);
      }
    }
    cuts[n++] = 1.0;
    std::sort(cuts, cuts + n);
    for (int k = 0; k + 1 < n; ++k) {
      const double mid = 0.5 * (cuts[k] + cuts[k + 1]);
      const double x = a[0] + (b[0] - a[0]) * mid, y = a[2] + (b[2] - a[2]) * mid;
      Add(x, y, zone, yards * (cuts[k + 1] - cuts[k]));
    }
  }
  void Add(double x, double y, std::uint16_t zone, double yards) {
    const auto cx = SaturatingFloor<std::int32_t>(x / kZoneCellYards);
    const auto cy = SaturatingFloor<std::int32_t>(y / kZoneCellYards);
    for (auto it = cells_.rbegin(); it != cells_.rend(); ++it) {
      if (it->cell_x == cx && it->cell_y == cy && it->zone == zone) {
        it->yards += yards;
        return;
      }
    }
    cells_.push_back({cx, cy, zone, yards});
  }
  std::vector<ZoneCell> Cells() {
    std::sort(cells_.begin(), cells_.end(), [](const ZoneCell& p, const ZoneCell& q) {
      return std::tie(p.cell_x, p.cell_y, p.zone) < std::tie(q.cell_x, q.cell_y, q.zone);
    });
    return std::move(cells_);
  }

 private:
  std::vector<ZoneCell> cells_;
};

double Distance2D(const float* a, const float* b) {
  const double dx = double(b[0]) - a[0], dz = double(b[2]) - a[2];
  return std::sqrt(dx * dx + dz * dz);
}

}  // namespace

NavMeshWalker::NavMeshWalker(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
NavMeshWalker::NavMeshWalker(NavMeshWalker&&) noexcept = default;
NavMeshWalker& NavMeshWalker::operator=(NavMeshWalker&&) noexcept = default;
NavMeshWalker::~NavMeshWalker() = default;

absl::StatusOr<NavMeshWalker> NavMeshWalker::Create(const NavMesh& navmesh) {
  NavMeshWalker walker(std::make_unique<Impl>());
  if (absl::Status s = walker.Bind(navmesh); !s.ok()) return s;
  return walker;
}

absl::Status NavMeshWalker::Bind(const NavMesh& navmesh) {
  Impl& m = *impl_;
  // By its serial: a reloaded world's new navmesh may stand where the freed one stood.
  if (m.navmesh_serial == navmesh.serial()) return absl::OkStatus();
  m.navmesh = &navmesh;
  m.navmesh_serial = navmesh.serial();
  m.mesh = navmesh.detour();
  m.side_seen.clear();
  m.side_cost.clear();
  // Detour keeps its node pool and open list when they are large enough: binding again
  // allocates nothing.
  const dtStatus status = m.query.init(m.mesh, kNavMeshWalkerNodes);
  if (dtStatusFailed(status)) {
    return absl::InternalError(absl::StrCat("dtNavMeshQuery::init failed: status ", status));
  }
  return absl::OkStatus();
}

const NavMesh* NavMeshWalker::navmesh() const { return impl_->navmesh; }

WalkAnswer ToWalkAnswer(NavMeshWalk walk, bool want_path) {
  WalkAnswer answer;
  answer.status = walk.status;
  answer.method = Method::kNavMesh;
  answer.from_zone = walk.from_zone;
  answer.to_zone = walk.to_zone;
  answer.stats.nodes_expanded = walk.polys_visited;
  if (walk.status != WalkStatus::kOk) return answer;
  answer.seconds = walk.seconds;
  answer.yards = walk.yards;
  answer.zone_cells = std::move(walk.zone_cells);
  if (want_path) {
    answer.path.emplace();
    answer.path->points = std::move(walk.points);
  }
  return answer;
}

// A walk's seconds, yards, corners and zone cells, added up stretch by stretch.
struct NavMeshWalker::Tally {
  const NavMeshPricing* pricing = nullptr;
  const CostFilter* filter = nullptr;
  double seconds = 0.0, yards = 0.0;
  CellYards cells;
  bool want_points = true;
  std::vector<PathPoint> points;
  std::uint8_t last_area = 0xff;

  void AddPoint(const float* p) {
    if (!want_points) return;
    if (points.empty() || points.back().x_yards != p[0] || points.back().y_yards != p[2] ||
        points.back().z_yards != p[1]) {
      points.push_back({p[0], p[2], p[1]});
    }
  }
};

absl::Status NavMeshWalker::PullStretch(const float* from, const float* to, const dtPolyRef* polys,
                                        int count, Tally* tally) {
  Impl& m = *impl_;
  // The corners: Detour's straight path as it pulls it, whose 3D length is the walk's yards.
  int corner_count = 0;
  dtStatus pulled = m.query.findStraightPath(from, to, polys, count, m.corners.data(), nullptr,
                                             nullptr, &corner_count, kNavMeshWalkerMaxPoints, 0);
  if (dtStatusFailed(pulled)) {
    return absl::InternalError(absl::StrCat("findStraightPath failed: status ", pulled));
  }
  if (corner_count == 0 || dtStatusDetail(pulled, DT_BUFFER_TOO_SMALL)) {
    return absl::ResourceExhaustedError("the straight path outgrew its buffer");
  }
  // One kind of ground and one zone all along: each leg is priced whole. Otherwise the path is
  // pulled again with a vertex wherever it enters another polygon (the same corners, with the
  // crossings between), and each piece of a leg is priced by its polygon, taking its share of
  // the leg's 3D length by its length seen from above, so seconds describe the corners' path.
  const NavMeshGround& ground = *tally->pricing->ground;
  const dtMeshTile* tile = nullptr;
  const dtPoly* poly = nullptr;
  m.mesh->getTileAndPolyByRefUnsafe(polys[0], &tile, &poly);
  const std::uint8_t area = poly->getArea();
  const std::uint16_t zone = ground.PolygonZone(polys[0]);
  bool uniform = true;
  for (int i = 1; i < count && uniform; ++i) {
    m.mesh->getTileAndPolyByRefUnsafe(polys[i], &tile, &poly);
    uniform = poly->getArea() == area && ground.PolygonZone(polys[i]) == zone;
  }
  tally->AddPoint(&m.corners[0]);
  if (uniform) {
    for (int k = 0; k + 1 < corner_count; ++k) {
      const float* a = &m.corners[3 * k];
      const double leg = Distance(a, a + 3);
      tally->seconds += leg * tally->filter->SecondsPerYard(area);
      tally->yards += leg;
      tally->cells.AddSegment(a, a + 3, leg, zone);
      tally->AddPoint(a + 3);
    }
    return absl::OkStatus();
  }
  int point_count = 0;
  pulled = m.query.findStraightPath(from, to, polys, count, m.points.data(), nullptr,
                                    m.point_refs.data(), &point_count, kNavMeshWalkerMaxPoints,
                                    DT_STRAIGHTPATH_ALL_CROSSINGS);
  if (dtStatusFailed(pulled)) {
    return absl::InternalError(absl::StrCat("findStraightPath failed: status ", pulled));
  }
  if (point_count == 0 || dtStatusDetail(pulled, DT_BUFFER_TOO_SMALL)) {
    return absl::ResourceExhaustedError("the straight path outgrew its buffer");
  }
  int k = 0;  // the leg from corner k to corner k + 1 holds the piece from vertex i
  for (int i = 0; i + 1 < point_count && k + 1 < corner_count; ++i) {
    const float* p = &m.points[3 * i];
    const float* a = &m.corners[3 * k];
    const float* b = a + 3;
    const double leg = Distance(a, b), flat = Distance2D(a, b);
    const double length = flat > 0.0 ? leg * Distance2D(p, p + 3) / flat : leg;
    if (m.point_refs[i] != 0 &&
        dtStatusSucceed(m.mesh->getTileAndPolyByRef(m.point_refs[i], &tile, &poly))) {
      const std::uint8_t piece_area = poly->getArea();
      if (i != 0 && piece_area != tally->last_area) tally->AddPoint(p);
      tally->last_area = piece_area;
      tally->seconds += length * tally->filter->SecondsPerYard(piece_area);
      tally->cells.AddSegment(p, p + 3, length, ground.PolygonZone(m.point_refs[i]));
    }
    // Detour appends the same corners in both pulls, bit for bit: the piece ending at the next
    // corner ends this leg.
    if (std::equal(p + 3, p + 6, b)) {
      tally->yards += leg;
      tally->AddPoint(b);
      ++k;
    }
  }
  for (; k + 1 < corner_count; ++k) {  // never so, but yards stay the corners' whatever happens
    tally->yards += Distance(&m.corners[3 * k], &m.corners[3 * k + 3]);
    tally->AddPoint(&m.corners[3 * k + 3]);
  }
  return absl::OkStatus();
}

absl::StatusOr<NavMeshWalk> NavMeshWalker::Walk(const Place& from, const Place& to,
                                                const NavMeshPricing& pricing, bool want_points) {
  NavMeshTileCache* cache = impl_->navmesh->tile_cache();
  if (cache == nullptr) return WalkResident(from, to, pricing, want_points, nullptr);
  // Round after round: the tiles under both ends, then those beside every polygon the search
  // reached, until the search reaches no polygon beside a tile that is not resident. Every
  // polygon it expanded then had all its links, so it expanded just as it would with every tile
  // resident, and its answer is the same.
  Impl& m = *impl_;
  m.pinned.clear();
  m.wanted.clear();
  auto under = [&](const Place& p) {
    const auto x = static_cast<float>(p.x_yards), z = static_cast<float>(p.y_yards);
    cache->TilesUnder(x - kSnapHalfExtentYards, z - kSnapHalfExtentYards, x + kSnapHalfExtentYards,
                      z + kSnapHalfExtentYards, &m.wanted);
  };
  under(from);
  under(to);
  absl::StatusOr<NavMeshWalk> walk;
  for (;;) {
    std::sort(m.wanted.begin(), m.wanted.end());
    m.wanted.erase(std::unique(m.wanted.begin(), m.wanted.end()), m.wanted.end());
    absl::Status acquired = cache->Acquire(m.wanted);
    m.pinned.insert(m.pinned.end(), m.wanted.begin(), m.wanted.end());
    if (!acquired.ok()) {
      walk = acquired;
      break;
    }
    m.wanted.clear();
    std::shared_lock<std::shared_mutex> lock = cache->Share();
    walk = WalkResident(from, to, pricing, want_points, cache);
    if (!walk.ok() || m.wanted.empty()) break;
  }
  cache->Release(m.pinned);
  return walk;
}

void NavMeshWalker::AddFrontier(const NavMeshTileCache& cache) {
  Impl& m = *impl_;
  constexpr std::size_t kSlots = NavMeshTileCache::kIncoming + 1;  // sides, own cell, incoming
  const std::size_t slots = kSlots * m.navmesh->tile_records().size();
  if (m.side_seen.size() < slots) {
    m.side_seen.assign(slots, 0);
    m.side_cost.assign(slots, 0.0f);
  }
  if (++m.side_stamp == 0) {
    std::fill(m.side_seen.begin(), m.side_seen.end(), 0);
    m.side_stamp = 1;
  }
  // Every (tile, side) a polygon in the node pool borders (side 8: the tile's own cell, other
  // layers; kIncoming: the tiles whose two-way connections land in it), with the lowest
  // estimated total cost (Detour's f) of the nodes that border it.
  m.touched.clear();
  auto touch = [&](int tile, int side, float total) {
    const std::size_t slot = kSlots * std::size_t(tile) + side;
    if (m.side_seen[slot] != m.side_stamp) {
      m.side_seen[slot] = m.side_stamp;
      m.side_cost[slot] = total;
      m.touched.push_back(slot);
    } else {
      m.side_cost[slot] = std::min(m.side_cost[slot], total);
    }
  };
  const dtNodePool& pool = *m.query.getNodePool();
  for (int i = 1; i <= pool.getNodeCount(); ++i) {
    const dtNode* node = pool.getNodeAtIdx(static_cast<unsigned int>(i));
    if (node == nullptr || node->id == 0) continue;
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    m.mesh->getTileAndPolyByRefUnsafe(node->id, &tile, &poly);
    if (tile == nullptr || tile->header == nullptr) continue;  // never so: the search's own tiles
    const int index = static_cast<int>(m.mesh->decodePolyIdTile(node->id));
    touch(index, NavMeshTileCache::kIncoming, node->total);  // two-way connections landing here
    if (poly->getType() == DT_POLYTYPE_OFFMESH_CONNECTION) {
      const int con = static_cast<int>(poly - tile->polys) - tile->header->offMeshBase;
      const unsigned char side = tile->offMeshCons[con].side;
      touch(index, side < 8 ? side : 8, node->total);
      continue;
    }
    for (int j = 0; j < poly->vertCount; ++j) {
      if ((poly->neis[j] & DT_EXT_LINK) == 0) continue;
      touch(index, poly->neis[j] & 0xff, node->total);
      touch(index, 8, node->total);  // Detour links a border edge to other layers of the cell too
    }
  }
  // The tiles missing beside them. Only those beside the cheapest nodes (within two tiles' cost
  // of the cheapest) are wanted now: the search with every tile resident expands its nodes
  // cheapest first, so the tiles it reaches grow out towards the goal, not all round the start.
  // A later round asks for the others if the search still reaches them.
  std::vector<std::pair<float, int>> missing;  // (cost, tile)
  std::vector<int> beside;
  float cheapest = std::numeric_limits<float>::infinity();
  for (std::size_t slot : m.touched) {
    beside.clear();
    cache.TilesBeside(static_cast<int>(slot / kSlots), static_cast<int>(slot % kSlots), &beside);
    for (int other : beside) {
      if (cache.Resident(other)) continue;
      missing.emplace_back(m.side_cost[slot], other);
      cheapest = std::min(cheapest, m.side_cost[slot]);
    }
  }
  const NavMeshTiling& tiling = m.navmesh->tiling();
  const float reach = cheapest + 2.0f * std::max(tiling.tile_width, tiling.tile_height);
  for (const auto& [cost, tile] : missing) {
    if (cost <= reach) m.wanted.push_back(tile);
  }
}

absl::StatusOr<NavMeshWalk> NavMeshWalker::WalkResident(const Place& from, const Place& to,
                                                        const NavMeshPricing& pricing,
                                                        bool want_points,
                                                        const NavMeshTileCache* cache) {
  Impl& m = *impl_;
  NavMeshWalk walk;
  float start[3], goal[3];
  // Ends snap by passability alone: the filter's exemption (whatever it is) changes no flag.
  if (!m.filter) m.filter.emplace(pricing, 0, 0);
  CostFilter& filter = *m.filter;
  filter.Set(pricing, filter.exempt_a(), filter.exempt_b());
  absl::StatusOr<dtPolyRef> start_ref = Snap(m.query, *filter.detour(), from, start);
  if (!start_ref.ok()) return start_ref.status();
  absl::StatusOr<dtPolyRef> goal_ref = Snap(m.query, *filter.detour(), to, goal);
  if (!goal_ref.ok()) return goal_ref.status();
  if (*start_ref == 0 || *goal_ref == 0) {
    walk.status = WalkStatus::kOffMap;
    return walk;
  }
  walk.from_zone = pricing.ground->PolygonZone(*start_ref);
  walk.to_zone = pricing.ground->PolygonZone(*goal_ref);
  filter.Set(pricing, walk.from_zone, walk.to_zone);
  int poly_count = 0;
  const dtStatus found = m.query.findPath(*start_ref, *goal_ref, start, goal, filter.detour(),
                                          m.polys.data(), &poly_count, kNavMeshWalkerMaxPolys);
  if (dtStatusFailed(found)) {
    return absl::InternalError(absl::StrCat("findPath failed: status ", found));
  }
  walk.polys_visited = static_cast<std::size_t>(poly_count);
  // (findPath leaves the node pool as the last search left it when both ends snap to one
  // polygon: no search, and nothing to add.)
  if (cache != nullptr && *start_ref != *goal_ref) {
    AddFrontier(*cache);
    if (!m.wanted.empty()) return walk;  // asked again once those tiles are resident
  }
  if (poly_count == 0 || dtStatusDetail(found, DT_PARTIAL_RESULT) ||
      m.polys[poly_count - 1] != *goal_ref) {
    return walk;  // kNoWalk: the goal was not reached
  }
  // The corridor is pulled taut stretch by stretch between its off-mesh connections (lift
  // rides), each ride taken from its start to its end: Detour's funnel, seeing from above,
  // would lose a ride whose ends stand one above the other.
  Tally tally;
  tally.pricing = &pricing;
  tally.filter = &filter;
  tally.want_points = want_points;
  float stretch_start[3] = {start[0], start[1], start[2]};
  int first = 0;
  for (int i = 0; i < poly_count; ++i) {
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    if (dtStatusFailed(m.mesh->getTileAndPolyByRef(m.polys[i], &tile, &poly))) {
      return absl::InternalError("findPath returned a polygon the navmesh does not have");
    }
    if (poly->getType() != DT_POLYTYPE_OFFMESH_CONNECTION || i == 0) continue;
    float ride_from[3], ride_to[3];
    if (dtStatusFailed(m.mesh->getOffMeshConnectionPolyEndPoints(m.polys[i - 1], m.polys[i],
                                                                 ride_from, ride_to))) {
      return absl::InternalError("an off-mesh connection without ends");
    }
    if (absl::Status s = PullStretch(stretch_start, ride_from, &m.polys[first], i - first, &tally);
        !s.ok()) {
      if (s.code() == absl::StatusCode::kResourceExhausted) return walk;  // kNoWalk: too long
      return s;
    }
    // A ride walks no yards; it counts in the zone it lands in, with 0 yards.
    tally.seconds += Distance(ride_from, ride_to) * filter.SecondsPerYard(poly->getArea());
    tally.AddPoint(ride_to);
    tally.last_area = 0xff;
    const std::uint16_t zone = i + 1 < poly_count ? pricing.ground->PolygonZone(m.polys[i + 1]) : 0;
    if (zone != 0) tally.cells.Add(ride_to[0], ride_to[2], zone, 0.0);
    std::copy(ride_to, ride_to + 3, stretch_start);
    first = i + 1;
  }
  if (first < poly_count) {
    if (absl::Status s =
            PullStretch(stretch_start, goal, &m.polys[first], poly_count - first, &tally);
        !s.ok()) {
      if (s.code() == absl::StatusCode::kResourceExhausted) return walk;  // kNoWalk: too long
      return s;
    }
  }
  walk.status = WalkStatus::kOk;
  walk.yards = tally.yards;
  walk.seconds = tally.seconds;
  walk.zone_cells = tally.cells.Cells();
  walk.points = std::move(tally.points);
  return walk;
}

}  // namespace walk::nav
