// walkgrid's tools to look at one's own world, run as the real binary on the bridge world of
// bridge_world.h saved in a temporary folder: gridcol, trailfollow, snapcheck. Every coordinate
// is in the world's frame, whose origin is negative.
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nav/grid/grid_format.h"
#include "nlohmann/json.hpp"
#include "tests/client/bridge_world.h"
#include "tests/store/temp_dir.h"

namespace walk::client {
namespace {

using nlohmann::json;
using testing::CentreX;
using testing::CentreY;

struct ToolRun {
  int exit_code = -1;
  std::vector<json> lines;  // stdout, a JSON value a line
  std::string out;          // stdout as printed
  std::string err;          // stderr
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class WalkgridToolsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(nav::SaveWorld(testing::BridgeWorld(), "test:bridge", world_).ok());
  }

  // Runs walkgrid with `args` (each single-quoted for the shell), stdin from `input` if given.
  ToolRun Walkgrid(const std::vector<std::string>& args, const std::string& input = "") {
    std::string command = "'" WALKGRID_BIN "'";
    for (const std::string& a : args) command += " '" + a + "'";
    command += input.empty() ? " < /dev/null" : " < '" + input + "'";
    command += " > '" + dir_.Sub("out") + "' 2> '" + dir_.Sub("err") + "'";
    const int status = std::system(command.c_str());
    ToolRun run;
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.out = ReadFile(dir_.Sub("out"));
    run.err = ReadFile(dir_.Sub("err"));
    const bool lines_of_json =
        args[0] != "floors" && std::find(args.begin(), args.end(), "--text") == args.end();
    if (lines_of_json) {
      std::istringstream lines(run.out);
      for (std::string line; std::getline(lines, line);) {
        json value = json::parse(line, nullptr, false);
        EXPECT_FALSE(value.is_discarded()) << line;
        run.lines.push_back(value);
      }
    }
    return run;
  }

  // Writes JSON lines of positions at grid columns' centres, to `name` in the test's folder.
  std::string WriteTrail(const std::string& name, const std::vector<json>& lines) {
    const std::string path = dir_.Sub(name);
    std::ofstream out(path);
    for (const json& line : lines) out << line.dump() << "\n";
    return path;
  }

  static json Position(std::int64_t gx, std::int64_t gy) {
    return {{"x", CentreX(gx)}, {"y", CentreY(gy)}};
  }

  store::testing::TempDir dir_;
  std::string world_ = dir_.Sub("bridge");
};

std::string GridAt(std::int64_t gx, std::int64_t gy) {
  std::ostringstream text;
  text << CentreX(gx) << "," << CentreY(gy);
  return text.str();
}

// The bridge column lists the ground and the deck, each with its own links.
TEST_F(WalkgridToolsTest, GridcolListsBothFloorsOfABridgeColumnWithTheirLinks) {
  const ToolRun run = Walkgrid({"gridcol", world_, GridAt(3, 2)});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_EQ(run.lines.size(), 1u) << run.out;
  const json& column = run.lines[0];
  EXPECT_EQ(column["column"], json({-7, -1}));
  EXPECT_EQ(column["grid_column"], json({3, 2}));
  EXPECT_EQ(column["centre"], json({-13.0, -1.0}));
  EXPECT_EQ(column["usual_level"], 1);
  ASSERT_EQ(column["surfaces"].size(), 2u);
  const json& ground = column["surfaces"][0];
  EXPECT_EQ(ground["level"], 0);
  EXPECT_EQ(ground["height_yards"], 0.0);
  EXPECT_EQ(ground["headroom_yards"], 3.0);
  EXPECT_EQ(ground["flags"], json({"terrain"}));
  EXPECT_EQ(ground["zone"], json({{"id", 1}, {"name", "meadow"}}));
  EXPECT_EQ(ground["marks"], json::array());
  EXPECT_EQ(ground["slope_degrees"], 0.0);
  EXPECT_EQ(ground["links"]["E"], json({{"kind", "walk"}, {"level", 0}}));
  EXPECT_EQ(ground["links"]["N"], json({{"kind", "walk"}, {"level", 0}}));
  const json& deck = column["surfaces"][1];
  EXPECT_EQ(deck["level"], 1);
  EXPECT_EQ(deck["height_yards"], 3.0);
  EXPECT_TRUE(deck["headroom_yards"].is_null());
  EXPECT_EQ(deck["flags"], json({"building"}));
  EXPECT_EQ(deck["marks"], json({"road"}));
  EXPECT_EQ(deck["zone"]["name"], "high pass");
  EXPECT_EQ(deck["links"]["E"], json({{"kind", "walk"}, {"level", 1}}));
  EXPECT_EQ(deck["links"]["W"], json({{"kind", "walk"}, {"level", 1}}));
  EXPECT_EQ(deck["links"]["N"], json({{"kind", "fall"}, {"level", 0}}));
  EXPECT_EQ(deck["region"], ground["region"]);  // the lift joins them
  EXPECT_EQ(deck["region_surfaces"], 53);

  // The lift's column: both landings marked, a ride each way; --z keeps the deck only.
  const ToolRun lift = Walkgrid({"gridcol", world_, GridAt(4, 2), "--z", "2,4"});
  ASSERT_EQ(lift.exit_code, 0) << lift.err;
  ASSERT_EQ(lift.lines.size(), 1u);
  ASSERT_EQ(lift.lines[0]["surfaces"].size(), 1u);
  const json& landing = lift.lines[0]["surfaces"][0];
  EXPECT_EQ(landing["marks"], json({"road", "lift"}));
  EXPECT_EQ(landing["lifts"],
            json::parse(R"([{"to_level":0,"to_height_yards":0.0,"shaft_yards":3.0}])"));
}

// No walk climbs the wall, a fall leaves its top, and a walk along it is level; a radius lists
// every column around, clipped to the map.
TEST_F(WalkgridToolsTest, GridcolRadiusAndTheWall) {
  const ToolRun run = Walkgrid({"gridcol", world_, GridAt(6, 0), "--radius", "1"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_EQ(run.lines.size(), 6u);  // row 0 is the map's first
  EXPECT_EQ(run.lines[0]["column"], json({-5, -3}));
  EXPECT_EQ(run.lines[5]["column"], json({-3, -2}));
  const json& top = run.lines[1]["surfaces"][0];
  EXPECT_EQ(top["height_yards"], 5.0);
  EXPECT_EQ(top["slope_degrees"], 0.0);  // along the wall's top
  EXPECT_EQ(top["links"]["W"], json({{"kind", "fall"}, {"level", 0}}));
  EXPECT_TRUE(run.lines[0]["surfaces"][0]["links"]["E"].is_null());

  const ToolRun text = Walkgrid({"gridcol", world_, GridAt(3, 2), "--text"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("column -7,-1  centre -13.0,-1.0 yd  grid 3,2  usual level 1"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("high pass"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("fall0"), std::string::npos) << text.out;
}

// The step in the corner rises half a yard over a 2-yard column: atan(0.25) is 14.0 degrees.
TEST_F(WalkgridToolsTest, GridcolSlopeIsTheSteepestLinkWalked) {
  const ToolRun run = Walkgrid({"gridcol", world_, GridAt(9, 4)});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_EQ(run.lines.size(), 1u);
  EXPECT_EQ(run.lines[0]["surfaces"][0]["height_yards"], 0.5);
  EXPECT_EQ(run.lines[0]["surfaces"][0]["slope_degrees"], 14.0);
}

// floors, gridcol's elder, reads --at in the frame too.
TEST_F(WalkgridToolsTest, FloorsReadsThePlaceInTheWorldsFrame) {
  const ToolRun run = Walkgrid({"floors", world_, "--at", GridAt(3, 2)});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json floors = json::parse(run.out);
  EXPECT_EQ(floors["column"], json({-7, -1}));
  EXPECT_EQ(floors["floors"].size(), 2u);
}

TEST_F(WalkgridToolsTest, GridcolRefusesBadInputNamingTheOption) {
  const ToolRun words = Walkgrid({"gridcol", world_, "east,north"});
  EXPECT_EQ(words.exit_code, 2);
  EXPECT_NE(words.err.find("X,Y: 'east,north' is not two numbers"), std::string::npos) << words.err;
  const ToolRun off = Walkgrid({"gridcol", world_, "1,-1"});
  EXPECT_EQ(off.exit_code, 2);
  EXPECT_NE(off.err.find("off the map: continent 0 spans x -20.00 to 0.00, y -6.00 to 4.00 "
                         "yards in the world's frame"),
            std::string::npos)
      << off.err;
  const ToolRun radius = Walkgrid({"gridcol", world_, GridAt(3, 2), "--radius", "65"});
  EXPECT_EQ(radius.exit_code, 2);
  EXPECT_NE(radius.err.find("--radius: must be 0 to 64"), std::string::npos) << radius.err;
  const ToolRun z = Walkgrid({"gridcol", world_, GridAt(3, 2), "--z", "4,1"});
  EXPECT_EQ(z.exit_code, 2);
  EXPECT_NE(z.err.find("--z: '4,1'"), std::string::npos) << z.err;
  const ToolRun continent = Walkgrid({"gridcol", world_, GridAt(3, 2), "--continent", "7"});
  EXPECT_EQ(continent.exit_code, 2);
  EXPECT_NE(continent.err.find("--continent"), std::string::npos) << continent.err;
}

// A walk along grid row 0 crosses the wall between its third and fourth positions: exactly one
// break, from the last column before the wall into the wall's column; a second walk starting on
// the far side is not a break.
TEST_F(WalkgridToolsTest, TrailfollowReportsExactlyTheBreakAtTheWall) {
  std::vector<json> trail = {Position(0, 0), Position(3, 0), Position(5, 0), Position(8, 0),
                             Position(9, 0), Position(9, 4), Position(2, 4)};
  for (int i = 0; i < 5; ++i) trail[i]["walk"] = "a";
  trail[5]["walk"] = trail[6]["walk"] = "b";
  const ToolRun run = Walkgrid({"trailfollow", world_}, WriteTrail("trail.jsonl", trail));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_EQ(run.lines.size(), 8u) << run.out;
  std::vector<int> broken;
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(run.lines[i]["index"], i);
    if (run.lines[i]["break"] == true) broken.push_back(i);
  }
  EXPECT_EQ(broken, (std::vector<int>{3, 6}));
  const json& at_wall = run.lines[3];
  EXPECT_EQ(at_wall["walk"], "a");
  EXPECT_EQ(at_wall["column"], json({-2, -3}));
  EXPECT_EQ(at_wall["status"], "resumed");
  EXPECT_EQ(at_wall["level"], 0);
  EXPECT_EQ(at_wall["break_at"]["from_column"], json({-5, -3}));
  EXPECT_EQ(at_wall["break_at"]["from_height_yards"], 0.0);
  EXPECT_EQ(at_wall["break_at"]["to_column"], json({-4, -3}));
  EXPECT_EQ(at_wall["break_at"]["to_holds"], json::parse(R"([{"level":0,"height_yards":5.0}])"));
  EXPECT_EQ(run.lines[5]["status"], "start");  // walk b
  EXPECT_EQ(run.lines[6]["break_at"]["to_column"], json({-4, 1}));
  EXPECT_EQ(run.lines[7]["summary"]["positions"], 7);
  EXPECT_EQ(run.lines[7]["summary"]["walks"], 2);
  EXPECT_EQ(run.lines[7]["summary"]["breaks"], 2);
  // 3 + 2 to column 5, none into the wall, 1 to column 9; then 2 to column 7 of row 4.
  EXPECT_EQ(run.lines[7]["summary"]["columns_stepped"], 8);
}

TEST_F(WalkgridToolsTest, TrailfollowRefusesALineThatIsNoPosition) {
  const ToolRun run = Walkgrid({"trailfollow", world_},
                               WriteTrail("bad.jsonl", {Position(0, 0), json({{"x", 1}})}));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("trail line 2: y: missing"), std::string::npos) << run.err;
  EXPECT_EQ(run.lines.size(), 1u);  // the first position was printed as it was read
}

// Walking along the ground under the bridge, the three bridge columns' usual floor is the deck:
// three positions on another floor, whether the floor is followed here, read from trailfollow's
// output, or given by each line's z.
TEST_F(WalkgridToolsTest, SnapcheckCountsTheMismatchUnderTheBridge) {
  std::vector<json> trail;
  for (int gx = 0; gx <= 5; ++gx) trail.push_back(Position(gx, testing::kBridgeY));
  const std::string path = WriteTrail("under.jsonl", trail);
  const ToolRun run = Walkgrid({"snapcheck", world_, "--trail", path});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_EQ(run.lines.size(), 4u) << run.out;
  const json& summary = run.lines[3]["summary"];
  EXPECT_EQ(summary["positions"], 6);
  EXPECT_EQ(summary["same_floor"], 3);
  EXPECT_EQ(summary["other_floor"], 3);
  EXPECT_EQ(summary["no_surface"], 0);
  EXPECT_EQ(summary["by_follow"], 6);
  const json& first = run.lines[0];
  EXPECT_EQ(first["index"], 2);
  EXPECT_EQ(first["column"], json({-8, -1}));
  EXPECT_EQ(first["usual"], json({{"level", 1}, {"height_yards", 3.0}}));
  EXPECT_EQ(first["walked"], json({{"level", 0}, {"height_yards", 0.0}, {"by", "follow"}}));

  const ToolRun followed = Walkgrid({"trailfollow", world_}, path);
  ASSERT_EQ(followed.exit_code, 0) << followed.err;
  const std::string follow = dir_.Sub("follow.jsonl");
  std::ofstream(follow) << followed.out;
  const ToolRun from_file =
      Walkgrid({"snapcheck", world_, "--trail", path, "--follow", follow, "--mismatches", "1"});
  ASSERT_EQ(from_file.exit_code, 0) << from_file.err;
  ASSERT_EQ(from_file.lines.size(), 2u) << from_file.out;
  EXPECT_EQ(from_file.lines[1]["summary"]["other_floor"], 3);

  // Recorded heights decide instead: on the deck at 2.9, the ground at 0.2.
  trail[2]["z"] = 2.9;
  trail[3]["z"] = 0.2;
  const ToolRun by_z = Walkgrid({"snapcheck", world_, "--trail", WriteTrail("z.jsonl", trail)});
  ASSERT_EQ(by_z.exit_code, 0) << by_z.err;
  const json& z_summary = by_z.lines.back()["summary"];
  EXPECT_EQ(z_summary["same_floor"], 4);
  EXPECT_EQ(z_summary["other_floor"], 2);
  EXPECT_EQ(z_summary["by_z"], 2);
  EXPECT_EQ(by_z.lines[0]["index"], 3);
  EXPECT_EQ(by_z.lines[0]["walked"]["by"], "z");
}

TEST_F(WalkgridToolsTest, SnapcheckRefusesAFollowFileOfAnotherTrail) {
  const std::string trail = WriteTrail("t.jsonl", {Position(0, 0), Position(1, 0)});
  const std::string other = WriteTrail("o.jsonl", {Position(0, 0), Position(0, 1)});
  const ToolRun followed = Walkgrid({"trailfollow", world_}, other);
  ASSERT_EQ(followed.exit_code, 0) << followed.err;
  const std::string follow = dir_.Sub("follow.jsonl");
  std::ofstream(follow) << followed.out;
  const ToolRun run = Walkgrid({"snapcheck", world_, "--trail", trail, "--follow", follow});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("line 2: column: [-10,-2] is not the trail's [-9,-3]"), std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace walk::client
