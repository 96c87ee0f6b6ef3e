// The live world set: worlds created, reset and dropped while others serve, within limits; the
// world frame (cell size and origin) every world-unit place goes through.
#include "nav/live/world_set.h"

#include <gtest/gtest.h>

#include <thread>

#include "nav/live/fallback_queue.h"

namespace walk::nav::live {
namespace {

// A 6 x 3 yard with a wall down column 3, open at the bottom row.
constexpr char kYardMap[] =
    "type octile\nheight 3\nwidth 6\nmap\n"
    "...@..\n"
    "...@..\n"
    "......\n";

LiveWorldSource Yard(std::string layers = "") {
  LiveWorldSource source;
  source.map_text = kYardMap;
  source.layer_text = std::move(layers);
  return source;
}

TEST(LiveWorldFrameTest, CellsAndWorldUnitsMeetAtTheOrigin) {
  const WorldFrame frame{2.0, WorldPoint{100.0, -50.0}};
  EXPECT_EQ(frame.CellHolding(WorldPoint{100.0, -50.0}), (Cell{0, 0}));
  EXPECT_EQ(frame.CellHolding(WorldPoint{103.9, -46.1}), (Cell{1, 1}));
  EXPECT_EQ(frame.CellHolding(WorldPoint{99.9, -50.0}), (Cell{-1, 0}));
  const WorldPoint centre = frame.Centre(Cell{2, 1});
  EXPECT_DOUBLE_EQ(centre.x, 105.0);
  EXPECT_DOUBLE_EQ(centre.y, -47.0);
  const CellPoint back = frame.ToCells(centre);
  EXPECT_DOUBLE_EQ(back.x, 2.5);
  EXPECT_DOUBLE_EQ(back.y, 1.5);
}

TEST(WorldSetTest, CreatedWorldsServeWithTheirOriginAndCellSize) {
  LiveWorldSet set({}, {});
  LiveWorldSource source = Yard("building 1 104 -50 106 -48\n");
  source.cell_size = 2.0;
  source.origin = WorldPoint{100.0, -50.0};
  auto entry = set.Add("match-1", source, WorldKind::kCreated);
  ASSERT_TRUE(entry.ok()) << entry.status();
  // The building at world x 104..106 is cell column 2.
  auto value = entry->world->At(Cell{2, 0});
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(*value, CellValue::kBuilding);
  EXPECT_EQ(entry->world->CellAt(WorldPoint{105.0, -49.0}), (Cell{2, 0}));
  // A blocker change in world units lands by the same frame.
  auto update = entry->world->UpdateBlockers(
      std::vector{BlockerChange::AddBuilding(2, WorldRect{100, -46, 102, -44})});
  ASSERT_TRUE(update.ok()) << update.status();
  EXPECT_EQ(*entry->world->At(Cell{0, 2}), CellValue::kBuilding);
  // A point off the map names the map's extent in world units.
  auto off = entry->world->UpdateBlockers(
      std::vector{BlockerChange::PlaceResource(WorldPoint{0, 0}, CellValue::kTree)});
  ASSERT_FALSE(off.ok());
  EXPECT_NE(off.status().message().find("x 100 to 112, y -50 to -44"), std::string::npos)
      << off.status();
}

TEST(WorldSetTest, TheLayerFileMaySayTheFrameButNotAnotherOne) {
  LiveWorldSet set({}, {});
  auto same = set.Add("a", Yard("cell_size 2\norigin 10 10\nbuilding 1 10 10 12 12\n"),
                      WorldKind::kCreated);
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(same->world->frame().cell_size, 2.0);
  EXPECT_EQ(*same->world->At(Cell{0, 0}), CellValue::kBuilding);
  LiveWorldSource other = Yard("cell_size 2\n");
  other.cell_size = 3.0;
  auto refused = set.Add("b", other, WorldKind::kCreated);
  ASSERT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(refused.status().message(), "cell_size: 3 differs from the layer file's 2");
  auto late = set.Add("c", Yard("building 1 0 0 1 1\norigin 5 5\n"), WorldKind::kCreated);
  ASSERT_EQ(late.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(late.status().message(), "layers: layer line 2: origin must come before any placement");
  EXPECT_EQ(set.size(), 1u);
  EXPECT_EQ(set.cells(), 18u);  // nothing of the refused ones is held
}

TEST(WorldSetTest, BadMapsAndNamesAreRefusedNamingTheField) {
  LiveWorldSet set({}, {});
  LiveWorldSource bad = Yard();
  bad.map_text = "type octile\nheight 2\nwidth 2\nmap\n..\n.?\n";
  auto map = set.Add("a", bad, WorldKind::kCreated);
  ASSERT_EQ(map.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(map.status().message().rfind("map_text: ", 0), 0u) << map.status();
  EXPECT_NE(map.status().message().find("row 1"), std::string::npos) << map.status();
  for (const char* name : {"", ".hidden", "a/b", "a b", "x\n"}) {
    auto s = set.Add(name, Yard(), WorldKind::kCreated);
    ASSERT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument) << name;
    EXPECT_EQ(s.status().message().rfind("name: ", 0), 0u) << s.status();
  }
  ASSERT_TRUE(set.Add("ok.map-1_b", Yard(), WorldKind::kCreated).ok());
  auto again = set.Add("ok.map-1_b", Yard(), WorldKind::kCreated);
  EXPECT_EQ(again.status().code(), absl::StatusCode::kAlreadyExists);
}

TEST(WorldSetTest, LimitsAreResourceExhaustedNamingTheFlag) {
  LiveWorldLimits limits;
  limits.max_worlds = 2;
  limits.max_world_cells = 20;
  limits.max_cells = 30;
  limits.max_map_bytes = 100;
  limits.max_layer_bytes = 10;
  limits.max_name_length = 8;
  LiveWorldSet set(limits, {});
  auto expect = [&](absl::StatusOr<LiveWorldEntry> s, const char* flag) {
    ASSERT_EQ(s.status().code(), absl::StatusCode::kResourceExhausted) << s.status();
    EXPECT_EQ(s.status().message().rfind(flag, 0), 0u) << s.status();
  };
  expect(set.Add("too-long-a-name", Yard(), WorldKind::kCreated), "live-max-name-length");
  expect(set.Add("a", Yard("# a comment longer than ten bytes\n"), WorldKind::kCreated),
         "live-max-layer-bytes");
  LiveWorldSource big = Yard();
  big.map_text = "type octile\nheight 5\nwidth 5\nmap\n.....\n.....\n.....\n.....\n.....\n";
  expect(set.Add("a", big, WorldKind::kCreated), "live-max-world-cells");
  big.map_text.append(std::string(60, '\n'));
  expect(set.Add("a", big, WorldKind::kCreated), "live-max-map-bytes");
  ASSERT_TRUE(set.Add("a", Yard(), WorldKind::kCreated).ok());
  expect(set.Add("b", Yard(), WorldKind::kCreated), "live-max-cells");  // 18 + 18 > 30
  // Folder worlds load whatever the limits, and count toward them.
  ASSERT_TRUE(set.Add("folder", Yard(), WorldKind::kFolder).ok());
  expect(set.Add("c", Yard(), WorldKind::kCreated), "live-max-worlds");
  ASSERT_TRUE(set.Drop("a").ok());
  EXPECT_EQ(set.cells(), 18u);
}

TEST(WorldSetTest, AResetIsTheCreatedStateWithALaterRevision) {
  LiveWorldSet set({}, {});
  auto created = set.Add("m", Yard(), WorldKind::kCreated);
  ASSERT_TRUE(created.ok());
  std::shared_ptr<LiveWorld> old = created->world;
  ASSERT_TRUE(
      old->UpdateBlockers(std::vector{BlockerChange::AddBuilding(7, WorldRect{0, 2, 6, 3})}).ok());
  auto before = old->FindPath(PathRequest{Cell{0, 0}, Cell{5, 0}});
  ASSERT_TRUE(before.ok());
  EXPECT_EQ(before->status, PathStatus::kUnreachable);
  const std::uint64_t revision = old->revision();
  auto reset = set.Reset("m");
  ASSERT_TRUE(reset.ok()) << reset.status();
  EXPECT_EQ(reset->resets, 1u);
  EXPECT_GT(reset->world->revision(), revision);
  auto after = reset->world->FindPath(PathRequest{Cell{0, 0}, Cell{5, 0}});
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->status, PathStatus::kFound);
  EXPECT_FALSE(after->from_cache);
  EXPECT_EQ(reset->world->footprint_count(), 0u);
  // The old world still answers a call that found it before the reset.
  EXPECT_EQ(old->FindPath(PathRequest{Cell{0, 0}, Cell{5, 0}})->status, PathStatus::kUnreachable);
}

TEST(WorldSetTest, ADroppedWorldLivesOnlyAsLongAsTheCallsOnIt) {
  LiveWorldSet set({}, {});
  ASSERT_TRUE(set.Add("folder", Yard(), WorldKind::kFolder).ok());
  EXPECT_EQ(set.Drop("folder").status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(set.Add("m", Yard(), WorldKind::kCreated).ok());
  std::shared_ptr<LiveWorld> in_flight = *set.Find("m");
  std::weak_ptr<LiveWorld> watch = in_flight;
  ASSERT_TRUE(set.Drop("m").ok());
  EXPECT_EQ(set.Find("m").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(in_flight->FindPath(PathRequest{Cell{0, 0}, Cell{5, 0}})->status, PathStatus::kFound);
  in_flight.reset();
  EXPECT_TRUE(watch.expired());
  EXPECT_EQ(set.Drop("m").status().code(), absl::StatusCode::kNotFound);
}

TEST(WorldSetTest, TheFallbackQueueKeepsAWorldUntilItsSearchesAreServedOrForgotten) {
  LiveWorldSet set({}, {});
  ASSERT_TRUE(set.Add("m", Yard(), WorldKind::kCreated).ok());
  FallbackQueue queue;
  std::weak_ptr<LiveWorld> watch;
  {
    std::shared_ptr<LiveWorld> world = *set.Find("m");
    watch = world;
    ASSERT_TRUE(queue.Push(world, DeferredSearch{Cell{0, 0}, Cell{5, 0}, Passability::kLight}));
    ASSERT_TRUE(set.Drop("m").ok());
  }
  EXPECT_FALSE(watch.expired());  // its search still waits
  EXPECT_EQ(queue.Forget(watch.lock().get()), 1u);
  EXPECT_TRUE(watch.expired());
  EXPECT_EQ(queue.Counters().waiting, 0u);
  EXPECT_EQ(queue.Serve(10), 0u);
}

TEST(WorldSetTest, WorldsComeAndGoWhileAnotherServes) {
  LiveWorldSet set({}, {});
  ASSERT_TRUE(set.Add("a", Yard(), WorldKind::kCreated).ok());
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> found{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 4; ++t) {
    readers.emplace_back([&] {
      while (!stop.load()) {
        auto world = set.Find("a");
        ASSERT_TRUE(world.ok());
        auto path = (*world)->FindPath(PathRequest{Cell{0, 0}, Cell{5, 0}});
        ASSERT_TRUE(path.ok());
        if (path->status == PathStatus::kFound) ++found;
      }
    });
  }
  // At least 50 rounds, and on until the readers have found paths (a busy machine may not have
  // run them yet).
  for (int round = 0; round < 50 || (found.load() == 0 && round < 1'000'000); ++round) {
    ASSERT_TRUE(set.Add("b", Yard(), WorldKind::kCreated).ok());
    auto b = set.Find("b");
    ASSERT_TRUE(b.ok());
    ASSERT_TRUE(
        (*b)->UpdateBlockers(std::vector{BlockerChange::AddBuilding(1, {0, 0, 1, 1})}).ok());
    ASSERT_TRUE(set.Drop("b").ok());
  }
  stop = true;
  for (std::thread& t : readers) t.join();
  EXPECT_GT(found.load(), 0u);
  EXPECT_EQ(set.Names(), std::vector<std::string>{"a"});
  EXPECT_EQ(set.cells(), 18u);
}

}  // namespace
}  // namespace walk::nav::live
