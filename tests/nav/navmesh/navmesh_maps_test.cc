// Several maps in one mmaps folder, as game servers ship them, and a tile cache: two shared
// meshes' navmeshes written as maps 0 and 1 of one folder and read whole; the demo world's
// navmesh, built without its lifts and read from an mmaps folder, with the grid's lift rides
// appended at load, answering every pair the same with a budget of a few tiles (also from two
// threads at once) as with every tile resident.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "DetourNavMesh.h"
#include "DetourNavMeshQuery.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nav/cost/metric.h"
#include "nav/demo/demo_world.h"
#include "nav/navmesh/lift_connections.h"
#include "nav/navmesh/mmaps_folder.h"
#include "nav/navmesh/navmesh_builder.h"
#include "nav/navmesh/navmesh_ground.h"
#include "nav/navmesh/navmesh_walker.h"
#include "nav/navmesh/tile_cache.h"
#include "nav/navmesh/world_navmesh.h"
#include "tests/nav/ascii_grid.h"

namespace walk::nav {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string FreshDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("navmesh-maps-test-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

absl::StatusOr<NavMesh> BuildShared(const std::string& mesh_name) {
  absl::StatusOr<TriangleMesh> mesh = ReadObj(testing::SharedDataDir() + "/meshes/" + mesh_name);
  if (!mesh.ok()) return mesh.status();
  return BuildNavMesh(*mesh, NavMeshBuildOptions{});
}

TEST(NavMeshMapsTest, TwoMapsOfOneFolderAreReadWhole) {
  const std::string data = testing::SharedDataDir() + "/meshes";
  if (!fs::exists(data + "/dungeon.obj") || !fs::exists(data + "/Maze8.obj")) {
    GTEST_SKIP() << data << " lacks dungeon.obj or Maze8.obj (set WALKD_SHARED_DATA)";
  }
  absl::StatusOr<NavMesh> dungeon = BuildShared("dungeon.obj");
  absl::StatusOr<NavMesh> maze = BuildShared("Maze8.obj");
  ASSERT_TRUE(dungeon.ok() && maze.ok());
  // As walkgrid writes them (build-navmesh --format mmaps --map N): one world folder, two maps.
  const std::string world = FreshDir("two-maps");
  ASSERT_TRUE(SaveWorldNavMesh(*dungeon, world, NavMeshFormat::kMmaps, 0, 0).ok());
  ASSERT_TRUE(SaveWorldNavMesh(*maze, world, NavMeshFormat::kMmaps, 3, 1).ok());
  const std::string mmaps = world + "/mmaps";
  EXPECT_TRUE(fs::exists(mmaps + "/000.mmap") && fs::exists(mmaps + "/001.mmap"));

  absl::StatusOr<std::vector<MmapsMap>> maps = ReadMmapsMaps(mmaps);
  ASSERT_TRUE(maps.ok()) << maps.status();
  ASSERT_EQ(maps->size(), 2u);
  EXPECT_EQ((*maps)[0].map, 0u);
  EXPECT_EQ((*maps)[0].navmesh.content_hash(), dungeon->content_hash());
  EXPECT_EQ((*maps)[1].map, 1u);
  EXPECT_EQ((*maps)[1].navmesh.content_hash(), maze->content_hash());
  EXPECT_EQ((*maps)[1].navmesh.tile_count(), maze->tile_count());

  // One map alone must be named; the note maps each to its continent.
  absl::StatusOr<NavMesh> one = ReadMmapsFolder(mmaps);
  EXPECT_EQ(one.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(one.status().message()), HasSubstr("2 maps"));
  one = ReadMmapsFolder(mmaps, 1);
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(one->content_hash(), maze->content_hash());
  EXPECT_EQ(ReadMmapsFolder(mmaps, 7).status().code(), absl::StatusCode::kNotFound);
  absl::StatusOr<std::optional<NavMeshNote>> note = LoadNavMeshNote(world);
  ASSERT_TRUE(note.ok() && note->has_value());
  EXPECT_EQ((*note)->ContinentOf(0), 0u);
  EXPECT_EQ((*note)->ContinentOf(1), 3u);
  EXPECT_EQ((*note)->Find(1)->content_hash, maze->content_hash());

  // Writing map 0 again keeps map 1, its files and its entry.
  ASSERT_TRUE(SaveWorldNavMesh(*dungeon, world, NavMeshFormat::kMmaps, 0, 0).ok());
  absl::StatusOr<std::vector<WorldNavMeshMap>> loaded = LoadWorldNavMeshes(world);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 2u);
  EXPECT_EQ((*loaded)[1].navmesh.content_hash(), maze->content_hash());
  note = LoadNavMeshNote(world);
  ASSERT_TRUE(note.ok() && note->has_value());
  EXPECT_EQ((*note)->ContinentOf(1), 3u);
}

// The 1 x 1 demo world and its navmesh built without lift rides, written as an mmaps folder.
struct DemoMaps {
  DemoOptions options;
  World world;
  DemoLandmarks landmarks;
  std::string mmaps;
};

const DemoMaps& TheMaps() {
  static const DemoMaps* demo = [] {
    auto* d = new DemoMaps;
    d->options.tiles_x = d->options.tiles_y = 1;
    absl::StatusOr<World> world = GenerateDemoWorld(d->options);
    EXPECT_TRUE(world.ok()) << world.status();
    d->world = *std::move(world);
    d->landmarks = *FindLandmarks(d->options);
    absl::StatusOr<TriangleMesh> mesh = DemoWorldMesh(d->options);
    EXPECT_TRUE(mesh.ok()) << mesh.status();
    absl::StatusOr<NavMesh> navmesh = BuildNavMesh(*mesh, NavMeshBuildOptions{});
    EXPECT_TRUE(navmesh.ok()) << navmesh.status();
    d->mmaps = FreshDir("demo") + "/mmaps";
    EXPECT_TRUE(WriteMmapsFolder(*navmesh, d->mmaps, 0).ok());
    return d;
  }();
  return *demo;
}

// The demo's navmesh as walkd serves it: read from its files, the lift rides appended, priced by
// the grid; with a tile cache of `budget_bytes` when not 0.
struct Served {
  std::optional<NavMesh> navmesh;
  std::optional<NavMeshGround> ground;
  LiftConnectionCounts lifts;
};
std::unique_ptr<Served> Serve(const DemoMaps& d, std::uint64_t budget_bytes) {
  auto s = std::make_unique<Served>();
  absl::StatusOr<NavMesh> read = ReadMmapsFolder(d.mmaps);
  EXPECT_TRUE(read.ok()) << read.status();
  s->navmesh = *std::move(read);
  absl::StatusOr<LiftConnectionCounts> lifts = AddMissingLiftConnections(*s->navmesh, d.world, 0);
  EXPECT_TRUE(lifts.ok()) << lifts.status();
  s->lifts = *lifts;
  absl::StatusOr<NavMeshGround> ground = NavMeshGround::Classify(*s->navmesh, &d.world, 0);
  EXPECT_TRUE(ground.ok()) << ground.status();
  s->ground = *std::move(ground);
  if (budget_bytes > 0) {
    const Served* self = s.get();
    s->navmesh->EnableTileCache(budget_bytes, [self](dtNavMesh& mesh, int index) {
      self->ground->ApplyToTile(mesh, index);
    });
  }
  return s;
}

TEST(NavMeshMapsTest, ImportedNavMeshGetsTheGridsLiftRidesAtLoad) {
  const DemoMaps& d = TheMaps();
  std::unique_ptr<Served> s = Serve(d, 0);
  const std::uint32_t rides = static_cast<std::uint32_t>(d.world.continents[0].lifts.size());
  ASSERT_GT(rides, 0u);
  EXPECT_EQ(s->lifts.rides, rides);
  EXPECT_EQ(s->lifts.added + s->lifts.unplaced, rides);
  EXPECT_EQ(s->lifts.unplaced, 0u);
  EXPECT_EQ(s->ground->stats().lift_rides, rides) << "each appended ride is priced as the grid's";
  // Asked again, every ride is there already.
  absl::StatusOr<LiftConnectionCounts> again = AddMissingLiftConnections(*s->navmesh, d.world, 0);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->present, rides);
  EXPECT_EQ(again->added, 0u);
  // The mesa's top is reached by its lift only.
  const Metric metric(d.world, *FindProfile("neutral"), 0);
  absl::StatusOr<NavMeshWalker> walker = NavMeshWalker::Create(*s->navmesh);
  ASSERT_TRUE(walker.ok());
  const double cy = d.world.column_yards;
  auto at = [&](const DemoPoint& p) { return Place{0, p.x_yards(cy), p.y_yards(cy), double(p.z)}; };
  absl::StatusOr<NavMeshWalk> up = walker->Walk(
      at(d.landmarks.lift_bottom), at(d.landmarks.lift_top), NavMeshPricing{&metric, &*s->ground});
  ASSERT_TRUE(up.ok());
  EXPECT_EQ(up->status, WalkStatus::kOk);
  EXPECT_GT(up->seconds, 15.0) << "the ride's wait and shaft";
}

// Random places on the navmesh (Detour's own picks, every tile resident), and the lift's ends.
std::vector<std::pair<Place, Place>> RandomPairs(const NavMesh& navmesh, const DemoMaps& d, int n) {
  dtNavMeshQuery query;
  EXPECT_TRUE(dtStatusSucceed(query.init(navmesh.detour(), 2048)));
  std::mt19937 random(33);
  static std::mt19937* g = nullptr;
  g = &random;
  auto frand = [] { return std::uniform_real_distribution<float>(0.0f, 1.0f)(*g); };
  dtQueryFilter filter;
  auto pick = [&] {
    dtPolyRef ref = 0;
    float p[3];
    query.findRandomPoint(&filter, +frand, &ref, p);
    return Place{0, p[0], p[2], double(p[1])};
  };
  std::vector<std::pair<Place, Place>> pairs;
  for (int i = 0; i < n; ++i) pairs.emplace_back(pick(), pick());
  const double cy = d.world.column_yards;
  const DemoPoint& a = d.landmarks.lift_bottom;
  const DemoPoint& b = d.landmarks.lift_top;
  pairs.emplace_back(Place{0, a.x_yards(cy), a.y_yards(cy), double(a.z)},
                     Place{0, b.x_yards(cy), b.y_yards(cy), double(b.z)});
  pairs.emplace_back(Place{0, a.x_yards(cy), a.y_yards(cy), std::nullopt},
                     Place{0, b.x_yards(cy), b.y_yards(cy), std::nullopt});
  return pairs;
}

// Walks every pair of `pairs[first, end)` on `navmesh` into `out`.
void WalkAll(const NavMesh& navmesh, const NavMeshPricing& pricing,
             const std::vector<std::pair<Place, Place>>& pairs, std::size_t first, std::size_t end,
             std::vector<NavMeshWalk>* out) {
  absl::StatusOr<NavMeshWalker> walker = NavMeshWalker::Create(navmesh);
  ASSERT_TRUE(walker.ok());
  for (std::size_t i = first; i < end; ++i) {
    absl::StatusOr<NavMeshWalk> walk = walker->Walk(pairs[i].first, pairs[i].second, pricing);
    ASSERT_TRUE(walk.ok()) << walk.status();
    (*out)[i] = *std::move(walk);
  }
}

void ExpectSame(const std::vector<NavMeshWalk>& a, const std::vector<NavMeshWalk>& b) {
  int found = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].status, b[i].status) << "pair " << i;
    EXPECT_EQ(a[i].seconds, b[i].seconds) << "pair " << i;
    EXPECT_EQ(a[i].yards, b[i].yards) << "pair " << i;
    EXPECT_EQ(a[i].points.size(), b[i].points.size()) << "pair " << i;
    found += a[i].status == WalkStatus::kOk;
  }
  EXPECT_GT(found, static_cast<int>(a.size()) / 2);
}

TEST(NavMeshMapsTest, AFewTilesResidentAnswerAsEveryTileResident) {
  const DemoMaps& d = TheMaps();
  std::unique_ptr<Served> all = Serve(d, 0);
  std::uint64_t largest = 0;
  for (const NavMesh::TileRecord& r : all->navmesh->tile_records()) {
    largest = std::max(largest, r.bytes);
  }
  std::unique_ptr<Served> few = Serve(d, 4 * largest);
  const NavMeshTileCache* cache = few->navmesh->tile_cache();
  ASSERT_NE(cache, nullptr);
  EXPECT_LE(cache->resident_bytes(), cache->budget_bytes());
  EXPECT_LT(cache->resident_tiles(), all->navmesh->tile_count());
  EXPECT_EQ(few->ground->id(), all->ground->id());
  const Metric metric(d.world, *FindProfile("faction-a"), 30);
  const std::vector<std::pair<Place, Place>> pairs = RandomPairs(*all->navmesh, d, 200);
  std::vector<NavMeshWalk> expected(pairs.size()), cached(pairs.size()), threaded(pairs.size());
  WalkAll(*all->navmesh, {&metric, &*all->ground}, pairs, 0, pairs.size(), &expected);
  WalkAll(*few->navmesh, {&metric, &*few->ground}, pairs, 0, pairs.size(), &cached);
  ExpectSame(expected, cached);
  std::printf("%zu tiles, budget %llu bytes: %llu tiles decoded, %llu evicted, %u resident\n",
              few->navmesh->tile_records().size(),
              static_cast<unsigned long long>(cache->budget_bytes()),
              static_cast<unsigned long long>(cache->tiles_decoded()),
              static_cast<unsigned long long>(cache->tiles_evicted()), cache->resident_tiles());
  EXPECT_GT(cache->tiles_decoded(), 0u);
  EXPECT_GT(cache->tiles_evicted(), 0u);
  EXPECT_LE(cache->resident_bytes(), cache->budget_bytes()) << "nothing is pinned between walks";
  // Two threads share the cached navmesh, each with its own walker.
  const std::size_t half = pairs.size() / 2;
  std::thread other([&] {
    WalkAll(*few->navmesh, {&metric, &*few->ground}, pairs, 0, half, &threaded);
  });
  WalkAll(*few->navmesh, {&metric, &*few->ground}, pairs, half, pairs.size(), &threaded);
  other.join();
  ExpectSame(expected, threaded);
}

}  // namespace
}  // namespace walk::nav
