#include "nav/grid/grid_image.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "nav/cost/metric.h"
#include "nav/search/fine_grid_astar.h"
#include "tests/nav/ascii_grid.h"

namespace walk::nav {
namespace {

using testing::AsciiWorld;

std::string TempDir(const std::string& name) {
  const std::string dir = (std::filesystem::temp_directory_path() /
                           ("grid_image_test_" + name + "_" + std::to_string(getpid())))
                              .string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

World SomeWorld() {
  std::mt19937 rng(11);
  std::vector<std::string> rows(300, std::string(300, '.'));
  for (auto& row : rows) {
    for (char& cell : row) cell = rng() % 4 == 0 ? '@' : (rng() % 50 == 0 ? 'W' : '.');
  }
  return AsciiWorld(rows);
}

void ExpectSameContinent(const Continent& a, const Continent& b) {
  EXPECT_TRUE(a.height_yards == b.height_yards && a.headroom_yards == b.headroom_yards);
  EXPECT_TRUE(a.flags == b.flags && a.zone == b.zone && a.marks == b.marks);
  EXPECT_TRUE(a.links == b.links);
  EXPECT_TRUE(a.column_x == b.column_x && a.column_y == b.column_y && a.level == b.level);
  EXPECT_TRUE(a.region == b.region);
  EXPECT_EQ(a.region_size, b.region_size);
  EXPECT_EQ(a.tile_index, b.tile_index);
  EXPECT_EQ(a.road_blocks, b.road_blocks);
  EXPECT_EQ(a.ground_present, b.ground_present);
  ASSERT_EQ(a.tiles.size(), b.tiles.size());
  for (std::size_t t = 0; t < a.tiles.size(); ++t) {
    EXPECT_TRUE(a.tiles[t].first_surface == b.tiles[t].first_surface);
  }
}

TEST(GridImageTest, AMappedWorldIsTheWorldItWasWrittenFrom) {
  const std::string dir = TempDir("same");
  const World world = SomeWorld();
  ASSERT_TRUE(SaveWorld(world, "test:some", dir).ok());
  auto stamp = StampGrid(dir);
  ASSERT_TRUE(stamp.ok()) << stamp.status();
  EXPECT_EQ(stamp->content_id, world.content_id);
  const std::string image = dir + "/some.walkimage";
  ASSERT_TRUE(SaveGridImage(world, "test:some", *stamp, image).ok());
  auto mapped = MapGridImage(image, *stamp);
  ASSERT_TRUE(mapped.ok()) << mapped.status();
  EXPECT_EQ(mapped->source, "test:some");
  EXPECT_EQ(mapped->world.content_id, world.content_id);
  const Continent& m = mapped->world.continents[0];
  EXPECT_TRUE(m.links.mapped() && m.region.mapped() && m.tiles[0].first_surface.mapped());
  ExpectSameContinent(world.continents[0], m);

  // Walks read the mapping as they read memory, before and after its pages are handed back.
  const Metric metric(world, *FindProfile("neutral"), 0);
  const Metric mapped_metric(mapped->world, *FindProfile("neutral"), 0);
  FineGridAStar astar;
  std::mt19937 rng(5);
  for (int i = 0; i < 50; ++i) {
    if (i == 25) ReleaseMappedPages(mapped->world);
    const SurfaceId a = rng() % m.surface_count(), b = rng() % m.surface_count();
    const SearchResult want = astar.FindWalk(world.continents[0], 1.0, metric, a, b);
    const SearchResult got = astar.FindWalk(m, 1.0, mapped_metric, a, b);
    EXPECT_EQ(got.found, want.found);
    EXPECT_EQ(got.seconds, want.seconds);
  }
  EXPECT_EQ(MappedResidence(mapped->world).mapped, std::filesystem::file_size(image));
  EXPECT_EQ(MappedResidence(world).mapped, 0u);

  // Changing a mapped array copies it out first; the mapping is never written.
  World copy = mapped->world;
  copy.continents[0].flags[0] = kFlagWater;
  EXPECT_FALSE(copy.continents[0].flags.mapped());
  EXPECT_NE(m.flags[0], kFlagWater);
  std::filesystem::remove_all(dir);
}

TEST(GridImageTest, ReadingASurfaceMapsLittleOfTheImage) {
  // Large enough that each per-surface array spans many huge pages' worth of the page cache.
  const std::string dir = TempDir("little");
  const World world = AsciiWorld(std::vector<std::string>(1500, std::string(1500, '.')));
  ASSERT_TRUE(SaveWorld(world, "test:plain", dir).ok());
  const GridStamp stamp = *StampGrid(dir);
  const std::string image = dir + "/plain.walkimage";
  ASSERT_TRUE(SaveGridImage(world, "test:plain", stamp, image).ok());
  auto mapped = MapGridImage(image, stamp);
  ASSERT_TRUE(mapped.ok()) << mapped.status();
  const Continent& m = mapped->world.continents[0];
  ASSERT_GT(MappedResidence(mapped->world).mapped, std::uint64_t{40} << 20);
  // One surface's fields, each array read once, in the middle of the image: a fault maps the
  // pages around it (64 KB), never a whole large folio of the page cache (2 MB each, six arrays).
  const SurfaceId s = m.surface_count() / 2;
  volatile float sink = m.height_yards[s] + m.headroom_yards[s];
  sink = sink + static_cast<float>(m.flags[s] + m.zone[s] + m.marks[s] + m.links[s][0]);
  EXPECT_LE(MappedResidence(mapped->world).resident, std::uint64_t{1} << 20);
  std::filesystem::remove_all(dir);
}

TEST(GridImageTest, StaleOrDamagedImagesAreRefused) {
  const std::string dir = TempDir("refused");
  const World world = SomeWorld();
  ASSERT_TRUE(SaveWorld(world, "test:some", dir).ok());
  const GridStamp stamp = *StampGrid(dir);
  const std::string image = dir + "/some.walkimage";
  EXPECT_EQ(MapGridImage(image, stamp).status().code(), absl::StatusCode::kNotFound);
  ASSERT_TRUE(SaveGridImage(world, "test:some", stamp, image).ok());

  GridStamp other = stamp;
  other.modified_ns += 1;
  EXPECT_EQ(MapGridImage(image, other).status().code(), absl::StatusCode::kFailedPrecondition);

  const auto size = std::filesystem::file_size(image);
  {  // a flipped byte in the surfaces' arrays: the content no longer hashes to its id
    std::fstream f(image, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size - 1000));
    f.put('\x5a');
  }
  auto damaged = MapGridImage(image, stamp);
  EXPECT_EQ(damaged.status().code(), absl::StatusCode::kDataLoss) << damaged.status();
  std::filesystem::resize_file(image, size / 2);
  EXPECT_EQ(MapGridImage(image, stamp).status().code(), absl::StatusCode::kDataLoss);
  std::filesystem::resize_file(image, 10);
  EXPECT_EQ(MapGridImage(image, stamp).status().code(), absl::StatusCode::kDataLoss);
  std::filesystem::remove_all(dir);
}

TEST(GridImageTest, LoadWorldMappedWritesTheImageOnceAndRewritesItForANewGrid) {
  const std::string dir = TempDir("load");
  ASSERT_TRUE(SaveWorld(SomeWorld(), "test:some", dir).ok());
  const std::string image = dir + "/images/some.walkimage";
  std::string note;
  auto first = LoadWorldMapped(dir, image, &note);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_NE(note.find("written now (none yet)"), std::string::npos) << note;
  EXPECT_TRUE(first->world.continents[0].links.mapped());
  auto second = LoadWorldMapped(dir, image, &note);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(note, "mapped from " + image);

  const World changed = AsciiWorld({"....", ".@@.", "...."});
  ASSERT_TRUE(SaveWorld(changed, "test:changed", dir).ok());
  auto third = LoadWorldMapped(dir, image, &note);
  ASSERT_TRUE(third.ok());
  EXPECT_NE(note.find("written now"), std::string::npos) << note;
  EXPECT_EQ(third->world.content_id, changed.content_id);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace walk::nav
