// navmesh_bench: walkd's navmesh backend against Detour called directly, and against the grid,
// on one world folder holding a grid and a navmesh (walkgrid build-mesh + build-navmesh), and
// optionally a navmesh another tool built (RecastDemo's all-tiles file) of the same mesh.
//
//  - exactness: random pairs of points on the navmesh; Detour alone (a plain all-tiles reader
//    here, the default dtQueryFilter, findNearestPoly, findPath, findStraightPath, the straight
//    path's 3D length) against walkd's NavMeshWalker (shortest profile: every class costs 1):
//    how many each finds, and the pairs whose yards differ by more than 1e-3 (relative);
//  - overhead: the same pairs, each timed alternately R times; medians of each pair's best, and
//    their ratio (walkd / Detour);
//  - backends: N pairs of the navmesh's points and N of the grid's surfaces, walked by the grid
//    (exact fine grid, neutral profile) and the navmesh: walks found by each, the median
//    navmesh/grid yards ratio, and what the hybrid (slack 1.2) takes.
//
// Usage: navmesh_bench WORLD_DIR [--foreign FILE.bin] [--pairs N] [--repeat R] [--seed S]
// Prints one JSON line.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "DetourAlloc.h"
#include "DetourNavMesh.h"
#include "DetourNavMeshQuery.h"
#include "nav/cost/metric.h"
#include "nav/grid/grid_format.h"
#include "nav/navmesh/navmesh_ground.h"
#include "nav/navmesh/navmesh_walker.h"
#include "nav/navmesh/world_navmesh.h"
#include "nav/query/snap.h"
#include "nav/query/walk_pipeline.h"
#include "nlohmann/json.hpp"

namespace walk::nav {
namespace {

using Clock = std::chrono::steady_clock;

double Median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::mt19937* g_random = nullptr;
float Frand() { return std::uniform_real_distribution<float>(0.0f, 1.0f)(*g_random); }

// Detour alone: an all-tiles file read with nothing of walkd's, and the plain queries.
struct RawDetour {
  dtNavMesh* mesh = nullptr;
  dtNavMeshQuery query;
  dtQueryFilter filter;
  std::vector<dtPolyRef> polys = std::vector<dtPolyRef>(kNavMeshWalkerMaxPolys);
  std::vector<float> points = std::vector<float>(3 * kNavMeshWalkerMaxPoints);

  ~RawDetour() { dtFreeNavMesh(mesh); }

  bool Load(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t at = 0;
    auto take = [&](void* out, std::size_t n) {
      if (at + n > bytes.size()) return false;
      std::memcpy(out, bytes.data() + at, n);
      at += n;
      return true;
    };
    std::int32_t magic = 0, version = 0, tiles = 0;
    dtNavMeshParams params;
    if (!take(&magic, 4) || !take(&version, 4) || !take(&tiles, 4) || !take(&params, 28)) {
      return false;
    }
    if (magic != ('M' << 24 | 'S' << 16 | 'E' << 8 | 'T') || version != 1) return false;
    mesh = dtAllocNavMesh();
    if (mesh == nullptr || dtStatusFailed(mesh->init(&params))) return false;
    for (std::int32_t t = 0; t < tiles; ++t) {
      std::uint32_t ref = 0;
      std::int32_t size = 0;
      if (!take(&ref, 4) || !take(&size, 4)) return false;
      if (ref == 0 || size <= 0) break;
      auto* data = static_cast<unsigned char*>(dtAlloc(size, DT_ALLOC_PERM));
      if (!take(data, static_cast<std::size_t>(size))) return false;
      if (dtStatusFailed(mesh->addTile(data, size, DT_TILE_FREE_DATA, ref, nullptr))) return false;
    }
    return dtStatusSucceed(query.init(mesh, kNavMeshWalkerNodes));
  }

  // The walk's yards, or -1 without a full path. Snaps as walkd does, with the default filter.
  double Walk(const float* a, const float* b) {
    const float half[3] = {kSnapHalfExtentYards, kSnapHalfHeightYards, kSnapHalfExtentYards};
    dtPolyRef ra = 0, rb = 0;
    float na[3], nb[3];
    query.findNearestPoly(a, half, &filter, &ra, na);
    query.findNearestPoly(b, half, &filter, &rb, nb);
    if (ra == 0 || rb == 0) return -1.0;
    int count = 0;
    const dtStatus found =
        query.findPath(ra, rb, na, nb, &filter, polys.data(), &count, kNavMeshWalkerMaxPolys);
    if (dtStatusFailed(found) || dtStatusDetail(found, DT_PARTIAL_RESULT) || count == 0 ||
        polys[count - 1] != rb) {
      return -1.0;
    }
    int n = 0;
    if (dtStatusFailed(query.findStraightPath(na, nb, polys.data(), count, points.data(), nullptr,
                                              nullptr, &n, kNavMeshWalkerMaxPoints))) {
      return -1.0;
    }
    double yards = 0.0;
    for (int i = 0; i + 1 < n; ++i) {
      const float* p = &points[3 * i];
      yards += std::sqrt(double(p[3] - p[0]) * (p[3] - p[0]) + double(p[4] - p[1]) * (p[4] - p[1]) +
                         double(p[5] - p[2]) * (p[5] - p[2]));
    }
    return yards;
  }
};

struct Pair {
  float a[3], b[3];
};

// `count` pairs of random points on the navmesh (none when it has no polygon).
std::vector<Pair> RandomPairs(RawDetour& raw, int count) {
  std::vector<Pair> pairs;
  for (int i = 0; i < count; ++i) {
    Pair p;
    dtPolyRef ra = 0, rb = 0;
    if (dtStatusFailed(raw.query.findRandomPoint(&raw.filter, Frand, &ra, p.a)) ||
        dtStatusFailed(raw.query.findRandomPoint(&raw.filter, Frand, &rb, p.b))) {
      break;
    }
    pairs.push_back(p);
  }
  return pairs;
}

Place PlaceAt(const float* p) { return Place{0, p[0], p[2], double(p[1])}; }

// Detour alone against walkd's walker on `navmesh` (classes from its own areas, shortest: every
// class costs 1, as Detour's default filter prices).
nlohmann::ordered_json Exactness(const std::string& label, RawDetour& raw, NavMesh& navmesh,
                                 const std::vector<Pair>& pairs, int repeat) {
  const absl::StatusOr<NavMeshGround> ground = NavMeshGround::Classify(navmesh, nullptr, 0);
  const Metric shortest(World(), *FindProfile("shortest"), 0);
  const NavMeshPricing pricing{&shortest, &*ground};
  absl::StatusOr<NavMeshWalker> walker = NavMeshWalker::Create(navmesh);
  int raw_found = 0, walkd_found = 0, both = 0, differ = 0;
  double worst = 0.0;
  std::vector<double> raw_us(pairs.size(), 1e300), walkd_us(pairs.size(), 1e300);
  for (int r = 0; r < repeat; ++r) {
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      double raw_yards = 0.0;
      absl::StatusOr<NavMeshWalk> walk;
      for (int side = 0; side < 2; ++side) {  // alternate which goes first
        const bool raw_now = (side == 0) == ((i + r) % 2 == 0);
        const auto t = Clock::now();
        if (raw_now) {
          raw_yards = raw.Walk(pairs[i].a, pairs[i].b);
        } else {
          walk = walker->Walk(PlaceAt(pairs[i].a), PlaceAt(pairs[i].b), pricing);
        }
        const double us = std::chrono::duration<double, std::micro>(Clock::now() - t).count();
        double& best = raw_now ? raw_us[i] : walkd_us[i];
        best = std::min(best, us);
      }
      if (r != 0) continue;
      const bool raw_ok = raw_yards >= 0.0;
      const bool walkd_ok = walk.ok() && walk->status == WalkStatus::kOk;
      raw_found += raw_ok;
      walkd_found += walkd_ok;
      if (!raw_ok || !walkd_ok) continue;
      ++both;
      const double relative = std::abs(walk->yards - raw_yards) / std::max(raw_yards, 1.0);
      worst = std::max(worst, relative);
      differ += relative > 1e-3;
    }
  }
  std::vector<double> ratios;
  for (std::size_t i = 0; i < pairs.size(); ++i) ratios.push_back(walkd_us[i] / raw_us[i]);
  nlohmann::ordered_json j;
  j["navmesh"] = label;
  j["classes"] = ground->classes().size();
  j["pairs"] = pairs.size();
  j["detour_found"] = raw_found;
  j["walkd_found"] = walkd_found;
  j["both_found"] = both;
  j["yards_differ"] = differ;
  j["worst_relative"] = worst;
  j["detour_median_us"] = Median(raw_us);
  j["walkd_median_us"] = Median(walkd_us);
  j["ratio_of_medians"] = Median(walkd_us) / std::max(Median(raw_us), 1e-9);
  j["median_pair_ratio"] = Median(ratios);
  return j;
}

// The grid against the navmesh, and the hybrid's choice, on places of both.
nlohmann::ordered_json Backends(const World& world, NavMesh& navmesh,
                                const std::vector<Pair>& mesh_pairs, int surface_pairs,
                                std::mt19937& random) {
  const absl::StatusOr<NavMeshGround> ground = NavMeshGround::Classify(navmesh, &world, 0);
  const Metric neutral(world, *FindProfile("neutral"), 0);
  absl::StatusOr<NavMeshWalker> walker = NavMeshWalker::Create(navmesh);
  std::vector<std::pair<Place, Place>> places;
  for (const Pair& p : mesh_pairs) places.emplace_back(PlaceAt(p.a), PlaceAt(p.b));
  const Continent& c = world.continents[0];
  std::uniform_int_distribution<SurfaceId> surface(0, c.surface_count() - 1);
  for (int i = 0; i < surface_pairs; ++i) {
    places.emplace_back(PlaceOf(c, world.FrameOf(c), surface(random)),
                        PlaceOf(c, world.FrameOf(c), surface(random)));
  }
  FineGridAStar astar;
  int grid_found = 0, mesh_found = 0, took_mesh = 0, none = 0, detour = 0, hybrid_found = 0;
  std::vector<double> yards_ratio;
  for (const auto& [from, to] : places) {
    const absl::StatusOr<WalkAnswer> grid = AnswerWalk(world, neutral, from, to, astar);
    const absl::StatusOr<NavMeshWalk> mesh =
        walker->Walk(from, to, NavMeshPricing{&neutral, &*ground});
    const bool g = grid.ok() && grid->status == WalkStatus::kOk;
    const bool m = mesh.ok() && mesh->status == WalkStatus::kOk;
    grid_found += g;
    mesh_found += m;
    if (g && m && grid->yards > 0.0) yards_ratio.push_back(mesh->yards / grid->yards);
    if (m && (!g || mesh->seconds <= 1.2 * grid->seconds)) {
      ++took_mesh;
    } else {
      ++(m ? detour : none);
    }
    hybrid_found += g || m;
  }
  nlohmann::ordered_json j;
  j["pairs"] = places.size();
  j["grid_found"] = grid_found;
  j["navmesh_found"] = mesh_found;
  j["hybrid_found"] = hybrid_found;
  j["median_navmesh_grid_yards"] = Median(yards_ratio);
  j["hybrid_navmesh"] = took_mesh;
  j["hybrid_navmesh_none"] = none;
  j["hybrid_navmesh_detour"] = detour;
  return j;
}

int Run(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: navmesh_bench WORLD_DIR [--foreign FILE.bin] [--pairs N] [--repeat R] "
                 "[--seed S]\n");
    return 2;
  }
  const std::string dir = argv[1];
  std::string foreign;
  int pairs_count = 200, repeat = 5;
  unsigned seed = 18;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--foreign") foreign = argv[i + 1];
    if (flag == "--pairs") pairs_count = std::atoi(argv[i + 1]);
    if (flag == "--repeat") repeat = std::atoi(argv[i + 1]);
    if (flag == "--seed") seed = static_cast<unsigned>(std::atoi(argv[i + 1]));
  }
  // Two copies of the navmesh: classes are written into a navmesh's polygons, once each.
  absl::StatusOr<LoadedWorld> world = LoadWorld(dir);
  absl::StatusOr<std::optional<NavMesh>> navmesh = LoadWorldNavMesh(dir);
  absl::StatusOr<std::optional<NavMesh>> priced = LoadWorldNavMesh(dir);
  if (!world.ok() || !navmesh.ok() || !navmesh->has_value() || !priced.ok() ||
      !priced->has_value()) {
    std::fprintf(stderr, "navmesh_bench: %s needs grid.walkgrid and navmesh.bin\n", dir.c_str());
    return 1;
  }
  std::mt19937 random(seed);
  g_random = &random;
  RawDetour raw;
  if (!raw.Load(dir + "/" + kWorldMsetFile)) {
    std::fprintf(stderr, "navmesh_bench: Detour could not read %s/navmesh.bin\n", dir.c_str());
    return 1;
  }
  const std::vector<Pair> pairs = RandomPairs(raw, pairs_count);
  nlohmann::ordered_json line;
  line["world"] = dir;
  line["walkd_built"] = Exactness("walkd", raw, **navmesh, pairs, repeat);
  if (!foreign.empty()) {
    RawDetour other;
    absl::StatusOr<NavMesh> read = ReadNavMesh(foreign);
    if (!other.Load(foreign) || !read.ok()) {
      std::fprintf(stderr, "navmesh_bench: cannot read %s\n", foreign.c_str());
      return 1;
    }
    const std::vector<Pair> other_pairs = RandomPairs(other, pairs_count);
    line["foreign"] = Exactness(foreign, other, *read, other_pairs, repeat);
  }
  line["backends"] = Backends(world->world, **priced, pairs, pairs_count, random);
  std::printf("%s\n", line.dump().c_str());
  return 0;
}

}  // namespace
}  // namespace walk::nav

int main(int argc, char** argv) { return walk::nav::Run(argc, argv); }
