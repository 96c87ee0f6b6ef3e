// A world as route planners have one, through a real walkd: two meshes of ../shared/data/meshes
// and a MovingAI map assembled as continents 0, 1 and 2 (walkgrid --continent), a boat between 0
// and 1 and a one-way portal from 1 to 2 (travel.json). Each continent answers in its own frame;
// trips across continents equal a brute force over the node sequences priced with walkd's own
// walks; a walk between continents is refused naming both; and continent 1 rebuilt alone keeps
// every stored answer of the others (a batch rerun routes only continent 1's pairs).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "client/walk_client.h"
#include "gtest/gtest.h"
#include "nav/grid/grid_format.h"
#include "nav/query/snap.h"
#include "nlohmann/json.hpp"
#include "tests/integration/walkd_process.h"

namespace walk {
namespace {

using testing::RunCommand;

std::string SharedData() {
  const char* env = std::getenv("WALKD_SHARED_DATA");
  return env != nullptr ? env : WALK_SHARED_DATA_DEFAULT;
}

// Places on continent `id` of `world`: columns of surfaces of its largest region, at random,
// named in its frame.
std::vector<nav::Place> PlacesOn(const nav::World& world, nav::ContinentId id, int count,
                                 std::uint32_t seed) {
  const nav::Continent& c = *world.FindContinent(id);
  const auto largest = std::max_element(c.region_size.begin(), c.region_size.end());
  const nav::RegionId region = static_cast<nav::RegionId>(largest - c.region_size.begin());
  std::vector<nav::SurfaceId> members;
  for (nav::SurfaceId s = 0; s < c.surface_count(); ++s) {
    if (c.region[s] == region) members.push_back(s);
  }
  std::mt19937 random(seed);
  std::vector<nav::Place> places;
  for (int i = 0; i < count; ++i) {
    // Without a height: the column's usual floor (a place with one may be walked from the usual
    // floor on a second asking, which a brute force could not add up).
    nav::Place place = nav::PlaceOf(c, world.FrameOf(c), members[random() % members.size()]);
    place.z_yards.reset();
    places.push_back(place);
  }
  return places;
}

walk::v1::Place ToProto(const nav::Place& p) {
  walk::v1::Place out;
  out.set_continent(p.continent);
  out.set_x_yards(p.x_yards);
  out.set_y_yards(p.y_yards);
  if (p.z_yards) out.set_z_yards(*p.z_yards);
  return out;
}

nlohmann::json NodeJson(const std::string& id, const nav::Place& p) {
  return {{"id", id}, {"continent", p.continent}, {"x", p.x_yards}, {"y", p.y_yards}};
}

// A ride of the network: its two nodes and what it costs.
struct Ride {
  int from, to;
  double seconds;
};

class ContinentsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!std::filesystem::exists(SharedData() + "/meshes/dungeon.obj")) return;
    root_ = new std::string(testing::FreshTempDir("walkd-continents", "root"));
    world_dir_ = new std::string(*root_ + "/worlds/atlas");
    Build("build-mesh", SharedData() + "/meshes/dungeon.obj", 0);
    Build("build-mesh", SharedData() + "/meshes/ParkingLot.obj", 1);
    Build("import-movingai", SharedData() + "/movingai/dao/arena.map", 2);
    absl::StatusOr<nav::LoadedWorld> loaded = nav::LoadWorld(*world_dir_);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    world_ = new nav::World(std::move(loaded->world));
    // A mesh's falls are one way: a region's surfaces need not reach each other. The places of
    // the tests are those a first walkd (no travel.json yet) walks to and from a hub place.
    const testing::CommandResult prepared = RunCommand({WALKGRID_BIN, "prepare", *world_dir_});
    ASSERT_EQ(prepared.exit_code, 0) << prepared.output;
    Start();
    for (nav::ContinentId id : {0u, 1u, 2u}) pools_[id] = MutuallyReachable(id);
    Stop();
    WriteTravel();
    Start();
  }
  static void TearDownTestSuite() {
    Stop();
    if (root_ != nullptr) std::filesystem::remove_all(*root_);
    delete root_;
    delete world_dir_;
    delete world_;
  }
  void SetUp() override {
    if (root_ == nullptr) GTEST_SKIP() << "no shared data at " << SharedData();
  }

  static void Build(const std::string& command, const std::string& source, int id,
                    std::vector<std::string> extra = {}) {
    std::vector<std::string> argv = {WALKGRID_BIN,  command,           source, "--out", *world_dir_,
                                     "--continent", std::to_string(id)};
    if (command == "build-mesh") argv.insert(argv.end(), {"--column-yards", "1"});
    argv.insert(argv.end(), extra.begin(), extra.end());
    const testing::CommandResult built = RunCommand(argv);
    ASSERT_EQ(built.exit_code, 0) << built.output;
  }

  // Nodes: a dock on continents 0 and 1 (a boat both ways), a gate on 1 and one on 2 (a portal
  // from 1 to 2 only).
  static void WriteTravel() {
    nodes_ = {pools_[0][0], pools_[1][0], pools_[1][1], pools_[2][0]};
    rides_ = {{0, 1, 30.0 + 40.0}, {1, 0, 30.0 + 40.0}, {2, 3, 5.0}};
    nlohmann::json travel;
    travel["nodes"] = {NodeJson("dock-0", nodes_[0]), NodeJson("dock-1", nodes_[1]),
                       NodeJson("gate-1", nodes_[2]), NodeJson("gate-2", nodes_[3])};
    travel["edges"] = {{{"kind", "boat"},
                        {"from", "dock-0"},
                        {"to", "dock-1"},
                        {"wait_seconds", 30},
                        {"ride_seconds", 40}},
                       {{"kind", "portal"}, {"from", "gate-1"}, {"to", "gate-2"}, {"seconds", 5}}};
    std::ofstream(*world_dir_ + "/travel.json") << travel.dump(1);
  }

  static void Start() {
    walkd_ = new testing::StartedWalkd(testing::StartWalkdOnLoopback(
        WALKD_BIN,
        {"--data", *root_ + "/data", "--worlds", *root_ + "/worlds", "--search-threads", "2"}));
    client_ = new client::WalkClient(walkd_->address, 120.0);
    ASSERT_TRUE(testing::WaitUntil([] {
      walk::v1::InfoResponse info;
      return client_->Info(&info).ok() && info.worlds_size() == 1 &&
             info.worlds(0).state() == walk::v1::WORLD_STATE_READY;
    })) << walkd_->process->output();
  }
  static void Stop() {
    delete client_;
    delete walkd_;
    client_ = nullptr;
    walkd_ = nullptr;
  }

  static walk::v1::WorldInfo Info() {
    walk::v1::InfoResponse info;
    EXPECT_TRUE(client_->Info(&info).ok());
    return info.worlds(0);
  }

  // The walk's seconds, +inf when there is none.
  static double WalkSeconds(const nav::Place& from, const nav::Place& to) {
    if (from.x_yards == to.x_yards && from.y_yards == to.y_yards) return 0.0;
    walk::v1::WalkRequest request;
    request.set_world("atlas");
    request.set_profile("neutral");
    *request.mutable_from() = ToProto(from);
    *request.mutable_to() = ToProto(to);
    walk::v1::WalkResponse response;
    const grpc::Status status = client_->Walk(request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response.status() == walk::v1::WALK_STATUS_OK ? response.seconds()
                                                         : std::numeric_limits<double>::infinity();
  }

  // Places of continent `id` that walks join both ways: of 40 sampled, those joined to the one
  // joined to the most (the hub, first).
  static std::vector<nav::Place> MutuallyReachable(nav::ContinentId id) {
    const std::vector<nav::Place> sampled = PlacesOn(*world_, id, 40, 500 + id);
    std::vector<nav::Place> best;
    for (int hub = 0; hub < 4; ++hub) {
      std::vector<nav::Place> joined = {sampled[hub]};
      for (std::size_t k = 4; k < sampled.size(); ++k) {
        if (!std::isinf(WalkSeconds(sampled[hub], sampled[k])) &&
            !std::isinf(WalkSeconds(sampled[k], sampled[hub]))) {
          joined.push_back(sampled[k]);
        }
      }
      if (joined.size() > best.size()) best = std::move(joined);
    }
    EXPECT_GE(best.size(), 12u) << "continent " << id;
    return best;
  }

  // `count` places of continent `id` that walks join both ways, from the `start`th on.
  static std::vector<nav::Place> Pool(nav::ContinentId id, std::size_t start, std::size_t count) {
    const std::vector<nav::Place>& pool = pools_[id];
    std::vector<nav::Place> out;
    for (std::size_t k = 0; k < count; ++k) out.push_back(pool[(start + k) % pool.size()]);
    return out;
  }

  // The cheapest trip by brute force: walking, or every sequence of distinct rides, the walks
  // between them on one continent each, priced by walkd's Walk.
  static double BruteForceTrip(const nav::Place& from, const nav::Place& to) {
    double best = from.continent == to.continent ? WalkSeconds(from, to)
                                                 : std::numeric_limits<double>::infinity();
    std::vector<int> used;
    std::function<void(const nav::Place&, double)> extend = [&](const nav::Place& at, double cost) {
      for (int r = 0; r < static_cast<int>(rides_.size()); ++r) {
        if (std::find(used.begin(), used.end(), r) != used.end()) continue;
        const nav::Place& board = nodes_[rides_[r].from];
        if (board.continent != at.continent) continue;
        const double reached = cost + WalkSeconds(at, board) + rides_[r].seconds;
        const nav::Place& landing = nodes_[rides_[r].to];
        if (landing.continent == to.continent) {
          best = std::min(best, reached + WalkSeconds(landing, to));
        }
        used.push_back(r);
        extend(landing, reached);
        used.pop_back();
      }
    };
    extend(from, 0.0);
    return best;
  }

  static std::string* root_;
  static std::string* world_dir_;
  static nav::World* world_;
  static std::vector<nav::Place> nodes_;
  static std::vector<Ride> rides_;
  static std::map<nav::ContinentId, std::vector<nav::Place>> pools_;
  static testing::StartedWalkd* walkd_;
  static client::WalkClient* client_;
};

std::string* ContinentsTest::root_ = nullptr;
std::string* ContinentsTest::world_dir_ = nullptr;
nav::World* ContinentsTest::world_ = nullptr;
std::vector<nav::Place> ContinentsTest::nodes_;
std::vector<Ride> ContinentsTest::rides_;
std::map<nav::ContinentId, std::vector<nav::Place>> ContinentsTest::pools_;
testing::StartedWalkd* ContinentsTest::walkd_ = nullptr;
client::WalkClient* ContinentsTest::client_ = nullptr;

TEST_F(ContinentsTest, InfoListsEveryContinentInItsOwnFrame) {
  const walk::v1::WorldInfo info = Info();
  ASSERT_EQ(info.continents_size(), 3);
  for (int k = 0; k < 3; ++k) {
    const walk::v1::ContinentInfo& c = info.continents(k);
    const nav::Continent& built = world_->continents[k];
    EXPECT_EQ(c.id(), built.id);
    EXPECT_EQ(c.content_id(), nav::FormatId(built.content_id));
    EXPECT_EQ(c.origin_column_x(), built.origin_column_x);
    EXPECT_EQ(c.origin_column_y(), built.origin_column_y);
  }
  EXPECT_EQ(info.continents(0).source(), "mesh:dungeon.obj");
  EXPECT_EQ(info.continents(1).source(), "mesh:ParkingLot.obj");
  EXPECT_EQ(info.continents(2).source(), "movingai:arena.map");
  // A MovingAI map answers in its cells; a mesh in its own coordinates.
  EXPECT_EQ(info.continents(2).min_x_yards(), 0.0);
  EXPECT_EQ(info.continents(2).max_x_yards(), 49.0);
  // One model per profile, band and continent.
  std::map<std::uint32_t, int> per_continent;
  for (const walk::v1::ModelInfo& m : info.models()) ++per_continent[m.continent()];
  EXPECT_EQ(per_continent.size(), 3u);
  EXPECT_EQ(per_continent[0], per_continent[2]);
  EXPECT_NE(info.graph().nodes(), 0u) << info.graph().DebugString();
}

TEST_F(ContinentsTest, WalksStayOnTheirContinentAndAWalkBetweenTwoIsRefusedNamingBoth) {
  for (nav::ContinentId id : {0u, 1u, 2u}) {
    const std::vector<nav::Place> places = Pool(id, 2, 2);
    EXPECT_LT(WalkSeconds(places[0], places[1]), std::numeric_limits<double>::infinity()) << id;
  }
  walk::v1::WalkRequest across;
  across.set_world("atlas");
  *across.mutable_from() = ToProto(PlacesOn(*world_, 0, 1, 1)[0]);
  *across.mutable_to() = ToProto(PlacesOn(*world_, 1, 1, 1)[0]);
  walk::v1::WalkResponse response;
  const grpc::Status status = client_->Walk(across, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("to.continent: 1 differs from from.continent 0"),
            std::string::npos)
      << status.error_message();
}

TEST_F(ContinentsTest, TripsAcrossContinentsEqualABruteForceOverTheNodeSequences) {
  int compared = 0, rode = 0;
  for (const auto& [a, b] : std::vector<std::pair<nav::ContinentId, nav::ContinentId>>{
           {0, 1}, {1, 0}, {0, 2}, {1, 2}, {2, 0}, {2, 1}, {0, 0}}) {
    const std::vector<nav::Place> from = Pool(a, 2 + b, 3);
    const std::vector<nav::Place> to = Pool(b, 6 + a, 3);
    for (int i = 0; i < 3; ++i) {
      walk::v1::TripRequest request;
      request.set_world("atlas");
      request.set_profile("neutral");
      *request.mutable_from() = ToProto(from[i]);
      *request.mutable_to() = ToProto(to[i]);
      walk::v1::TripResponse trip;
      const grpc::Status status = client_->Trip(request, &trip);
      ASSERT_TRUE(status.ok()) << status.error_message();
      const double expected = BruteForceTrip(from[i], to[i]);
      if (std::isinf(expected)) {
        EXPECT_EQ(trip.status(), walk::v1::TRIP_STATUS_NO_TRIP) << a << " -> " << b;
        continue;
      }
      ASSERT_EQ(trip.status(), walk::v1::TRIP_STATUS_OK) << a << " -> " << b;
      EXPECT_NEAR(trip.seconds(), expected, 1e-6 * std::max(1.0, expected)) << a << " -> " << b;
      ++compared;
      rode += trip.rode() ? 1 : 0;
    }
  }
  EXPECT_EQ(compared, 15);  // 0 -> 1, 1 -> 0, 0 -> 2, 1 -> 2, 0 -> 0: 2 -> 0 and 2 -> 1 have none
  EXPECT_GE(rode, 12);      // every trip between two continents rides
}

// Runs `walkctl batch` over `pairs` (JSON lines) and returns its summary.
nlohmann::json Batch(const std::string& address, const std::string& in, const std::string& out) {
  const testing::CommandResult ran =
      RunCommand({WALKCTL_BIN, "--addr", address, "batch", in, "--out", out});
  EXPECT_EQ(ran.exit_code, 0) << ran.output;
  std::ifstream answers(out);
  std::string line;
  nlohmann::json summary;
  while (std::getline(answers, line)) {
    const nlohmann::json json = nlohmann::json::parse(line);
    if (json.contains("summary")) summary = json["summary"];
  }
  return summary;
}

TEST_F(ContinentsTest, ContinentOneRebuiltAloneKeepsEveryOtherContinentsAnswers) {
  // Pairs on every continent, answered and stored.
  const std::string pairs = *root_ + "/pairs.jsonl";
  {
    std::ofstream out(pairs);
    for (nav::ContinentId id : {0u, 1u, 2u}) {
      const std::vector<nav::Place> p = PlacesOn(*world_, id, 20, 400 + id);
      for (int i = 0; i + 1 < 20; i += 2) {
        out << nlohmann::json({{"world", "atlas"},
                               {"profile", "neutral"},
                               {"continent", id},
                               {"from", {p[i].x_yards, p[i].y_yards}},
                               {"to", {p[i + 1].x_yards, p[i + 1].y_yards}}})
                   .dump()
            << "\n";
      }
    }
  }
  const nlohmann::json first = Batch(walkd_->address, pairs, *root_ + "/first.jsonl");
  EXPECT_EQ(first["asked"], 30) << first;
  const walk::v1::WorldInfo before = Info();
  Stop();

  // Continent 1 rebuilt from another mesh; the other continents stay byte for byte.
  const std::string grid = *world_dir_ + "/" + nav::kGridFileName;
  std::ifstream old_file(grid, std::ios::binary);
  const std::string old_bytes((std::istreambuf_iterator<char>(old_file)), {});
  const testing::CommandResult refused =
      RunCommand({WALKGRID_BIN, "build-mesh", SharedData() + "/meshes/Simple.obj", "--out",
                  *world_dir_, "--continent", "1", "--column-yards", "1"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.output.find("already has continent 1 (mesh:ParkingLot.obj): --replace"),
            std::string::npos)
      << refused.output;
  const testing::CommandResult other_size =
      RunCommand({WALKGRID_BIN, "build-mesh", SharedData() + "/meshes/Simple.obj", "--out",
                  *world_dir_, "--continent", "3"});
  EXPECT_EQ(other_size.exit_code, 1);
  EXPECT_NE(other_size.output.find("the world's columns are 1 yards, the continent's 0.5 yards"),
            std::string::npos)
      << other_size.output;
  Build("build-mesh", SharedData() + "/meshes/Simple.obj", 1, {"--replace"});
  absl::StatusOr<nav::LoadedWorld> rebuilt = nav::LoadWorld(*world_dir_);
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
  for (int k : {0, 2}) {
    EXPECT_EQ(rebuilt->world.continents[k].content_id, world_->continents[k].content_id) << k;
  }
  EXPECT_NE(rebuilt->world.continents[1].content_id, world_->continents[1].content_id);
  // Before it is prepared, continent 1's graph is stale: said so, and it alone walks the fine
  // grid.
  Start();
  const walk::v1::WorldInfo stale = Info();
  ASSERT_EQ(stale.graph().unprepared_size(), 1) << stale.graph().DebugString();
  EXPECT_TRUE(stale.graph().unprepared(0).starts_with("continent 1: stale"))
      << stale.graph().unprepared(0);
  EXPECT_EQ(stale.graph().continents_size(), 2);
  Stop();
  const testing::CommandResult prepared =
      RunCommand({WALKGRID_BIN, "prepare", *world_dir_});  // continent 1's graph only
  ASSERT_EQ(prepared.exit_code, 0) << prepared.output;
  EXPECT_NE(prepared.output.find("\"prepared\":[1],\"kept\":[0,2]"), std::string::npos)
      << prepared.output;

  Start();
  const walk::v1::WorldInfo after = Info();
  EXPECT_EQ(after.continents(0).content_id(), before.continents(0).content_id());
  EXPECT_NE(after.continents(1).content_id(), before.continents(1).content_id());
  EXPECT_EQ(after.continents(2).content_id(), before.continents(2).content_id());
  EXPECT_EQ(after.continents(1).source(), "mesh:Simple.obj");
  EXPECT_EQ(after.graph().continents_size(), 3) << after.graph().DebugString();
  EXPECT_EQ(after.graph().unprepared_size(), 0) << after.graph().DebugString();

  // Continent 1's pairs now lie where its new mesh may not: rerun the same pairs, and only
  // continent 1's are asked of the grid again; the rest come from the store.
  const nlohmann::json second = Batch(walkd_->address, pairs, *root_ + "/second.jsonl");
  EXPECT_EQ(first["stored"], 0) << first;
  EXPECT_EQ(second["asked"], 30) << second;
  EXPECT_EQ(second["stored"], 20) << second;
}

}  // namespace
}  // namespace walk
