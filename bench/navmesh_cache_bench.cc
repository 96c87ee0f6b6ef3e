// navmesh_cache_bench: walks on a navmesh read from an mmaps folder with every tile resident
// against the same walks with a tile cache of a few tiles (--navmesh-cache-mb), on one thread and
// on two sharing the navmesh: milliseconds a walk (median of R rounds), tiles read again and
// evicted, and whether every answer equals the all-resident one.
//
// Usage: navmesh_cache_bench MMAPS_DIR [--pairs N] [--budget-tiles K,K,...] [--repeat R]
//        [--seed S]   (a budget of K x the largest tile's bytes; default 4)
// Prints one JSON line.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "DetourNavMesh.h"
#include "DetourNavMeshQuery.h"
#include "nav/cost/metric.h"
#include "nav/navmesh/mmaps_folder.h"
#include "nav/navmesh/navmesh_ground.h"
#include "nav/navmesh/navmesh_walker.h"
#include "nav/navmesh/tile_cache.h"
#include "nlohmann/json.hpp"

namespace walk::nav {
namespace {

using Clock = std::chrono::steady_clock;

std::mt19937* g_random = nullptr;
float Frand() { return std::uniform_real_distribution<float>(0.0f, 1.0f)(*g_random); }

struct Loaded {
  std::optional<NavMesh> navmesh;
  std::optional<NavMeshGround> ground;
};

std::unique_ptr<Loaded> Load(const std::string& dir, std::uint64_t budget_bytes) {
  auto l = std::make_unique<Loaded>();
  absl::StatusOr<NavMesh> read = ReadMmapsFolder(dir);
  if (!read.ok()) {
    std::fprintf(stderr, "%s\n", std::string(read.status().message()).c_str());
    std::exit(1);
  }
  l->navmesh = *std::move(read);
  l->ground = *NavMeshGround::Classify(*l->navmesh, nullptr, 0);
  if (budget_bytes > 0) {
    const Loaded* self = l.get();
    l->navmesh->EnableTileCache(budget_bytes, [self](dtNavMesh& mesh, int index) {
      self->ground->ApplyToTile(mesh, index);
    });
  }
  return l;
}

using Pairs = std::vector<std::pair<Place, Place>>;

Pairs RandomPairs(const NavMesh& navmesh, int n, unsigned seed) {
  dtNavMeshQuery query;
  query.init(navmesh.detour(), 2048);
  std::mt19937 random(seed);
  g_random = &random;
  const dtQueryFilter filter;
  auto pick = [&] {
    dtPolyRef ref = 0;
    float p[3];
    query.findRandomPoint(&filter, Frand, &ref, p);
    return Place{0, p[0], p[2], double(p[1])};
  };
  Pairs pairs;
  for (int i = 0; i < n; ++i) pairs.emplace_back(pick(), pick());
  return pairs;
}

// Walks every pair on `threads` threads (each its own walker), returning the seconds of each
// answer and the wall milliseconds a walk.
double WalkAll(const Loaded& l, const Metric& metric, const Pairs& pairs, int threads,
               std::vector<double>* seconds) {
  seconds->assign(pairs.size(), -1.0);
  const auto started = Clock::now();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      NavMeshWalker walker = *NavMeshWalker::Create(*l.navmesh);
      for (std::size_t i = t; i < pairs.size(); i += threads) {
        absl::StatusOr<NavMeshWalk> walk = walker.Walk(pairs[i].first, pairs[i].second,
                                                       NavMeshPricing{&metric, &*l.ground}, false);
        if (walk.ok() && walk->status == WalkStatus::kOk) (*seconds)[i] = walk->seconds;
      }
    });
  }
  for (std::thread& t : pool) t.join();
  return std::chrono::duration<double, std::milli>(Clock::now() - started).count() /
         double(pairs.size());
}

double MedianMs(const Loaded& l, const Metric& metric, const Pairs& pairs, int threads, int repeat,
                std::vector<double>* seconds) {
  std::vector<double> ms;
  for (int r = 0; r < repeat; ++r) ms.push_back(WalkAll(l, metric, pairs, threads, seconds));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace
}  // namespace walk::nav

int main(int argc, char** argv) {
  using namespace walk::nav;
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: navmesh_cache_bench MMAPS_DIR [--pairs N] [--budget-tiles K] "
                 "[--repeat R] [--seed S]\n");
    return 2;
  }
  const std::string dir = argv[1];
  int pairs_n = 500, repeat = 5;
  std::vector<int> budget_tiles = {4};
  unsigned seed = 7;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--pairs")) pairs_n = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--repeat")) repeat = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--seed")) seed = static_cast<unsigned>(std::atoi(argv[i + 1]));
    if (!std::strcmp(argv[i], "--budget-tiles")) {
      budget_tiles.clear();
      for (const char* p = argv[i + 1]; *p != '\0';) {
        budget_tiles.push_back(std::atoi(p));
        while (*p != '\0' && *p != ',') ++p;
        if (*p == ',') ++p;
      }
    }
  }
  const std::unique_ptr<Loaded> all = Load(dir, 0);
  std::uint64_t largest = 0, total = 0;
  for (const NavMesh::TileRecord& r : all->navmesh->tile_records()) {
    largest = std::max(largest, r.bytes);
    total += r.bytes;
  }
  const Metric metric(World(), *FindProfile("shortest"), 0);
  const Pairs pairs = RandomPairs(*all->navmesh, pairs_n, seed);
  nlohmann::ordered_json out;
  out["mmaps"] = dir;
  out["tiles"] = all->navmesh->tile_count();
  out["tile_bytes"] = total;
  out["pairs"] = pairs.size();
  std::vector<double> expected[3];
  for (int threads : {1, 2}) {
    out[threads == 1 ? "all_resident_ms_per_walk" : "all_resident_ms_per_walk_two_threads"] =
        MedianMs(*all, metric, pairs, threads, repeat, &expected[threads]);
  }
  out["found"] =
      std::count_if(expected[1].begin(), expected[1].end(), [](double s) { return s >= 0; });
  out["budgets"] = nlohmann::ordered_json::array();
  for (int k : budget_tiles) {
    const std::uint64_t budget = largest * static_cast<std::uint64_t>(k);
    const std::unique_ptr<Loaded> few = Load(dir, budget);
    const NavMeshTileCache& cache = *few->navmesh->tile_cache();
    nlohmann::ordered_json row;
    row["budget_tiles"] = k;
    row["budget_bytes"] = budget;
    for (int threads : {1, 2}) {
      std::vector<double> cached;
      const std::uint64_t decoded = cache.tiles_decoded();
      const double ms = MedianMs(*few, metric, pairs, threads, repeat, &cached);
      const std::string suffix = threads == 1 ? "" : "_two_threads";
      row["ms_per_walk" + suffix] = ms;
      row["decoded_per_walk" + suffix] =
          double(cache.tiles_decoded() - decoded) / double(repeat * pairs.size());
      row["equal" + suffix] = cached == expected[threads];
    }
    out["budgets"].push_back(row);
  }
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
