#include "server/world_registry.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "nav/grid/grid_format.h"
#include "nav/import/movingai.h"

namespace walk::server {
namespace {

// The folders TempDir made, removed once every test has run.
std::vector<std::filesystem::path>& MadeDirs() {
  static std::vector<std::filesystem::path> dirs;
  return dirs;
}

class RemoveMadeDirs : public ::testing::Environment {
 public:
  void TearDown() override {
    for (const std::filesystem::path& dir : MadeDirs()) std::filesystem::remove_all(dir);
  }
};
[[maybe_unused]] ::testing::Environment* const kRemoveMadeDirs =
    ::testing::AddGlobalTestEnvironment(new RemoveMadeDirs);

std::string TempDir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("registry-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  MadeDirs().push_back(dir);
  return dir.string();
}

void WriteWorld(const std::string& dir, const std::string& rows) {
  auto map = nav::ParseMovingAiMap("type octile\nheight 1\nwidth " + std::to_string(rows.size()) +
                                   "\nmap\n" + rows + "\n");
  ASSERT_TRUE(map.ok());
  auto world = nav::WorldFromMovingAi(*map);
  ASSERT_TRUE(world.ok());
  ASSERT_TRUE(nav::SaveWorld(*world, "test", dir).ok());
}

TEST(WorldRegistryTest, NamesWorldsByFolderAndAnswersUnavailableUntilLoaded) {
  const std::string worlds = TempDir("worlds");
  WriteWorld(worlds + "/beta", "....");
  WriteWorld(worlds + "/alpha", "..");
  std::filesystem::create_directories(worlds + "/not-a-world");  // no grid file: ignored
  WorldRegistry registry;
  auto names = registry.Discover(worlds, TempDir("data"));
  ASSERT_TRUE(names.ok()) << names.status();
  EXPECT_EQ(*names, (std::vector<std::string>{"alpha", "beta"}));

  auto loading = registry.Find("alpha");
  EXPECT_EQ(loading.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(loading.status().message().find("still loading"), std::string::npos);
  EXPECT_EQ(registry.Find("gamma").status().code(), absl::StatusCode::kNotFound);
  EXPECT_FALSE(registry.AllReady());

  int changes = 0;
  registry.StartLoading([&changes](const WorldStatus& status) {
    ++changes;
    EXPECT_EQ(status.state, WorldState::kReady);
  });
  registry.JoinLoading();
  EXPECT_EQ(changes, 2);
  EXPECT_TRUE(registry.AllReady());
  auto beta = registry.Find("beta");
  ASSERT_TRUE(beta.ok());
  EXPECT_EQ((*beta)->world.continents[0].surface_count(), 4u);
  EXPECT_EQ((*beta)->columns[0], 4u);
}

TEST(WorldRegistryTest, ServesAndCachesTheDefaultWorldWhenGivenNone) {
  const std::string data = TempDir("default");
  WorldRegistry registry;
  auto names = registry.Discover("", data);
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, std::vector<std::string>{"default"});
  registry.SetBandMetricBytes(std::uint64_t{3} << 20);
  registry.StartLoading(nullptr);
  registry.JoinLoading();
  auto world = registry.Find("default");
  ASSERT_TRUE(world.ok()) << world.status();
  EXPECT_TRUE(nav::HasGrid(data + "/default-world"));
  // Its router (the graph prepared at start) holds band metrics within the budget given.
  ASSERT_NE((*world)->router, nullptr);
  EXPECT_EQ((*world)->router->band_metrics().capacity(), std::uint64_t{3} << 20);
  // A second start reads the cache: the same content.
  auto again = LoadOrGenerateDefaultWorld(data);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->world.content_id, (*world)->world.content_id);
  // A damaged cache is regenerated, not served.
  std::filesystem::resize_file(data + "/default-world/grid.walkgrid", 64);
  auto regenerated = LoadOrGenerateDefaultWorld(data);
  ASSERT_TRUE(regenerated.ok());
  EXPECT_EQ(regenerated->world.content_id, (*world)->world.content_id);
}

// The files in `dir` whose names end in `suffix` (half-written files end in ".tmp").
std::vector<std::string> FilesEndingIn(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      found.push_back(entry.path().string());
    }
  }
  return found;
}

TEST(WorldRegistryTest, AStoppedGenerationOfTheDefaultWorldSavesNothing) {
  const std::string data = TempDir("stopped-generation");
  std::atomic<bool> stop{true};
  const absl::StatusOr<ServedWorld> world = LoadOrGenerateDefaultWorld(data, nav::BuildStop(&stop));
  EXPECT_TRUE(absl::IsCancelled(world.status())) << world.status();
  EXPECT_FALSE(nav::HasGrid(DefaultWorldDir(data)));
  EXPECT_TRUE(FilesEndingIn(data, ".tmp").empty());
}

// Stopped while the default world's abstract graph is being prepared (its grid generated and
// cached, a few seconds of cell pricing to go): the world ends stopped, its grid cache whole,
// no graph file and no half-written one.
TEST(WorldRegistryTest, StoppingTheLoadingAbandonsTheGraphBeingPrepared) {
  const std::string data = TempDir("stopped-load");
  std::vector<WorldStatus> changes;  // outlives the registry, whose loader writes it
  WorldRegistry registry;
  ASSERT_TRUE(registry.Discover("", data).ok());
  registry.StartLoading([&changes](const WorldStatus& status) { changes.push_back(status); });
  const std::string grid = DefaultWorldDir(data) + "/grid.walkgrid";
  for (int wait = 0; wait < 6000 && !std::filesystem::exists(grid); ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(std::filesystem::exists(grid)) << "the default world was generated";
  const auto stopped_at = std::chrono::steady_clock::now();
  registry.StopLoading();
  registry.JoinLoading();
  std::printf("the loading ended %.4f s after StopLoading\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - stopped_at).count());
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].state, WorldState::kFailed);
  EXPECT_TRUE(changes[0].stopped) << changes[0].error;
  EXPECT_NE(changes[0].error.find("stopped before it was done"), std::string::npos)
      << changes[0].error;
  EXPECT_EQ(registry.FailedCount(), 0) << "a stopped load is not a failed world";
  const absl::StatusOr<std::shared_ptr<const ServedWorld>> found = registry.Find("default");
  EXPECT_EQ(found.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_FALSE(std::filesystem::exists(DefaultWorldDir(data) + "/graph.walkgraph"));
  EXPECT_TRUE(FilesEndingIn(data, ".tmp").empty());
  EXPECT_TRUE(nav::LoadWorld(DefaultWorldDir(data)).ok()) << "the cached grid is whole";
}

// Reloads `world` (empty: all) and waits for the answer.
absl::StatusOr<std::vector<WorldReload>> ReloadAndWait(WorldRegistry& registry,
                                                       const std::string& world) {
  std::promise<absl::StatusOr<std::vector<WorldReload>>> promise;
  std::future<absl::StatusOr<std::vector<WorldReload>>> answer = promise.get_future();
  registry.Reload(world, [&promise](const absl::StatusOr<std::vector<WorldReload>>& reloaded) {
    promise.set_value(reloaded);
  });
  return answer.get();
}

std::uint64_t ContentIdOf(const WorldRegistry& registry, const std::string& name) {
  auto found = registry.Find(name);
  return found.ok() ? (*found)->world.content_id : 0;
}

// A world rebuilt on disk is loaded beside the one serving and swapped in; a call that holds the
// old world keeps it, whole, until it lets it go, and then it is freed. An unchanged world is
// not loaded again.
TEST(WorldRegistryTest, AReloadSwapsTheChangedWorldInAndFreesTheOldOnceLetGo) {
  const std::string worlds = TempDir("reload-worlds");
  WriteWorld(worlds + "/alpha", "....");
  WriteWorld(worlds + "/beta", "..");
  WorldRegistry registry;
  ASSERT_TRUE(registry.Discover(worlds, TempDir("reload-data")).ok());
  registry.StartLoading(nullptr);
  registry.JoinLoading();
  const std::uint64_t beta_id = ContentIdOf(registry, "beta");
  auto held = registry.Find("alpha");  // a call in flight on the old world
  ASSERT_TRUE(held.ok());
  const std::uint64_t old_id = (*held)->world.content_id;
  std::weak_ptr<const ServedWorld> old = *held;

  WriteWorld(worlds + "/alpha", "........");
  auto reloaded = ReloadAndWait(registry, "");
  ASSERT_TRUE(reloaded.ok()) << reloaded.status();
  ASSERT_EQ(reloaded->size(), 2u);
  EXPECT_EQ((*reloaded)[0].name, "alpha");
  EXPECT_EQ((*reloaded)[0].result, ReloadResult::kReloaded) << (*reloaded)[0].error;
  EXPECT_EQ((*reloaded)[0].changed, "grid.walkgrid");
  EXPECT_EQ((*reloaded)[0].generation, 2u);
  EXPECT_EQ((*reloaded)[1].result, ReloadResult::kUnchanged);
  EXPECT_EQ((*reloaded)[1].generation, 1u);
  std::printf("alpha reloaded in %.4f s\n", (*reloaded)[0].seconds);

  const std::uint64_t new_id = ContentIdOf(registry, "alpha");
  EXPECT_NE(new_id, old_id);
  EXPECT_EQ((*reloaded)[0].content_id, new_id);
  EXPECT_EQ((*registry.Find("alpha"))->world.continents[0].surface_count(), 8u);
  EXPECT_EQ(ContentIdOf(registry, "beta"), beta_id);
  // The call in flight still walks the old world, whole.
  EXPECT_EQ((*held)->world.content_id, old_id);
  EXPECT_EQ((*held)->world.continents[0].surface_count(), 4u);
  EXPECT_FALSE(old.expired());
  held = absl::NotFoundError("let go");
  EXPECT_TRUE(old.expired()) << "the registry keeps no reference to the old world";

  auto again = ReloadAndWait(registry, "alpha");
  ASSERT_TRUE(again.ok());
  ASSERT_EQ(again->size(), 1u);
  EXPECT_EQ((*again)[0].result, ReloadResult::kUnchanged);
  const WorldStatus alpha = registry.Snapshot()[0];
  EXPECT_EQ(alpha.generation, 2u);
  EXPECT_EQ(alpha.reloads, 1u);
  EXPECT_EQ(alpha.last_reload.result, ReloadResult::kReloaded) << "unchanged is not a reload";
}

// A world whose new files fail to load keeps the old one serving and says why; the same files
// are not tried again until they change.
TEST(WorldRegistryTest, AFailedReloadKeepsTheOldWorldServing) {
  const std::string worlds = TempDir("reload-fail");
  WriteWorld(worlds + "/alpha", "....");
  WorldRegistry registry;
  ASSERT_TRUE(registry.Discover(worlds, TempDir("reload-fail-data")).ok());
  registry.StartLoading(nullptr);
  registry.JoinLoading();
  const std::uint64_t old_id = ContentIdOf(registry, "alpha");
  std::ofstream(worlds + "/alpha/grid.walkgrid", std::ios::trunc) << "not a grid";

  auto reloaded = ReloadAndWait(registry, "alpha");
  ASSERT_TRUE(reloaded.ok()) << reloaded.status();
  ASSERT_EQ(reloaded->size(), 1u);
  EXPECT_EQ((*reloaded)[0].result, ReloadResult::kFailed);
  EXPECT_NE((*reloaded)[0].error.find("grid.walkgrid"), std::string::npos) << (*reloaded)[0].error;
  EXPECT_EQ((*reloaded)[0].content_id, old_id);
  EXPECT_EQ(ContentIdOf(registry, "alpha"), old_id) << "the old world still serves";
  const WorldStatus alpha = registry.Snapshot()[0];
  EXPECT_EQ(alpha.state, WorldState::kReady);
  EXPECT_EQ(alpha.generation, 1u);
  EXPECT_EQ(alpha.failed_reloads, 1u);
  EXPECT_EQ(alpha.last_reload.result, ReloadResult::kFailed);
  EXPECT_EQ(alpha.last_reload.error, (*reloaded)[0].error);

  auto again = ReloadAndWait(registry, "alpha");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)[0].result, ReloadResult::kUnchanged) << "the same files are not tried again";
  EXPECT_EQ(registry.Snapshot()[0].failed_reloads, 1u);

  WriteWorld(worlds + "/alpha", "......");  // mended
  auto mended = ReloadAndWait(registry, "alpha");
  ASSERT_TRUE(mended.ok());
  EXPECT_EQ((*mended)[0].result, ReloadResult::kReloaded) << (*mended)[0].error;
  EXPECT_EQ((*registry.Find("alpha"))->world.continents[0].surface_count(), 6u);
}

TEST(WorldRegistryTest, AReloadOfAnUnknownWorldOrAfterStoppingIsRefused) {
  const std::string worlds = TempDir("reload-refused");
  WriteWorld(worlds + "/alpha", "..");
  WorldRegistry registry;
  ASSERT_TRUE(registry.Discover(worlds, TempDir("reload-refused-data")).ok());
  registry.StartLoading(nullptr);
  registry.JoinLoading();
  EXPECT_EQ(ReloadAndWait(registry, "gamma").status().code(), absl::StatusCode::kNotFound);
  registry.StopReloading();
  EXPECT_EQ(ReloadAndWait(registry, "alpha").status().code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(registry.Find("alpha").ok()) << "stopping reloads leaves the worlds serving";
}

TEST(WorldRegistryTest, RefusesAWorldsPathThatIsNotAFolder) {
  WorldRegistry registry;
  auto names = registry.Discover("/nonexistent/walkd-worlds", TempDir("data2"));
  EXPECT_EQ(names.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(names.status().message().find("--worlds"), std::string::npos);
}

}  // namespace
}  // namespace walk::server
