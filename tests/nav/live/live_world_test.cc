// The facade in the scenarios of the RTS specification, drawn in ASCII: a gate shut then opened, a
// bridge over a river, forest for heavy and light units, a harvested tree, a building finishing on
// a unit's path, the cache on a new revision; group paths; update validation; files; counters;
// threads.
#include "nav/live/live_world.h"

#include <atomic>
#include <cmath>
#include <fstream>
#include <thread>

#include "gtest/gtest.h"
#include "nav/import/movingai.h"
#include "nav/live/live_search.h"
#include "nav/live/taut_path.h"
#include "tests/nav/live/ascii_live.h"

namespace walk::nav::live {
namespace {

using testing::AsciiWorld;
using testing::DrawPath;
using testing::DrawRows;
using Rows = std::vector<std::string>;
using testing::kHeavy;
using testing::kLight;

LivePath Path(LiveWorld& world, Cell a, Cell b, Passability p = kLight) {
  absl::StatusOr<LivePath> path = world.FindPath({a, b, p});
  EXPECT_TRUE(path.ok()) << path.status();
  return path.ok() ? *std::move(path) : LivePath{};
}

UpdateResult Update(LiveWorld& world, std::vector<BlockerChange> changes) {
  absl::StatusOr<UpdateResult> r = world.UpdateBlockers(changes);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : UpdateResult{};
}

// Every leg of the taut path is clear for `p`, and the cells are worth the cost.
void ExpectSound(const LiveWorld& world, const LivePath& path, Passability p) {
  ASSERT_EQ(path.status, PathStatus::kFound);
  ASSERT_FALSE(path.waypoints.empty());
  EXPECT_EQ(path.waypoints.front(), path.cells.front());
  EXPECT_EQ(path.waypoints.back(), path.cells.back());
  world.Inspect([&](const LiveGrid& grid, const Layers&) {
    EXPECT_EQ(PriceCells(grid, path.cells, p), path.cost);
    for (std::size_t k = 1; k < path.waypoints.size(); ++k) {
      EXPECT_TRUE(SegmentClear(grid, path.waypoints[k - 1], path.waypoints[k], p, true));
    }
  });
}

TEST(LiveWorldScenarioTest, AGateShutThenOpened) {
  auto world = AsciiWorld({".........", ".........", ".........", ".........", "........."},
                          "building 1 0 2 9 3\n"
                          "gate 2 1 4 2 5 3 shut\n");
  EXPECT_EQ(DrawRows(*world)[2], "BBBBGBBBB");
  LivePath shut = Path(*world, {4, 0}, {4, 4});
  EXPECT_EQ(shut.status, PathStatus::kUnreachable);
  EXPECT_EQ(world->Counters().searches, 0u);  // answered from the regions
  EXPECT_EQ(world->Counters().region_answers, 1u);

  const std::uint64_t before = world->revision();
  const UpdateResult opened = Update(*world, {BlockerChange::OpenGate(2)});
  EXPECT_EQ(opened.revision, before + 1);
  EXPECT_EQ(opened.dirty_cells, 1u);  // the gate's own cell, nothing else
  EXPECT_FALSE(opened.full_rebuild);
  LivePath open = Path(*world, {4, 0}, {4, 4});
  ExpectSound(*world, open, kLight);
  // Straight through: the cells beside the gate touch the wall (+1 each), no turn.
  EXPECT_EQ(open.cost, 4u * 10 + 3);
  EXPECT_EQ(DrawPath(*world, open.cells),
            (Rows{"....S....", "....*....", "BBBB*BBBB", "....*....", "....G...."}));
  EXPECT_EQ(open.waypoints, (std::vector<Cell>{{4, 0}, {4, 4}}));

  Update(*world, {BlockerChange::ShutGate(2)});
  EXPECT_EQ(Path(*world, {4, 0}, {4, 4}).status, PathStatus::kUnreachable);
}

TEST(LiveWorldScenarioTest, ABridgeOverARiver) {
  auto world = AsciiWorld(
      {"..........", "..........", "RRRRRRRRRR", "RRRRRRRRRR", "..........", ".........."},
      "bridge 6 2 7 4\n");
  for (Passability p : {kLight, kHeavy}) {
    LivePath path = Path(*world, {6, 0}, {6, 5}, p);
    ExpectSound(*world, path, p);
    // Straight down the deck; every cell from row 1 to row 4 touches water (+1).
    EXPECT_EQ(path.cost, 5u * 10 + 4);
    EXPECT_EQ(DrawPath(*world, path.cells), (Rows{"......S...", "......*...", "~~~~~~*~~~",
                                                  "~~~~~~*~~~", "......*...", "......G..."}));
    // The deck's cells are waypoints of their own: legs across a portal stay cell by cell.
    EXPECT_EQ(path.waypoints, (std::vector<Cell>{{6, 0}, {6, 2}, {6, 3}, {6, 5}}));
  }
  // From far along the bank the approach is pulled taut up to the deck.
  LivePath far = Path(*world, {0, 0}, {9, 5});
  ExpectSound(*world, far, kLight);
  EXPECT_TRUE(std::find(far.waypoints.begin(), far.waypoints.end(), Cell{6, 2}) !=
              far.waypoints.end());
}

TEST(LiveWorldScenarioTest, ForestForHeavyAndLightUnits) {
  auto world =
      AsciiWorld({"...........", "...FFFFF...", "...FFFFF...", "...FFFFF...", "..........."});
  LivePath light = Path(*world, {0, 2}, {10, 2}, kLight);
  ExpectSound(*world, light, kLight);
  EXPECT_EQ(light.cost, 100u);  // straight through the wood
  EXPECT_EQ(DrawPath(*world, light.cells)[2], "S*********G");

  LivePath heavy = Path(*world, {0, 2}, {10, 2}, kHeavy);
  ExpectSound(*world, heavy, kHeavy);
  for (Cell c : heavy.cells) EXPECT_NE(*world->At(c), CellValue::kForest);
  // Round the wood: up a diagonal, 5 cells along its edge, down a diagonal. Priced against the
  // forest (closed to heavy units), with turns.
  EXPECT_GT(heavy.cost, light.cost);
  world->Inspect([&](const LiveGrid& grid, const Layers&) {
    LiveSearch search;
    EXPECT_EQ(search.FindPath(grid, {0, 2}, {10, 2}, kHeavy).cost, heavy.cost);
  });
  // The cache keeps them apart: the light answer is never served to the heavy unit.
  EXPECT_NE(Path(*world, {0, 2}, {10, 2}, kHeavy).cells, light.cells);
  EXPECT_TRUE(Path(*world, {0, 2}, {10, 2}, kHeavy).from_cache);
  // An order into the wood resolves to its edge for a heavy unit, stays put for a light one.
  EXPECT_EQ(Path(*world, {0, 2}, {5, 2}, kLight).goal, (Cell{5, 2}));
  const LivePath to_wood = Path(*world, {0, 2}, {5, 2}, kHeavy);
  EXPECT_EQ(to_wood.status, PathStatus::kFound);
  EXPECT_NE(*world->At(to_wood.goal), CellValue::kForest);
}

TEST(LiveWorldScenarioTest, AHarvestedTree) {
  auto world = AsciiWorld({"...@...", "...T...", "...@..."});
  EXPECT_EQ(Path(*world, {0, 1}, {6, 1}).status, PathStatus::kUnreachable);
  const UpdateResult harvested = Update(*world, {BlockerChange::Harvest({3.5, 1.5})});
  EXPECT_EQ(harvested.dirty_cells, 1u);
  LivePath path = Path(*world, {0, 1}, {6, 1});
  ExpectSound(*world, path, kLight);
  EXPECT_EQ(path.cost, 60u + 3);  // (2,1) (3,1) (4,1) touch the rocks
  EXPECT_EQ(DrawPath(*world, path.cells), (Rows{"...#...", "S*****G", "...#..."}));
  // Nothing left to harvest there.
  const BlockerChange again = BlockerChange::Harvest({3.5, 1.5});
  absl::StatusOr<UpdateResult> r = world->UpdateBlockers({&again, 1});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find("changes[0]"), std::string::npos) << r.status();
}

TEST(LiveWorldScenarioTest, ABuildingFinishesOnTopOfAUnitsPath) {
  auto world = AsciiWorld({"............", "............", "............", "............",
                           "............", "............", "............"});
  LivePath before = Path(*world, {0, 3}, {11, 3});
  ExpectSound(*world, before, kLight);
  EXPECT_EQ(before.cost, 110u);
  // Construction finishes on cells 5..6 x 2..4, across the path.
  const UpdateResult placed = Update(*world, {BlockerChange::AddBuilding(40, {5, 2, 7, 5})});
  EXPECT_EQ(placed.dirty_cells, 6u);
  LivePath after = Path(*world, {0, 3}, {11, 3});
  ExpectSound(*world, after, kLight);
  EXPECT_FALSE(after.from_cache);
  EXPECT_EQ(after.revision, placed.revision);
  EXPECT_GT(after.cost, before.cost);
  for (Cell c : after.cells) EXPECT_EQ(*world->At(c), CellValue::kWalkable);
  bool old_path_blocked = false;
  for (Cell c : before.cells) old_path_blocked |= *world->At(c) == CellValue::kBuilding;
  EXPECT_TRUE(old_path_blocked);
  // A unit caught inside: its start is blocked; Nearest gives it the way out.
  EXPECT_EQ(Path(*world, {5, 3}, {11, 3}).status, PathStatus::kStartBlocked);
  EXPECT_EQ(*world->Nearest({5, 3}, kLight), (Cell{4, 3}));
}

TEST(LiveWorldScenarioTest, TheCacheNeverServesAnOlderRevision) {
  auto world = AsciiWorld({"..........", "..........", ".........."});
  LivePath first = Path(*world, {0, 0}, {9, 2});
  EXPECT_FALSE(first.from_cache);
  LivePath second = Path(*world, {0, 0}, {9, 2});
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(second.cells, first.cells);
  LiveCounters c = world->Counters();
  EXPECT_EQ(c.cache_hits, 1u);
  EXPECT_EQ(c.cache_misses, 1u);
  EXPECT_EQ(c.searches, 1u);

  // Anything at all changes: a new revision, and the same question is searched again.
  const UpdateResult r =
      Update(*world, {BlockerChange::PlaceResource({9.5, 0.5}, CellValue::kIronOre)});
  LivePath third = Path(*world, {0, 0}, {9, 2});
  EXPECT_FALSE(third.from_cache);
  EXPECT_EQ(third.revision, r.revision);
  EXPECT_GT(third.revision, first.revision);
  c = world->Counters();
  EXPECT_EQ(c.cache_misses, 2u);
  EXPECT_EQ(c.searches, 2u);
  EXPECT_EQ(c.revision, r.revision);
}

TEST(LiveWorldScenarioTest, ADiagonalWallIsSealedWithoutASearch) {
  auto world =
      AsciiWorld({"......@", ".....@.", "....@..", "...@...", "..@....", ".@.....", "@......"});
  EXPECT_EQ(Path(*world, {0, 0}, {6, 6}).status, PathStatus::kUnreachable);
  EXPECT_FALSE(*world->Reachable({0, 0}, {6, 6}, kLight));
  EXPECT_TRUE(*world->Reachable({0, 0}, {5, 0}, kLight));
  EXPECT_EQ(world->Counters().searches, 0u);
}

TEST(LiveWorldTest, ABlockedGoalResolvesTowardTheStart) {
  auto world = AsciiWorld({"....@@....", "....@@....", "....@@....", "....@@....", "....@@...."},
                          "gate 9 0 0 0 1 1 open\n");  // a gate owning nothing: reopens nothing
  LivePath left = Path(*world, {0, 2}, {4, 2});
  EXPECT_EQ(left.status, PathStatus::kFound);
  EXPECT_EQ(left.goal, (Cell{3, 2}));
  LivePath right = Path(*world, {9, 2}, {4, 2});
  EXPECT_EQ(right.goal, (Cell{6, 2}));
  absl::StatusOr<LivePath> raw = world->FindPath({{0, 2}, {4, 2}, kLight, false});
  EXPECT_EQ(raw->status, PathStatus::kGoalBlocked);
  EXPECT_EQ(*world->ResolveTarget({4, 2}, {9, 2}, kLight), (Cell{6, 2}));
}

TEST(LiveWorldTest, GroupsShareOneCorridorWhereSafe) {
  auto world = AsciiWorld({"....................", "....................", "....................",
                           "..........@.........", "..........@.........", "..........@.........",
                           "....................", "....................", "@@@@@@@@@@@@@@@@@@@@",
                           "...................."});
  std::vector<GroupMember> members = {
      {{1, 3}, kLight}, {{2, 4}, kLight},  {{1, 5}, kLight},
      {{3, 3}, kLight}, {{19, 0}, kLight},  // far from the others: its own search
      {{5, 9}, kLight},                     // behind the long wall: no path
  };
  absl::StatusOr<GroupPlan> plan = world->PathGroup(members, {17, 4});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->goal, (Cell{17, 4}));
  EXPECT_FALSE(plan->corridor.empty());
  EXPECT_EQ(plan->shared, 4u);
  EXPECT_EQ(plan->individual, 1u);
  EXPECT_EQ(plan->members[4].route, GroupRoute::kIndividual);
  EXPECT_EQ(plan->members[5].route, GroupRoute::kUnreachable);
  world->Inspect([&](const LiveGrid& grid, const Layers&) {
    for (std::size_t k = 0; k < 5; ++k) {
      const MemberPath& m = plan->members[k];
      ASSERT_FALSE(m.cells.empty()) << k;
      EXPECT_EQ(m.cells.front(), members[k].start);
      EXPECT_EQ(m.cells.back(), (Cell{17, 4}));
      EXPECT_EQ(PriceCells(grid, m.cells, kLight), m.cost) << k;
      for (std::size_t w = 1; w < m.waypoints.size(); ++w) {
        EXPECT_TRUE(SegmentClear(grid, m.waypoints[w - 1], m.waypoints[w], kLight, true));
      }
      if (m.route == GroupRoute::kShared) {
        // The member's path ends with the corridor's tail.
        EXPECT_TRUE(std::search(m.cells.begin(), m.cells.end(), plan->corridor.end() - 3,
                                plan->corridor.end()) != m.cells.end());
      }
    }
  });
  // One corridor search and one fallback search; no search for the unreachable member.
  const LiveCounters c = world->Counters();
  EXPECT_EQ(c.searches, 2u);
  EXPECT_EQ(c.group_routes, 1u);
  EXPECT_EQ(c.group_shared_members, 4u);
  EXPECT_EQ(c.group_individual_members, 1u);
}

TEST(LiveWorldTest, AGroupWalksTheHeaviestMembersCorridor) {
  auto world =
      AsciiWorld({"............", "....FFFF....", "....FFFF....", "....FFFF....", "............"});
  std::vector<GroupMember> members = {{{0, 2}, kLight}, {{1, 2}, kHeavy}, {{5, 2}, kLight}};
  absl::StatusOr<GroupPlan> plan = world->PathGroup(members, {11, 2});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->corridor_passability, kHeavy);
  for (Cell c : plan->corridor) EXPECT_NE(*world->At(c), CellValue::kForest);
  EXPECT_EQ(plan->members[0].route, GroupRoute::kShared);
  EXPECT_EQ(plan->members[1].route, GroupRoute::kShared);
  // Standing in the wood, the light member cannot join a heavy corridor: it goes alone, as Light.
  EXPECT_EQ(plan->members[2].route, GroupRoute::kIndividual);
  EXPECT_EQ(plan->members[2].cost, 60u);
}

TEST(LiveWorldTest, UpdatesAreValidatedAllOrNothing) {
  auto world = AsciiWorld({"........", "........"}, "building 1 0 0 1 1\ngate 2 1 2 0 3 1 shut\n");
  const std::uint64_t revision = world->revision();
  struct Case {
    std::vector<BlockerChange> changes;
    absl::StatusCode code;
    const char* says;
  };
  const Case cases[] = {
      {{BlockerChange::AddBuilding(5, {4, 0, 5, 1}), BlockerChange::RemoveBuilding(99)},
       absl::StatusCode::kNotFound,
       "changes[1]: building 99 not found"},
      {{BlockerChange::AddBuilding(1, {4, 0, 5, 1})},
       absl::StatusCode::kAlreadyExists,
       "changes[0]: entity 1 exists"},
      {{BlockerChange::AddBuilding(2, {4, 0, 5, 1})},
       absl::StatusCode::kAlreadyExists,
       "entity 2 exists"},
      {{BlockerChange::AddBuilding(6, {4, 0, 3, 1})},
       absl::StatusCode::kInvalidArgument,
       "changes[0].rect"},
      {{BlockerChange::AddBuilding(6, {40, 40, 41, 41})},
       absl::StatusCode::kInvalidArgument,
       "covers no cell"},
      {{BlockerChange::OpenGate(1)}, absl::StatusCode::kNotFound, "gate 1 not found"},
      {{BlockerChange::RemoveBuilding(2)}, absl::StatusCode::kNotFound, "building 2 not found"},
      {{BlockerChange::Harvest({50, 0})}, absl::StatusCode::kInvalidArgument, "off the map"},
      // Far past any int: named as asked, never as a wrapped cell.
      {{BlockerChange::Harvest({1e300, 1})},
       absl::StatusCode::kInvalidArgument,
       "changes[0].point: (1e+300, 1) lies off the map"},
      {{BlockerChange::PlaceResource({-1e300, 1}, CellValue::kTree)},
       absl::StatusCode::kInvalidArgument,
       "changes[0].point: (-1e+300, 1) lies off the map"},
      {{BlockerChange::AddBuilding(6, {1e300, 0, 1e300, 1})},
       absl::StatusCode::kInvalidArgument,
       "covers no cell"},
      {{BlockerChange::PlaceResource({5, 0}, CellValue::kBuilding)},
       absl::StatusCode::kInvalidArgument,
       "not a resource"},
      {{BlockerChange::PlaceResource({5, 0}, CellValue::kTree), BlockerChange::Harvest({5, 0}),
        BlockerChange::Harvest({5, 0})},
       absl::StatusCode::kNotFound,
       "changes[2]: no resource"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<UpdateResult> r = world->UpdateBlockers(c.changes);
    EXPECT_EQ(r.status().code(), c.code) << r.status();
    EXPECT_NE(r.status().message().find(c.says), std::string::npos) << r.status();
  }
  EXPECT_EQ(world->revision(), revision);
  EXPECT_EQ(*world->At({4, 0}), CellValue::kWalkable);  // the first case's building never landed
  // A batch that adds and then moves the same building is fine.
  const UpdateResult ok = Update(*world, {BlockerChange::AddBuilding(5, {4, 0, 5, 1}),
                                          BlockerChange::MoveBuilding(5, {6, 1, 7, 2})});
  EXPECT_EQ(ok.revision, revision + 1);
  EXPECT_EQ(*world->At({4, 0}), CellValue::kWalkable);
  EXPECT_EQ(*world->At({6, 1}), CellValue::kBuilding);
}

TEST(LiveWorldTest, QueriesOffTheMapAreInvalidArguments) {
  auto world = AsciiWorld({"....", "...."});
  absl::StatusOr<LivePath> p = world->FindPath({{0, 0}, {4, 0}, kLight});
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(p.status().message().find("goal: (4, 0) is off the 4 x 2 map"), std::string::npos)
      << p.status();
  EXPECT_EQ(world->Reachable({-1, 0}, {0, 0}, kLight).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(world->PathGroup({}, {0, 0}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(world->At({0, 2}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(LiveWorldTest, CreatedFromAMapFileAndALayerFile) {
  const std::string dir = ::testing::TempDir();
  const std::string map_path = dir + "/live_world_test.map";
  const std::string layer_path = dir + "/live_world_test.layers";
  std::ofstream(map_path) << testing::MapText({"......", "RRRRRR", "......"});
  std::ofstream(layer_path) << "# a bridge and a hut\nbridge 2 1 3 2\nbuilding 7 4 2 6 3\n";
  absl::StatusOr<std::unique_ptr<LiveWorld>> world = LiveWorld::Create(map_path, layer_path);
  ASSERT_TRUE(world.ok()) << world.status();
  EXPECT_EQ(DrawRows(**world), (Rows{"......", "~~.~~~", "....BB"}));
  EXPECT_EQ(Path(**world, {0, 0}, {0, 2}).status, PathStatus::kFound);

  EXPECT_EQ(LiveWorld::Create(dir + "/missing.map", "").status().code(),
            absl::StatusCode::kNotFound);
  std::ofstream(layer_path) << "bridge 2 1 3 2\nbuilding seven 4 2 6 3\n";
  absl::StatusOr<std::unique_ptr<LiveWorld>> bad = LiveWorld::Create(map_path, layer_path);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("live_world_test.layers: layer line 2: 'seven'"),
            std::string::npos)
      << bad.status();
  LiveWorldOptions options;
  options.nearest_max_radius = -1;
  EXPECT_EQ(LiveWorld::Create(map_path, "", options).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(LiveWorldTest, CountersAddUp) {
  auto world = AsciiWorld({"........", "........", "........"});
  Path(*world, {0, 0}, {7, 2});
  Path(*world, {0, 0}, {7, 2});
  Update(*world, {BlockerChange::AddBuilding(1, {3, 0, 5, 2})});
  world->Nearest({3, 0}, kLight).IgnoreError();
  const LiveCounters c = world->Counters();
  EXPECT_EQ(c.paths, 2u);
  EXPECT_EQ(c.cache_hits, 1u);
  EXPECT_EQ(c.cache_misses, 1u);
  EXPECT_EQ(c.cache_entries, 1u);
  EXPECT_EQ(c.cache_evictions, 0u);
  EXPECT_GT(c.cells_expanded, 0u);
  EXPECT_GT(c.heap_operations, c.cells_expanded);
  EXPECT_EQ(c.updates, 1u);
  EXPECT_EQ(c.full_rebuilds, 1u);              // the initial build
  EXPECT_EQ(c.dirty_cells_rebuilt, 24u + 4u);  // the initial build, then the footprint
  EXPECT_EQ(c.nearest_searches, 1u);
  EXPECT_EQ(c.ring_cells_scanned, 1u + 5u);  // radius 0, then ring 1 clipped by the top edge
}

TEST(LiveWorldTest, ReadersAndAWriterRunTogether) {
  auto world = AsciiWorld(std::vector<std::string>(20, std::string(30, '.')),
                          "building 1 15 0 16 20\ngate 2 1 15 9 16 11 open\n");
  std::atomic<bool> stop{false};
  std::atomic<int> found{0}, unreachable{0}, bad{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 3; ++t) {
    readers.emplace_back([&, t] {
      std::uint64_t last_revision = 0;
      while (!stop.load()) {
        absl::StatusOr<LivePath> p = world->FindPath({{t, 0}, {29, 19 - t}, kLight});
        if (!p.ok() || p->revision < last_revision) {
          ++bad;
          continue;
        }
        last_revision = p->revision;
        if (p->status == PathStatus::kFound) {
          ++found;
          if (!(p->cells.front() == Cell{t, 0}) || !(p->cells.back() == Cell{29, 19 - t})) ++bad;
        } else if (p->status == PathStatus::kUnreachable) {
          ++unreachable;
        } else {
          ++bad;
        }
      }
    });
  }
  for (int k = 0; k < 200 || found.load() + unreachable.load() < 100; ++k) {
    Update(*world, {k % 2 == 0 ? BlockerChange::ShutGate(2) : BlockerChange::OpenGate(2)});
  }
  stop = true;
  for (std::thread& t : readers) t.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_GT(found.load() + unreachable.load(), 0);
}

TEST(LiveWorldTest, AgreesWithTheMovingAiBenchmarkOnReachability) {
  const std::string map_path = testing::SharedDataDir() + "/movingai/bg512/AR0011SR.map";
  absl::StatusOr<ScenarioFile> scenarios = ReadScenarios(map_path + ".scen");
  if (!scenarios.ok()) GTEST_SKIP() << "no MovingAI data: " << scenarios.status();
  absl::StatusOr<std::unique_ptr<LiveWorld>> world = LiveWorld::Create(map_path, "");
  ASSERT_TRUE(world.ok()) << world.status();
  int checked = 0;
  for (std::size_t k = 0; k < scenarios->scenarios.size(); k += 13) {
    const Scenario& s = scenarios->scenarios[k];
    const Cell a{static_cast<std::int32_t>(s.start_x), static_cast<std::int32_t>(s.start_y)};
    const Cell b{static_cast<std::int32_t>(s.goal_x), static_cast<std::int32_t>(s.goal_y)};
    const bool expect = s.optimal_length > 0 || a == b;
    ASSERT_EQ(*(*world)->Reachable(a, b, kLight), expect) << "scenario " << k;
    if (!expect) continue;
    LivePath p = Path(**world, a, b);
    ASSERT_EQ(p.status, PathStatus::kFound);
    double length = 0;
    for (std::size_t i = 1; i < p.cells.size(); ++i) {
      const bool diagonal = p.cells[i].x != p.cells[i - 1].x && p.cells[i].y != p.cells[i - 1].y;
      length += diagonal ? std::sqrt(2.0) : 1.0;
    }
    // A legal path is never shorter than the optimum; priced tie-breakers cost at most a little.
    EXPECT_GE(length, s.optimal_length - scenarios->Tolerance(s.optimal_length)) << k;
    EXPECT_LE(length, s.optimal_length * 1.1 + 2) << k;
    ++checked;
  }
  EXPECT_GT(checked, 50);
}

}  // namespace
}  // namespace walk::nav::live
