// Integration tests: a real walkd on ephemeral loopback ports, asked through the C++ client,
// walkctl, gRPC reflection and its metrics endpoint.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "client/walk_client.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "gtest/gtest.h"
#include "nav/grid/grid_format.h"
#include "nav/import/movingai.h"
#include "tests/integration/two_rooms_world.h"
#include "tests/integration/walkd_client.h"
#include "tests/integration/walkd_process.h"
#include "tests/server/http_get.h"

namespace walk {
namespace {

using grpc::health::v1::HealthCheckResponse;
using testing::At;
using testing::ChildProcess;
using testing::MakeTempDir;
using testing::RunCommand;
using testing::WaitServing;

// A world drawn in ASCII: two rooms a wall apart (two_rooms_world.h).
void WriteAsciiWorld(const std::string& dir) { testing::WriteTwoRoomsWorld(dir); }

// A started walkd and a client of it.
struct RunningWalkd {
  std::unique_ptr<ChildProcess> process;
  std::string grpc_address;
  std::string metrics_address;
};

RunningWalkd StartWalkd(const std::vector<std::string>& extra_args) {
  std::vector<std::string> argv = {
      WALKD_BIN,          "--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0",
      "--search-threads", "2"};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  RunningWalkd walkd;
  walkd.process = std::make_unique<ChildProcess>(argv);
  auto grpc_line = walkd.process->WaitForLine("walkd: grpc listening on ");
  auto metrics_line = walkd.process->WaitForLine("walkd: metrics on http://");
  EXPECT_TRUE(grpc_line.has_value()) << walkd.process->output();
  EXPECT_TRUE(metrics_line.has_value()) << walkd.process->output();
  walkd.grpc_address = grpc_line.value_or("");
  const std::string metrics = metrics_line.value_or("");
  walkd.metrics_address = metrics.substr(0, metrics.find('/'));
  return walkd;
}

// Asks health until it says SERVING (or gives up after a bounded number of tries).
walk::v1::WalkRequest Request(const std::string& world, walk::v1::Place from, walk::v1::Place to) {
  walk::v1::WalkRequest request;
  request.set_world(world);
  *request.mutable_from() = from;
  *request.mutable_to() = to;
  return request;
}

class WalkdTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    data_dir_ = new std::string(MakeTempDir("data"));
    worlds_dir_ = new std::string(MakeTempDir("worlds"));
    WriteAsciiWorld(*worlds_dir_ + "/two-rooms");
    walkd_ = new RunningWalkd(StartWalkd({"--worlds", *worlds_dir_, "--data", *data_dir_}));
    client_ = new client::WalkClient(walkd_->grpc_address, 10.0);
    ASSERT_TRUE(WaitServing(*client_)) << walkd_->process->output();
  }
  static void TearDownTestSuite() {
    delete client_;
    delete walkd_;
    std::filesystem::remove_all(*data_dir_);
    std::filesystem::remove_all(*worlds_dir_);
    delete data_dir_;
    delete worlds_dir_;
  }

  static std::string* data_dir_;
  static std::string* worlds_dir_;
  static RunningWalkd* walkd_;
  static client::WalkClient* client_;
};
std::string* WalkdTest::data_dir_;
std::string* WalkdTest::worlds_dir_;
RunningWalkd* WalkdTest::walkd_;
client::WalkClient* WalkdTest::client_;

TEST_F(WalkdTest, AnswersAnExactWalk) {
  walk::v1::WalkResponse response;
  ASSERT_TRUE(client_->Walk(Request("two-rooms", At(0.5, 0.5), At(4.5, 2.5)), &response).ok());
  EXPECT_EQ(response.status(), walk::v1::WALK_STATUS_OK);
  EXPECT_EQ(response.method(), walk::v1::METHOD_STRAIGHT_LINE);  // open room: the line is plain
  EXPECT_NEAR(response.yards(), 2 + 2 * std::sqrt(2.0), 1e-9);
  EXPECT_NEAR(response.seconds(), response.yards() / 7.0, 1e-9);
  EXPECT_EQ(response.to_end().column_x(), 4);
  EXPECT_EQ(response.model_id().size(), 16u);
}

TEST_F(WalkdTest, ExactWalksOnAPlainOctileGridGoByJumpPoints) {
  EXPECT_NE(walkd_->process->output().find("fine grid: continent 0: jump points"),
            std::string::npos)
      << walkd_->process->output();
  walk::v1::PathRequest request;
  *request.mutable_walk() = Request("two-rooms", At(0.5, 0.5), At(4.5, 2.5));
  request.mutable_walk()->set_search(walk::v1::SEARCH_GRID);
  walk::v1::PathResponse response;
  ASSERT_TRUE(client_->Path(request, &response).ok());
  EXPECT_EQ(response.walk().status(), walk::v1::WALK_STATUS_OK);
  EXPECT_EQ(response.walk().method(), walk::v1::METHOD_JUMP_POINTS);
  EXPECT_NEAR(response.walk().yards(), 2 + 2 * std::sqrt(2.0), 1e-9);
  EXPECT_EQ(response.steps(), 4u);  // every surface entered, not only the jump points
}

TEST_F(WalkdTest, PairsWithoutAWalkGetTheirOwnStatusInASuccessfulReply) {
  struct Case {
    walk::v1::Place from, to;
    walk::v1::WalkStatus status;
  };
  for (const Case& c : {Case{At(0.5, 0.5), At(7.5, 1.5), walk::v1::WALK_STATUS_NO_WALK},
                        Case{At(0.5, 0.5), At(5.5, 1.5), walk::v1::WALK_STATUS_NO_SURFACE},
                        Case{At(50.5, 0.5), At(1.5, 1.5), walk::v1::WALK_STATUS_OFF_MAP}}) {
    walk::v1::WalkResponse response;
    const grpc::Status status = client_->Walk(Request("two-rooms", c.from, c.to), &response);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(response.status(), c.status);
  }
}

TEST_F(WalkdTest, BadInputIsInvalidArgumentNamingTheField) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  walk::v1::Place high = At(1.5, 1.5);
  high.set_z_yards(inf);
  walk::v1::Place far_continent = At(1.5, 1.5);
  far_continent.set_continent(9);
  struct Case {
    walk::v1::WalkRequest request;
    grpc::StatusCode code;
    std::string field;
  };
  walk::v1::WalkRequest no_from;
  no_from.set_world("two-rooms");
  *no_from.mutable_to() = At(1, 1);
  walk::v1::WalkRequest bad_profile = Request("two-rooms", At(1, 1), At(2, 2));
  bad_profile.set_profile("teleport");
  const std::vector<Case> cases = {
      {Request("two-rooms", At(nan, 1), At(2, 2)), grpc::StatusCode::INVALID_ARGUMENT,
       "from.x_yards"},
      {Request("two-rooms", At(1, 1), At(2, inf)), grpc::StatusCode::INVALID_ARGUMENT,
       "to.y_yards"},
      {Request("two-rooms", At(-3e8, 1), At(2, 2)), grpc::StatusCode::INVALID_ARGUMENT,
       "from.x_yards"},
      {Request("two-rooms", At(1, 1), At(2, 1e15)), grpc::StatusCode::INVALID_ARGUMENT,
       "to.y_yards"},
      {Request("two-rooms", At(1, 1), high), grpc::StatusCode::INVALID_ARGUMENT, "to.z_yards"},
      {Request("two-rooms", At(1, 1), far_continent), grpc::StatusCode::INVALID_ARGUMENT,
       "to.continent"},
      {Request("", At(1, 1), At(2, 2)), grpc::StatusCode::INVALID_ARGUMENT, "world"},
      {no_from, grpc::StatusCode::INVALID_ARGUMENT, "from"},
      {bad_profile, grpc::StatusCode::INVALID_ARGUMENT, "profile"},
      {Request("atlantis", At(1, 1), At(2, 2)), grpc::StatusCode::NOT_FOUND, "world"},
  };
  for (const Case& c : cases) {
    walk::v1::WalkResponse response;
    const grpc::Status status = client_->Walk(c.request, &response);
    EXPECT_EQ(status.error_code(), c.code) << c.field << ": " << status.error_message();
    EXPECT_EQ(status.error_message().substr(0, c.field.size()), c.field) << status.error_message();
  }
}

TEST_F(WalkdTest, PathReturnsTheWayPulledTaut) {
  walk::v1::PathRequest request;
  *request.mutable_walk() = Request("two-rooms", At(0.5, 0.5), At(4.5, 2.5));
  request.mutable_walk()->set_profile("neutral");
  walk::v1::PathResponse response;
  ASSERT_TRUE(client_->Path(request, &response).ok());
  EXPECT_EQ(response.walk().status(), walk::v1::WALK_STATUS_OK);
  // Open ground: the way pulls taut to its two ends.
  ASSERT_EQ(response.points_size(), 2);
  EXPECT_DOUBLE_EQ(response.points(1).x_yards(), 4.5);
  EXPECT_EQ(response.steps(), 4u);
  ASSERT_EQ(response.seconds_by_kind_size(), 1);
  EXPECT_EQ(response.seconds_by_kind(0).kind(), "walk");
  EXPECT_NEAR(response.seconds_by_kind(0).seconds(), response.walk().seconds(), 1e-9);
  // A bad field inside the nested request is named with its path.
  request.mutable_walk()->set_band(7);
  const grpc::Status bad = client_->Path(request, &response);
  EXPECT_EQ(bad.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(bad.error_message().rfind("walk.band:", 0), 0u) << bad.error_message();
}

TEST_F(WalkdTest, FloorsListsEverySurfaceOfAColumn) {
  walk::v1::FloorsRequest request;
  request.set_world("two-rooms");
  *request.mutable_place() = At(1.5, 1.5);
  walk::v1::FloorsResponse response;
  ASSERT_TRUE(client_->Floors(request, &response).ok());
  ASSERT_EQ(response.columns_size(), 1);
  ASSERT_EQ(response.columns(0).floors_size(), 1);
  const walk::v1::Floor& floor = response.columns(0).floors(0);
  EXPECT_FALSE(floor.has_headroom_yards());  // open sky
  EXPECT_EQ(floor.links_size(), 8);          // an inner column of the room
  EXPECT_EQ(floor.region_surfaces(), 15u);
  // A rectangle, and one too large.
  request.set_columns_x(10);
  request.set_columns_y(3);
  *request.mutable_place() = At(0, 0);
  ASSERT_TRUE(client_->Floors(request, &response).ok());
  EXPECT_EQ(response.columns_size(), 30);
  request.set_columns_x(1000);
  request.set_columns_y(1000);
  walk::v1::FloorsResponse big;
  const grpc::Status refused = client_->Floors(request, &big);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(refused.error_message().rfind("max-floor-columns:", 0), 0u) << refused.error_message();
  EXPECT_NE(refused.error_message().find("stride"), std::string::npos);
}

TEST_F(WalkdTest, BandsAreValidatedAndEchoed) {
  walk::v1::WalkRequest request = Request("two-rooms", At(0.5, 0.5), At(3.5, 0.5));
  request.set_profile("faction-a");
  request.set_band(30);
  walk::v1::WalkResponse response;
  ASSERT_TRUE(client_->Walk(request, &response).ok());
  EXPECT_EQ(response.band(), 30u);
  request.set_band(35);
  const grpc::Status bad = client_->Walk(request, &response);
  EXPECT_EQ(bad.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(bad.error_message().rfind("band:", 0), 0u) << bad.error_message();
}

TEST_F(WalkdTest, InfoListsWorldsWithContentIds) {
  walk::v1::InfoResponse info;
  ASSERT_TRUE(client_->Info(&info).ok());
  ASSERT_EQ(info.worlds_size(), 1);
  const auto& world = info.worlds(0);
  EXPECT_EQ(world.name(), "two-rooms");  // named by its folder
  EXPECT_EQ(world.state(), walk::v1::WORLD_STATE_READY);
  EXPECT_EQ(world.content_id().size(), 16u);
  EXPECT_EQ(world.source(), "test:two-rooms");
  ASSERT_EQ(world.continents_size(), 1);
  EXPECT_EQ(world.continents(0).surfaces(), 27u);
  EXPECT_EQ(world.continents(0).regions(), 2u);
  EXPECT_EQ(world.continents(0).max_floors(), 1u);
  ASSERT_GE(info.profiles_size(), 1);
}

TEST_F(WalkdTest, ReflectionListsTheServices) {
  auto channel = grpc::CreateChannel(walkd_->grpc_address, grpc::InsecureChannelCredentials());
  auto stub = grpc::reflection::v1alpha::ServerReflection::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  auto stream = stub->ServerReflectionInfo(&context);
  grpc::reflection::v1alpha::ServerReflectionRequest request;
  request.set_list_services("");
  ASSERT_TRUE(stream->Write(request));
  grpc::reflection::v1alpha::ServerReflectionResponse response;
  ASSERT_TRUE(stream->Read(&response));
  stream->WritesDone();
  std::vector<std::string> names;
  for (const auto& s : response.list_services_response().service()) names.push_back(s.name());
  EXPECT_NE(std::find(names.begin(), names.end(), "walk.v1.WalkService"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "grpc.health.v1.Health"), names.end());
  EXPECT_TRUE(stream->Finish().ok());
}

TEST_F(WalkdTest, MetricsPassPromtool) {
  walk::v1::WalkResponse response;
  ASSERT_TRUE(client_->Walk(Request("two-rooms", At(0.5, 0.5), At(3.5, 1.5)), &response).ok());
  auto reply = testing::HttpGet(walkd_->metrics_address, "/metrics");
  ASSERT_TRUE(reply.ok()) << "no reply from " << walkd_->metrics_address << ": " << reply.status();
  EXPECT_EQ(reply->status, 200);
  const std::string& text = reply->body;
  for (const char* expected :
       {"walk_requests_total{code=\"OK\",method=\"Walk\"}", "walk_request_duration_seconds_bucket",
        "walk_searches_total{method=\"straight_line\"}", "walk_search_nodes_expanded_total",
        "walk_search_heap_operations_total", "walk_worlds_loaded 1",
        "process_resident_memory_bytes"}) {
    EXPECT_NE(text.find(expected), std::string::npos) << expected << " missing from:\n" << text;
  }
  auto ready = testing::HttpGet(walkd_->metrics_address, "/readyz");
  ASSERT_TRUE(ready.ok()) << ready.status();
  EXPECT_EQ(ready->status, 200);
  if (!std::filesystem::exists(PROMTOOL_BIN)) GTEST_SKIP() << "promtool is not installed";
  const std::string file = *data_dir_ + "/scrape.txt";
  std::ofstream(file) << text;
  const auto check =
      RunCommand({"/bin/sh", "-c", std::string(PROMTOOL_BIN) + " check metrics < " + file});
  EXPECT_EQ(check.exit_code, 0) << check.output;
}

TEST_F(WalkdTest, WalkctlAsksAndReportsWithExitCodes) {
  const std::string addr = walkd_->grpc_address;
  auto walk = RunCommand({WALKCTL_BIN, "--addr", addr, "walk", "--world", "two-rooms", "--from",
                          "0.5,0.5", "--to", "4.5,2.5"});
  EXPECT_EQ(walk.exit_code, 0) << walk.output;
  EXPECT_NE(walk.output.find("WALK_STATUS_OK: 4.828 yards"), std::string::npos) << walk.output;
  auto json = RunCommand({WALKCTL_BIN, "--addr", addr, "walk", "--world", "two-rooms", "--from",
                          "0.5,0.5", "--to", "7.5,0.5", "--json"});
  EXPECT_EQ(json.exit_code, 0);
  EXPECT_NE(json.output.find("\"status\":\"WALK_STATUS_NO_WALK\""), std::string::npos)
      << json.output;
  auto health = RunCommand({WALKCTL_BIN, "--addr", addr, "health"});
  EXPECT_EQ(health.exit_code, 0) << health.output;
  auto info = RunCommand({WALKCTL_BIN, "--addr", addr, "info"});
  EXPECT_EQ(info.exit_code, 0);
  EXPECT_NE(info.output.find("world two-rooms: WORLD_STATE_READY"), std::string::npos)
      << info.output;
  auto unknown = RunCommand(
      {WALKCTL_BIN, "--addr", addr, "walk", "--world", "atlantis", "--from", "1,1", "--to", "2,2"});
  EXPECT_EQ(unknown.exit_code, 4) << unknown.output;
  EXPECT_NE(unknown.output.find("NOT_FOUND"), std::string::npos) << unknown.output;
  const std::string svg = *data_dir_ + "/walk.svg";
  auto draw = RunCommand({WALKCTL_BIN, "--addr", addr, "draw", "--world", "two-rooms", "--from",
                          "0.5,0.5", "--to", "4.5,2.5", "--out", svg});
  EXPECT_EQ(draw.exit_code, 0) << draw.output;
  std::ifstream drawn(svg);
  const std::string picture((std::istreambuf_iterator<char>(drawn)),
                            std::istreambuf_iterator<char>());
  EXPECT_EQ(picture.rfind("<svg", 0), 0u);
  EXPECT_NE(picture.find("<polyline"), std::string::npos);
  auto path = RunCommand({WALKCTL_BIN, "--addr", addr, "path", "--world", "two-rooms", "--from",
                          "0.5,0.5", "--to", "4.5,2.5"});
  EXPECT_EQ(path.exit_code, 0) << path.output;
  EXPECT_NE(path.output.find("pulled taut to 2 points"), std::string::npos) << path.output;
  auto floors = RunCommand(
      {WALKCTL_BIN, "--addr", addr, "floors", "--world", "two-rooms", "--at", "1.5,1.5"});
  EXPECT_EQ(floors.exit_code, 0) << floors.output;
  EXPECT_NE(floors.output.find("column 1,1: 1 floors"), std::string::npos) << floors.output;
  auto bad_place =
      RunCommand({WALKCTL_BIN, "--addr", addr, "walk", "--from", "1;1", "--to", "2,2"});
  EXPECT_EQ(bad_place.exit_code, 2) << bad_place.output;
  auto usage = RunCommand({WALKCTL_BIN, "walk", "--bogus"});
  EXPECT_EQ(usage.exit_code, 2) << usage.output;
  // Nothing listens on port 1: unreachable, within the deadline.
  auto nobody = RunCommand({WALKCTL_BIN, "--addr", "127.0.0.1:1", "--timeout-s", "2", "health"});
  EXPECT_EQ(nobody.exit_code, 3) << nobody.output;
}

TEST(WalkdLifecycleTest, ServesTheDefaultWorldWhenGivenNoneAndStopsCleanlyOnSigterm) {
  const std::string data = MakeTempDir("default");
  RunningWalkd walkd = StartWalkd({"--data", data, "--shutdown-grace-s", "5"});
  client::WalkClient client(walkd.grpc_address, 10.0);
  ASSERT_TRUE(WaitServing(client)) << walkd.process->output();
  EXPECT_TRUE(std::filesystem::exists(data + "/default-world/grid.walkgrid"));  // cached

  // Watch health: SERVING now, NOT_SERVING once SIGTERM arrives.
  auto channel = grpc::CreateChannel(walkd.grpc_address, grpc::InsecureChannelCredentials());
  auto health = grpc::health::v1::Health::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  grpc::health::v1::HealthCheckRequest request;
  auto watch = health->Watch(&context, request);
  HealthCheckResponse seen;
  ASSERT_TRUE(watch->Read(&seen));
  EXPECT_EQ(seen.status(), HealthCheckResponse::SERVING);

  walk::v1::WalkResponse response;
  ASSERT_TRUE(client.Walk(Request("default", At(20, 20), At(500, 500)), &response).ok());
  EXPECT_EQ(response.status(), walk::v1::WALK_STATUS_OK);

  walkd.process->Signal(SIGTERM);
  ASSERT_TRUE(watch->Read(&seen));
  EXPECT_EQ(seen.status(), HealthCheckResponse::NOT_SERVING);
  EXPECT_EQ(walkd.process->Wait(), 0) << walkd.process->output();
  // This client's channel is still open, idle: walkd closes it once no call is left rather than
  // waiting out the grace for the client to answer gRPC's closing ping.
  EXPECT_NE(walkd.process->output().find("walkd: stopped (every call ended within the grace)"),
            std::string::npos)
      << walkd.process->output();
  std::filesystem::remove_all(data);
}

// Long walks on the default world go over its abstract graph (prepared at the first start and
// cached); every search can be forced, and answers say how they were found.
TEST(WalkdLifecycleTest, LongWalksGoOverTheAbstractGraph) {
  const std::string data = MakeTempDir("graph");
  {
    RunningWalkd walkd = StartWalkd({"--data", data, "--no-store"});
    client::WalkClient client(walkd.grpc_address, 30.0);
    ASSERT_TRUE(WaitServing(client)) << walkd.process->output();
    EXPECT_TRUE(std::filesystem::exists(data + "/default-world/graph.walkgraph"));
    // Printed before health says SERVING, but read from walkd's output on another thread.
    const std::optional<std::string> ready =
        walkd.process->WaitForLine("walkd: world 'default' ready");
    ASSERT_TRUE(ready.has_value()) << walkd.process->output();
    EXPECT_NE(ready->find("abstract graph: prepared at start"), std::string::npos) << *ready;

    walk::v1::InfoResponse info;
    ASSERT_TRUE(client.Info(&info).ok());
    ASSERT_EQ(info.worlds_size(), 1);
    ASSERT_TRUE(info.worlds(0).has_graph());
    EXPECT_GT(info.worlds(0).graph().nodes(), 100u);
    EXPECT_GT(info.worlds(0).graph().cch_arcs(), info.worlds(0).graph().nodes());
    EXPECT_EQ(info.worlds(0).graph().profiles_size(), 6);

    // Between the two towns (docs/demo_world.md), neutral, band 0.
    walk::v1::WalkRequest request = Request("default", At(771.9, 246.9), At(119.8, 861.5));
    request.set_profile("neutral");
    auto ask = [&](walk::v1::Search search, std::uint32_t band, walk::v1::WalkResponse* response) {
      request.set_search(search);
      request.set_band(band);
      return client.Walk(request, response);
    };
    walk::v1::WalkResponse automatic, cch, dijkstra, grid;
    ASSERT_TRUE(ask(walk::v1::SEARCH_AUTO, 0, &automatic).ok());
    EXPECT_EQ(automatic.method(), walk::v1::METHOD_CCH);
    ASSERT_TRUE(ask(walk::v1::SEARCH_CCH, 0, &cch).ok());
    ASSERT_TRUE(ask(walk::v1::SEARCH_DIJKSTRA, 0, &dijkstra).ok());
    EXPECT_EQ(dijkstra.method(), walk::v1::METHOD_DIJKSTRA);
    ASSERT_TRUE(ask(walk::v1::SEARCH_GRID, 0, &grid).ok());
    EXPECT_EQ(grid.method(), walk::v1::METHOD_FINE_GRID);
    EXPECT_NEAR(cch.seconds(), dijkstra.seconds(), 1e-6 * dijkstra.seconds());
    EXPECT_GE(cch.seconds(), grid.seconds() - 1e-6);  // never better than exact
    EXPECT_LE(cch.seconds(), 1.05 * grid.seconds());  // and close to it
    EXPECT_GT(grid.nodes_expanded(), 10 * cch.nodes_expanded() + 1);

    // A danger band: auto takes band 0's walk when it enters no zone the band prices, else the
    // A* guided by band-0 distances; either way the band's full danger search costs the same.
    // The CCH is refused, naming the field.
    walk::v1::WalkResponse danger, full;
    ASSERT_TRUE(ask(walk::v1::SEARCH_AUTO, 20, &danger).ok());
    ASSERT_TRUE(ask(walk::v1::SEARCH_DIJKSTRA, 20, &full).ok());
    EXPECT_EQ(full.method(), walk::v1::METHOD_DIJKSTRA);
    EXPECT_FALSE(full.from_band_zero());
    EXPECT_NEAR(danger.seconds(), full.seconds(), 1e-6 * full.seconds());
    EXPECT_EQ(danger.method(),
              danger.from_band_zero() ? automatic.method() : walk::v1::METHOD_CCH_ASTAR);
    const grpc::Status refused = ask(walk::v1::SEARCH_CCH, 20, &danger);
    EXPECT_EQ(refused.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
    EXPECT_EQ(refused.error_message().rfind("search:", 0), 0u) << refused.error_message();
    const grpc::Status unknown = ask(static_cast<walk::v1::Search>(9), 0, &danger);
    EXPECT_EQ(unknown.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_EQ(unknown.error_message().rfind("search:", 0), 0u) << unknown.error_message();
    walkd.process->Signal(SIGTERM);
    EXPECT_EQ(walkd.process->Wait(), 0);
  }
  // A second start reads the cached graph.
  RunningWalkd again = StartWalkd({"--data", data, "--no-store"});
  client::WalkClient client(again.grpc_address, 30.0);
  ASSERT_TRUE(WaitServing(client)) << again.process->output();
  const std::optional<std::string> ready =
      again.process->WaitForLine("walkd: world 'default' ready");
  ASSERT_TRUE(ready.has_value()) << again.process->output();
  EXPECT_NE(ready->find("abstract graph: loaded from"), std::string::npos) << *ready;
  again.process->Signal(SIGTERM);
  EXPECT_EQ(again.process->Wait(), 0);
  std::filesystem::remove_all(data);
}

// walkgrid info prints a world whose free note is not UTF-8 (the note is the saver's bytes)
// instead of failing on it.
TEST(WalkdLifecycleTest, WalkgridInfoPrintsANoteThatIsNotUtf8) {
  const std::string world = MakeTempDir("bad-note");
  auto map = nav::ParseMovingAiMap("type octile\nheight 1\nwidth 2\nmap\n..\n");
  ASSERT_TRUE(map.ok());
  auto grid = nav::WorldFromMovingAi(*map);
  ASSERT_TRUE(grid.ok());
  ASSERT_TRUE(nav::SaveWorld(*grid, "note \xff\xfe", world).ok());
  auto info = RunCommand({WALKGRID_BIN, "info", world});
  EXPECT_EQ(info.exit_code, 0) << info.output;
  EXPECT_NE(info.output.find("\"content_id\""), std::string::npos) << info.output;
  std::filesystem::remove_all(world);
}

// A world built from a level answers in the level's own coordinates, negative ones included, as
// a game server asks: walkctl walk on de_dust from -10,10 to 60,60 finds a walk whose start lies
// at a negative frame column, where the mesh's x is negative.
TEST(WalkdLifecycleTest, AWorldBuiltFromAMeshAnswersInTheMeshsCoordinates) {
  const char* env = std::getenv("WALKD_SHARED_DATA");
  const std::string mesh =
      std::string(env != nullptr ? env : WALK_SHARED_DATA_DEFAULT) + "/meshes/de_dust.obj";
  if (!std::filesystem::exists(mesh)) GTEST_SKIP() << mesh << " is absent";
  const std::string worlds = MakeTempDir("mesh-frame-worlds");
  const std::string data = MakeTempDir("mesh-frame-data");
  auto built = RunCommand({WALKGRID_BIN, "build-mesh", mesh, "--out", worlds + "/de_dust"});
  ASSERT_EQ(built.exit_code, 0) << built.output;
  auto info = RunCommand({WALKGRID_BIN, "info", worlds + "/de_dust"});
  EXPECT_NE(info.output.find("\"min_x_yards\": -93"), std::string::npos) << info.output;
  RunningWalkd walkd = StartWalkd({"--worlds", worlds, "--data", data, "--no-store"});
  client::WalkClient client(walkd.grpc_address, 30.0);
  ASSERT_TRUE(WaitServing(client)) << walkd.process->output();
  auto walk = RunCommand({WALKCTL_BIN, "--addr", walkd.grpc_address, "walk", "--world", "de_dust",
                          "--from", "-10,10", "--to", "60,60", "--json"});
  ASSERT_EQ(walk.exit_code, 0) << walk.output;
  EXPECT_NE(walk.output.find("\"WALK_STATUS_OK\""), std::string::npos) << walk.output;
  EXPECT_NE(walk.output.find("\"column_x\":-20"), std::string::npos) << walk.output;
  // Outside the level: off the map, not a bad argument.
  auto off = RunCommand({WALKCTL_BIN, "--addr", walkd.grpc_address, "walk", "--world", "de_dust",
                         "--from", "-500,10", "--to", "60,60", "--json"});
  EXPECT_NE(off.output.find("WALK_STATUS_OFF_MAP"), std::string::npos) << off.output;
  walkd.process->Signal(SIGTERM);
  EXPECT_EQ(walkd.process->Wait(), 0);
  std::filesystem::remove_all(worlds);
  std::filesystem::remove_all(data);
}

// walkgrid prepares a world's graph and exports it as DIMACS; walkd serves the prepared world.
TEST(WalkdLifecycleTest, WalkgridPreparesAndExportsTheAbstractGraph) {
  const std::string worlds = MakeTempDir("prepared");
  const std::string world = worlds + "/small";
  auto demo = RunCommand({WALKGRID_BIN, "demo", "--tiles", "1x1", "--out", world});
  ASSERT_EQ(demo.exit_code, 0) << demo.output;
  auto bad = RunCommand({WALKGRID_BIN, "prepare", world, "--cell", "100"});
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("cell_columns"), std::string::npos) << bad.output;
  auto prepared = RunCommand({WALKGRID_BIN, "prepare", world, "--profiles", "neutral,shortest"});
  ASSERT_EQ(prepared.exit_code, 0) << prepared.output;
  EXPECT_NE(prepared.output.find("\"nodes\":"), std::string::npos) << prepared.output;

  const std::string out = worlds + "/dimacs";
  auto exported =
      RunCommand({WALKGRID_BIN, "export-graph", world, "--profile", "neutral", "--out", out});
  ASSERT_EQ(exported.exit_code, 0) << exported.output;
  std::ifstream gr(out + "/neutral.gr");
  std::string line;
  std::uint64_t nodes = 0, arcs = 0, arc_lines = 0;
  while (std::getline(gr, line)) {
    if (line.rfind("p sp ", 0) == 0) std::sscanf(line.c_str(), "p sp %lu %lu", &nodes, &arcs);
    if (line.rfind("a ", 0) == 0) {
      std::uint64_t u, v, w;
      ASSERT_EQ(std::sscanf(line.c_str(), "a %lu %lu %lu", &u, &v, &w), 3) << line;
      EXPECT_TRUE(u >= 1 && u <= nodes && v >= 1 && v <= nodes) << line;
      ++arc_lines;
    }
  }
  EXPECT_GT(nodes, 10u);
  EXPECT_EQ(arc_lines, arcs);
  std::ifstream order(out + "/neutral.order");
  std::vector<bool> seen(nodes + 1, false);
  std::uint64_t ranks = 0, node;
  while (order >> node) {
    ASSERT_TRUE(node >= 1 && node <= nodes && !seen[node]) << node;
    seen[node] = true;
    ++ranks;
  }
  EXPECT_EQ(ranks, nodes);
  std::ifstream co(out + "/neutral.co");
  std::uint64_t coordinates = 0;
  while (std::getline(co, line)) coordinates += line.rfind("v ", 0) == 0 ? 1 : 0;
  EXPECT_EQ(coordinates, nodes);
  auto unknown =
      RunCommand({WALKGRID_BIN, "export-graph", world, "--profile", "faction-a", "--out", out});
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;

  std::filesystem::remove_all(out);
  const std::string data = MakeTempDir("prepared-data");
  RunningWalkd walkd = StartWalkd({"--worlds", worlds, "--data", data, "--no-store"});
  client::WalkClient client(walkd.grpc_address, 30.0);
  ASSERT_TRUE(WaitServing(client)) << walkd.process->output();
  walk::v1::InfoResponse info;
  ASSERT_TRUE(client.Info(&info).ok());
  ASSERT_EQ(info.worlds_size(), 1);
  EXPECT_EQ(info.worlds(0).graph().profiles_size(), 2);
  walkd.process->Signal(SIGTERM);
  EXPECT_EQ(walkd.process->Wait(), 0);
  std::filesystem::remove_all(worlds);
  std::filesystem::remove_all(data);
}

// A world whose graph.walkgraph has a byte flipped is served on the fine grid, as a world with a
// stale graph is: the damage is logged naming the file and the section, never served.
TEST(WalkdLifecycleTest, AWorldWithADamagedGraphWalksTheFineGrid) {
  const std::string worlds = MakeTempDir("damaged-graph");
  const std::string world = worlds + "/small";
  ASSERT_EQ(RunCommand({WALKGRID_BIN, "demo", "--tiles", "1x1", "--out", world}).exit_code, 0);
  auto prepared = RunCommand({WALKGRID_BIN, "prepare", world, "--profiles", "neutral"});
  ASSERT_EQ(prepared.exit_code, 0) << prepared.output;
  // From the cliff's foot to a town (walkgrid demo --landmarks): about 150 columns, farther than
  // two cells of 64, so over the graph when there is one.
  walk::v1::WalkRequest request = Request("small", At(101.04, 167.71), At(321.87, 388.54));
  request.set_profile("neutral");
  struct Served {
    std::string log;
    bool has_graph = false;
    walk::v1::WalkResponse walk;  // asked with SEARCH_AUTO
    grpc::Status forced_cch;      // the same walk asked with SEARCH_CCH
  };
  auto serve = [&] {
    Served served;
    const std::string data = MakeTempDir("damaged-graph-data");
    RunningWalkd walkd = StartWalkd({"--worlds", worlds, "--data", data, "--no-store"});
    client::WalkClient client(walkd.grpc_address, 30.0);
    EXPECT_TRUE(WaitServing(client)) << walkd.process->output();
    walk::v1::InfoResponse info;
    EXPECT_TRUE(client.Info(&info).ok());
    served.has_graph = info.worlds_size() == 1 && info.worlds(0).has_graph();
    EXPECT_TRUE(client.Walk(request, &served.walk).ok());
    walk::v1::WalkRequest forced = request;
    forced.set_search(walk::v1::SEARCH_CCH);
    walk::v1::WalkResponse ignored;
    served.forced_cch = client.Walk(forced, &ignored);
    walkd.process->Signal(SIGTERM);
    EXPECT_EQ(walkd.process->Wait(), 0);
    served.log = walkd.process->FinishOutput();
    std::filesystem::remove_all(data);
    return served;
  };
  const Served intact = serve();
  EXPECT_TRUE(intact.has_graph);
  EXPECT_EQ(intact.walk.status(), walk::v1::WALK_STATUS_OK);
  EXPECT_TRUE(intact.walk.method() == walk::v1::METHOD_CCH ||
              intact.walk.method() == walk::v1::METHOD_TILE)
      << intact.walk.method();
  EXPECT_TRUE(intact.forced_cch.ok()) << intact.forced_cch.error_message();

  const std::string graph = world + "/graph.walkgraph";
  const auto middle = static_cast<std::streamoff>(std::filesystem::file_size(graph) / 2);
  std::fstream file(graph, std::ios::in | std::ios::out | std::ios::binary);
  file.seekg(middle);
  const char byte = static_cast<char>(file.get());
  file.seekp(middle);
  file.put(static_cast<char>(byte ^ 0x04));
  file.close();
  const Served damaged = serve();
  EXPECT_NE(damaged.log.find(graph + ": damaged abstract graph (section 'continent 0 "),
            std::string::npos)
      << damaged.log;
  EXPECT_NE(damaged.log.find("; walks search the fine grid"), std::string::npos) << damaged.log;
  EXPECT_FALSE(damaged.has_graph);
  EXPECT_EQ(damaged.walk.status(), walk::v1::WALK_STATUS_OK);
  EXPECT_EQ(damaged.walk.method(), walk::v1::METHOD_FINE_GRID);
  EXPECT_LE(damaged.walk.seconds(), intact.walk.seconds() + 1e-6) << "the fine grid is exact";
  EXPECT_EQ(damaged.forced_cch.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  std::filesystem::remove_all(worlds);
}

// Waits (bounded: about half a minute) until no world of `client`'s walkd is loading.
walk::v1::InfoResponse SettledInfo(client::WalkClient& client) {
  walk::v1::InfoResponse info;
  for (int attempt = 0; attempt < 600 * testing::Patience(); ++attempt) {
    info.Clear();
    EXPECT_TRUE(client.Info(&info).ok());
    bool loading = false;
    for (const auto& w : info.worlds()) loading |= w.state() == walk::v1::WORLD_STATE_LOADING;
    if (!loading) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return info;
}

TEST(WalkdLifecycleTest, ADamagedWorldIsReportedAndUnavailableAndOnlyStrictModeWaitsForIt) {
  const std::string data = MakeTempDir("damaged-data");
  const std::string worlds = MakeTempDir("damaged-worlds");
  WriteAsciiWorld(worlds + "/good");
  WriteAsciiWorld(worlds + "/broken");
  std::filesystem::resize_file(worlds + "/broken/grid.walkgrid", 100);
  {
    RunningWalkd walkd =
        StartWalkd({"--worlds", worlds, "--data", data, "--shutdown-grace-s", "30"});
    client::WalkClient client(walkd.grpc_address, 10.0);
    const walk::v1::InfoResponse info = SettledInfo(client);
    ASSERT_EQ(info.worlds_size(), 2);
    EXPECT_EQ(info.worlds(0).name(), "broken");
    EXPECT_EQ(info.worlds(0).state(), walk::v1::WORLD_STATE_FAILED);
    EXPECT_NE(info.worlds(0).error().find("damaged"), std::string::npos) << info.worlds(0).error();
    EXPECT_EQ(info.worlds(1).state(), walk::v1::WORLD_STATE_READY);

    walk::v1::WalkResponse response;
    const grpc::Status broken = client.Walk(Request("broken", At(1, 1), At(2, 2)), &response);
    EXPECT_EQ(broken.error_code(), grpc::StatusCode::UNAVAILABLE);
    EXPECT_TRUE(client.Walk(Request("good", At(1, 1), At(2, 2)), &response).ok());
    // By default walkd serves once the others are ready: the failure is reported, not a reason
    // to take the good world out of service.
    HealthCheckResponse::ServingStatus status = HealthCheckResponse::UNKNOWN;
    for (int attempt = 0;
         attempt < 600 * testing::Patience() && status != HealthCheckResponse::SERVING; ++attempt) {
      ASSERT_TRUE(client.Health("", &status).ok());
      if (status != HealthCheckResponse::SERVING) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
    EXPECT_EQ(status, HealthCheckResponse::SERVING);
    walkd.process->Signal(SIGTERM);
    EXPECT_EQ(walkd.process->Wait(), 0);
    // Read once walkd has ended: the log line may reach the pipe after Info reports the failure.
    EXPECT_NE(walkd.process->FinishOutput().find("world 'broken' failed to load"),
              std::string::npos);
  }
  // --strict-worlds: never serving while a world failed.
  RunningWalkd strict = StartWalkd({"--worlds", worlds, "--data", data, "--strict-worlds"});
  client::WalkClient client(strict.grpc_address, 10.0);
  SettledInfo(client);
  HealthCheckResponse::ServingStatus status;
  ASSERT_TRUE(client.Health("", &status).ok());
  EXPECT_EQ(status, HealthCheckResponse::NOT_SERVING);
  strict.process->Signal(SIGTERM);
  EXPECT_EQ(strict.process->Wait(), 0);
  std::filesystem::remove_all(data);
  std::filesystem::remove_all(worlds);
}

TEST(WalkdLifecycleTest, RefusesABadOptionNamingIt) {
  auto bad_worlds = RunCommand({WALKD_BIN, "--listen", "127.0.0.1:0", "--metrics-listen", "",
                                "--worlds", "/nonexistent/worlds"});
  EXPECT_EQ(bad_worlds.exit_code, 1);
  EXPECT_NE(bad_worlds.output.find("--worlds"), std::string::npos) << bad_worlds.output;
  auto bad_flag = RunCommand({WALKD_BIN, "--shutdown-grace-s", "-4"});
  EXPECT_NE(bad_flag.exit_code, 0);
  EXPECT_NE(bad_flag.output.find("shutdown-grace-s"), std::string::npos) << bad_flag.output;
}

}  // namespace
}  // namespace walk
