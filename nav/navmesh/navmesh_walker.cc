#include "nav/navmesh/navmesh_walker.h"

#include <cmath>
#include <utility>

#include "DetourNavMesh.h"
#include "DetourNavMeshQuery.h"
#include "absl/strings/str_cat.h"
#include "nav/navmesh/cost_filter.h"

namespace walk::nav {

struct NavMeshWalker::Impl {
  const dtNavMesh* mesh = nullptr;
  dtNavMeshQuery query;
  std::vector<dtPolyRef> polys = std::vector<dtPolyRef>(kNavMeshWalkerMaxPolys);
  std::vector<float> points = std::vector<float>(3 * kNavMeshWalkerMaxPoints);
  std::vector<unsigned char> point_flags = std::vector<unsigned char>(kNavMeshWalkerMaxPoints);
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

}  // namespace

NavMeshWalker::NavMeshWalker(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
NavMeshWalker::NavMeshWalker(NavMeshWalker&&) noexcept = default;
NavMeshWalker& NavMeshWalker::operator=(NavMeshWalker&&) noexcept = default;
NavMeshWalker::~NavMeshWalker() = default;

absl::StatusOr<NavMeshWalker> NavMeshWalker::Create(const NavMesh& navmesh) {
  auto impl = std::make_unique<Impl>();
  impl->mesh = navmesh.detour();
  const dtStatus status = impl->query.init(impl->mesh, kNavMeshWalkerNodes);
  if (dtStatusFailed(status)) {
    return absl::InternalError(absl::StrCat("dtNavMeshQuery::init failed: status ", status));
  }
  return NavMeshWalker(std::move(impl));
}

absl::StatusOr<NavMeshWalk> NavMeshWalker::Walk(const Place& from, const Place& to,
                                                const NavMeshPricing& pricing) {
  const CostFilter filter(pricing);
  Impl& m = *impl_;
  NavMeshWalk walk;
  float start[3], goal[3];
  absl::StatusOr<dtPolyRef> start_ref = Snap(m.query, *filter.detour(), from, start);
  if (!start_ref.ok()) return start_ref.status();
  absl::StatusOr<dtPolyRef> goal_ref = Snap(m.query, *filter.detour(), to, goal);
  if (!goal_ref.ok()) return goal_ref.status();
  if (*start_ref == 0 || *goal_ref == 0) {
    walk.status = WalkStatus::kOffMap;
    return walk;
  }
  int poly_count = 0;
  const dtStatus found = m.query.findPath(*start_ref, *goal_ref, start, goal, filter.detour(),
                                          m.polys.data(), &poly_count, kNavMeshWalkerMaxPolys);
  if (dtStatusFailed(found)) {
    return absl::InternalError(absl::StrCat("findPath failed: status ", found));
  }
  walk.polys_visited = static_cast<std::size_t>(poly_count);
  if (poly_count == 0 || dtStatusDetail(found, DT_PARTIAL_RESULT) ||
      m.polys[poly_count - 1] != *goal_ref) {
    return walk;  // kNoWalk: the goal was not reached
  }
  int point_count = 0;
  const dtStatus pulled = m.query.findStraightPath(
      start, goal, m.polys.data(), poly_count, m.points.data(), m.point_flags.data(),
      m.point_refs.data(), &point_count, kNavMeshWalkerMaxPoints, DT_STRAIGHTPATH_AREA_CROSSINGS);
  if (dtStatusFailed(pulled)) {
    return absl::InternalError(absl::StrCat("findStraightPath failed: status ", pulled));
  }
  if (point_count == 0 || dtStatusDetail(pulled, DT_BUFFER_TOO_SMALL)) return walk;
  double seconds = 0.0, yards = 0.0;
  walk.points.reserve(point_count);
  for (int i = 0; i < point_count; ++i) {
    const float* p = &m.points[3 * i];
    walk.points.push_back(PathPoint{p[0], p[2], p[1]});
    if (i + 1 == point_count) break;
    const double length = Distance(p, p + 3);
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    std::uint8_t area = kNavAreaGround;
    if (m.point_refs[i] != 0 &&
        dtStatusSucceed(m.mesh->getTileAndPolyByRef(m.point_refs[i], &tile, &poly))) {
      area = poly->getArea();
    }
    yards += length;
    seconds += length * filter.SecondsPerYard(area);
  }
  walk.status = WalkStatus::kOk;
  walk.yards = yards;
  walk.seconds = seconds;
  return walk;
}

}  // namespace walk::nav
