// LiveService through a real walkd: a live world with a wall and a gate, and an open field with a
// bridge; paths, the revisioned cache, blocker updates of every kind, Nearest, Reachable, group
// paths, formations, deferred fallbacks, kept routes, errors, what Info, health and the metrics
// say of live worlds, and walkctl's live commands.
#include <filesystem>
#include <fstream>

#include "absl/strings/match.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/integration/walkd_process.h"
#include "tests/server/http_get.h"
#include "walk/v1/walk.grpc.pb.h"

namespace walk {
namespace {

walk::v1::Cell CellAt(int x, int y) {
  walk::v1::Cell c;
  c.set_x(x);
  c.set_y(y);
  return c;
}

class LiveServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (std::filesystem::temp_directory_path() / ("walkd-live-" + std::to_string(::getpid())))
               .string();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ + "/live/yard");
    // 7 x 5 open ground; a wall (building 10) across row 2 with a gate (20) at x = 3.
    std::ofstream(dir_ + "/live/yard/map.map") << "type octile\nheight 5\nwidth 7\nmap\n"
                                                  ".......\n.......\n.......\n.......\n.......\n";
    std::ofstream(dir_ + "/live/yard/layers.txt") << "building 10 0 2 7 3\n"
                                                     "gate 20 10 3 2 4 3 open\n";
    // 40 x 9 open ground with a tree at (20, 2) and a river across column 30, crossed by a
    // one-cell bridge at row 4.
    std::filesystem::create_directories(dir_ + "/live/field");
    std::ofstream field(dir_ + "/live/field/map.map");
    field << "type octile\nheight 9\nwidth 40\nmap\n";
    for (int y = 0; y < 9; ++y) {
      std::string row(40, '.');
      row[30] = y == 4 ? '+' : 'R';
      if (y == 2) row[20] = 'T';
      field << row << "\n";
    }
    field.close();
    const std::vector<std::string> argv = {WALKD_BIN,
                                           "--listen",
                                           "127.0.0.1:0",
                                           "--metrics-listen",
                                           "127.0.0.1:0",
                                           "--data",
                                           dir_ + "/data",
                                           "--no-store",
                                           "--live-worlds",
                                           dir_ + "/live",
                                           "--live-direct-cells",
                                           "0",
                                           "--live-group-fallbacks",
                                           "1"};
    testing::ShareDefaultWorld(argv);
    walkd_ = std::make_unique<testing::ChildProcess>(argv);
    const auto address = walkd_->WaitForLine("walkd: grpc listening on ");
    ASSERT_TRUE(address.has_value()) << walkd_->output();
    const auto metrics = walkd_->WaitForLine("walkd: metrics on http://");
    ASSERT_TRUE(metrics.has_value()) << walkd_->output();
    address_ = *address;
    metrics_address_ = metrics->substr(0, metrics->find('/'));
    auto channel = grpc::CreateChannel(*address, grpc::InsecureChannelCredentials());
    stub_ = walk::v1::LiveService::NewStub(channel);
    walk_stub_ = walk::v1::WalkService::NewStub(channel);
    health_stub_ = grpc::health::v1::Health::NewStub(channel);
  }
  void TearDown() override {
    walkd_->Signal(SIGTERM);
    EXPECT_EQ(walkd_->Wait(), 0);
    std::filesystem::remove_all(dir_);
  }

  template <typename Request, typename Response, typename Call>
  grpc::Status Ask(Call call, const Request& request, Response* response) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    return (stub_.get()->*call)(&context, request, response);
  }

  walk::v1::LivePathResponse Path(int x0, int y0, int x1, int y1, std::uint64_t unit = 0) {
    walk::v1::LivePathRequest request;
    request.set_world("yard");
    request.set_unit(unit);
    *request.mutable_start() = CellAt(x0, y0);
    *request.mutable_goal() = CellAt(x1, y1);
    walk::v1::LivePathResponse response;
    EXPECT_TRUE(Ask(&walk::v1::LiveService::Stub::LivePath, request, &response).ok());
    return response;
  }

  walk::v1::UpdateBlockersResponse Gate(walk::v1::BlockerChange::Kind kind) {
    walk::v1::UpdateBlockersRequest request;
    request.set_world("yard");
    walk::v1::BlockerChange* change = request.add_changes();
    change->set_kind(kind);
    change->set_id(20);
    walk::v1::UpdateBlockersResponse response;
    EXPECT_TRUE(Ask(&walk::v1::LiveService::Stub::UpdateBlockers, request, &response).ok());
    return response;
  }

  // Applies one change to `world`; its status.
  grpc::Status Change(const std::string& world, walk::v1::BlockerChange change) {
    walk::v1::UpdateBlockersRequest request;
    request.set_world(world);
    *request.add_changes() = change;
    walk::v1::UpdateBlockersResponse response;
    return Ask(&walk::v1::LiveService::Stub::UpdateBlockers, request, &response);
  }

  walk::v1::Cell Nearest(int x, int y) {
    walk::v1::NearestRequest request;
    request.set_world("yard");
    *request.mutable_cell() = CellAt(x, y);
    walk::v1::NearestResponse response;
    EXPECT_TRUE(Ask(&walk::v1::LiveService::Stub::Nearest, request, &response).ok());
    return response.cell();
  }

  bool Reachable(int x0, int y0, int x1, int y1) {
    walk::v1::ReachableRequest request;
    request.set_world("yard");
    *request.mutable_a() = CellAt(x0, y0);
    *request.mutable_b() = CellAt(x1, y1);
    walk::v1::ReachableResponse response;
    EXPECT_TRUE(Ask(&walk::v1::LiveService::Stub::Reachable, request, &response).ok());
    return response.reachable();
  }

  std::string Metrics() {
    auto reply = testing::HttpGet(metrics_address_, "/metrics");
    EXPECT_TRUE(reply.ok()) << reply.status();
    return reply.ok() ? reply->body : "";
  }

  testing::CommandResult Walkctl(std::vector<std::string> args) {
    args.insert(args.begin(), {WALKCTL_BIN, "--addr", address_});
    return testing::RunCommand(args);
  }

  std::string dir_;
  std::string address_;
  std::string metrics_address_;
  std::unique_ptr<testing::ChildProcess> walkd_;
  std::unique_ptr<walk::v1::LiveService::Stub> stub_;
  std::unique_ptr<walk::v1::WalkService::Stub> walk_stub_;
  std::unique_ptr<grpc::health::v1::Health::Stub> health_stub_;
};

walk::v1::Formation TwoRanks(double facing) {
  walk::v1::Formation f;
  f.set_facing_degrees(facing);
  for (double back : {0.0, -1.0}) {
    for (double right : {-1.0, 0.0, 1.0}) {
      walk::v1::FormationSlot* slot = f.add_slots();
      slot->set_forward(back);
      slot->set_right(right);
    }
  }
  return f;
}

TEST_F(LiveServiceTest, AGateShutThenOpenedWithTheCacheFollowingTheRevision) {
  const auto through = Path(3, 0, 3, 4);
  ASSERT_EQ(through.status(), walk::v1::LIVE_PATH_STATUS_FOUND);
  EXPECT_EQ(through.cells_size(), 5);  // straight down through the open gate
  EXPECT_FALSE(through.from_cache());
  EXPECT_TRUE(Path(3, 0, 3, 4).from_cache());  // same revision, same question

  const auto shut = Gate(walk::v1::BlockerChange::KIND_SHUT_GATE);
  EXPECT_EQ(shut.revision(), through.revision() + 1);
  EXPECT_GT(shut.dirty_cells(), 0u);
  EXPECT_FALSE(shut.full_rebuild());
  const auto sealed = Path(3, 0, 3, 4);
  EXPECT_EQ(sealed.status(), walk::v1::LIVE_PATH_STATUS_UNREACHABLE);
  EXPECT_EQ(sealed.revision(), shut.revision());
  walk::v1::ReachableRequest reach;
  reach.set_world("yard");
  *reach.mutable_a() = CellAt(0, 0);
  *reach.mutable_b() = CellAt(6, 4);
  walk::v1::ReachableResponse reachable;
  ASSERT_TRUE(Ask(&walk::v1::LiveService::Stub::Reachable, reach, &reachable).ok());
  EXPECT_FALSE(reachable.reachable());

  Gate(walk::v1::BlockerChange::KIND_OPEN_GATE);
  const auto open = Path(3, 0, 3, 4);
  EXPECT_EQ(open.status(), walk::v1::LIVE_PATH_STATUS_FOUND);
  EXPECT_FALSE(open.from_cache());  // nothing of an older revision is served
  EXPECT_EQ(open.cost(), through.cost());
}

TEST_F(LiveServiceTest, NearestAndGroupPaths) {
  walk::v1::NearestRequest nearest;
  nearest.set_world("yard");
  *nearest.mutable_cell() = CellAt(0, 2);  // inside the wall
  walk::v1::NearestResponse cell;
  ASSERT_TRUE(Ask(&walk::v1::LiveService::Stub::Nearest, nearest, &cell).ok());
  EXPECT_EQ(cell.cell().x(), 0);
  EXPECT_NE(cell.cell().y(), 2);

  walk::v1::PathGroupRequest group;
  group.set_world("yard");
  for (int x : {1, 2, 3}) *group.add_starts() = CellAt(x, 0);
  *group.mutable_goal() = CellAt(3, 4);
  walk::v1::PathGroupResponse plan;
  ASSERT_TRUE(Ask(&walk::v1::LiveService::Stub::PathGroup, group, &plan).ok());
  ASSERT_EQ(plan.members_size(), 3);
  EXPECT_EQ(plan.shared() + plan.individual(), 3u);
  for (const auto& member : plan.members()) {
    ASSERT_GT(member.waypoints_size(), 0);
    EXPECT_EQ(member.waypoints(member.waypoints_size() - 1).y(), 4);
  }
}

TEST_F(LiveServiceTest, BadRequestsNameTheField) {
  walk::v1::LivePathRequest request;
  request.set_world("nowhere");
  walk::v1::LivePathResponse response;
  EXPECT_EQ(Ask(&walk::v1::LiveService::Stub::LivePath, request, &response).error_code(),
            grpc::StatusCode::NOT_FOUND);
  request.set_world("yard");
  *request.mutable_goal() = CellAt(99, 0);
  const grpc::Status off = Ask(&walk::v1::LiveService::Stub::LivePath, request, &response);
  EXPECT_EQ(off.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << off.error_message();

  walk::v1::UpdateBlockersRequest update;
  update.set_world("yard");
  update.add_changes();  // no kind
  walk::v1::UpdateBlockersResponse updated;
  const grpc::Status no_kind = Ask(&walk::v1::LiveService::Stub::UpdateBlockers, update, &updated);
  EXPECT_EQ(no_kind.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(no_kind.error_message().rfind("changes[0].kind", 0), 0u) << no_kind.error_message();
  update.mutable_changes(0)->set_kind(walk::v1::BlockerChange::KIND_REMOVE_BUILDING);
  update.mutable_changes(0)->set_id(99);
  const grpc::Status missing = Ask(&walk::v1::LiveService::Stub::UpdateBlockers, update, &updated);
  EXPECT_EQ(missing.error_code(), grpc::StatusCode::NOT_FOUND) << missing.error_message();
}

TEST_F(LiveServiceTest, FormationsAndGroupsMovingToSlots) {
  walk::v1::FormationTargetsRequest request;
  request.set_world("field");
  *request.mutable_center() = CellAt(10, 4);
  *request.mutable_formation() = TwoRanks(-90);  // facing north
  walk::v1::FormationTargetsResponse open;
  ASSERT_TRUE(Ask(&walk::v1::LiveService::Stub::FormationTargets, request, &open).ok());
  EXPECT_EQ(open.used(), 6u);
  ASSERT_EQ(open.slots_size(), 6);
  EXPECT_EQ(open.slots(0).cell().x(), 9);
  EXPECT_EQ(open.slots(3).cell().y(), 5);  // the rear rank, south of the centre

  *request.mutable_center() = CellAt(30, 4);  // on the one-cell bridge
  walk::v1::FormationTargetsResponse bridge;
  ASSERT_TRUE(Ask(&walk::v1::LiveService::Stub::FormationTargets, request, &bridge).ok());
  EXPECT_EQ(bridge.collapsed(), 5u);
  for (const auto& slot : bridge.slots()) EXPECT_EQ(slot.cell().x(), 30);

  *request.mutable_center() = CellAt(21, 2);  // the front rank's left slot is the tree at (20, 2)
  walk::v1::FormationTargetsResponse tree;
  ASSERT_TRUE(Ask(&walk::v1::LiveService::Stub::FormationTargets, request, &tree).ok());
  EXPECT_EQ(tree.slots(0).outcome(), "closed");
  EXPECT_TRUE(tree.slots(0).collapsed());
  EXPECT_EQ(tree.slots(2).outcome(), "used");

  walk::v1::PathGroupRequest group;
  group.set_world("field");
  for (int x : {1, 2, 3}) {
    for (int y : {3, 4}) *group.add_starts() = CellAt(x, y);
  }
  *group.mutable_goal() = CellAt(12, 4);
  *group.mutable_formation() = TwoRanks(0);  // facing east
  walk::v1::PathGroupResponse plan;
  ASSERT_TRUE(Ask(&walk::v1::LiveService::Stub::PathGroup, group, &plan).ok());
  ASSERT_EQ(plan.members_size(), 6);
  for (const auto& member : plan.members()) {
    ASSERT_GT(member.waypoints_size(), 0);
    const auto& last = member.waypoints(member.waypoints_size() - 1);
    EXPECT_EQ(last.x(), member.target().x());
    EXPECT_EQ(last.y(), member.target().y());
    EXPECT_GE(member.target().x(), 11);  // the front rank at x 12, the rear at 11
  }
  group.mutable_formation()->mutable_slots()->RemoveLast();
  const grpc::Status refused = Ask(&walk::v1::LiveService::Stub::PathGroup, group, &plan);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(refused.error_message(), "formation.slots: 5 slots for 6 members");
}

TEST_F(LiveServiceTest, DeferredFallbacksAreServedForTheNextAsk) {
  // Starts 10 cells apart: none can join another's corridor, so each needs its own search, and
  // this walkd runs one a request (--live-group-fallbacks 1).
  walk::v1::PathGroupRequest group;
  group.set_world("field");
  for (int x : {0, 10, 20, 25}) *group.add_starts() = CellAt(x, x == 20 ? 6 : 0);
  *group.mutable_goal() = CellAt(12, 8);
  walk::v1::PathGroupResponse plan;
  ASSERT_TRUE(Ask(&walk::v1::LiveService::Stub::PathGroup, group, &plan).ok());
  EXPECT_GT(plan.deferred(), 0u);
  EXPECT_LE(plan.individual(), 1u);
  int asks = 1;
  for (; asks < 200 && (plan.deferred() > 0 || asks == 1); ++asks) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    plan.Clear();
    ASSERT_TRUE(Ask(&walk::v1::LiveService::Stub::PathGroup, group, &plan).ok());
  }
  EXPECT_EQ(plan.deferred(), 0u) << asks << " asks";
  for (const auto& member : plan.members()) EXPECT_NE(member.route(), "deferred");
  const std::string metrics = Metrics();
  EXPECT_TRUE(absl::StrContains(metrics,
                                "walk_live_events_total{event=\"fallback_deferred\","
                                "world=\"field\"}"))
      << metrics;
  EXPECT_TRUE(absl::StrContains(metrics,
                                "walk_live_events_total{event=\"fallback_served\","
                                "world=\"field\"}"));
  EXPECT_TRUE(absl::StrContains(metrics, "walk_live_fallbacks_waiting 0"));
}

TEST_F(LiveServiceTest, EveryBlockerKindIsPlacedAndRemoved) {
  using Kind = walk::v1::BlockerChange;
  auto change = [](Kind::Kind kind, std::uint32_t id = 0) {
    walk::v1::BlockerChange c;
    c.set_kind(kind);
    c.set_id(id);
    return c;
  };
  for (Kind::Kind place : {Kind::KIND_PLACE_TREE, Kind::KIND_PLACE_BOULDER, Kind::KIND_PLACE_ORE}) {
    walk::v1::BlockerChange c = change(place);
    c.set_x(1.5);
    c.set_y(0.5);
    ASSERT_TRUE(Change("yard", c).ok()) << Kind::Kind_Name(place);
    const walk::v1::Cell moved = Nearest(1, 0);
    EXPECT_FALSE(moved.x() == 1 && moved.y() == 0) << Kind::Kind_Name(place);
    c.set_kind(Kind::KIND_HARVEST);
    ASSERT_TRUE(Change("yard", c).ok());
    EXPECT_EQ(Nearest(1, 0).x(), 1);
    EXPECT_EQ(Nearest(1, 0).y(), 0);
  }
  walk::v1::BlockerChange building = change(Kind::KIND_ADD_BUILDING, 30);
  building.set_x0(5);
  building.set_y0(0);
  building.set_x1(6);
  building.set_y1(1);
  ASSERT_TRUE(Change("yard", building).ok());
  EXPECT_FALSE(Nearest(5, 0).x() == 5 && Nearest(5, 0).y() == 0);
  building.set_kind(Kind::KIND_MOVE_BUILDING);
  building.set_y0(4);
  building.set_y1(5);
  ASSERT_TRUE(Change("yard", building).ok());
  EXPECT_EQ(Nearest(5, 0).y(), 0);
  EXPECT_NE(Nearest(5, 4).y(), 4);
  ASSERT_TRUE(Change("yard", change(Kind::KIND_REMOVE_BUILDING, 30)).ok());
  EXPECT_EQ(Nearest(5, 4).y(), 4);

  ASSERT_TRUE(Change("yard", change(Kind::KIND_SHUT_GATE, 20)).ok());
  EXPECT_FALSE(Reachable(0, 0, 0, 4));
  walk::v1::BlockerChange gate = change(Kind::KIND_ADD_GATE, 40);
  gate.set_owner(10);
  gate.set_x0(5);
  gate.set_y0(2);
  gate.set_x1(6);
  gate.set_y1(3);
  gate.set_open(true);
  ASSERT_TRUE(Change("yard", gate).ok());
  EXPECT_TRUE(Reachable(0, 0, 0, 4));
  ASSERT_TRUE(Change("yard", change(Kind::KIND_SHUT_GATE, 40)).ok());
  EXPECT_FALSE(Reachable(0, 0, 0, 4));
  ASSERT_TRUE(Change("yard", change(Kind::KIND_OPEN_GATE, 40)).ok());
  EXPECT_TRUE(Reachable(0, 0, 0, 4));
  ASSERT_TRUE(Change("yard", change(Kind::KIND_REMOVE_GATE, 40)).ok());
  EXPECT_FALSE(Reachable(0, 0, 0, 4));
  EXPECT_EQ(Change("yard", change(Kind::KIND_REMOVE_GATE, 40)).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

TEST_F(LiveServiceTest, UnknownEnumValuesAreInvalidArguments) {
  walk::v1::BlockerChange odd;
  odd.set_kind(static_cast<walk::v1::BlockerChange::Kind>(99));
  const grpc::Status kind = Change("yard", odd);
  EXPECT_EQ(kind.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(kind.error_message(), "changes[0].kind: unknown value 99");

  walk::v1::LivePathRequest path;
  path.set_world("yard");
  path.set_passability(static_cast<walk::v1::Passability>(7));
  walk::v1::LivePathResponse path_response;
  const grpc::Status passability =
      Ask(&walk::v1::LiveService::Stub::LivePath, path, &path_response);
  EXPECT_EQ(passability.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(passability.error_message(), "passability: unknown value 7 (light or heavy)");

  walk::v1::PathGroupRequest group;
  group.set_world("yard");
  *group.add_starts() = CellAt(0, 0);
  group.add_passabilities(static_cast<walk::v1::Passability>(3));
  walk::v1::PathGroupResponse plan;
  const grpc::Status member = Ask(&walk::v1::LiveService::Stub::PathGroup, group, &plan);
  EXPECT_EQ(member.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(member.error_message(), "passabilities[0]: unknown value 3 (light or heavy)");

  walk::v1::FormationTargetsRequest formation;
  formation.set_world("yard");
  formation.set_passability(static_cast<walk::v1::Passability>(9));
  walk::v1::FormationTargetsResponse targets;
  EXPECT_EQ(Ask(&walk::v1::LiveService::Stub::FormationTargets, formation, &targets).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(LiveServiceTest, OperatorsSeeLiveWorldsInInfoHealthMetricsAndWalkctl) {
  grpc::ClientContext context;
  walk::v1::InfoResponse info;
  ASSERT_TRUE(walk_stub_->Info(&context, walk::v1::InfoRequest(), &info).ok());
  ASSERT_EQ(info.live_worlds_size(), 2);
  EXPECT_EQ(info.live_worlds(0).name(), "field");
  EXPECT_EQ(info.live_worlds(0).width(), 40);
  EXPECT_EQ(info.live_worlds(1).name(), "yard");
  EXPECT_EQ(info.live_worlds(1).height(), 5);
  EXPECT_EQ(info.live_worlds(1).footprints(), 1u);  // the wall (its gate is open)
  for (const char* service : {"walk.v1.LiveService", "walkd.live/yard", "walkd.live/field"}) {
    grpc::ClientContext health_context;
    grpc::health::v1::HealthCheckRequest request;
    request.set_service(service);
    grpc::health::v1::HealthCheckResponse response;
    ASSERT_TRUE(health_stub_->Check(&health_context, request, &response).ok()) << service;
    EXPECT_EQ(response.status(), grpc::health::v1::HealthCheckResponse::SERVING) << service;
  }

  // A unit asks twice, its goal moved one cell: the route is kept.
  const auto first = Path(0, 0, 6, 4, 77);
  EXPECT_EQ(first.method(), walk::v1::LIVE_PATH_METHOD_SEARCH);
  const auto kept = Path(first.cells(1).x(), first.cells(1).y(), 6, 3, 77);
  EXPECT_EQ(kept.method(), walk::v1::LIVE_PATH_METHOD_KEPT);
  const std::string metrics = Metrics();
  for (const char* line :
       {"walk_live_events_total{event=\"kept_route\",world=\"yard\"} 1",
        "walk_live_revision{world=\"yard\"} 1", "walk_live_revision{world=\"field\"} 1",
        "walk_live_unit_routes{world=\"yard\"} 1"}) {
    EXPECT_TRUE(absl::StrContains(metrics, line)) << line << " in\n" << metrics;
  }

  auto run = Walkctl({"live", "path", "--world", "yard", "--from", "0,0", "--to", "6,0"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(absl::StrContains(run.output, "LIVE_PATH_STATUS_FOUND to 6,0")) << run.output;
  run = Walkctl({"live", "update", "--world", "yard", "shut-gate 20", "place-boulder 1.5 0.5"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(absl::StrContains(run.output, "revision 2:")) << run.output;
  run = Walkctl({"live", "nearest", "--world", "yard", "--cell", "1,0", "--json"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_FALSE(absl::StrContains(run.output, "\"x\": 1, \"y\": 0")) << run.output;
  run = Walkctl({"live", "reachable", "--world", "yard", "--a", "0,0", "--b", "0,4"});
  EXPECT_TRUE(absl::StrContains(run.output, "not reachable (revision 2)")) << run.output;
  run = Walkctl({"live", "path", "--world", "yard", "--from", "3,2", "--to", "3,0"});
  EXPECT_TRUE(absl::StrContains(run.output, "LIVE_PATH_METHOD_STEP_OUT")) << run.output;
  run = Walkctl({"live", "formation", "--world", "field", "--center", "30,4", "--slots",
                 "0,-1;0,0;0,1", "--facing", "-90"});
  EXPECT_TRUE(absl::StrContains(run.output, "centre 30,4 (30.5, 4.5): 1 slots used, 2 collapsed"))
      << run.output;
  run = Walkctl({"live", "group", "--world", "field", "--starts", "1,1;2,1", "--goal", "9,4",
                 "--slots", "0,0;0,1", "--facing", "0"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(absl::StrContains(run.output, "2,1 -> 9,5: shared")) << run.output;
  run = Walkctl({"live", "update", "--world", "yard", "add-gate 5 10 1 2 2 3 ajar"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(run.output, "'ajar' is not open or shut")) << run.output;
  run = Walkctl({"live", "update", "--world", "yard", "remove-gate 99"});
  EXPECT_EQ(run.exit_code, 4);
  EXPECT_TRUE(absl::StrContains(run.output, "NOT_FOUND: changes[0]: gate 99 not found"))
      << run.output;
  run = Walkctl({"info"});
  EXPECT_TRUE(absl::StrContains(run.output, "live world yard: 7 x 5 cells of 1, revision 2"))
      << run.output;
}

}  // namespace
}  // namespace walk
