// Live worlds that come and go through a real walkd: CreateWorld, ResetWorld, DropWorld and
// ListWorlds; places and waypoints in world units; limits, bad maps and layers, the token; a
// created world back after a restart in its created state; and worlds created, updated and
// dropped 50 times while 8 threads ask paths on another, with walkd's memory measured around it.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/integration/walkd_process.h"
#include "tests/server/http_get.h"
#include "walk/v1/walk.grpc.pb.h"

namespace walk {
namespace {

using walk::v1::LiveService;

// An open map `w` x `h` with a wall down the middle column, open in its bottom row.
std::string WalledMap(int w, int h) {
  std::string text;
  for (int y = 0; y < h; ++y) {
    std::string row(w, '.');
    if (y + 1 < h) row[w / 2] = '@';
    text += row + "\n";
  }
  return text;
}

// walkd's resident memory in kB, from /proc.
std::uint64_t ResidentKb(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) {
      std::uint64_t kb = 0;
      std::string digits;
      for (char c : line) {
        if (c >= '0' && c <= '9') digits.push_back(c);
      }
      if (absl::SimpleAtoi(digits, &kb)) return kb;
    }
  }
  return 0;
}

class LiveWorldsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (std::filesystem::temp_directory_path() /
            ("walkd-live-worlds-" + std::to_string(::getpid())))
               .string();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ + "/live/arena");
    std::ofstream(dir_ + "/live/arena/map.map") << "type octile\nheight 4\nwidth 4\nmap\n"
                                                   "....\n....\n....\n....\n";
    std::ofstream(dir_ + "/token") << "s3cret-0123456789abcdef\n";
    std::filesystem::permissions(
        dir_ + "/token", std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  }
  void TearDown() override {
    Stop();
    std::filesystem::remove_all(dir_);
  }

  void Start(std::vector<std::string> extra = {}) {
    std::vector<std::string> argv = {
        WALKD_BIN,       "--listen",     "127.0.0.1:0",         "--metrics-listen",
        "127.0.0.1:0",   "--data",       dir_ + "/data",        "--no-store",
        "--live-worlds", dir_ + "/live", "--live-direct-cells", "0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    testing::ShareDefaultWorld(argv);
    walkd_ = std::make_unique<testing::ChildProcess>(argv);
    const auto address = walkd_->WaitForLine("walkd: grpc listening on ");
    ASSERT_TRUE(address.has_value()) << walkd_->output();
    const auto metrics = walkd_->WaitForLine("walkd: metrics on http://");
    ASSERT_TRUE(metrics.has_value()) << walkd_->output();
    address_ = *address;
    metrics_address_ = metrics->substr(0, metrics->find('/'));
    channel_ = grpc::CreateChannel(*address, grpc::InsecureChannelCredentials());
    stub_ = LiveService::NewStub(channel_);
    health_ = grpc::health::v1::Health::NewStub(channel_);
    // Ready: its walking worlds loaded too, so nothing else grows while memory is measured.
    ASSERT_TRUE(testing::WaitUntil([&] {
      grpc::StatusCode code;
      return Health("", &code) == grpc::health::v1::HealthCheckResponse::SERVING;
    })) << walkd_->output();
  }
  void Stop() {
    if (walkd_ == nullptr) return;
    walkd_->Signal(SIGTERM);
    EXPECT_EQ(walkd_->Wait(), 0) << walkd_->output();
    walkd_.reset();
  }

  template <typename Request, typename Response, typename Call>
  grpc::Status Ask(Call call, const Request& request, Response* response,
                   const std::string& token = "") {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
    return (stub_.get()->*call)(&context, request, response);
  }

  grpc::Status Create(const std::string& name, const std::string& map, const std::string& layers,
                      walk::v1::CreateWorldResponse* response, double cell_size = 0,
                      const std::string& token = "") {
    walk::v1::CreateWorldRequest request;
    request.set_name(name);
    request.set_map_text(map);
    request.set_layers(layers);
    request.set_cell_size(cell_size);
    return Ask(&LiveService::Stub::CreateWorld, request, response, token);
  }

  grpc::Status Drop(const std::string& name, const std::string& token = "") {
    walk::v1::DropWorldRequest request;
    request.set_world(name);
    walk::v1::DropWorldResponse response;
    return Ask(&LiveService::Stub::DropWorld, request, &response, token);
  }

  walk::v1::ListWorldsResponse List() {
    walk::v1::ListWorldsResponse response;
    EXPECT_TRUE(Ask(&LiveService::Stub::ListWorlds, walk::v1::ListWorldsRequest(), &response).ok());
    return response;
  }

  grpc::Status PathPoints(const std::string& world, double x0, double y0, double x1, double y1,
                          walk::v1::LivePathResponse* response) {
    walk::v1::LivePathRequest request;
    request.set_world(world);
    request.mutable_start_point()->set_x(x0);
    request.mutable_start_point()->set_y(y0);
    request.mutable_goal_point()->set_x(x1);
    request.mutable_goal_point()->set_y(y1);
    return Ask(&LiveService::Stub::LivePath, request, response);
  }

  grpc::Status Building(const std::string& world, std::uint32_t id, double x0, double y0, double x1,
                        double y1) {
    walk::v1::UpdateBlockersRequest request;
    request.set_world(world);
    walk::v1::BlockerChange* c = request.add_changes();
    c->set_kind(walk::v1::BlockerChange::KIND_ADD_BUILDING);
    c->set_id(id);
    c->set_x0(x0);
    c->set_y0(y0);
    c->set_x1(x1);
    c->set_y1(y1);
    walk::v1::UpdateBlockersResponse response;
    return Ask(&LiveService::Stub::UpdateBlockers, request, &response);
  }

  grpc::health::v1::HealthCheckResponse::ServingStatus Health(const std::string& service,
                                                              grpc::StatusCode* code) {
    grpc::ClientContext context;
    grpc::health::v1::HealthCheckRequest request;
    request.set_service(service);
    grpc::health::v1::HealthCheckResponse response;
    *code = health_->Check(&context, request, &response).error_code();
    return response.status();
  }

  std::string Metrics() {
    auto reply = testing::HttpGet(metrics_address_, "/metrics");
    EXPECT_TRUE(reply.ok()) << reply.status();
    return reply.ok() ? reply->body : "";
  }

  testing::CommandResult Walkctl(const std::string& args) {
    return testing::RunCommand(
        {"/bin/sh", "-c", absl::StrCat(WALKCTL_BIN, " --addr ", address_, " ", args, " 2>&1")});
  }

  std::string dir_;
  std::string address_;
  std::string metrics_address_;
  std::unique_ptr<testing::ChildProcess> walkd_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<LiveService::Stub> stub_;
  std::unique_ptr<grpc::health::v1::Health::Stub> health_;
};

TEST_F(LiveWorldsTest, AWorldIsCreatedAskedInWorldUnitsResetAndDropped) {
  Start();
  walk::v1::CreateWorldResponse created;
  // No MovingAI header: walkd adds one. Cells 2 units wide, cell (0, 0) at (100, 50).
  walk::v1::CreateWorldRequest request;
  request.set_name("match-1");
  request.set_map_text(WalledMap(9, 5));
  request.set_cell_size(2.0);
  request.mutable_origin()->set_x(100.0);
  request.mutable_origin()->set_y(50.0);
  ASSERT_TRUE(Ask(&LiveService::Stub::CreateWorld, request, &created).ok());
  EXPECT_EQ(created.world().width(), 9);
  EXPECT_EQ(created.world().cells(), 45u);
  EXPECT_EQ(created.world().source(), "created");
  EXPECT_GT(created.world().memory_bytes(), 0u);
  EXPECT_TRUE(absl::StrContains(created.note(), "not blocker updates")) << created.note();

  // From world (101, 51) (cell 0,0) to (117, 51) (cell 8,0): round the wall through row 4.
  walk::v1::LivePathResponse path;
  ASSERT_TRUE(PathPoints("match-1", 101, 51, 117, 51, &path).ok());
  ASSERT_EQ(path.status(), walk::v1::LIVE_PATH_STATUS_FOUND);
  EXPECT_EQ(path.goal().x(), 8);
  EXPECT_DOUBLE_EQ(path.goal_point().x(), 117.0);
  ASSERT_EQ(path.waypoint_points_size(), path.waypoints_size());
  for (int k = 0; k < path.waypoints_size(); ++k) {
    EXPECT_DOUBLE_EQ(path.waypoint_points(k).x(), 100 + 2 * (path.waypoints(k).x() + 0.5));
    EXPECT_DOUBLE_EQ(path.waypoint_points(k).y(), 50 + 2 * (path.waypoints(k).y() + 0.5));
  }
  const std::uint32_t open_cost = path.cost();
  walk::v1::LivePathResponse off;
  const grpc::Status refused = PathPoints("match-1", 99, 51, 117, 51, &off);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(refused.error_message(),
            "start_point: (99, 51) lies off the map (x 100 to 118, y 50 to 60 world units)");

  // A building closes the gap (world units), then a reset opens it again at a later revision.
  ASSERT_TRUE(Building("match-1", 1, 108, 58, 110, 60).ok());
  ASSERT_TRUE(PathPoints("match-1", 101, 51, 117, 51, &path).ok());
  EXPECT_EQ(path.status(), walk::v1::LIVE_PATH_STATUS_UNREACHABLE);
  const std::uint64_t blocked_revision = path.revision();
  walk::v1::ResetWorldRequest reset;
  reset.set_world("match-1");
  walk::v1::ResetWorldResponse was_reset;
  ASSERT_TRUE(Ask(&LiveService::Stub::ResetWorld, reset, &was_reset).ok());
  EXPECT_GT(was_reset.world().revision(), blocked_revision);
  EXPECT_EQ(was_reset.world().footprints(), 0u);
  EXPECT_EQ(was_reset.world().resets(), 1u);
  ASSERT_TRUE(PathPoints("match-1", 101, 51, 117, 51, &path).ok());
  EXPECT_EQ(path.status(), walk::v1::LIVE_PATH_STATUS_FOUND);
  EXPECT_FALSE(path.from_cache());
  EXPECT_EQ(path.cost(), open_cost);

  grpc::StatusCode code;
  EXPECT_EQ(Health("walkd.live/match-1", &code), grpc::health::v1::HealthCheckResponse::SERVING);
  EXPECT_TRUE(absl::StrContains(Metrics(), "walk_live_revision{world=\"match-1\"}"));
  ASSERT_EQ(List().worlds_size(), 2);

  ASSERT_TRUE(Drop("match-1").ok());
  EXPECT_EQ(PathPoints("match-1", 101, 51, 117, 51, &path).error_code(),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Drop("match-1").error_code(), grpc::StatusCode::NOT_FOUND);
  const grpc::Status folder = Drop("arena");
  EXPECT_EQ(folder.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_TRUE(absl::StrContains(folder.error_message(), "--live-worlds")) << folder.error_message();
  Health("walkd.live/match-1", &code);
  EXPECT_EQ(code, grpc::StatusCode::NOT_FOUND);
  const std::string metrics = Metrics();
  EXPECT_FALSE(absl::StrContains(metrics, "world=\"match-1\"")) << metrics;
  EXPECT_TRUE(absl::StrContains(metrics, "walk_live_worlds 1")) << metrics;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/data/live/match-1"));
}

TEST_F(LiveWorldsTest, BadMapsLayersNamesAndLimitsAreRefusedAndNothingIsCreated) {
  Start(
      {"--live-max-worlds", "3", "--live-max-world-cells", "100", "--live-max-name-length", "12"});
  walk::v1::CreateWorldResponse response;
  grpc::Status s = Create("a", "....\n..x.\n", "", &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(absl::StartsWith(s.error_message(), "map_text: ")) << s.error_message();
  EXPECT_TRUE(absl::StrContains(s.error_message(), "row 1")) << s.error_message();
  s = Create("a", "....\n....\n", "building 1 0 0 1 1\nbuilding one 1 1 2 2\n", &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "layers: layer line 2: 'one' is not an id (unsigned 32-bit)");
  s = Create("a/../b", "....\n", "", &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(absl::StartsWith(s.error_message(), "name: ")) << s.error_message();
  s = Create("thirteen-char", "....\n", "", &response);
  EXPECT_TRUE(absl::StartsWith(s.error_message(), "live-max-name-length: ")) << s.error_message();
  s = Create("big", WalledMap(11, 10), "", &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_TRUE(absl::StartsWith(s.error_message(), "live-max-world-cells: ")) << s.error_message();
  walk::v1::CreateWorldRequest cells;
  cells.set_name("cells");
  cells.mutable_map_cells()->set_width(3);
  cells.mutable_map_cells()->set_height(2);
  cells.mutable_map_cells()->set_values(std::string("\0\0\x08\0\0\0", 6));
  s = Ask(&LiveService::Stub::CreateWorld, cells, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(absl::StartsWith(s.error_message(), "map_cells.values[2]: 8 at (2, 0)"))
      << s.error_message();
  EXPECT_EQ(List().worlds_size(), 1);  // only the folder's arena
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/data/live/a"));

  cells.mutable_map_cells()->set_values(std::string("\0\x02\x05\0\x01\0", 6));
  ASSERT_TRUE(Ask(&LiveService::Stub::CreateWorld, cells, &response).ok());
  EXPECT_EQ(response.world().cells(), 6u);
  ASSERT_TRUE(Create("b", "....\n", "", &response).ok());
  EXPECT_EQ(Create("b", "....\n", "", &response).error_code(), grpc::StatusCode::ALREADY_EXISTS);
  s = Create("c", "....\n", "", &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_TRUE(absl::StartsWith(s.error_message(), "live-max-worlds: ")) << s.error_message();

  // A client takes these from Info.
  auto walk_stub = walk::v1::WalkService::NewStub(channel_);
  grpc::ClientContext context;
  walk::v1::InfoResponse info;
  ASSERT_TRUE(walk_stub->Info(&context, walk::v1::InfoRequest(), &info).ok());
  EXPECT_EQ(info.limits().max_live_worlds(), 3u);
  EXPECT_EQ(info.limits().max_live_world_cells(), 100u);
  EXPECT_EQ(info.limits().max_live_name_length(), 12u);
  EXPECT_EQ(info.live_worlds_size(), 3);
}

TEST_F(LiveWorldsTest, ACreatedWorldComesBackInItsCreatedStateAndWritesNeedTheToken) {
  Start({"--auth-token-file", dir_ + "/token"});
  walk::v1::CreateWorldResponse response;
  EXPECT_EQ(Create("m", WalledMap(9, 5), "", &response).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  ASSERT_TRUE(
      Create("m", WalledMap(9, 5), "cell_size 2\n", &response, 0, "s3cret-0123456789abcdef").ok());
  ASSERT_TRUE(Create("gone", "....\n", "", &response, 0, "s3cret-0123456789abcdef").ok());
  EXPECT_EQ(Drop("gone").error_code(), grpc::StatusCode::UNAUTHENTICATED);
  ASSERT_TRUE(Drop("gone", "s3cret-0123456789abcdef").ok());
  {
    walk::v1::UpdateBlockersRequest request;
    request.set_world("m");
    request.set_units(walk::v1::LIVE_UNITS_CELLS);
    walk::v1::BlockerChange* c = request.add_changes();
    c->set_kind(walk::v1::BlockerChange::KIND_ADD_BUILDING);
    c->set_id(5);
    c->set_x0(4);
    c->set_y0(4);
    c->set_x1(5);
    c->set_y1(5);
    walk::v1::UpdateBlockersResponse updated;
    ASSERT_TRUE(
        Ask(&LiveService::Stub::UpdateBlockers, request, &updated, "s3cret-0123456789abcdef").ok());
  }
  // An interrupted create's leftover is cleared at start.
  std::filesystem::create_directories(dir_ + "/data/live/.half.creating-1-0");
  Stop();
  Start({"--auth-token-file", dir_ + "/token"});
  const auto worlds = List();
  ASSERT_EQ(worlds.worlds_size(), 2);
  const walk::v1::LiveWorldInfo& m = worlds.worlds(1);
  EXPECT_EQ(m.name(), "m");
  EXPECT_EQ(m.source(), "created");
  EXPECT_EQ(m.cell_size(), 2.0);
  EXPECT_EQ(m.footprints(), 0u);  // the building came after creation: not kept
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/data/live/.half.creating-1-0"));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/data/live/gone"));
}

TEST_F(LiveWorldsTest, WorldsComeAndGoWhileEightThreadsAskPathsOnAnother) {
  Start({"--live-path-cache", "512"});
  walk::v1::CreateWorldResponse response;
  ASSERT_TRUE(Create("a", WalledMap(256, 256), "", &response).ok());
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> asked{0}, failed{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 8; ++t) {
    readers.emplace_back([&, t] {
      auto stub = LiveService::NewStub(channel_);
      for (std::uint64_t k = 0; !stop.load(); ++k) {
        walk::v1::LivePathRequest request;
        request.set_world("a");
        request.mutable_start()->set_x(static_cast<int>((k * 7 + t) % 100));
        request.mutable_start()->set_y(static_cast<int>((k * 13) % 250));
        request.mutable_goal()->set_x(255 - static_cast<int>((k * 11) % 100));
        request.mutable_goal()->set_y(static_cast<int>((k * 5 + t) % 250));
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
        walk::v1::LivePathResponse path;
        if (!stub->LivePath(&context, request, &path).ok() ||
            path.status() != walk::v1::LIVE_PATH_STATUS_FOUND) {
          ++failed;
        }
        ++asked;
      }
    });
  }
  // One round: B created, given 5 buildings, asked a path across and dropped.
  auto round = [&] {
    walk::v1::CreateWorldResponse b;
    ASSERT_TRUE(Create("b", WalledMap(320, 320), "", &b).ok());
    for (int k = 0; k < 5; ++k) ASSERT_TRUE(Building("b", k + 1, k * 10, 0, k * 10 + 5, 5).ok());
    walk::v1::LivePathResponse path;
    ASSERT_TRUE(PathPoints("b", 0.5, 300.5, 319.5, 300.5, &path).ok());
    EXPECT_EQ(path.status(), walk::v1::LIVE_PATH_STATUS_FOUND);
    ASSERT_TRUE(Drop("b").ok());
  };
  // A's path cache (512 answers here) fills before memory is first read: it is A's own.
  ASSERT_TRUE(testing::WaitUntil([&] { return asked.load() >= 1500; }));
  // A drop hands freed heap pages back (malloc_trim): one of a tiny world first, so that "before"
  // does not count pages the default world's loading freed and nothing has trimmed yet.
  ASSERT_TRUE(Create("tiny", "....\n", "", &response).ok());
  ASSERT_TRUE(Drop("tiny").ok());
  const std::uint64_t before = ResidentKb(walkd_->pid());
  std::uint64_t peak = before;
  for (int r = 0; r < 50; ++r) {
    round();
    peak = std::max(peak, ResidentKb(walkd_->pid()));
  }
  const std::uint64_t after = ResidentKb(walkd_->pid());
  stop = true;
  for (std::thread& t : readers) t.join();
  std::printf(
      "paths on a: %llu asked, %llu failed; walkd resident %llu kB before, %llu kB peak, "
      "%llu kB after 50 worlds created and dropped\n",
      static_cast<unsigned long long>(asked.load()), static_cast<unsigned long long>(failed.load()),
      static_cast<unsigned long long>(before), static_cast<unsigned long long>(peak),
      static_cast<unsigned long long>(after));
  EXPECT_EQ(failed.load(), 0u);
  EXPECT_GT(asked.load(), 0u);
  ASSERT_GT(before, 0u);
  EXPECT_LE(after, before + before / 10);
  EXPECT_EQ(List().worlds_size(), 2);
}

TEST_F(LiveWorldsTest, WalkctlCreatesListsResetsAndDropsWorlds) {
  Start();
  std::ofstream(dir_ + "/m.map") << WalledMap(9, 5);
  std::ofstream(dir_ + "/m.layers") << "building 7 100 50 102 52\n";
  auto run = Walkctl(absl::StrCat("live create --world m --map - --layers ", dir_,
                                  "/m.layers --cell-size 2 --origin 100,50 < ", dir_, "/m.map"));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(absl::StrContains(run.output,
                                "created m (created): 9 x 5 cells, cell size 2, "
                                "origin (100, 50)"))
      << run.output;
  run = Walkctl("live list");
  EXPECT_TRUE(absl::StrContains(run.output, "arena (folder): 4 x 4 cells")) << run.output;
  EXPECT_TRUE(absl::StrContains(run.output, "m (created): 9 x 5 cells")) << run.output;
  run = Walkctl("live path --world m --units world --from 103,51 --to 117,51");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(absl::StrContains(run.output, "LIVE_PATH_STATUS_FOUND to 8,0 (117, 51)"))
      << run.output;
  EXPECT_TRUE(absl::StrContains(run.output, "points (103, 51)")) << run.output;
  run = Walkctl("live update --world m 'add-building 8 4 4 5 5'");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  run = Walkctl("live reachable --world m --a 1,0 --b 8,0");
  EXPECT_TRUE(absl::StrContains(run.output, "not reachable")) << run.output;
  run = Walkctl("live reset --world m");
  EXPECT_TRUE(absl::StrContains(run.output, "reset m (created)")) << run.output;
  EXPECT_TRUE(absl::StrContains(run.output, "1 footprints")) << run.output;
  run = Walkctl("live drop --world m");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(absl::StrContains(run.output, "dropped m")) << run.output;
  run = Walkctl("live drop --world arena");
  EXPECT_EQ(run.exit_code, 4) << run.output;
  EXPECT_TRUE(absl::StrContains(run.output, "FAILED_PRECONDITION")) << run.output;
}

TEST_F(LiveWorldsTest, TheCursorAWorkCellARecoveredStartAndDeckWaypointsThroughWalkd) {
  Start();
  // 12 x 9: a river along row 4 crossed by a deck three cells wide (x 4..6); a building at
  // x 9..10, y 0..1; a wall along row 6 (x 0..2) with a shut gate at x 1; a tree at (8, 7).
  std::string map;
  for (int y = 0; y < 9; ++y) map += std::string(12, y == 4 ? 'W' : '.') + "\n";
  walk::v1::CreateWorldResponse created;
  ASSERT_TRUE(Create("rts", map,
                     "bridge 4 4 7 5\nbuilding 9 9 0 11 2\nbuilding 10 0 6 3 7\n"
                     "gate 11 10 1 6 2 7 shut\ntree 8.5 7.5\n",
                     &created)
                  .ok());
  walk::v1::LivePathRequest across;
  across.set_world("rts");
  across.mutable_start()->set_x(0);
  across.mutable_start()->set_y(0);
  across.mutable_goal()->set_x(11);
  across.mutable_goal()->set_y(8);
  walk::v1::LivePathResponse path;
  ASSERT_TRUE(Ask(&LiveService::Stub::LivePath, across, &path).ok());
  ASSERT_EQ(path.status(), walk::v1::LIVE_PATH_STATUS_FOUND);
  int on_deck = 0;
  for (int k = 0; k < path.waypoints_size(); ++k) {
    if (path.waypoints(k).y() != 4) continue;
    ++on_deck;
    EXPECT_DOUBLE_EQ(path.waypoint_points(k).x(), 5.5);  // the deck's centre line
  }
  EXPECT_GT(on_deck, 0);

  walk::v1::LivePathRequest stuck;
  stuck.set_world("rts");
  stuck.mutable_start()->set_x(9);
  stuck.mutable_start()->set_y(0);
  stuck.mutable_goal()->set_x(11);
  stuck.mutable_goal()->set_y(3);
  ASSERT_TRUE(Ask(&LiveService::Stub::LivePath, stuck, &path).ok());
  EXPECT_EQ(path.status(), walk::v1::LIVE_PATH_STATUS_START_BLOCKED);
  stuck.set_recover_start(true);
  ASSERT_TRUE(Ask(&LiveService::Stub::LivePath, stuck, &path).ok());
  EXPECT_EQ(path.status(), walk::v1::LIVE_PATH_STATUS_FOUND);
  EXPECT_EQ(path.method(), walk::v1::LIVE_PATH_METHOD_RECOVERED);
  EXPECT_FALSE(path.start().x() == 9 && path.start().y() == 0);
  EXPECT_EQ(path.cells(0).x(), 9);  // the blocked start, then out

  walk::v1::CellAtRequest cell;
  cell.set_world("rts");
  cell.mutable_point()->set_x(1.5);
  cell.mutable_point()->set_y(6.5);
  walk::v1::CellAtResponse report;
  ASSERT_TRUE(Ask(&LiveService::Stub::CellAt, cell, &report).ok());
  EXPECT_EQ(report.value(), "gate");
  EXPECT_EQ(report.blocker(), "gate");
  EXPECT_EQ(report.gate(), 11u);
  EXPECT_EQ(report.owner(), 10u);
  EXPECT_EQ(report.gate_state(), "shut");
  EXPECT_FALSE(report.light_open());
  cell.mutable_point()->set_x(5.2);
  cell.mutable_point()->set_y(4.9);
  ASSERT_TRUE(Ask(&LiveService::Stub::CellAt, cell, &report).ok());
  EXPECT_EQ(report.crossing(), "bridge");
  EXPECT_EQ(report.terrain(), "river");
  EXPECT_TRUE(report.light_open());

  walk::v1::WorkCellRequest work;
  work.set_world("rts");
  work.mutable_target()->set_x(8);
  work.mutable_target()->set_y(7);
  work.mutable_unit()->set_x(11);
  work.mutable_unit()->set_y(8);
  walk::v1::WorkCellResponse stand;
  ASSERT_TRUE(Ask(&LiveService::Stub::WorkCell, work, &stand).ok());
  EXPECT_EQ(stand.target(), "tree");
  EXPECT_EQ(std::max(std::abs(stand.cell().x() - 8), std::abs(stand.cell().y() - 7)), 1);
  EXPECT_EQ(stand.cell().x(), 9);  // the side facing the unit
  work.mutable_target()->set_x(0);
  work.mutable_target()->set_y(0);
  const grpc::Status nothing = Ask(&LiveService::Stub::WorkCell, work, &stand);
  EXPECT_EQ(nothing.error_code(), grpc::StatusCode::FAILED_PRECONDITION);

  auto run = Walkctl("live cell --world rts --cell 8,7");
  EXPECT_TRUE(absl::StrContains(run.output, "8,7 (8.5, 7.5): tree on walkable, tree"))
      << run.output;
  run = Walkctl("live work-cell --world rts --target 8,7 --from 11,8");
  EXPECT_TRUE(absl::StrContains(run.output, "work tree from 9,")) << run.output;
  run = Walkctl("live path --world rts --from 9,0 --to 11,3 --recover");
  EXPECT_TRUE(absl::StrContains(run.output, "LIVE_PATH_METHOD_RECOVERED")) << run.output;
}

TEST_F(LiveWorldsTest, WideBodiesAskedInWorldUnitsKeepClearOfWalls) {
  Start();
  // Two rooms joined by a corridor two cells wide (rows 3 and 4), cells 2 world units wide.
  std::string map;
  for (int y = 0; y < 8; ++y) {
    std::string row(16, '.');
    if (y != 3 && y != 4) {
      for (int x = 6; x < 10; ++x) row[x] = '@';
    }
    map += row + "\n";
  }
  walk::v1::CreateWorldResponse created;
  ASSERT_TRUE(Create("wide", map, "", &created, 2.0).ok());
  auto ask = [&](double radius, walk::v1::LiveUnits units) {
    walk::v1::LivePathRequest request;
    request.set_world("wide");
    request.mutable_start()->set_x(2);
    request.mutable_start()->set_y(3);
    request.mutable_goal()->set_x(13);
    request.mutable_goal()->set_y(4);
    request.set_radius(radius);
    request.set_units(units);
    walk::v1::LivePathResponse path;
    EXPECT_TRUE(Ask(&LiveService::Stub::LivePath, request, &path).ok());
    return path;
  };
  EXPECT_EQ(ask(0.5, walk::v1::LIVE_UNITS_CELLS).status(), walk::v1::LIVE_PATH_STATUS_FOUND);
  EXPECT_EQ(ask(1.0, walk::v1::LIVE_UNITS_WORLD).status(), walk::v1::LIVE_PATH_STATUS_FOUND);
  EXPECT_EQ(ask(1.5, walk::v1::LIVE_UNITS_CELLS).status(), walk::v1::LIVE_PATH_STATUS_UNREACHABLE);
  EXPECT_EQ(ask(3.0, walk::v1::LIVE_UNITS_WORLD).status(), walk::v1::LIVE_PATH_STATUS_UNREACHABLE);
  walk::v1::LivePathRequest bad;
  bad.set_world("wide");
  bad.set_radius(-1);
  walk::v1::LivePathResponse none;
  const grpc::Status refused = Ask(&LiveService::Stub::LivePath, bad, &none);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(absl::StartsWith(refused.error_message(), "radius: ")) << refused.error_message();

  walk::v1::ReachableRequest reach;
  reach.set_world("wide");
  reach.mutable_a()->set_x(2);
  reach.mutable_a()->set_y(3);
  reach.mutable_b()->set_x(13);
  reach.mutable_b()->set_y(4);
  reach.set_radius(1.5);
  walk::v1::ReachableResponse reachable;
  ASSERT_TRUE(Ask(&LiveService::Stub::Reachable, reach, &reachable).ok());
  EXPECT_FALSE(reachable.reachable());
  auto run = Walkctl("live path --world wide --from 2,3 --to 13,4 --radius 1.5");
  EXPECT_TRUE(absl::StrContains(run.output, "LIVE_PATH_STATUS_UNREACHABLE")) << run.output;
  run = Walkctl(
      "live path --world wide --from 2,3 --to 13,4 --units world --radius 1 "
      "--half-width 2");
  EXPECT_TRUE(absl::StrContains(run.output, "LIVE_PATH_STATUS_FOUND")) << run.output;
}

}  // namespace
}  // namespace walk
