// The model keys only what decides an answer, shown against a real walkd and its store: a zone's
// new level re-asks only the bands whose danger table it changes (band 0's answers survive), and
// a danger band answers with band 0's walk where that walk enters no zone the band prices.
#include <filesystem>
#include <map>
#include <random>

#include "client/walk_client.h"
#include "gtest/gtest.h"
#include "nav/cost/danger.h"
#include "nav/grid/grid_format.h"
#include "tests/integration/walkd_process.h"

namespace walk {
namespace {

using testing::MakeTempDir;
using testing::RunCommand;
using Walkd = testing::StartedWalkd;

Walkd StartOnWorlds(const std::string& data, const std::string& worlds) {
  return testing::StartWalkdOnLoopback(
      WALKD_BIN, {"--data", data, "--worlds", worlds, "--search-threads", "2"});
}

// Waits until world `name` is ready (bounded: about a minute).
bool WaitReady(client::WalkClient& client, const std::string& name) {
  for (int attempt = 0; attempt < 1200 * testing::Patience(); ++attempt) {
    walk::v1::InfoResponse info;
    if (client.Info(&info).ok()) {
      for (const auto& w : info.worlds()) {
        if (w.name() == name && w.state() == walk::v1::WORLD_STATE_READY) return true;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

// Fixed random pairs on the 2 x 2 tile demo world, asked by one Walk call each.
struct Asked {
  std::vector<walk::v1::WalkResponse> answers;
  int stored = 0;  // answers the store gave (model ids say which model)
};
Asked AskBand(client::WalkClient& client, std::uint32_t band, int count) {
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> coordinate(0.0, 1060.0);
  Asked asked;
  for (int i = 0; i < count; ++i) {
    walk::v1::WalkRequest r;
    r.set_world("demo");
    r.set_profile("neutral");
    r.set_band(band);
    r.mutable_from()->set_x_yards(coordinate(random));
    r.mutable_from()->set_y_yards(coordinate(random));
    r.mutable_to()->set_x_yards(coordinate(random));
    r.mutable_to()->set_y_yards(coordinate(random));
    walk::v1::WalkResponse response;
    EXPECT_TRUE(client.Walk(r, &response).ok());
    asked.answers.push_back(response);
  }
  return asked;
}

// How many of `after`'s answers carry the model of the matching `before` answer and its
// seconds: those the store kept through the change.
int SameModel(const Asked& before, const Asked& after) {
  int same = 0;
  for (std::size_t i = 0; i < before.answers.size(); ++i) {
    if (before.answers[i].model_id() != after.answers[i].model_id()) continue;
    ++same;
    EXPECT_DOUBLE_EQ(before.answers[i].seconds(), after.answers[i].seconds());
  }
  return same;
}

TEST(WalkdModelTest, ANewZoneLevelReasksOnlyTheBandsItReprices) {
  const std::string root = MakeTempDir("relevel");
  const std::string worlds = root + "/worlds", data = root + "/data";
  const std::string dir = worlds + "/demo";
  const testing::CommandResult built =
      RunCommand({WALKGRID_BIN, "demo", "--tiles", "2x2", "--out", dir});
  ASSERT_EQ(built.exit_code, 0) << built.output;

  constexpr int kPairs = 40;
  const std::vector<std::uint32_t> bands = {0, 10, 20, 30, 40};
  std::map<std::uint32_t, Asked> before;
  {
    Walkd walkd = StartOnWorlds(data, worlds);
    client::WalkClient client(walkd.address, 60.0);
    ASSERT_TRUE(WaitReady(client, "demo")) << walkd.process->output();
    for (std::uint32_t band : bands) before[band] = AskBand(client, band, kPairs);
    // Some danger answers are band 0's walk, and say so.
    int reused = 0;
    for (const auto& answer : before[10].answers) reused += answer.from_band_zero() ? 1 : 0;
    EXPECT_GT(reused, 0);
    walkd.process->Signal(SIGTERM);
    ASSERT_EQ(walkd.process->Wait(), 0) << walkd.process->output();
  }

  // Give the first zone a level that reprices some danger bands and leaves others alone.
  absl::StatusOr<nav::LoadedWorld> loaded = nav::LoadWorld(dir);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  nav::World world = loaded->world;
  ASSERT_FALSE(world.zones.empty());
  nav::Zone& zone = world.zones.front();
  const std::uint16_t old_level = zone.min_level;
  std::map<std::uint32_t, bool> repriced;
  for (std::uint16_t level = 1; level < 80; ++level) {
    int changed = 0;
    for (std::uint32_t band : bands) {
      repriced[band] = nav::DangerMultiplier(band, old_level) != nav::DangerMultiplier(band, level);
      changed += repriced[band] ? 1 : 0;
    }
    if (changed > 0 && changed < 3) {
      zone.min_level = level;
      break;
    }
  }
  ASSERT_NE(zone.min_level, old_level);
  ASSERT_FALSE(repriced[0]);
  const std::uint64_t content_id = world.content_id;
  nav::AssignContentIds(world);
  EXPECT_EQ(world.content_id, content_id);  // zone levels are not the grid's
  ASSERT_TRUE(nav::SaveWorld(world, loaded->source, dir).ok());

  {
    Walkd walkd = StartOnWorlds(data, worlds);
    client::WalkClient client(walkd.address, 60.0);
    ASSERT_TRUE(WaitReady(client, "demo")) << walkd.process->output();
    int any_repriced = 0;
    for (std::uint32_t band : bands) {
      SCOPED_TRACE(band);
      const Asked after = AskBand(client, band, kPairs);
      if (repriced[band]) {
        ++any_repriced;
        EXPECT_EQ(SameModel(before[band], after), 0);
      } else {
        EXPECT_EQ(SameModel(before[band], after), kPairs);
      }
    }
    EXPECT_GT(any_repriced, 0) << "zone " << zone.id << " level " << old_level;
    walkd.process->Signal(SIGTERM);
    ASSERT_EQ(walkd.process->Wait(), 0) << walkd.process->output();
  }

  // A road is the ground's: band 0's model changes with it.
  nav::Continent& c = world.continents[0];
  for (nav::SurfaceId s = 0; s < c.surface_count(); s += 97) c.marks[s] |= nav::kMarkRoad;
  nav::AssignContentIds(world);
  EXPECT_NE(world.content_id, content_id);
  ASSERT_TRUE(nav::SaveWorld(world, loaded->source, dir).ok());
  {
    Walkd walkd = StartOnWorlds(data, worlds);
    client::WalkClient client(walkd.address, 60.0);
    ASSERT_TRUE(WaitReady(client, "demo")) << walkd.process->output();
    EXPECT_EQ(SameModel(before[0], AskBand(client, 0, kPairs)), 0);
    walkd.process->Signal(SIGTERM);
    ASSERT_EQ(walkd.process->Wait(), 0) << walkd.process->output();
  }
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace walk
