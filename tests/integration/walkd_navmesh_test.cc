// The navmesh backend and the hybrid against a real walkd: worlds made of the 1 x 1 demo world's
// grid and a navmesh of the same triangles (with its lifts, and without), served from --worlds.
// Every answer says which backend gave it, each backend's answers live under its own model, the
// hybrid takes the navmesh's walk unless it has none or costs over the slack, never finds fewer
// walks than the grid alone, and counts what it took in batch summaries.
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "client/walk_client.h"
#include "client/walk_stream.h"
#include "gtest/gtest.h"
#include "nav/demo/demo_world.h"
#include "nav/navmesh/navmesh_builder.h"
#include "nav/navmesh/world_navmesh.h"
#include "tests/integration/walkd_process.h"

namespace walk {
namespace {

namespace fs = std::filesystem;
using testing::RunCommand;

constexpr double kColumnYards = 533.3333 / 256.0;

// The worlds every test here shares, made once: "both" (grid and navmesh, lifts as off-mesh
// connections), "grid" (the grid alone), "mesh" (the navmesh alone), "nolifts" (the grid and a
// navmesh built without the lifts, as game servers ship theirs: walkd appends the grid's rides at
// load) and "narrow" (the grid and a navmesh eroded by 2 yd and built without lifts: it misses
// links the grid has, doors and the lifts' landings).
struct Worlds {
  std::string dir;
  nav::DemoLandmarks landmarks;
};

const Worlds& SharedWorlds() {
  static const Worlds* worlds = [] {
    auto* w = new Worlds;
    const std::string root = testing::FreshTempDir("walkd-navmesh-it", "worlds");
    w->dir = root + "/worlds";
    auto demo = [&](const std::string& name, const std::vector<std::string>& more) {
      std::vector<std::string> argv = {WALKGRID_BIN, "demo",  "--tiles",
                                       "1x1",        "--out", w->dir + "/" + name};
      argv.insert(argv.end(), more.begin(), more.end());
      const testing::CommandResult made = RunCommand(argv);
      EXPECT_EQ(made.exit_code, 0) << made.output;
    };
    demo("both", {"--navmesh", "mset"});
    demo("grid", {});
    demo("nolifts", {});
    demo("narrow", {});
    demo("mesh", {"--navmesh", "mmaps"});
    fs::remove(w->dir + "/mesh/grid.walkgrid");
    nav::DemoOptions options;
    options.tiles_x = options.tiles_y = 1;
    absl::StatusOr<nav::TriangleMesh> mesh = nav::DemoWorldMesh(options);
    EXPECT_TRUE(mesh.ok()) << mesh.status();
    absl::StatusOr<nav::NavMesh> navmesh = nav::BuildNavMesh(*mesh, nav::NavMeshBuildOptions{});
    EXPECT_TRUE(navmesh.ok()) << navmesh.status();
    EXPECT_TRUE(
        nav::SaveWorldNavMesh(*navmesh, w->dir + "/nolifts", nav::NavMeshFormat::kMset).ok());
    nav::NavMeshBuildOptions narrow;
    narrow.agent_radius_yards = 2.0;
    absl::StatusOr<nav::NavMesh> eroded = nav::BuildNavMesh(*mesh, narrow);
    EXPECT_TRUE(eroded.ok()) << eroded.status();
    EXPECT_TRUE(nav::SaveWorldNavMesh(*eroded, w->dir + "/narrow", nav::NavMeshFormat::kMset).ok());
    w->landmarks = *nav::FindLandmarks(options);
    return w;
  }();
  return *worlds;
}

// A walkd serving `worlds_dir` (default: the shared worlds) with its data (and store) in
// `data_dir` (default: a fresh folder named `name`); waits until every world is ready.
struct Served {
  testing::StartedWalkd walkd;
  std::unique_ptr<client::WalkClient> client;
};
Served Serve(const std::string& name, const std::vector<std::string>& more = {},
             const std::string& worlds_dir = "", const std::string& data_dir = "") {
  Served s;
  std::vector<std::string> args = {
      "--worlds",
      worlds_dir.empty() ? SharedWorlds().dir : worlds_dir,
      "--data",
      data_dir.empty() ? testing::FreshTempDir("walkd-navmesh-it", name) : data_dir,
      "--search-threads",
      "2"};
  args.insert(args.end(), more.begin(), more.end());
  s.walkd = testing::StartWalkdOnLoopback(WALKD_BIN, args);
  EXPECT_FALSE(s.walkd.address.empty()) << s.walkd.process->output();
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

walk::v1::Place At(const nav::DemoPoint& p) {
  walk::v1::Place place;
  place.set_x_yards(p.x_yards(kColumnYards));
  place.set_y_yards(p.y_yards(kColumnYards));
  place.set_z_yards(p.z);
  return place;
}

walk::v1::WalkRequest Request(const std::string& world, const nav::DemoPoint& a,
                              const nav::DemoPoint& b, walk::v1::Backend backend,
                              const std::string& profile = "neutral", std::uint32_t band = 0) {
  walk::v1::WalkRequest r;
  r.set_world(world);
  *r.mutable_from() = At(a);
  *r.mutable_to() = At(b);
  r.set_profile(profile);
  r.set_band(band);
  r.set_backend(backend);
  return r;
}

TEST(WalkdNavMeshTest, InfoShowsEachWorldsNavMeshAndDefaultBackend) {
  Served s = Serve("info");
  walk::v1::InfoResponse info;
  ASSERT_TRUE(s.client->Info(&info).ok());
  std::map<std::string, walk::v1::WorldInfo> by_name;
  for (const auto& w : info.worlds()) by_name[w.name()] = w;
  ASSERT_EQ(by_name.size(), 5u);
  EXPECT_EQ(by_name["both"].default_backend(), walk::v1::BACKEND_HYBRID);
  EXPECT_EQ(by_name["grid"].default_backend(), walk::v1::BACKEND_GRID);
  EXPECT_EQ(by_name["mesh"].default_backend(), walk::v1::BACKEND_NAVMESH);
  const walk::v1::NavMeshInfo& both = by_name["both"].navmesh();
  EXPECT_EQ(both.format(), "mset");
  EXPECT_GT(both.polygons(), 1000u);
  EXPECT_EQ(both.lift_rides(), both.off_mesh_connections());
  EXPECT_GT(both.lift_rides(), 0u);
  EXPECT_TRUE(both.exact());
  EXPECT_EQ(by_name["mesh"].navmesh().format(), "mmaps");
  EXPECT_EQ(by_name["mesh"].navmesh().content_hash(), both.content_hash())
      << "the same navmesh hashes the same in either format";
  EXPECT_FALSE(by_name["grid"].has_navmesh());
  EXPECT_EQ(by_name["grid"].navmeshes_size(), 0);
  // Built beside the grid, the navmesh has every ride; built without, walkd appends them.
  EXPECT_EQ(both.lift_rides_added(), 0u);
  ASSERT_EQ(by_name["both"].navmeshes_size(), 1);
  EXPECT_EQ(by_name["both"].navmeshes(0).content_hash(), both.content_hash());
  const walk::v1::NavMeshInfo& nolifts = by_name["nolifts"].navmesh();
  EXPECT_EQ(nolifts.lift_rides_added(), both.lift_rides());
  EXPECT_EQ(nolifts.lift_rides(), both.lift_rides()) << "each appended ride priced as the grid's";
  EXPECT_EQ(nolifts.off_mesh_connections(), both.off_mesh_connections());
}

TEST(WalkdNavMeshTest, AnImportedNavMeshRidesTheGridsLiftsAsTheGridDoes) {
  Served s = Serve("lifts");
  const nav::DemoLandmarks& l = SharedWorlds().landmarks;
  // Up the mesa: only its lift joins its top to the ground (down, the grid drops off the cliff).
  for (const auto& [from, to] :
       {std::pair{l.lift_bottom, l.lift_top}, {l.cliff_foot, l.cliff_top}}) {
    walk::v1::PathRequest grid_request, mesh_request;
    *grid_request.mutable_walk() = Request("nolifts", from, to, walk::v1::BACKEND_GRID);
    *mesh_request.mutable_walk() = Request("nolifts", from, to, walk::v1::BACKEND_NAVMESH);
    walk::v1::PathResponse grid, mesh;
    ASSERT_TRUE(s.client->Path(grid_request, &grid).ok());
    ASSERT_TRUE(s.client->Path(mesh_request, &mesh).ok());
    ASSERT_EQ(grid.walk().status(), walk::v1::WALK_STATUS_OK);
    ASSERT_EQ(mesh.walk().status(), walk::v1::WALK_STATUS_OK) << "the ride appended at load";
    std::printf("up the mesa: grid %.3f s, navmesh %.3f s\n", grid.walk().seconds(),
                mesh.walk().seconds());
    // Both ride the lift, priced alike.
    EXPECT_GT(mesh.walk().seconds(), 15.0) << "the ride's wait";
    EXPECT_NEAR(mesh.walk().seconds(), grid.walk().seconds(), 0.15 * grid.walk().seconds());
    ASSERT_GE(mesh.points_size(), 2);
    EXPECT_NEAR(mesh.points(mesh.points_size() - 1).z_yards(),
                grid.points(grid.points_size() - 1).z_yards(), 1.0);
  }
}

TEST(WalkdNavMeshTest, EveryBackendAnswersAndSaysWhichAnswered) {
  Served s = Serve("backends");
  const nav::DemoLandmarks& l = SharedWorlds().landmarks;
  walk::v1::WalkResponse grid, navmesh, hybrid, again;
  ASSERT_TRUE(
      s.client->Walk(Request("both", l.town_a, l.town_b, walk::v1::BACKEND_GRID), &grid).ok());
  ASSERT_TRUE(
      s.client->Walk(Request("both", l.town_a, l.town_b, walk::v1::BACKEND_NAVMESH), &navmesh)
          .ok());
  ASSERT_TRUE(
      s.client->Walk(Request("both", l.town_a, l.town_b, walk::v1::BACKEND_UNSPECIFIED), &hybrid)
          .ok());
  EXPECT_EQ(grid.backend(), walk::v1::BACKEND_GRID);
  EXPECT_EQ(grid.hybrid(), walk::v1::HYBRID_CHOICE_UNSPECIFIED);
  EXPECT_EQ(navmesh.backend(), walk::v1::BACKEND_NAVMESH);
  EXPECT_EQ(navmesh.method(), walk::v1::METHOD_NAVMESH);
  EXPECT_NE(navmesh.model_id(), grid.model_id()) << "each backend keeps its own model";
  ASSERT_EQ(navmesh.status(), walk::v1::WALK_STATUS_OK);
  EXPECT_NEAR(navmesh.seconds() / grid.seconds(), 1.0, 0.1);
  // Open ground: the navmesh's walk is within the slack, so the hybrid takes it, from the store.
  EXPECT_EQ(hybrid.hybrid(), walk::v1::HYBRID_CHOICE_NAVMESH);
  EXPECT_EQ(hybrid.backend(), walk::v1::BACKEND_NAVMESH);
  EXPECT_EQ(hybrid.model_id(), navmesh.model_id());
  EXPECT_DOUBLE_EQ(hybrid.seconds(), navmesh.seconds());
  // Off the mesa: the grid drops down the cliff, the navmesh rides the lift: the grid's.
  ASSERT_TRUE(
      s.client->Walk(Request("both", l.cliff_top, l.cliff_foot, walk::v1::BACKEND_HYBRID), &again)
          .ok());
  EXPECT_EQ(again.hybrid(), walk::v1::HYBRID_CHOICE_NAVMESH_DETOUR);
  EXPECT_EQ(again.backend(), walk::v1::BACKEND_GRID);
  // The navmesh-only world walks on its navmesh without being asked.
  ASSERT_TRUE(
      s.client->Walk(Request("mesh", l.town_a, l.town_b, walk::v1::BACKEND_UNSPECIFIED), &again)
          .ok());
  EXPECT_EQ(again.backend(), walk::v1::BACKEND_NAVMESH);
  EXPECT_DOUBLE_EQ(again.seconds(), navmesh.seconds());

  // A path on the navmesh: the straight path's points, from one end to the other.
  walk::v1::PathRequest path_request;
  *path_request.mutable_walk() =
      Request("both", l.lift_bottom, l.lift_top, walk::v1::BACKEND_NAVMESH);
  walk::v1::PathResponse path;
  ASSERT_TRUE(s.client->Path(path_request, &path).ok());
  ASSERT_EQ(path.walk().status(), walk::v1::WALK_STATUS_OK);
  ASSERT_GE(path.points_size(), 2);
  EXPECT_NEAR(path.points(0).x_yards(), l.lift_bottom.x_yards(kColumnYards), 1.0);
  EXPECT_NEAR(path.points(path.points_size() - 1).z_yards(), l.lift_top.z, 1.0);
  EXPECT_GT(path.walk().seconds(), 15.0) << "the lift's wait";
}

TEST(WalkdNavMeshTest, BadBackendsAreRefusedNamingTheField) {
  Served s = Serve("refusals");
  const nav::DemoLandmarks& l = SharedWorlds().landmarks;
  walk::v1::WalkResponse response;
  walk::v1::WalkRequest r = Request("both", l.town_a, l.town_b, walk::v1::BACKEND_GRID);
  r.set_backend(static_cast<walk::v1::Backend>(9));
  grpc::Status status = s.client->Walk(r, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message().rfind("backend:", 0), 0u) << status.error_message();

  status =
      s.client->Walk(Request("grid", l.town_a, l.town_b, walk::v1::BACKEND_NAVMESH), &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(status.error_message().rfind("backend:", 0), 0u) << status.error_message();
  status = s.client->Walk(Request("mesh", l.town_a, l.town_b, walk::v1::BACKEND_HYBRID), &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);

  r = Request("both", l.town_a, l.town_b, walk::v1::BACKEND_NAVMESH);
  r.set_search(walk::v1::SEARCH_GRID);
  status = s.client->Walk(r, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message().rfind("search:", 0), 0u) << status.error_message();
}

// Random places over the 1 x 1 world.
std::vector<walk::v1::WalkRequest> RandomPairs(const std::string& world, walk::v1::Backend backend,
                                               std::uint32_t band, int count,
                                               std::uint64_t seed = 18) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> coordinate(5.0, 528.0);
  std::vector<walk::v1::WalkRequest> walks;
  for (int i = 0; i < count; ++i) {
    walk::v1::WalkRequest r;
    r.set_world(world);
    r.set_profile("neutral");
    r.set_band(band);
    r.set_backend(backend);
    r.mutable_from()->set_x_yards(coordinate(random));
    r.mutable_from()->set_y_yards(coordinate(random));
    r.mutable_to()->set_x_yards(coordinate(random));
    r.mutable_to()->set_y_yards(coordinate(random));
    walks.push_back(r);
  }
  // The mesa's lift, both ways: only the lift joins its top to the ground.
  const nav::DemoLandmarks& l = SharedWorlds().landmarks;
  walks.push_back(Request(world, l.lift_bottom, l.lift_top, backend, "neutral", band));
  walks.push_back(Request(world, l.cliff_foot, l.cliff_top, backend, "neutral", band));
  return walks;
}

std::uint64_t CountOf(const google::protobuf::RepeatedPtrField<walk::v1::BandCount>& counts,
                      std::uint32_t band) {
  for (const auto& c : counts) {
    if (c.band() == band) return c.count();
  }
  return 0;
}

// The ends of a pair both backends walk stand on one floor: the grid's path and the navmesh's
// start and end at the same heights (a place without one: the column's usual floor on both).
// Ends the grid settled out of a pocket are not compared (the navmesh does not settle). Returns
// the ends compared.
int ExpectEndsOnOneFloor(const Served& s, const walk::v1::WalkRequest& grid_walk,
                         const walk::v1::WalkRequest& mesh_walk) {
  walk::v1::PathRequest request;
  walk::v1::PathResponse grid, mesh;
  *request.mutable_walk() = grid_walk;
  EXPECT_TRUE(s.client->Path(request, &grid).ok());
  *request.mutable_walk() = mesh_walk;
  EXPECT_TRUE(s.client->Path(request, &mesh).ok());
  if (grid.points_size() < 2 || mesh.points_size() < 2) return 0;
  int compared = 0;
  if (!grid.walk().from_end().settled()) {
    EXPECT_NEAR(grid.points(0).z_yards(), mesh.points(0).z_yards(), 1.5)
        << "from (" << grid_walk.from().x_yards() << ", " << grid_walk.from().y_yards() << ")";
    ++compared;
  }
  if (!grid.walk().to_end().settled()) {
    EXPECT_NEAR(grid.points(grid.points_size() - 1).z_yards(),
                mesh.points(mesh.points_size() - 1).z_yards(), 1.5)
        << "to (" << grid_walk.to().x_yards() << ", " << grid_walk.to().y_yards() << ")";
    ++compared;
  }
  return compared > 0 ? 1 : 0;
}

TEST(WalkdNavMeshTest, TheHybridNeverFindsFewerWalksThanTheGrid) {
  Served s = Serve("fewer");
  for (std::uint32_t band : {0u, 30u}) {
    const std::vector<walk::v1::WalkRequest> grid_walks =
        RandomPairs("narrow", walk::v1::BACKEND_GRID, band, 150);
    const std::vector<walk::v1::WalkRequest> mesh_walks =
        RandomPairs("narrow", walk::v1::BACKEND_NAVMESH, band, 150);
    const std::vector<walk::v1::WalkRequest> hybrid_walks =
        RandomPairs("narrow", walk::v1::BACKEND_HYBRID, band, 150);
    const client::StreamedWalks grid = client::StreamWalks(s.walkd.address, 120, grid_walks);
    const client::StreamedWalks mesh = client::StreamWalks(s.walkd.address, 120, mesh_walks);
    const client::StreamedWalks hybrid = client::StreamWalks(s.walkd.address, 120, hybrid_walks);
    ASSERT_TRUE(grid.status.ok() && mesh.status.ok() && hybrid.status.ok());
    int grid_found = 0, mesh_found = 0, hybrid_found = 0, from_navmesh = 0, compared = 0;
    for (std::size_t i = 0; i < grid_walks.size(); ++i) {
      ASSERT_TRUE(grid.answers[i] && mesh.answers[i] && hybrid.answers[i]) << i;
      const client::PairAnswer& g = *grid.answers[i];
      const client::PairAnswer& m = *mesh.answers[i];
      const client::PairAnswer& h = *hybrid.answers[i];
      ASSERT_EQ(g.code, 0) << g.message;
      ASSERT_EQ(m.code, 0) << m.message;
      ASSERT_EQ(h.code, 0) << h.message;
      grid_found += g.found();
      mesh_found += m.found();
      hybrid_found += h.found();
      if (g.found()) {
        EXPECT_TRUE(h.found()) << "pair " << i;
      }
      if (g.found() && m.found()) {
        compared += ExpectEndsOnOneFloor(s, grid_walks[i], mesh_walks[i]);
      }
      if (h.hybrid == walk::v1::HYBRID_CHOICE_NAVMESH) {
        ++from_navmesh;
        EXPECT_EQ(h.seconds, m.seconds);
        EXPECT_TRUE(!g.found() || m.seconds <= 1.2 * g.seconds);
      } else {
        EXPECT_EQ(h.seconds, g.seconds);
        EXPECT_EQ(h.hybrid, m.found() ? walk::v1::HYBRID_CHOICE_NAVMESH_DETOUR
                                      : walk::v1::HYBRID_CHOICE_NAVMESH_NONE);
      }
    }
    std::printf(
        "band %u: grid %d, navmesh %d, hybrid %d found; %d from the navmesh; %d pairs' ends "
        "compared\n",
        band, grid_found, mesh_found, hybrid_found, from_navmesh, compared);
    EXPECT_GT(compared, 50);
    EXPECT_LT(mesh_found, grid_found) << "the navmesh without lifts misses the mesa tops";
    EXPECT_GE(hybrid_found, grid_found);
    EXPECT_GT(from_navmesh, 0);
    // The summary counts what the hybrid took, by band.
    ASSERT_TRUE(hybrid.summary.has_value());
    EXPECT_EQ(CountOf(hybrid.summary->navmesh(), band), std::uint64_t(from_navmesh));
    EXPECT_EQ(CountOf(hybrid.summary->navmesh(), band) +
                  CountOf(hybrid.summary->navmesh_none(), band) +
                  CountOf(hybrid.summary->navmesh_detour(), band),
              hybrid_walks.size());
    // Asked again, every hybrid pair comes from the store, the same; but for a pair whose ends
    // do not both snap on the grid or on the navmesh: such an answer is never kept.
    const client::StreamedWalks again = client::StreamWalks(s.walkd.address, 120, hybrid_walks);
    ASSERT_TRUE(again.status.ok());
    for (std::size_t i = 0; i < hybrid_walks.size(); ++i) {
      ASSERT_TRUE(again.answers[i]);
      auto keepable = [](walk::v1::WalkStatus status) {
        return status != walk::v1::WALK_STATUS_OFF_MAP &&
               status != walk::v1::WALK_STATUS_NO_SURFACE;
      };
      const bool kept = keepable(grid.answers[i]->status) && keepable(mesh.answers[i]->status);
      EXPECT_EQ(again.answers[i]->stored, kept) << "pair " << i;
      EXPECT_EQ(again.answers[i]->seconds, hybrid.answers[i]->seconds);
      EXPECT_EQ(again.answers[i]->hybrid, hybrid.answers[i]->hybrid);
    }
  }
}

TEST(WalkdNavMeshTest, TableAndBatchLinesTakeABackend) {
  Served s = Serve("table");
  const nav::DemoLandmarks& l = SharedWorlds().landmarks;
  walk::v1::TableRequest table;
  table.set_world("both");
  table.set_profile("faction-a");
  table.set_backend(walk::v1::BACKEND_NAVMESH);
  table.set_want_walks(true);
  *table.add_sources() = At(l.town_a);
  *table.add_targets() = At(l.town_b);
  *table.add_targets() = At(l.bridge_end);
  walk::v1::TableResponse response;
  ASSERT_TRUE(s.client->Table(table, &response).ok());
  ASSERT_EQ(response.walks_size(), 2);
  for (const auto& w : response.walks()) EXPECT_EQ(w.backend(), walk::v1::BACKEND_NAVMESH);

  const std::string dir = testing::FreshTempDir("walkd-navmesh-it", "batch");
  {
    std::ofstream pairs(dir + "/pairs.jsonl");
    pairs << "{\"world\":\"both\",\"from\":[296.9,159.4],\"to\":[321.9,388.5],"
             "\"backend\":\"navmesh\"}\n"
          << "{\"world\":\"both\",\"from\":[296.9,159.4],\"to\":[321.9,388.5],"
             "\"backend\":\"grid\"}\n"
          << "{\"world\":\"both\",\"from\":[296.9,159.4],\"to\":[321.9,388.5],"
             "\"backend\":\"sideways\"}\n";
  }
  const testing::CommandResult batch =
      RunCommand({WALKCTL_BIN, "--addr", s.walkd.address, "batch", dir + "/pairs.jsonl", "--out",
                  dir + "/answers.jsonl"});
  EXPECT_NE(batch.output.find("line 3: backend"), std::string::npos) << batch.output;
  std::ifstream answers(dir + "/answers.jsonl");
  std::string first, second;
  std::getline(answers, first);
  std::getline(answers, second);
  EXPECT_NE(first.find("\"backend\":\"navmesh\""), std::string::npos) << first;
  EXPECT_NE(second.find("\"backend\":\"grid\""), std::string::npos) << second;
}

// The model a world's profile and band keep navmesh answers under, from Info.
std::string NavMeshModel(client::WalkClient& client, const std::string& world,
                         const std::string& profile, std::uint32_t band) {
  walk::v1::InfoResponse info;
  EXPECT_TRUE(client.Info(&info).ok());
  for (const auto& w : info.worlds()) {
    if (w.name() != world) continue;
    for (const auto& m : w.models()) {
      if (m.profile() == profile && m.band() == band) return m.navmesh_model();
    }
  }
  return "";
}

TEST(WalkdNavMeshTest, SavedNavMeshAnswersServeAWalkdWithoutTheNavMesh) {
  const nav::DemoLandmarks& l = SharedWorlds().landmarks;
  const std::string root = testing::FreshTempDir("walkd-navmesh-it", "saved");
  const std::vector<walk::v1::WalkRequest> asked =
      RandomPairs("both", walk::v1::BACKEND_HYBRID, 0, 60);
  client::StreamedWalks first;
  std::string model;
  {
    Served a = Serve("saved-a", {}, "", root + "/a");
    first = client::StreamWalks(a.walkd.address, 120, asked);
    ASSERT_TRUE(first.status.ok());
    model = NavMeshModel(*a.client, "both", "neutral", 0);
    a.walkd.process->Signal(SIGTERM);
    ASSERT_EQ(a.walkd.process->Wait(), 0) << a.walkd.process->output();
  }
  ASSERT_EQ(model.size(), 16u);
  testing::CommandResult exported =
      RunCommand({WALKCTL_BIN, "store", "export", "--store", root + "/a/store", "--model", model,
                  "--out", root + "/pack"});
  ASSERT_EQ(exported.exit_code, 0) << exported.output;

  // A world of the same grid and the navmesh's note, without its files.
  const std::string worlds = root + "/worlds";
  fs::create_directories(worlds + "/both");
  for (const char* file : {"grid.walkgrid", "navmesh.json"}) {
    fs::copy_file(SharedWorlds().dir + "/both/" + file, worlds + "/both/" + file);
  }
  std::vector<walk::v1::WalkRequest> again = asked;
  // New pairs (without the two landmark pairs every list ends with, asked before).
  const std::vector<walk::v1::WalkRequest> fresh =
      RandomPairs("both", walk::v1::BACKEND_HYBRID, 0, 20, /*seed=*/99);
  again.insert(again.end(), fresh.begin(), fresh.end() - 2);
  {
    Served b = Serve("saved-b", {"--ingest", root + "/pack"}, worlds, root + "/b");
    walk::v1::InfoResponse info;
    ASSERT_TRUE(b.client->Info(&info).ok());
    ASSERT_EQ(info.worlds_size(), 1);
    EXPECT_TRUE(info.worlds(0).navmesh().saved_only());
    EXPECT_EQ(info.worlds(0).default_backend(), walk::v1::BACKEND_HYBRID);
    EXPECT_EQ(NavMeshModel(*b.client, "both", "neutral", 0), model);
    const client::StreamedWalks second = client::StreamWalks(b.walkd.address, 120, again);
    ASSERT_TRUE(second.status.ok());
    for (std::size_t i = 0; i < asked.size(); ++i) {
      ASSERT_TRUE(first.answers[i] && second.answers[i]);
      EXPECT_EQ(second.answers[i]->seconds, first.answers[i]->seconds) << "pair " << i;
      EXPECT_EQ(second.answers[i]->hybrid, first.answers[i]->hybrid) << "pair " << i;
    }
    for (std::size_t i = asked.size(); i < again.size(); ++i) {
      ASSERT_TRUE(second.answers[i]);
      EXPECT_EQ(second.answers[i]->hybrid, walk::v1::HYBRID_CHOICE_NAVMESH_NONE) << "pair " << i;
      EXPECT_EQ(second.answers[i]->backend, walk::v1::BACKEND_GRID);
    }
    // The navmesh backend alone answers what was saved, and refuses the rest.
    walk::v1::WalkResponse response;
    walk::v1::WalkRequest saved = asked.front();
    saved.set_backend(walk::v1::BACKEND_NAVMESH);
    EXPECT_TRUE(b.client->Walk(saved, &response).ok());
    EXPECT_EQ(response.backend(), walk::v1::BACKEND_NAVMESH);
    const grpc::Status refused =
        b.client->Walk(Request("both", l.town_a, l.low_zone, walk::v1::BACKEND_NAVMESH), &response);
    EXPECT_EQ(refused.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
    b.walkd.process->Signal(SIGTERM);
    ASSERT_EQ(b.walkd.process->Wait(), 0) << b.walkd.process->output();
  }
  // Nothing was written under the navmesh's model: the store holds what was ingested.
  const testing::CommandResult before =
      RunCommand({WALKCTL_BIN, "store", "models", "--store", root + "/a/store"});
  const testing::CommandResult after =
      RunCommand({WALKCTL_BIN, "store", "models", "--store", root + "/b/store"});
  auto count_of = [&](const std::string& text) {
    const std::size_t at = text.find(model + " ");
    return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at) - at);
  };
  EXPECT_FALSE(count_of(before.output).empty()) << before.output;
  EXPECT_EQ(count_of(after.output), count_of(before.output)) << after.output;
}

}  // namespace
}  // namespace walk
