#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>

#include "gtest/gtest.h"
#include "nav/grid/content_hash.h"
#include "nav/grid/grid_builder.h"
#include "nav/grid/grid_format.h"
#include "nav/grid/world_assembly.h"
#include "tests/nav/ascii_grid.h"
#include "tests/nav/test_dir.h"

namespace walk::nav {
namespace {

using testing::AsciiWorld;
using testing::SurfaceAt;

using testing::TestDir;

// A small fixed world that uses every field the grid file holds: two continents, stacked
// surfaces with flags, zones and marks, a lift (one with its own timing), named zones and a
// ground layer's record.
World FixedWorld() {
  World world;
  world.column_yards = 1.5;
  ContinentBuilder builder(3, 3, 2);
  SurfaceSpec ground, water, deck, roof;
  ground.zone = 1;
  water.height_yards = -0.5f;
  water.headroom_yards = 2.5f;
  water.flags = kFlagTerrain | kFlagWater;
  water.zone = 1;
  deck.height_yards = 2.0f;
  deck.flags = kFlagBuilding;
  deck.marks = kMarkRoad;
  deck.zone = 2;
  roof.height_yards = 6.0f;
  roof.flags = kFlagBuilding | kFlagIndoor;
  roof.marks = kMarkHubB;
  roof.zone = 2;
  builder.AddSurface(0, 0, ground);
  builder.AddSurface(1, 0, water);
  builder.AddSurface(1, 0, deck);
  builder.AddSurface(2, 0, deck);
  builder.AddSurface(2, 0, roof);
  builder.AddSurface(0, 1, ground);
  builder.AddSurface(2, 1, ground);
  builder.AddLift(2, 0, 2.0f, 6.0f, /*wait_seconds=*/20.0f, /*shaft_yards_per_second=*/2.5f);
  auto first = builder.Build(LinkRules{});
  EXPECT_TRUE(first.ok()) << first.status();
  world.continents.push_back(*std::move(first));
  ContinentBuilder other(9, 1, 1);
  other.AddSurface(0, 0, ground);
  auto second = other.Build(LinkRules{});
  EXPECT_TRUE(second.ok()) << second.status();
  world.continents.push_back(*std::move(second));
  world.zones = {{1, "Amber Vale", 1, 6}, {2, "Ashen Reach", 10, 15}};
  world.layers = {{"zones", "zones.geojson", 0x0123456789abcdefu, "2 zones, 6 columns"}};
  AssignContentIds(world);
  return world;
}

TEST(GridTest, OneSurfacePerPassableCellWithOrthogonalAndDiagonalLinks) {
  const World world = AsciiWorld({
      "...",
      ".@.",
      "...",
  });
  const Continent& c = world.continents[0];
  EXPECT_EQ(c.surface_count(), 8u);
  EXPECT_EQ(c.width_columns, 3u);
  EXPECT_EQ(c.tiles.size(), 1u);
  const SurfaceId corner = SurfaceAt(c, 0, 0);
  EXPECT_TRUE(HasLink(c.links[corner][0]));           // east
  EXPECT_TRUE(HasLink(c.links[corner][2]));           // +y
  EXPECT_TRUE(HasLink(c.links[corner][1]) == false);  // diagonal into the wall
  EXPECT_EQ(SurfaceAt(c, 1, 1), kInvalidId);
  EXPECT_EQ(c.region_count(), 1u);
}

TEST(GridTest, RegionsSeparateWhatNoLinkJoins) {
  const World world = AsciiWorld({
      "..@..",
      "..@..",
      "..@..",
  });
  const Continent& c = world.continents[0];
  EXPECT_EQ(c.region_count(), 2u);
  EXPECT_NE(c.region[SurfaceAt(c, 0, 0)], c.region[SurfaceAt(c, 4, 0)]);
  EXPECT_EQ(c.region_size[c.region[SurfaceAt(c, 0, 0)]], 6u);
}

TEST(GridTest, WaterIsEnteredOnlyFromWaterButLeftFreely) {
  const World world = AsciiWorld({".WW"});
  const Continent& c = world.continents[0];
  const SurfaceId ground = SurfaceAt(c, 0, 0), water = SurfaceAt(c, 1, 0);
  EXPECT_FALSE(HasLink(c.links[ground][0]));  // ground -> water: refused
  EXPECT_TRUE(HasLink(c.links[water][4]));    // water -> ground: allowed
  EXPECT_EQ(LinkKindOf(c.links[water][0]), LinkKind::kSwim);
  EXPECT_EQ(c.region_count(), 1u);  // regions take links either way
}

TEST(GridTest, StackedSurfacesLinkByHeightAndFallOneWay) {
  // Column 1 holds a river bed (-0.5) under a deck (2.0); columns 0 and 2 hold a ledge at 2.0
  // and ground at 0. Walking the deck and the bed both work; from the deck one can fall.
  ContinentBuilder builder(7, 3, 1);
  SurfaceSpec ground, bed, deck, ledge;
  bed.height_yards = -0.5f;
  bed.flags = kFlagWater;
  bed.headroom_yards = 2.5f;
  deck.height_yards = 2.0f;
  deck.flags = kFlagBuilding;
  ledge.height_yards = 2.0f;
  builder.AddSurface(0, 0, ground);
  builder.AddSurface(1, 0, deck);  // any order: stacked by height
  builder.AddSurface(1, 0, bed);
  builder.AddSurface(2, 0, ledge);
  auto built = builder.Build(LinkRules{});
  ASSERT_TRUE(built.ok()) << built.status();
  const Continent& c = *built;
  EXPECT_EQ(c.id, 7u);
  EXPECT_EQ(c.MaxFloors(), 2u);
  SurfaceId first, end;
  c.ColumnSurfaces(1, 0, &first, &end);
  ASSERT_EQ(end - first, 2u);
  const SurfaceId bed_id = first, deck_id = first + 1;
  EXPECT_FLOAT_EQ(c.height_yards[bed_id], -0.5f);
  // ground (0) -> bed (-0.5): a step down into water.
  EXPECT_EQ(LinkKindOf(c.links[SurfaceAt(c, 0, 0)][0]), LinkKind::kSwim);
  EXPECT_EQ(LinkLevel(c.links[SurfaceAt(c, 0, 0)][0]), 0);
  // deck (2.0) -> ledge (2.0): walk; deck -> ground (0): a fall; ground -> deck: nothing up.
  EXPECT_EQ(LinkKindOf(c.links[deck_id][0]), LinkKind::kWalk);
  EXPECT_EQ(LinkKindOf(c.links[deck_id][4]), LinkKind::kFall);
  EXPECT_EQ(c.LinkTarget(deck_id, 4), SurfaceAt(c, 0, 0));
  // The bed cannot climb onto the ledge.
  EXPECT_FALSE(HasLink(c.links[bed_id][0]));
}

TEST(GridTest, RefusesMoreThan31SurfacesInAColumn) {
  ContinentBuilder builder(0, 1, 1);
  for (int i = 0; i < 32; ++i) {
    SurfaceSpec s;
    s.height_yards = static_cast<float>(i * 3);
    builder.AddSurface(0, 0, s);
  }
  auto built = builder.Build(LinkRules{});
  EXPECT_EQ(built.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(built.status().message().find("more than 31"), std::string::npos);
}

TEST(GridTest, ContentIdFollowsContentOnly) {
  const World a = AsciiWorld({"....", "...."});
  const World b = AsciiWorld({"....", "...."});
  const World c = AsciiWorld({"....", "..@."});
  EXPECT_EQ(a.content_id, b.content_id);
  EXPECT_NE(a.content_id, c.content_id);
  World d = a;
  d.column_yards = 2.0;
  EXPECT_NE(ComputeContentId(d), a.content_id);
}

// The content id is half of every walk-store key: a change to what it hashes (a field added,
// dropped or reordered) silently invalidates every stored answer, so its value is pinned here,
// and so is the grid file's layout.
TEST(GridTest, ContentIdAndFileOfAFixedWorldArePinned) {
  const World world = FixedWorld();
  EXPECT_EQ(FormatId(world.content_id), "224d0d2730f09a89");
  EXPECT_EQ(FormatId(world.continents[0].content_id), "7b0fe90269d77a78");
  EXPECT_EQ(FormatId(world.continents[1].content_id), "455eda27eedc3327");
  EXPECT_EQ(world.MemoryBytes(), 524548u);
  const std::string dir = TestDir("grid-pinned");
  ASSERT_TRUE(SaveWorld(world, "test:fixed", dir).ok());
  std::ifstream in(dir + "/" + kGridFileName, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ContentHasher file_hash;
  file_hash.AddBytes(bytes.data(), bytes.size());
  EXPECT_EQ(bytes.size(), 524767u);  // each continent's origin and note
  EXPECT_EQ(FormatId(file_hash.Finish()), "d3465a8c543020af");
  auto loaded = LoadWorld(dir);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->world.content_id, world.content_id);
  EXPECT_EQ(loaded->world.zones[1].name, "Ashen Reach");
  EXPECT_EQ(loaded->world.continents[0].lifts.size(), 2u);
  EXPECT_EQ(loaded->world.continents[0].lifts[0].wait_seconds, 20.0f);
  EXPECT_EQ(loaded->world.continents[0].lifts[0].shaft_yards_per_second, 2.5f);
  ASSERT_EQ(loaded->world.layers.size(), 1u);
  EXPECT_EQ(loaded->world.layers[0].file, "zones.geojson");
  EXPECT_EQ(loaded->world.layers[0].hash, 0x0123456789abcdefu);
  EXPECT_EQ(loaded->world.layers[0].summary, "2 zones, 6 columns");
  std::filesystem::remove_all(dir);
}

// A world's record of its layers names files, not answers: it is saved but leaves the content id
// alone; a lift's timing decides answers and is in it.
TEST(GridTest, LayerRecordsAreStoredNotHashedAndLiftTimingIsHashed) {
  World world = FixedWorld();
  const std::uint64_t id = world.content_id;
  world.layers.push_back({"roads", "roads.geojson", 7, "12 columns"});
  EXPECT_EQ(ComputeContentId(world), id);
  world.layers.clear();
  EXPECT_EQ(ComputeContentId(world), id);
  world.continents[0].lifts[0].wait_seconds = 21.0f;
  EXPECT_NE(ComputeContentId(world), id);
  world.continents[0].lifts[0].wait_seconds = 20.0f;
  world.continents[0].lifts[1].shaft_yards_per_second = 3.0f;
  EXPECT_NE(ComputeContentId(world), id);
}

TEST(GridFormatTest, SavesAndLoadsTheSameWorld) {
  const World world = AsciiWorld({"..W.", "@.WW", "...."});
  const std::string dir = TestDir("grid");
  ASSERT_TRUE(SaveWorld(world, "test:ascii", dir).ok());
  auto loaded = LoadWorld(dir);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->source, "test:ascii");
  EXPECT_EQ(loaded->world.content_id, world.content_id);
  const Continent& a = world.continents[0];
  const Continent& b = loaded->world.continents[0];
  EXPECT_EQ(a.links, b.links);
  EXPECT_EQ(a.column_x, b.column_x);
  EXPECT_EQ(a.region, b.region);
  std::filesystem::remove_all(dir);
}

TEST(GridFormatTest, RefusesDamagedAndTruncatedFiles) {
  const World world = AsciiWorld({"....", "...."});
  const std::string dir = TestDir("grid-damaged");
  ASSERT_TRUE(SaveWorld(world, "t", dir).ok());
  const std::string path = dir + "/" + kGridFileName;
  const auto size = std::filesystem::file_size(path);
  {
    // Flip one byte near the end (a link).
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size - 3));
    f.put('\x02');
  }
  EXPECT_EQ(LoadWorld(dir).status().code(), absl::StatusCode::kDataLoss);
  std::filesystem::resize_file(path, size / 2);
  auto truncated = LoadWorld(dir);
  EXPECT_EQ(truncated.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(truncated.status().message().find("damaged"), std::string::npos);
  {
    std::ofstream f(path, std::ios::trunc);
    f << "not a grid";
  }
  EXPECT_EQ(LoadWorld(dir).status().code(), absl::StatusCode::kDataLoss);
  std::filesystem::remove_all(dir);
  EXPECT_EQ(LoadWorld(dir).status().code(), absl::StatusCode::kNotFound);
}

// The bytes of a grid file's preamble and header (docs/formats.md), `continents` announced.
std::string GridHeader(double column_yards, std::uint32_t continents) {
  std::string bytes = "WALKGRID";
  auto put = [&bytes](const auto& value) {
    bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
  };
  put(kGridFormatVersion);
  put(std::uint64_t{0});  // the content id: never reached
  put(column_yards);
  put(std::uint32_t{0});  // an empty note
  put(continents);
  return bytes;
}

// A continent's header: an extent of `tiles` x `tiles` tiles, no tile and no surface in the
// file, then no lift.
std::string EmptyContinent(std::uint32_t id, std::uint32_t tiles, std::int64_t origin_x = 0) {
  std::string bytes;
  auto put = [&bytes](const auto& value) {
    bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
  };
  put(id);
  put(origin_x);
  put(std::int64_t{0});   // origin_y
  put(std::uint32_t{0});  // an empty source note
  for (std::uint32_t value : {tiles, tiles, tiles * kTileColumns, tiles * kTileColumns, 0u, 0u,
                              /*lifts=*/0u}) {
    put(value);
  }
  return bytes;
}

TEST(GridFormatTest, RefusesSizesBeyondTheLimitsBeforeAllocating) {
  auto refused = [](const std::string& bytes, const std::string& what) {
    absl::StatusOr<LoadedWorld> loaded = ParseGrid(bytes, "limits/grid.walkgrid");
    EXPECT_EQ(loaded.status().code(), absl::StatusCode::kDataLoss) << what;
    EXPECT_NE(loaded.status().message().find(what), std::string::npos) << loaded.status();
  };
  refused(GridHeader(1e-9, 0), "column size 1e-09 yards is not in 0.001 .. 1000");
  refused(GridHeader(std::nan(""), 0), "column size nan");
  refused(GridHeader(1.0, 1) + EmptyContinent(0, 1, std::numeric_limits<std::int64_t>::min()),
          "continent 0's origin column");
  refused(GridHeader(1.0, 5000), "header: a count of 5000, more than the 4096");
  // Five continents of the largest extent: the fifth is refused before its tile index.
  std::string five = GridHeader(1.0, 5);
  for (std::uint32_t id = 0; id < 5; ++id) five += EmptyContinent(id, 256);
  refused(five, "extents hold 327680 tiles up to continent 4, more than the 262144");
  // Four are sound sizes: the file ends for another reason (no zones part).
  std::string four = GridHeader(1.0, 4);
  for (std::uint32_t id = 0; id < 4; ++id) four += EmptyContinent(id, 256);
  refused(four, "truncated zones");
}

TEST(GridFormatTest, RefusesAHeadroomThatIsNotANumber) {
  World world = AsciiWorld({"..", ".."});
  world.continents[0].headroom_yards[1] = std::nanf("");
  AssignContentIds(world);
  const std::string dir = TestDir("grid-headroom");
  ASSERT_TRUE(SaveWorld(world, "t", dir).ok());
  absl::StatusOr<LoadedWorld> loaded = LoadWorld(dir);
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(loaded.status().message().find("headroom"), std::string::npos) << loaded.status();
  std::filesystem::remove_all(dir);
}

// The bytes of continent `k` of the grid file of `world` (saved with an empty note): the file
// less its preamble and header before it and everything after it.
std::string ContinentBytes(World world, std::size_t k) {
  const std::string dir = TestDir("grid-continent-bytes");
  World alone = world;
  alone.continents.erase(alone.continents.begin() + static_cast<std::ptrdiff_t>(k) + 1,
                         alone.continents.end());
  AssignContentIds(alone);
  EXPECT_TRUE(SaveWorld(alone, "", dir).ok());
  std::ifstream in(dir + "/" + kGridFileName, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove_all(dir);
  World before = alone;
  before.continents.pop_back();
  AssignContentIds(before);
  EXPECT_TRUE(SaveWorld(before, "", dir).ok());
  std::ifstream in_before(dir + "/" + kGridFileName, std::ios::binary);
  const std::string head((std::istreambuf_iterator<char>(in_before)),
                         std::istreambuf_iterator<char>());
  std::filesystem::remove_all(dir);
  // Both end in the same zones and layers; the longer holds continent k where they differ.
  const std::size_t tail = 8;  // no zones, no layers: two counts
  return bytes.substr(head.size() - tail, bytes.size() - head.size());
}

World OneContinent(const std::vector<std::string>& rows, std::int64_t origin_x,
                   const std::string& source) {
  World world = AsciiWorld(rows);
  world.continents[0].origin_column_x = origin_x;
  world.continents[0].source = source;
  AssignContentIds(world);
  return world;
}

TEST(WorldAssemblyTest, AContinentPutIntoAWorldLeavesEveryOtherByteForByte) {
  World world;
  ASSERT_TRUE(PutContinent(world, OneContinent({"...", ".@."}, -7, "a"), 0, false).ok());
  ASSERT_TRUE(PutContinent(world, OneContinent({"....", "...."}, 50, "c"), 5, false).ok());
  const World two = world;
  ASSERT_TRUE(PutContinent(world, OneContinent({"..", ".."}, 0, "b"), 2, false).ok());
  ASSERT_EQ(world.continents.size(), 3u);
  EXPECT_EQ(world.continents[1].id, 2u);  // in id order
  EXPECT_EQ(world.continents[0].content_id, two.continents[0].content_id);
  EXPECT_EQ(world.continents[2].content_id, two.continents[1].content_id);
  EXPECT_NE(world.content_id, two.content_id);
  EXPECT_EQ(ContinentBytes(world, 0), ContinentBytes(two, 0));
  EXPECT_EQ(ContinentBytes(world, 2), ContinentBytes(two, 1));
  // Each continent keeps its own frame.
  EXPECT_EQ(world.FrameOf(world.continents[0]).origin_x, -7);
  EXPECT_EQ(world.FrameOf(world.continents[2]).origin_x, 50);
  EXPECT_EQ(AssembledNote(world), "continents 0: a, 2: b, 5: c");

  // Replaced: only continent 2 changes.
  World replaced = world;
  ASSERT_TRUE(PutContinent(replaced, OneContinent({"...."}, 0, "b2"), 2, true).ok());
  EXPECT_EQ(replaced.continents[0].content_id, world.continents[0].content_id);
  EXPECT_NE(replaced.continents[1].content_id, world.continents[1].content_id);
  EXPECT_EQ(replaced.continents[2].content_id, world.continents[2].content_id);
  EXPECT_EQ(ComputeContentId(replaced), replaced.content_id);

  // Saved and loaded, the ids are derived again alike.
  const std::string dir = TestDir("grid-assembled");
  ASSERT_TRUE(SaveWorld(replaced, AssembledNote(replaced), dir).ok());
  absl::StatusOr<LoadedWorld> loaded = LoadWorld(dir);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(loaded->world.continents[k].content_id, replaced.continents[k].content_id);
    EXPECT_EQ(loaded->world.continents[k].source, replaced.continents[k].source);
  }
  std::filesystem::remove_all(dir);
}

TEST(WorldAssemblyTest, RefusesAnotherColumnSizeAndAPresentIdAndRenumbersAClashingZone) {
  World world;
  ASSERT_TRUE(PutContinent(world, OneContinent({".."}, 0, "a"), 0, false).ok());
  World wide = OneContinent({".."}, 0, "w");
  wide.column_yards = 0.5;
  absl::Status s = PutContinent(world, wide, 1, false);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("the world's columns are 1 yards, the continent's 0.5 yards"),
            std::string::npos)
      << s;
  s = PutContinent(world, OneContinent({"."}, 0, "again"), 0, false);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("already has continent 0 (a): --replace replaces it"),
            std::string::npos)
      << s;
  // A zone whose id the world gives another zone takes the lowest free id, its surfaces with it.
  world.zones = {{3, "Vale", 1, 5}};
  World zoned = OneContinent({".."}, 0, "z");
  zoned.continents[0].zone[1] = 3;
  zoned.zones = {{1, "Moor", 2, 5}, {3, "Vale", 2, 5}};
  std::vector<std::string> renumbered;
  World with = world;
  ASSERT_TRUE(PutContinent(with, zoned, 1, false, &renumbered).ok());
  ASSERT_EQ(renumbered.size(), 1u);
  EXPECT_EQ(renumbered[0], "zone 3 \"Vale\" is zone 2");
  ASSERT_EQ(with.zones.size(), 3u);
  EXPECT_EQ(with.zones[1].id, 2);
  EXPECT_EQ(with.zones[1].min_level, 2);
  EXPECT_EQ(with.continents[1].zone[1], 2);
  EXPECT_EQ(with.continents[1].zone[0], 0);
  EXPECT_EQ(world.continents.size(), 1u);  // nothing changed
}

}  // namespace
}  // namespace walk::nav
