// Integration tests of trips through a real walkd: the default world's generated network (the
// hearthstone and its cooldown, the faction rule, a one-way portal, trips never dearer than the
// walk and walking as Walk does, walks from the store, trips in a batch, bad input, walkctl trip
// and routes), and worlds with a travel.json of their own (a tram between two rooms no walk
// joins; a node in a wall reported at load; a refused file).
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "client/trip_stream.h"
#include "client/walk_client.h"
#include "gtest/gtest.h"
#include "tests/integration/two_rooms_world.h"
#include "tests/integration/walkd_client.h"
#include "tests/integration/walkd_process.h"

namespace walk {
namespace {

using testing::At;
using testing::RunCommand;

walk::v1::TripRequest TripOf(const std::string& world, const std::string& profile,
                             walk::v1::Place from, walk::v1::Place to, std::uint32_t band = 0) {
  walk::v1::TripRequest request;
  request.set_world(world);
  request.set_profile(profile);
  request.set_band(band);
  *request.mutable_from() = from;
  *request.mutable_to() = to;
  request.set_price_walk(true);
  return request;
}

bool Serving(client::WalkClient& client) {
  return testing::WaitUntil([&] {
    grpc::health::v1::HealthCheckResponse::ServingStatus status;
    return client.Health("", &status).ok() &&
           status == grpc::health::v1::HealthCheckResponse::SERVING;
  });
}

// The default world's landmarks and stops (docs/demo_world.md): faction A's and B's towns, near
// the portal's way in, and the mesa top it leads to.
const walk::v1::Place kTownA = At(771.9, 246.9);
const walk::v1::Place kTownB = At(119.8, 861.5);
const walk::v1::Place kByThePortal = At(190.0, 270.0);
const walk::v1::Place kMesaTop = At(269.8, 315.6);

class TripTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    data_ = new std::string(testing::FreshTempDir("walkd-trip", "default"));
    walkd_ = new testing::StartedWalkd(
        testing::StartWalkdOnLoopback(WALKD_BIN, {"--data", *data_, "--search-threads", "2"}));
    client_ = new client::WalkClient(walkd_->address, 60.0);
    ASSERT_TRUE(Serving(*client_)) << walkd_->process->output();
  }
  static void TearDownTestSuite() {
    delete client_;
    delete walkd_;
    std::filesystem::remove_all(*data_);
    delete data_;
  }

  static walk::v1::TripResponse Trip(const walk::v1::TripRequest& request) {
    walk::v1::TripResponse response;
    const grpc::Status status = client_->Trip(request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response;
  }

  static std::string* data_;
  static testing::StartedWalkd* walkd_;
  static client::WalkClient* client_;
};

std::string* TripTest::data_ = nullptr;
testing::StartedWalkd* TripTest::walkd_ = nullptr;
client::WalkClient* TripTest::client_ = nullptr;

TEST_F(TripTest, InfoListsTheNetworkAndTheLogSaysSo) {
  walk::v1::InfoResponse info;
  ASSERT_TRUE(client_->Info(&info).ok());
  ASSERT_EQ(info.worlds_size(), 1);
  const walk::v1::TravelInfo& travel = info.worlds(0).travel();
  EXPECT_EQ(travel.nodes(), 12u);
  EXPECT_EQ(travel.nodes_placed(), 12u);
  EXPECT_EQ(travel.edges(), 5u);
  EXPECT_EQ(travel.rides(), 9u);  // four edges both ways and a portal
  EXPECT_EQ(travel.hearthstone_profiles_size(), 4);
  EXPECT_EQ(travel.source(), "generated");
  EXPECT_EQ(travel.error(), "");
  EXPECT_NE(walkd_->process->output().find("travel: 12 nodes (12 on the grid), 9 rides"),
            std::string::npos);
}

TEST_F(TripTest, TheHearthstoneTakesATripHomeAndItsCooldownCounts) {
  walk::v1::TripRequest request = TripOf("default", "faction-a", kTownB, kTownA);
  const walk::v1::TripResponse home = Trip(request);
  ASSERT_EQ(home.status(), walk::v1::TRIP_STATUS_OK);
  ASSERT_TRUE(home.hearthstone_used());
  ASSERT_GE(home.legs_size(), 2);
  EXPECT_EQ(home.legs(0).kind(), walk::v1::TRIP_LEG_KIND_HEARTHSTONE);
  EXPECT_EQ(home.legs(0).to_node(), "inn-a");
  EXPECT_NEAR(home.hearthstone_cooldown_left_seconds(), 1800.0 - home.seconds(), 1e-6);
  ASSERT_EQ(home.walk_status(), walk::v1::WALK_STATUS_OK);
  EXPECT_LT(home.seconds(), home.walk_seconds());

  request.set_hearthstone_cooldown_left_seconds(100.0);  // ready in 100 s: still worth waiting
  const walk::v1::TripResponse waiting = Trip(request);
  ASSERT_TRUE(waiting.hearthstone_used());
  EXPECT_EQ(waiting.legs(0).kind(), walk::v1::TRIP_LEG_KIND_WAIT);
  EXPECT_DOUBLE_EQ(waiting.legs(0).seconds(), 100.0);
  EXPECT_NEAR(waiting.seconds(), home.seconds() + 100.0, 1e-9);

  request.set_hearthstone_cooldown_left_seconds(0.0);
  request.set_hearthstone_ready(false);
  const walk::v1::TripResponse spent = Trip(request);
  ASSERT_EQ(spent.status(), walk::v1::TRIP_STATUS_OK);
  EXPECT_FALSE(spent.hearthstone_used());
  EXPECT_GT(spent.seconds(), home.seconds());
  EXPECT_LE(spent.seconds(), spent.walk_seconds());
}

TEST_F(TripTest, NodesOfTheOtherFactionAreNeverUsed) {
  const std::set<std::string> faction_a = {"flight-0", "flight-2", "inn-a"};
  const std::set<std::string> faction_b = {"flight-1", "flight-3", "zeppelin-1", "zeppelin-3",
                                           "inn-b"};
  for (const auto& [profile, theirs] :
       {std::pair{"faction-b", &faction_a}, std::pair{"faction-a", &faction_b}}) {
    for (const auto& [from, to] : {std::pair{kTownA, kTownB}, std::pair{kTownB, kTownA}}) {
      const walk::v1::TripResponse trip = Trip(TripOf("default", profile, from, to));
      ASSERT_EQ(trip.status(), walk::v1::TRIP_STATUS_OK) << profile;
      EXPECT_TRUE(trip.rode()) << profile;  // each faction has its own way across
      for (const walk::v1::TripLeg& leg : trip.legs()) {
        EXPECT_EQ(theirs->count(leg.from_node()), 0u) << profile << " used " << leg.from_node();
        EXPECT_EQ(theirs->count(leg.to_node()), 0u) << profile << " used " << leg.to_node();
      }
    }
  }
}

TEST_F(TripTest, APortalGoesOneWay) {
  const walk::v1::TripResponse up = Trip(TripOf("default", "neutral", kByThePortal, kMesaTop));
  ASSERT_EQ(up.status(), walk::v1::TRIP_STATUS_OK);
  bool portal = false;
  for (const walk::v1::TripLeg& leg : up.legs()) {
    portal = portal || leg.kind() == walk::v1::TRIP_LEG_KIND_PORTAL;
  }
  EXPECT_TRUE(portal);
  EXPECT_LT(up.seconds(), up.walk_seconds());
  const walk::v1::TripResponse down = Trip(TripOf("default", "neutral", kMesaTop, kByThePortal));
  ASSERT_EQ(down.status(), walk::v1::TRIP_STATUS_OK);
  EXPECT_FALSE(down.rode());
  ASSERT_EQ(down.legs_size(), 1);
  EXPECT_EQ(down.legs(0).kind(), walk::v1::TRIP_LEG_KIND_WALK);
  EXPECT_DOUBLE_EQ(down.seconds(), down.walk_seconds());
}

// Places spread over the default world, on a grid of 90 yards.
std::vector<walk::v1::Place> SpreadPlaces() {
  std::vector<walk::v1::Place> places;
  for (double x = 40; x < 1060; x += 180) {
    for (double y = 60; y < 1060; y += 250) places.push_back(At(x, y));
  }
  return places;
}

TEST_F(TripTest, ATripNeverCostsMoreThanTheWalkWhichIsWhatWalkAnswers) {
  const std::vector<walk::v1::Place> places = SpreadPlaces();
  int rode = 0, compared = 0;
  for (const char* profile : {"faction-a", "neutral"}) {
    for (std::uint32_t band : {0u, 20u}) {
      for (std::size_t i = 0; i + 1 < places.size(); i += 3) {
        const walk::v1::Place& from = places[i];
        const walk::v1::Place& to = places[places.size() - 1 - i];
        const walk::v1::TripResponse trip = Trip(TripOf("default", profile, from, to, band));
        walk::v1::WalkRequest walk;
        walk.set_world("default");
        walk.set_profile(profile);
        walk.set_band(band);
        walk.set_backend(walk::v1::BACKEND_GRID);
        *walk.mutable_from() = from;
        *walk.mutable_to() = to;
        walk::v1::WalkResponse walked;
        ASSERT_TRUE(client_->Walk(walk, &walked).ok());
        ASSERT_EQ(trip.walk_status() == walk::v1::WALK_STATUS_OK,
                  walked.status() == walk::v1::WALK_STATUS_OK);
        if (walked.status() != walk::v1::WALK_STATUS_OK) continue;
        ++compared;
        EXPECT_DOUBLE_EQ(trip.walk_seconds(), walked.seconds()) << "the same walk, the same key";
        EXPECT_LE(trip.seconds(), trip.walk_seconds() + 1e-9);
        rode += trip.rode();
        // Asked again, every walk the trip needs is stored.
        const walk::v1::TripResponse again = Trip(TripOf("default", profile, from, to, band));
        EXPECT_EQ(again.walks_stored(), again.walks_priced());
        EXPECT_DOUBLE_EQ(again.seconds(), trip.seconds());
      }
    }
  }
  EXPECT_GT(compared, 10);
  EXPECT_GT(rode, 0);
}

TEST_F(TripTest, TripsInABatchAreAnsweredAsTripsAreEachWithItsIndex) {
  const std::vector<walk::v1::Place> places = SpreadPlaces();
  std::vector<walk::v1::TripRequest> trips;
  for (std::size_t i = 0; i + 1 < places.size(); i += 2) {
    trips.push_back(TripOf("default", i % 4 == 0 ? "faction-a" : "faction-b", places[i],
                           places[i + 1], i % 3 == 0 ? 10 : 0));
  }
  trips.push_back(TripOf("default", "faction-a", kTownA, kTownB));
  trips.back().clear_from();  // refused alone, naming the field
  client::StreamedTrips streamed = client::StreamTrips(walkd_->address, 60.0, trips);
  ASSERT_TRUE(streamed.status.ok()) << streamed.status;
  ASSERT_TRUE(streamed.summary.has_value());
  EXPECT_EQ(streamed.summary->asked(), trips.size());
  EXPECT_EQ(streamed.summary->trips(), trips.size() - 1);
  EXPECT_EQ(streamed.summary->refused(), 1u);
  std::uint64_t rode = 0;
  for (std::size_t i = 0; i + 1 < trips.size(); ++i) {
    ASSERT_TRUE(streamed.answers[i].has_value()) << i;
    ASSERT_EQ(streamed.answers[i]->code, 0) << streamed.answers[i]->message;
    const walk::v1::TripResponse one = Trip(trips[i]);
    EXPECT_EQ(streamed.answers[i]->trip.status(), one.status());
    EXPECT_DOUBLE_EQ(streamed.answers[i]->trip.seconds(), one.seconds());
    rode += one.rode();
  }
  EXPECT_EQ(streamed.summary->trips_rode(), rode);
  ASSERT_TRUE(streamed.answers.back().has_value());
  EXPECT_EQ(streamed.answers.back()->code, 3);
  EXPECT_EQ(streamed.answers.back()->message, "trip.from: required");
}

TEST_F(TripTest, BadInputIsRefusedNamingTheField) {
  auto code_of = [](const walk::v1::TripRequest& request, std::string* message) {
    walk::v1::TripResponse response;
    const grpc::Status status = client_->Trip(request, &response);
    *message = status.error_message();
    return status.error_code();
  };
  std::string message;
  walk::v1::TripRequest request = TripOf("default", "faction-a", kTownA, kTownB);
  request.clear_to();
  EXPECT_EQ(code_of(request, &message), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(message, "to: required");
  request = TripOf("default", "faction-a", kTownA, kTownB);
  request.set_hearthstone_cooldown_left_seconds(-5);
  EXPECT_EQ(code_of(request, &message), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(message.rfind("hearthstone_cooldown_left_seconds: ", 0), 0u) << message;
  request = TripOf("default", "elf", kTownA, kTownB);
  EXPECT_EQ(code_of(request, &message), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(message.rfind("profile: ", 0), 0u) << message;
  request = TripOf("default", "faction-a", kTownA, At(1, 1, 7));
  EXPECT_EQ(code_of(request, &message), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(message, "to.continent: the world has no continent 7");
  request = TripOf("atlantis", "faction-a", kTownA, kTownB);
  EXPECT_EQ(code_of(request, &message), grpc::StatusCode::NOT_FOUND);
}

TEST_F(TripTest, WalkctlPrintsATripAndPricesRoutesWithTrips) {
  const auto trip = RunCommand({WALKCTL_BIN, "--addr", walkd_->address, "trip", "--profile",
                                "faction-a", "--from", "119.8,861.5", "--to", "771.9,246.9"});
  ASSERT_EQ(trip.exit_code, 0) << trip.output;
  EXPECT_NE(trip.output.find("TRIP_STATUS_OK"), std::string::npos) << trip.output;
  EXPECT_NE(trip.output.find("hearthstone"), std::string::npos) << trip.output;
  EXPECT_NE(trip.output.find("walking all the way"), std::string::npos) << trip.output;

  const std::string routes = *data_ + "/routes.json";
  std::ofstream(routes) << R"({"world": "default", "profile": "faction-a", "routes": [
    {"id": "home", "stops": [{"name": "B", "at": [119.8, 861.5]},
                             {"name": "mid", "at": [480.0, 550.0], "free": true},
                             {"name": "portal", "at": [190.0, 270.0], "free": true},
                             {"name": "A", "at": [771.9, 246.9]}]}]})";
  const auto with_trips = RunCommand({WALKCTL_BIN, "--addr", walkd_->address, "routes", routes});
  ASSERT_EQ(with_trips.exit_code, 0) << with_trips.output;
  EXPECT_NE(with_trips.output.find("\"trips\":true"), std::string::npos) << with_trips.output;
  EXPECT_NE(with_trips.output.find("\"ridden_legs\":"), std::string::npos) << with_trips.output;
  const auto walks_only =
      RunCommand({WALKCTL_BIN, "--addr", walkd_->address, "routes", routes, "--trips", "off"});
  ASSERT_EQ(walks_only.exit_code, 0) << walks_only.output;
  EXPECT_EQ(walks_only.output.find("ridden_legs"), std::string::npos) << walks_only.output;
}

// The two-rooms world (two_rooms_world.h) with `travel` as its travel.json.
void WriteTwoRooms(const std::string& dir, const std::string& travel) {
  ASSERT_NO_FATAL_FAILURE(testing::WriteTwoRoomsWorld(dir));
  std::ofstream(dir + "/travel.json") << travel;
}

TEST(TripWorldsTest, ATravelFileJoinsWhatNoWalkDoesAndABadOneIsRefusedNamingTheField) {
  const std::string worlds = testing::FreshTempDir("walkd-trip", "worlds");
  WriteTwoRooms(worlds + "/rooms", R"({
    "nodes": [{"id": "west", "x": 2.5, "y": 1.5}, {"id": "east", "x": 7.5, "y": 1.5},
              {"id": "in-the-wall", "x": 5.5, "y": 1.5}],
    "edges": [{"kind": "tram", "from": "west", "to": "east", "wait_seconds": 5,
               "ride_seconds": 10},
              {"kind": "flight", "from": "in-the-wall", "to": "east", "seconds": 1}]})");
  WriteTwoRooms(worlds + "/broken", R"({"nodes": [{"id": "west", "x": 2.5, "y": 1.5}],
    "edges": [{"kind": "tram", "from": "west", "to": "nowhere", "wait_seconds": 5,
               "ride_seconds": 10}]})");
  testing::StartedWalkd walkd =
      testing::StartWalkdOnLoopback(WALKD_BIN, {"--worlds", worlds, "--no-store"});
  client::WalkClient client(walkd.address, 30.0);
  ASSERT_TRUE(Serving(client)) << walkd.process->output();
  const std::string log = walkd.process->output();
  EXPECT_NE(log.find("node \"in-the-wall\" (nodes[2]) at 5.5, 1.5 on continent 0: on no surface"),
            std::string::npos)
      << log;

  walk::v1::TripResponse trip;
  ASSERT_TRUE(client.Trip(TripOf("rooms", "", At(0.5, 0.5), At(9.5, 2.5)), &trip).ok());
  ASSERT_EQ(trip.status(), walk::v1::TRIP_STATUS_OK);
  EXPECT_EQ(trip.walk_status(), walk::v1::WALK_STATUS_NO_WALK);
  ASSERT_EQ(trip.legs_size(), 4);  // walk, wait, tram, walk
  EXPECT_EQ(trip.legs(1).kind(), walk::v1::TRIP_LEG_KIND_WAIT);
  EXPECT_EQ(trip.legs(2).kind(), walk::v1::TRIP_LEG_KIND_TRAM);
  EXPECT_DOUBLE_EQ(trip.legs(2).yards(), 5.0);
  EXPECT_NEAR(trip.seconds(), trip.legs(0).seconds() + 15.0 + trip.legs(3).seconds(), 1e-9);

  walk::v1::InfoResponse info;
  ASSERT_TRUE(client.Info(&info).ok());
  for (const walk::v1::WorldInfo& w : info.worlds()) {
    if (w.name() == "broken") {
      EXPECT_NE(w.travel().error().find("edges[0] (tram west -> nowhere).to: no node \"nowhere\""),
                std::string::npos)
          << w.travel().error();
    } else {
      EXPECT_EQ(w.travel().nodes_placed(), 2u);
    }
  }
  const grpc::Status refused = client.Trip(TripOf("broken", "", At(0.5, 0.5), At(1.5, 2.5)), &trip);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(refused.error_message().find("no node \"nowhere\""), std::string::npos);
  walk::v1::WalkRequest walk;  // walks on that world go on
  walk.set_world("broken");
  *walk.mutable_from() = At(0.5, 0.5);
  *walk.mutable_to() = At(1.5, 2.5);
  walk::v1::WalkResponse walked;
  ASSERT_TRUE(client.Walk(walk, &walked).ok());
  EXPECT_EQ(walked.status(), walk::v1::WALK_STATUS_OK);
  std::filesystem::remove_all(worlds);
}

// A trip's own search spends walkd's --max-search-expansions as every search does: on a network
// of 3,000 nodes its potential alone takes more than 1,000 states off its queue, so a walkd with
// that budget refuses the trip naming the flag, and one with the default answers it.
TEST(TripWorldsTest, ATripsSearchIsBoundedByTheExpansionBudget) {
  const std::string worlds = testing::FreshTempDir("walkd-trip", "budget");
  std::string travel = R"({"nodes": [)";
  for (int i = 0; i < 3000; ++i) {
    travel += (i ? "," : "") + std::string(R"({"id": "n)") + std::to_string(i) + R"(", "x": )" +
              std::to_string(0.5 + (i % 5)) + R"(, "y": )" + std::to_string(0.5 + (i / 5) % 3) +
              "}";
  }
  travel += R"(], "edges": [)";
  for (int i = 0; i < 3000; ++i) {
    travel += (i ? "," : "") + std::string(R"({"kind": "flight", "from": "n)") + std::to_string(i) +
              R"(", "to": "n)" + std::to_string((i * 7 + 1) % 3000) + R"(", "seconds": )" +
              std::to_string(1 + i % 13) + "}";
  }
  travel += "]}";
  WriteTwoRooms(worlds + "/rooms", travel);
  const walk::v1::TripRequest trip = TripOf("rooms", "", At(0.5, 0.5), At(3.5, 2.5));
  for (const char* budget : {"1000", "67108864"}) {
    testing::StartedWalkd walkd = testing::StartWalkdOnLoopback(
        WALKD_BIN, {"--worlds", worlds, "--no-store", "--max-search-expansions", budget});
    client::WalkClient client(walkd.address, 30.0);
    ASSERT_TRUE(Serving(client)) << walkd.process->output();
    walk::v1::TripResponse response;
    const grpc::Status status = client.Trip(trip, &response);
    if (std::string(budget) == "1000") {
      EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
      EXPECT_NE(status.error_message().find("--max-search-expansions"), std::string::npos)
          << status.error_message();
    } else {
      ASSERT_TRUE(status.ok()) << status.error_message();
      EXPECT_EQ(response.status(), walk::v1::TRIP_STATUS_OK);
    }
  }
  std::filesystem::remove_all(worlds);
}

}  // namespace
}  // namespace walk
