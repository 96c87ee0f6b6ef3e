// walkctl batch resumed from its own answers file never hands back an answer to another
// question: through a real walkd, every line of a resumed --out equals the line a fresh batch
// into an empty file writes, after a pair is inserted at the top, after two lines are swapped,
// after a zone's level changes (only the repriced bands are asked again), after the travel
// network changes (trips) and after the world is rebuilt (a new content id). The summary's
// stats line says what was kept, what was stale and why, band by band.
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "client/walk_client.h"
#include "gtest/gtest.h"
#include "nav/cost/danger.h"
#include "nav/grid/grid_format.h"
#include "nav/import/movingai.h"
#include "nlohmann/json.hpp"
#include "tests/integration/walkd_process.h"

namespace walk {
namespace {

using testing::MakeTempDir;
using testing::RunCommand;
using Walkd = testing::StartedWalkd;
using Json = nlohmann::json;

// Waits until every world walkd declared is ready (bounded: about a minute).
bool WaitReady(const std::string& address) {
  client::WalkClient client(address, 30.0);
  for (int attempt = 0; attempt < 1200 * testing::Patience(); ++attempt) {
    walk::v1::InfoResponse info;
    if (client.Info(&info).ok() && info.worlds_size() > 0) {
      bool ready = true;
      for (const auto& w : info.worlds()) ready &= w.state() == walk::v1::WORLD_STATE_READY;
      if (ready) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

Walkd StartForResume(const std::string& data, const std::string& worlds = "") {
  std::vector<std::string> args = {"--data", data, "--search-threads", "2"};
  if (!worlds.empty()) args.insert(args.end(), {"--worlds", worlds});
  Walkd walkd = testing::StartWalkdOnLoopback(WALKD_BIN, args);
  EXPECT_TRUE(WaitReady(walkd.address)) << walkd.process->output();
  return walkd;
}

void Stop(Walkd& walkd) {
  walkd.process->Signal(SIGTERM);
  EXPECT_EQ(walkd.process->Wait(), 0) << walkd.process->output();
}

void WriteLines(const std::string& path, const std::vector<std::string>& lines) {
  std::ofstream out(path, std::ios::trunc);
  for (const std::string& line : lines) out << line << "\n";
}

// The answer lines of an answers file, and its summary.
struct Answers {
  std::vector<Json> lines;
  Json summary;
};

Answers Read(const std::string& path) {
  Answers answers;
  std::ifstream in(path);
  for (std::string text; std::getline(in, text);) {
    Json line = Json::parse(text);
    if (line.contains("summary")) {
      answers.summary = line["summary"];
    } else {
      answers.lines.push_back(line);
    }
  }
  return answers;
}

// Runs walkctl batch; the answers file it wrote.
Answers Batch(const Walkd& walkd, const std::string& pairs, const std::string& out,
              bool trips = false) {
  std::vector<std::string> argv = {WALKCTL_BIN, "--addr", walkd.address, "batch", pairs,
                                   "--out",     out};
  if (trips) argv.push_back("--trips");
  const testing::CommandResult run = RunCommand(argv);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  return Read(out);
}

// Every line of `resumed` equals the fresh batch's, but for whether the store answered.
void ExpectSameAsFresh(const Walkd& walkd, const std::string& pairs, const std::string& resumed,
                       bool trips = false) {
  const std::string fresh_path = resumed + ".fresh";
  std::filesystem::remove(fresh_path);
  const Answers fresh = Batch(walkd, pairs, fresh_path, trips);
  const Answers got = Read(resumed);
  ASSERT_EQ(got.lines.size(), fresh.lines.size());
  for (std::size_t i = 0; i < got.lines.size(); ++i) {
    Json a = got.lines[i], b = fresh.lines[i];
    for (Json* line : {&a, &b}) {
      line->erase("stored");
      line->erase("walks_stored");
    }
    EXPECT_EQ(a, b) << "line " << i + 1;
  }
}

std::string Pair(const std::string& id, double fx, double fy, double tx, double ty,
                 std::uint32_t band = 0, const std::string& profile = "neutral") {
  return Json({{"id", id},
               {"from", {fx, fy}},
               {"to", {tx, ty}},
               {"profile", profile},
               {"band", band}})
      .dump();
}

TEST(WalkctlResumeTest, APairInsertedAtTheTopOrLinesSwappedGetTheirOwnAnswers) {
  const std::string dir = MakeTempDir("order");
  Walkd walkd = StartForResume(dir + "/data");
  const std::string pairs = dir + "/pairs.jsonl", out = dir + "/answers.jsonl";
  const std::string p1 = Pair("a", 771.9, 246.9, 119.8, 861.5, 0, "faction-a");
  const std::string p2 = Pair("b", 100, 100, 300, 320);
  const std::string p3 = Pair("c", 500, 520, 600, 610, 10);
  const std::string near = Pair("near", 100, 100, 108, 106);  // a 10-yard walk
  WriteLines(pairs, {p1, p2, p3});
  const Answers first = Batch(walkd, pairs, out);
  ASSERT_EQ(first.lines.size(), 3u);
  for (const Json& line : first.lines) {
    EXPECT_TRUE(line.contains("model")) << line;
    EXPECT_EQ(line["world"], "default") << line;
    EXPECT_TRUE(line.contains("from") && line.contains("to") && line.contains("continent"));
  }

  // A pair inserted at the top: the old first line's answer is not the new first pair's.
  WriteLines(pairs, {near, p1, p2, p3});
  const Answers inserted = Batch(walkd, pairs, out);
  EXPECT_EQ(inserted.summary["asked"], 1) << inserted.summary;
  EXPECT_EQ(inserted.summary["kept"], 3) << inserted.summary;
  ASSERT_EQ(inserted.lines.size(), 4u);
  EXPECT_EQ(inserted.lines[0]["id"], "near");
  EXPECT_LT(inserted.lines[0]["yards"].get<double>(), 20.0) << inserted.lines[0];
  EXPECT_EQ(inserted.lines[1]["line"], 2);
  ExpectSameAsFresh(walkd, pairs, out);

  // Two lines swapped: each keeps its own answer, under its new line number.
  WriteLines(pairs, {near, p3, p2, p1});
  const Answers swapped = Batch(walkd, pairs, out);
  EXPECT_EQ(swapped.summary["asked"], 0) << swapped.summary;
  EXPECT_EQ(swapped.summary["kept"], 4) << swapped.summary;
  ExpectSameAsFresh(walkd, pairs, out);

  // A pair dropped from the input is stale: its question is no longer asked.
  WriteLines(pairs, {near, p3, p2});
  const Answers dropped = Batch(walkd, pairs, out);
  EXPECT_EQ(dropped.summary["stale"]["pair"], 1) << dropped.summary;
  EXPECT_EQ(dropped.summary["stale"]["model"], 0) << dropped.summary;

  // The same ends asked in another band, or for another profile, are other questions.
  WriteLines(pairs,
             {Pair("b", 100, 100, 300, 320, 20), Pair("b", 100, 100, 300, 320, 0, "faction-b")});
  const Answers other = Batch(walkd, pairs, out);
  EXPECT_EQ(other.summary["kept"], 0) << other.summary;
  EXPECT_EQ(other.summary["asked"], 2) << other.summary;
  ExpectSameAsFresh(walkd, pairs, out);

  // Trips are keyed alike, and apart from walks between the same ends.
  const std::string trips_out = dir + "/trips.jsonl";
  WriteLines(pairs, {p1, p2});
  const Answers trips = Batch(walkd, pairs, trips_out, /*trips=*/true);
  ASSERT_EQ(trips.lines.size(), 2u);
  EXPECT_EQ(trips.lines[0]["trip"], true);
  EXPECT_TRUE(trips.lines[0].contains("model")) << trips.lines[0];
  WriteLines(pairs, {near, p2, p1});
  const Answers trips_again = Batch(walkd, pairs, trips_out, /*trips=*/true);
  EXPECT_EQ(trips_again.summary["kept"], 2) << trips_again.summary;
  EXPECT_EQ(trips_again.summary["asked"], 1) << trips_again.summary;
  ExpectSameAsFresh(walkd, pairs, trips_out, /*trips=*/true);
  const Answers walks_into_trips = Batch(walkd, pairs, trips_out);  // walks, not trips
  EXPECT_EQ(walks_into_trips.summary["kept"], 0) << walks_into_trips.summary;
  Stop(walkd);
  std::filesystem::remove_all(dir);
}

// Info's models of world `name`, by profile and band: grid and trip models.
std::map<std::pair<std::string, std::uint32_t>, std::pair<std::string, std::string>> Models(
    const Walkd& walkd, const std::string& name) {
  client::WalkClient client(walkd.address, 30.0);
  walk::v1::InfoResponse info;
  EXPECT_TRUE(client.Info(&info).ok());
  std::map<std::pair<std::string, std::uint32_t>, std::pair<std::string, std::string>> models;
  for (const auto& w : info.worlds()) {
    if (w.name() != name) continue;
    for (const auto& m : w.models()) {
      models[{m.profile(), m.band()}] = {m.grid_model(), m.trip_model()};
    }
  }
  return models;
}

TEST(WalkctlResumeTest, AChangedModelAsksAgainOnlyWhatItChanged) {
  const std::string dir = MakeTempDir("model");
  const std::string worlds = dir + "/worlds", data = dir + "/data", world = worlds + "/demo";
  const testing::CommandResult built =
      RunCommand({WALKGRID_BIN, "demo", "--tiles", "2x2", "--out", world});
  ASSERT_EQ(built.exit_code, 0) << built.output;
  const std::string pairs = dir + "/pairs.jsonl", out = dir + "/answers.jsonl",
                    trips_out = dir + "/trips.jsonl";
  const std::vector<std::uint32_t> bands = {0, 10, 20, 30, 40};
  std::vector<std::string> lines;
  const double ends[][4] = {
      {771.9, 246.9, 119.8, 861.5}, {100, 100, 900, 950}, {500, 520, 60, 610}, {980, 40, 30, 1000}};
  for (std::uint32_t band : bands) {
    for (const auto& e : ends) {
      lines.push_back(Pair(std::to_string(band), e[0], e[1], e[2], e[3], band, "neutral"));
    }
  }
  for (std::string& line : lines) {  // every pair on the world "demo"
    Json json = Json::parse(line);
    json["world"] = "demo";
    line = json.dump();
  }
  WriteLines(pairs, lines);
  auto before =
      std::map<std::pair<std::string, std::uint32_t>, std::pair<std::string, std::string>>();
  {
    Walkd walkd = StartForResume(data, worlds);
    before = Models(walkd, "demo");
    EXPECT_EQ(Batch(walkd, pairs, out).summary["asked"], lines.size());
    EXPECT_EQ(Batch(walkd, pairs, trips_out, true).summary["asked"], lines.size());
    Stop(walkd);
  }

  // One zone's level changes: only the bands it reprices are asked again.
  absl::StatusOr<nav::LoadedWorld> loaded = nav::LoadWorld(world);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  nav::World relevelled = loaded->world;
  ASSERT_FALSE(relevelled.zones.empty());
  nav::Zone& zone = relevelled.zones.front();
  const std::uint16_t old_level = zone.min_level;
  for (std::uint16_t level = 1; level < 80 && zone.min_level == old_level; ++level) {
    int changed = 0;
    for (std::uint32_t band : bands) {
      changed += nav::DangerMultiplier(band, old_level) != nav::DangerMultiplier(band, level);
    }
    if (changed > 0 && changed < 3) zone.min_level = level;
  }
  ASSERT_NE(zone.min_level, old_level);
  ASSERT_TRUE(nav::SaveWorld(relevelled, loaded->source, world).ok());
  {
    Walkd walkd = StartForResume(data, worlds);
    const auto after = Models(walkd, "demo");
    std::uint64_t same = 0;
    std::set<std::uint32_t> repriced;
    for (std::uint32_t band : bands) {
      if (after.at({"neutral", band}).first == before.at({"neutral", band}).first) {
        same += std::size(ends);
      } else {
        repriced.insert(band);
      }
    }
    EXPECT_FALSE(repriced.empty());
    EXPECT_EQ(repriced.count(0), 0u);  // band 0 prices no danger
    const Answers resumed = Batch(walkd, pairs, out);
    EXPECT_EQ(resumed.summary["kept"], same) << resumed.summary;
    EXPECT_EQ(resumed.summary["stale"]["model"], lines.size() - same) << resumed.summary;
    for (std::uint32_t band : bands) {
      const Json& by_band = resumed.summary["bands"][std::to_string(band)];
      EXPECT_EQ(by_band["kept"], repriced.count(band) ? 0 : std::size(ends)) << by_band;
      EXPECT_EQ(by_band["asked"], repriced.count(band) ? std::size(ends) : 0) << by_band;
    }
    ExpectSameAsFresh(walkd, pairs, out);
    const Answers trips = Batch(walkd, pairs, trips_out, true);
    EXPECT_EQ(trips.summary["kept"], same) << trips.summary;
    ExpectSameAsFresh(walkd, pairs, trips_out, true);
    Stop(walkd);
  }

  // The travel network changes: every trip is asked again, no walk.
  {
    const std::string travel_path = world + "/travel.json";
    std::ifstream in(travel_path);
    Json travel = Json::parse(in);
    in.close();
    ASSERT_FALSE(travel["edges"].empty());
    for (Json& edge : travel["edges"]) {
      const char* field = edge.contains("seconds") ? "seconds" : "ride_seconds";
      edge[field] = edge[field].get<double>() + 1.0;
    }
    std::ofstream(travel_path, std::ios::trunc) << travel.dump(1);
    Walkd walkd = StartForResume(data, worlds);
    EXPECT_EQ(Batch(walkd, pairs, out).summary["kept"], lines.size());
    const Answers trips = Batch(walkd, pairs, trips_out, true);
    EXPECT_EQ(trips.summary["kept"], 0) << trips.summary;
    EXPECT_EQ(trips.summary["stale"]["model"], lines.size()) << trips.summary;
    ExpectSameAsFresh(walkd, pairs, trips_out, true);
    Stop(walkd);
  }

  // The world rebuilt from another seed: a new content id, every pair asked again.
  const testing::CommandResult rebuilt =
      RunCommand({WALKGRID_BIN, "demo", "--tiles", "2x2", "--seed", "7", "--out", world});
  ASSERT_EQ(rebuilt.exit_code, 0) << rebuilt.output;
  {
    Walkd walkd = StartForResume(data, worlds);
    const Answers resumed = Batch(walkd, pairs, out);
    EXPECT_EQ(resumed.summary["kept"], 0) << resumed.summary;
    EXPECT_EQ(resumed.summary["stale"]["model"], lines.size()) << resumed.summary;
    ExpectSameAsFresh(walkd, pairs, out);
    Stop(walkd);
  }
  std::filesystem::remove_all(dir);
}

// A 40 x 40 field with a wall across x = 20 (open below y = 5): walks known to be straight,
// searched, or with no walk (an end on the wall).
void WriteField(const std::string& dir) {
  std::string text = "type octile\nheight 40\nwidth 40\nmap\n";
  for (int y = 0; y < 40; ++y) {
    std::string row(40, '.');
    if (y >= 5) row[20] = '@';
    text += row + "\n";
  }
  auto map = nav::ParseMovingAiMap(text);
  ASSERT_TRUE(map.ok());
  auto world = nav::WorldFromMovingAi(*map);
  ASSERT_TRUE(world.ok());
  ASSERT_TRUE(nav::SaveWorld(*world, "test:field", dir).ok());
}

// The seed's stats line, band by band, on a batch whose outcomes are known: asked, stored,
// routed, straight, failed, refused and kept, the store's answers before and after, wall time.
TEST(WalkctlResumeTest, TheStatsLineCountsEveryBandsOutcomes) {
  const std::string dir = MakeTempDir("stats");
  ASSERT_NO_FATAL_FAILURE(WriteField(dir + "/worlds/field"));
  Walkd walkd = StartForResume(dir + "/data", dir + "/worlds");
  auto field = [](const char* id, double fx, double fy, double tx, double ty, std::uint32_t band) {
    return Json({{"id", id},
                 {"world", "field"},
                 {"from", {fx, fy}},
                 {"to", {tx, ty}},
                 {"profile", "shortest"},
                 {"band", band}})
        .dump();
  };
  const std::string pairs = dir + "/pairs.jsonl";
  WriteLines(pairs, {
                        field("straight", 2.5, 2.5, 10.5, 12.5, 0),  // open ground: the line
                        field("around", 10.5, 30.5, 30.5, 10.5, 0),  // round the wall: searched
                        field("wall", 5.5, 5.5, 20.5, 20.5, 0),      // onto the wall: no walk
                        field("off", 5.5, 5.5, 45.5, 5.5, 10),       // off the map: no walk
                        field("band", 2.5, 3.5, 10.5, 3.5, 15),      // no such band: refused
                    });
  const Answers first = Batch(walkd, pairs, dir + "/a.jsonl");
  const Json& b0 = first.summary["bands"]["0"];
  EXPECT_EQ(b0, Json({{"asked", 3},
                      {"kept", 0},
                      {"stored", 0},
                      {"routed", 3},
                      {"straight", 1},
                      {"failed", 1},
                      {"refused", 0}}))
      << first.summary;
  EXPECT_EQ(first.summary["bands"]["10"], Json({{"asked", 1},
                                                {"kept", 0},
                                                {"stored", 0},
                                                {"routed", 1},
                                                {"straight", 0},
                                                {"failed", 1},
                                                {"refused", 0}}))
      << first.summary;
  EXPECT_EQ(first.summary["bands"]["15"], Json({{"asked", 1},
                                                {"kept", 0},
                                                {"stored", 0},
                                                {"routed", 0},
                                                {"straight", 0},
                                                {"failed", 0},
                                                {"refused", 1}}))
      << first.summary;
  EXPECT_EQ(first.summary["asked"], 5);
  EXPECT_EQ(first.summary["failed"], 2);
  EXPECT_EQ(first.summary["refused"], 1);
  EXPECT_EQ(first.summary["straight"], 1);
  EXPECT_GT(first.summary["wall_s"].get<double>(), 0.0);
  // Only answers whose ends snapped are kept: not the end on the wall, not the one off the map.
  const std::uint64_t before = first.summary["store_answers_before"];
  EXPECT_EQ(first.summary["store_answers_after"].get<std::uint64_t>(), before + 2) << first.summary;

  // Asked afresh (another file), the store answers what it holds.
  const Answers again = Batch(walkd, pairs, dir + "/b.jsonl");
  EXPECT_EQ(again.summary["bands"]["0"]["stored"], 2) << again.summary;
  EXPECT_EQ(again.summary["bands"]["0"]["routed"], 1) << again.summary;
  EXPECT_EQ(again.summary["bands"]["0"]["failed"], 1) << again.summary;
  EXPECT_EQ(again.summary["store_answers_after"], again.summary["store_answers_before"]);
  // Resumed from the first file: everything answered is kept, the refused pair asked again.
  const Answers resumed = Batch(walkd, pairs, dir + "/a.jsonl");
  EXPECT_EQ(resumed.summary["bands"]["0"]["kept"], 3) << resumed.summary;
  EXPECT_EQ(resumed.summary["bands"]["10"]["kept"], 1) << resumed.summary;
  EXPECT_EQ(resumed.summary["bands"]["15"]["asked"], 1) << resumed.summary;
  EXPECT_EQ(resumed.summary["asked"], 1) << resumed.summary;

  // The human line says the same, band by band.
  const testing::CommandResult human =
      RunCommand({WALKCTL_BIN, "--addr", walkd.address, "batch", pairs, "--out", dir + "/c.jsonl"});
  EXPECT_NE(human.output.find("walkctl batch: 5 pairs asked, 0 kept"), std::string::npos)
      << human.output;
  EXPECT_NE(human.output.find("band      asked       kept     stored     routed   straight"),
            std::string::npos)
      << human.output;
  EXPECT_NE(human.output.find(
                "      0          3          0          2          1          0          1"),
            std::string::npos)
      << human.output;
  Stop(walkd);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace walk
