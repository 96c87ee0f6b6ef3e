#include "nav/travel/travel_file.h"

#include <string>

#include "gtest/gtest.h"
#include "tests/nav/ascii_grid.h"

namespace walk::nav {
namespace {

constexpr char kGood[] = R"({
 "nodes": [
  {"id": "a-1", "name": "Aldmoor flights", "x": 1.5, "y": 1.5, "faction": "faction-a"},
  {"id": "a-2", "x": 6.5, "y": 1.5, "faction": "faction-a"},
  {"id": "dock", "x": 1.5, "y": 3.5, "z": 0.0},
  {"id": "far", "continent": 3, "x": 1.5, "y": 1.5}
 ],
 "edges": [
  {"kind": "flight", "from": "a-1", "to": "a-2", "seconds": 30},
  {"kind": "boat", "from": "dock", "to": "a-2", "wait_seconds": 20, "ride_seconds": 40},
  {"kind": "portal", "from": "dock", "to": "far", "seconds": 5}
 ],
 "hearthstones": [{"profile": "faction-a", "bind": "a-1", "cast_seconds": 10,
                   "cooldown_seconds": 1800}]
})";

TEST(TravelFile, ReadsNodesRidesAndHearthstones) {
  absl::StatusOr<TravelNetwork> network = ParseTravel(kGood);
  ASSERT_TRUE(network.ok()) << network.status();
  ASSERT_EQ(network->nodes.size(), 4u);
  EXPECT_EQ(network->nodes[0].name, "Aldmoor flights");
  EXPECT_EQ(network->nodes[0].faction, Faction::kA);
  EXPECT_EQ(network->nodes[2].faction, Faction::kNeutral);
  EXPECT_FALSE(network->nodes[0].place.z_yards.has_value());
  EXPECT_EQ(network->nodes[3].place.continent, 3u);
  EXPECT_EQ(network->edge_count, 3u);
  ASSERT_EQ(network->rides.size(), 5u);  // two both-ways edges and a portal
  EXPECT_EQ(network->rides[1].from, 1u);
  EXPECT_EQ(network->rides[1].to, 0u);
  EXPECT_EQ(network->rides[2].seconds(), 60.0);
  EXPECT_EQ(network->rides[4].kind, RideKind::kPortal);
  const Hearthstone* stone = network->HearthstoneOf("faction-a");
  ASSERT_NE(stone, nullptr);
  EXPECT_EQ(stone->bind, 0u);
  EXPECT_EQ(stone->cooldown_seconds, 1800.0);
  EXPECT_EQ(network->HearthstoneOf("faction-b"), nullptr);

  // Written and read back, it is the same network.
  absl::StatusOr<TravelNetwork> again = ParseTravel(TravelText(*network));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(TravelText(*again), TravelText(*network));
  EXPECT_EQ(again->rides.size(), 5u);
}

// Parses kGood with `from` replaced by `to`, and returns the error's message.
std::string ErrorWith(const std::string& from, const std::string& to) {
  std::string text = kGood;
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
  absl::StatusOr<TravelNetwork> network = ParseTravel(text);
  EXPECT_EQ(network.status().code(), absl::StatusCode::kInvalidArgument) << to;
  return std::string(network.status().message());
}

TEST(TravelFile, RefusesBadDataNamingTheNodeOrEdgeAndTheField) {
  EXPECT_EQ(ErrorWith("\"to\": \"a-2\", \"seconds\": 30", "\"to\": \"a-9\", \"seconds\": 30"),
            "edges[0] (flight a-1 -> a-9).to: no node \"a-9\"");
  EXPECT_EQ(ErrorWith("\"seconds\": 30", "\"seconds\": -1"),
            "edges[0] (flight a-1 -> a-2).seconds: -1 is out of range [0, 1000000]");
  // Numbers print exactly: the refused value is never rounded to look like the limit.
  EXPECT_EQ(ErrorWith("\"seconds\": 30", "\"seconds\": 1000001"),
            "edges[0] (flight a-1 -> a-2).seconds: 1000001 is out of range [0, 1000000]");
  EXPECT_EQ(ErrorWith("\"seconds\": 30", "\"seconds\": 1000000.25"),
            "edges[0] (flight a-1 -> a-2).seconds: 1000000.25 is out of range [0, 1000000]");
  EXPECT_EQ(ErrorWith("\"kind\": \"boat\"", "\"kind\": \"balloon\""),
            "edges[1] (balloon dock -> a-2).kind: \"balloon\" is not one of flight, boat, "
            "zeppelin, tram, portal");
  EXPECT_EQ(ErrorWith("\"wait_seconds\": 20, ", ""),
            "edges[1] (boat dock -> a-2).wait_seconds: required");
  EXPECT_EQ(ErrorWith("\"seconds\": 5}", "\"seconds\": 5, \"both_ways\": true}"),
            "edges[2] (portal dock -> far).both_ways: a portal goes one way only");
  EXPECT_EQ(ErrorWith("\"from\": \"a-1\", \"to\": \"a-2\"", "\"from\": \"a-1\", \"to\": \"a-1\""),
            "edges[0] (flight a-1 -> a-1).to: a ride must go to another node");
  EXPECT_EQ(ErrorWith("{\"id\": \"a-2\"", "{\"id\": \"a-1\""),
            "nodes[1].id: \"a-1\" is used twice");
  EXPECT_EQ(ErrorWith("\"x\": 6.5", "\"x\": \"east\""), "nodes[1] (\"a-2\").x: expected a number");
  EXPECT_EQ(ErrorWith("\"y\": 3.5, ", ""), "nodes[2] (\"dock\").y: required");
  EXPECT_EQ(ErrorWith("\"faction\": \"faction-a\"}", "\"faction\": \"horde\"}"),
            "nodes[0] (\"a-1\").faction: \"horde\" is not one of neutral, faction-a, faction-b");
  EXPECT_EQ(ErrorWith("\"bind\": \"a-1\"", "\"bind\": \"nowhere\""),
            "hearthstones[0].bind: no node \"nowhere\"");
  EXPECT_EQ(ErrorWith("\"profile\": \"faction-a\"", "\"profile\": \"faction-b\""),
            "hearthstones[0].bind: node \"a-1\" is of a faction faction-b may not use");
  EXPECT_EQ(ErrorWith("\"profile\": \"faction-a\"", "\"profile\": \"elf\""),
            "hearthstones[0].profile: \"elf\" is not a known profile");
  EXPECT_EQ(ParseTravel("{\"nodes\": 3}").status().message(), "nodes: expected an array");
  EXPECT_EQ(ParseTravel("[1, 2").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(TravelFile, PlacesNodesOnTheGridAndReportsThoseOffIt) {
  // Row 0 is y = 0. The dock's column (1, 3) is water-free ground; (6, 1) is a wall.
  const World world = testing::AsciiWorld({
      "........",
      ".......@",
      "........",
      "........",
  });
  absl::StatusOr<TravelNetwork> network = ParseTravel(kGood);
  ASSERT_TRUE(network.ok());
  network->nodes[1].place.y_yards = 1.5;
  network->nodes[1].place.x_yards = 7.5;  // the wall
  const std::vector<std::string> problems = PlaceNodes(world, &*network);
  EXPECT_TRUE(network->nodes[0].placed);
  ASSERT_TRUE(network->nodes[0].place.z_yards.has_value());  // the surface's height, recorded
  EXPECT_FALSE(network->nodes[1].placed);
  EXPECT_TRUE(network->nodes[2].placed);
  EXPECT_FALSE(network->nodes[3].placed);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0],
            "node \"a-2\" (nodes[1]) at 7.5, 1.5 on continent 0: on no surface; its rides are "
            "never taken");
  EXPECT_EQ(problems[1],
            "node \"far\" (nodes[3]) at 1.5, 1.5 on continent 3: the world has no such "
            "continent; its rides are never taken");
}

}  // namespace
}  // namespace walk::nav
