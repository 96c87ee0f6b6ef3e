#include "server/world_registry.h"

#include <filesystem>

#include "gtest/gtest.h"
#include "nav/grid/grid_format.h"
#include "nav/import/movingai.h"

namespace walk::server {
namespace {

std::string TempDir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("registry-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
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
  registry.StartLoading(nullptr);
  registry.JoinLoading();
  auto world = registry.Find("default");
  ASSERT_TRUE(world.ok()) << world.status();
  EXPECT_TRUE(nav::HasGrid(data + "/default-world"));
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

TEST(WorldRegistryTest, RefusesAWorldsPathThatIsNotAFolder) {
  WorldRegistry registry;
  auto names = registry.Discover("/nonexistent/walkd-worlds", TempDir("data2"));
  EXPECT_EQ(names.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(names.status().message().find("--worlds"), std::string::npos);
}

}  // namespace
}  // namespace walk::server
