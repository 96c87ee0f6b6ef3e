// A game server's navmesh folder against a real walkd: two shared meshes' navmeshes written by
// walkgrid as maps 0 and 1 of one world's mmaps/ folder (map 1 on continent 1, navmesh.json's
// default), beside a grid of the first mesh. walkd serves a navmesh per continent, refuses the
// navmesh backend naming a continent without one, fails a world whose navmesh.json puts two maps
// on one continent, and answers the same with a tile cache of a few tiles (--navmesh-cache-mb) as
// with every tile resident, counting the tiles it reads again. Skips when the shared meshes are
// absent.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "DetourNavMesh.h"
#include "DetourNavMeshQuery.h"
#include "client/walk_client.h"
#include "client/walk_stream.h"
#include "gtest/gtest.h"
#include "nav/navmesh/world_navmesh.h"
#include "tests/integration/walkd_process.h"
#include "tests/server/http_get.h"

namespace walk {
namespace {

namespace fs = std::filesystem;
using testing::RunCommand;

std::string Meshes() {
  const char* env = std::getenv("WALKD_SHARED_DATA");
  return std::string(env != nullptr ? env : WALK_SHARED_DATA_DEFAULT) + "/meshes";
}

// The world folder "city": a grid of City.obj, and mmaps/ with map 0 (City.obj) and map 1
// (Zelda4x4.obj), as `walkgrid build-navmesh --format mmaps --map N` writes them.
std::string MakeWorlds() {
  const std::string worlds = testing::FreshTempDir("walkd-navmesh-maps-it", "worlds") + "/worlds";
  const std::string city = worlds + "/city";
  const std::vector<std::vector<std::string>> commands = {
      {WALKGRID_BIN, "build-mesh", Meshes() + "/City.obj", "--out", city},
      {WALKGRID_BIN, "build-navmesh", Meshes() + "/City.obj", "--out", city, "--format", "mmaps",
       "--map", "0", "--tile-cells", "32"},
      {WALKGRID_BIN, "build-navmesh", Meshes() + "/Zelda4x4.obj", "--out", city, "--format",
       "mmaps", "--map", "1", "--tile-cells", "32"}};
  for (const std::vector<std::string>& argv : commands) {
    const testing::CommandResult made = RunCommand(argv);
    EXPECT_EQ(made.exit_code, 0) << made.output;
  }
  // "clash": the same maps, navmesh.json putting both on continent 0.
  fs::create_directories(worlds + "/clash");
  fs::copy(city + "/mmaps", worlds + "/clash/mmaps", fs::copy_options::recursive);
  std::ofstream(worlds + "/clash/navmesh.json")
      << R"({"format": "mmaps", "maps": [{"map": 0}, {"map": 1, "continent": 0}]})";
  return worlds;
}

struct ServedMaps {
  testing::StartedWalkd walkd;
  std::string metrics;  // HOST:PORT of its metrics endpoint
  std::unique_ptr<client::WalkClient> client;
};
ServedMaps ServeMaps(const std::string& worlds, const std::string& name,
                     const std::vector<std::string>& more) {
  ServedMaps s;
  std::vector<std::string> args = {WALKD_BIN,
                                   "--listen",
                                   "127.0.0.1:0",
                                   "--metrics-listen",
                                   "127.0.0.1:0",
                                   "--worlds",
                                   worlds,
                                   "--data",
                                   testing::FreshTempDir("walkd-navmesh-maps-it", name),
                                   "--search-threads",
                                   "2"};
  args.insert(args.end(), more.begin(), more.end());
  s.walkd.process = std::make_unique<testing::ChildProcess>(args);
  s.walkd.address = s.walkd.process->WaitForLine("walkd: grpc listening on ").value_or("");
  EXPECT_FALSE(s.walkd.address.empty()) << s.walkd.process->output();
  const std::string metrics =
      s.walkd.process->WaitForLine("walkd: metrics on http://").value_or("");
  s.metrics = metrics.substr(0, metrics.find('/'));
  s.client = std::make_unique<client::WalkClient>(s.walkd.address, 30.0);
  for (int attempt = 0; attempt < 1200 * testing::Patience(); ++attempt) {
    grpc::health::v1::HealthCheckResponse::ServingStatus serving;
    if (s.client->Health("", &serving).ok() &&
        serving == grpc::health::v1::HealthCheckResponse::SERVING) {
      break;
    }
    if (s.walkd.process->Exited()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return s;
}

std::mt19937* g_random = nullptr;
float Frand() { return std::uniform_real_distribution<float>(0.0f, 1.0f)(*g_random); }

// `count` walks between random points of map `map`'s navmesh, on continent `continent`.
std::vector<walk::v1::WalkRequest> RandomWalks(const std::string& world_dir, std::uint32_t map,
                                               std::uint32_t continent, int count) {
  absl::StatusOr<std::optional<nav::NavMesh>> navmesh =
      nav::LoadWorldNavMesh(world_dir, nullptr, map);
  EXPECT_TRUE(navmesh.ok() && navmesh->has_value()) << navmesh.status();
  std::vector<walk::v1::WalkRequest> walks;
  if (!navmesh.ok() || !navmesh->has_value()) return walks;
  dtNavMeshQuery query;
  EXPECT_TRUE(dtStatusSucceed(query.init((*navmesh)->detour(), 2048)));
  std::mt19937 random(continent + 5);
  g_random = &random;
  const dtQueryFilter filter;
  auto place = [&](walk::v1::Place* out) {
    dtPolyRef ref = 0;
    float p[3];
    query.findRandomPoint(&filter, Frand, &ref, p);
    out->set_x_yards(p[0]);
    out->set_y_yards(p[2]);
    out->set_z_yards(p[1]);
    out->set_continent(continent);
  };
  for (int i = 0; i < count; ++i) {
    walk::v1::WalkRequest r;
    r.set_world("city");
    r.set_profile("neutral");
    r.set_backend(walk::v1::BACKEND_NAVMESH);
    place(r.mutable_from());
    place(r.mutable_to());
    walks.push_back(r);
  }
  return walks;
}

TEST(WalkdNavMeshMapsTest, EachContinentWalksItsMapAndAFewTilesAnswerAsAll) {
  if (!fs::exists(Meshes() + "/City.obj") || !fs::exists(Meshes() + "/Zelda4x4.obj")) {
    GTEST_SKIP() << Meshes() << " lacks City.obj or Zelda4x4.obj (set WALKD_SHARED_DATA)";
  }
  const std::string worlds = MakeWorlds();
  ServedMaps all = ServeMaps(worlds, "all", {});
  ServedMaps few = ServeMaps(worlds, "few", {"--navmesh-cache-mb", "0.05"});

  walk::v1::InfoResponse info;
  ASSERT_TRUE(few.client->Info(&info).ok());
  ASSERT_EQ(info.worlds_size(), 2);
  // Two maps on one continent fail their world, naming both.
  const walk::v1::WorldInfo& clash = info.worlds(1);
  EXPECT_EQ(clash.name(), "clash");
  EXPECT_EQ(clash.state(), walk::v1::WORLD_STATE_FAILED);
  EXPECT_NE(clash.error().find("navmesh maps 0 and 1 both walk continent 0"), std::string::npos)
      << clash.error();
  const walk::v1::WorldInfo& w = info.worlds(0);
  ASSERT_EQ(w.name(), "city");
  ASSERT_EQ(w.navmeshes_size(), 2);
  EXPECT_EQ(w.navmeshes(0).map(), 0u);
  EXPECT_EQ(w.navmeshes(0).continent(), 0u);
  EXPECT_EQ(w.navmeshes(1).map(), 1u);
  EXPECT_EQ(w.navmeshes(1).continent(), 1u);
  EXPECT_EQ(w.navmesh().content_hash(), w.navmeshes(0).content_hash()) << "field 14: the first";
  EXPECT_GT(w.navmeshes(0).cache_budget_bytes(), 0u);
  EXPECT_LT(w.navmeshes(0).resident_tiles(), w.navmeshes(0).tiles());
  ASSERT_GT(w.models_size(), 0);
  // One ModelInfo a profile, band and continent, each with its continent's navmesh's model.
  std::map<std::uint32_t, std::string> navmesh_model;
  for (const walk::v1::ModelInfo& m : w.models()) {
    if (m.profile() == w.models(0).profile() && m.band() == 0) {
      navmesh_model[m.continent()] = m.navmesh_model();
    }
  }
  ASSERT_EQ(navmesh_model.size(), 2u);
  EXPECT_FALSE(navmesh_model[0].empty());
  EXPECT_FALSE(navmesh_model[1].empty());
  EXPECT_NE(navmesh_model[0], navmesh_model[1]);

  int found = 0;
  for (std::uint32_t continent : {0u, 1u}) {
    const std::vector<walk::v1::WalkRequest> walks =
        RandomWalks(worlds + "/city", continent, continent, 150);
    const client::StreamedWalks a = client::StreamWalks(all.walkd.address, 120, walks);
    const client::StreamedWalks b = client::StreamWalks(few.walkd.address, 120, walks);
    ASSERT_TRUE(a.status.ok() && b.status.ok());
    for (std::size_t i = 0; i < walks.size(); ++i) {
      ASSERT_TRUE(a.answers[i] && b.answers[i]) << i;
      ASSERT_EQ(a.answers[i]->code, 0) << a.answers[i]->message;
      ASSERT_EQ(b.answers[i]->code, 0) << b.answers[i]->message;
      EXPECT_EQ(a.answers[i]->backend, walk::v1::BACKEND_NAVMESH);
      EXPECT_EQ(a.answers[i]->status, b.answers[i]->status)
          << "continent " << continent << " " << i;
      EXPECT_EQ(a.answers[i]->seconds, b.answers[i]->seconds)
          << "continent " << continent << " " << i;
      EXPECT_EQ(a.answers[i]->model, b.answers[i]->model);
      found += a.answers[i]->found();
    }
  }
  std::printf("%d of 300 walks found on both continents, equal with 0.05 MiB of tiles\n", found);
  EXPECT_GT(found, 150);
  ASSERT_TRUE(few.client->Info(&info).ok());
  EXPECT_LE(info.worlds(0).navmeshes(0).resident_tiles(), w.navmeshes(0).tiles());
  // The tiles read again and evicted are counted.
  absl::StatusOr<testing::HttpReply> scraped = testing::HttpGet(few.metrics, "/metrics");
  ASSERT_TRUE(scraped.ok()) << scraped.status();
  for (const char* counter :
       {"walk_navmesh_tiles_decoded_total", "walk_navmesh_tiles_evicted_total"}) {
    const std::string type = std::string("# TYPE ") + counter + " counter";
    EXPECT_NE(scraped->body.find(type), std::string::npos) << counter;
    const std::size_t at = scraped->body.find(std::string("\n") + counter + " ");
    ASSERT_NE(at, std::string::npos) << counter;
    EXPECT_GT(std::atof(scraped->body.c_str() + at + std::strlen(counter) + 2), 0.0) << counter;
  }

  // Continent 2 has no navmesh: the navmesh backend is refused naming it.
  walk::v1::WalkRequest r = RandomWalks(worlds + "/city", 0, 0, 1)[0];
  r.mutable_from()->set_continent(2);
  r.mutable_to()->set_continent(2);
  walk::v1::WalkResponse response;
  const grpc::Status refused = all.client->Walk(r, &response);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(refused.error_message().find("backend:"), std::string::npos);
  EXPECT_NE(refused.error_message().find("continent 2"), std::string::npos)
      << refused.error_message();
}

}  // namespace
}  // namespace walk
