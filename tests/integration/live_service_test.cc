// LiveService through a real walkd: a live world with a wall and a gate; paths, the revisioned
// cache, blocker updates, Nearest, Reachable, group paths, errors, and the metrics they leave.
#include <filesystem>
#include <fstream>

#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/integration/walkd_process.h"
#include "walk/v1/walk.grpc.pb.h"

namespace walk {
namespace {

walk::v1::Cell At(int x, int y) {
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
    walkd_ = std::make_unique<testing::ChildProcess>(std::vector<std::string>{
        WALKD_BIN, "--listen", "127.0.0.1:0", "--metrics-listen", "", "--data", dir_ + "/data",
        "--no-store", "--live-worlds", dir_ + "/live", "--live-direct-cells", "0"});
    const auto address = walkd_->WaitForLine("walkd: grpc listening on ");
    ASSERT_TRUE(address.has_value()) << walkd_->output();
    stub_ = walk::v1::LiveService::NewStub(
        grpc::CreateChannel(*address, grpc::InsecureChannelCredentials()));
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

  walk::v1::LivePathResponse Path(int x0, int y0, int x1, int y1) {
    walk::v1::LivePathRequest request;
    request.set_world("yard");
    *request.mutable_start() = At(x0, y0);
    *request.mutable_goal() = At(x1, y1);
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

  std::string dir_;
  std::unique_ptr<testing::ChildProcess> walkd_;
  std::unique_ptr<walk::v1::LiveService::Stub> stub_;
};

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
  *reach.mutable_a() = At(0, 0);
  *reach.mutable_b() = At(6, 4);
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
  *nearest.mutable_cell() = At(0, 2);  // inside the wall
  walk::v1::NearestResponse cell;
  ASSERT_TRUE(Ask(&walk::v1::LiveService::Stub::Nearest, nearest, &cell).ok());
  EXPECT_EQ(cell.cell().x(), 0);
  EXPECT_NE(cell.cell().y(), 2);

  walk::v1::PathGroupRequest group;
  group.set_world("yard");
  for (int x : {1, 2, 3}) *group.add_starts() = At(x, 0);
  *group.mutable_goal() = At(3, 4);
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
  *request.mutable_goal() = At(99, 0);
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

}  // namespace
}  // namespace walk
