#include "nav/search/reach_check.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nav/demo/demo_world.h"
#include "nav/grid/grid_builder.h"
#include "nav/query/walk_pipeline.h"
#include "nav/search/fine_grid_astar.h"
#include "tests/nav/ascii_grid.h"

namespace walk::nav {
namespace {

using testing::At;

// Cuts one link in `one_in` (of every surface, every direction) one way: what was a two-way step
// becomes a drop nobody climbs back.
void CutLinks(Continent& c, std::mt19937& random, unsigned one_in) {
  for (SurfaceId v = 0; v < c.surface_count(); ++v) {
    for (int d = 0; d < kDirectionCount; ++d) {
      if (random() % one_in == 0) c.links[v][d] = kNoLink;
    }
  }
}

// The 1 x 1-tile demo world (floors, lifts, stairs, jumps, falls, towns, zones) with a tenth of
// its links cut one way.
World DemoWorldWithLinksCut(std::mt19937& random) {
  DemoOptions options;
  options.tiles_x = options.tiles_y = 1;
  auto generated = GenerateDemoWorld(options);
  EXPECT_TRUE(generated.ok()) << generated.status();
  World world = generated.ok() ? *std::move(generated) : World();
  if (!world.continents.empty()) {
    CutLinks(world.continents[0], random, 10);
    ComputeRegions(world.continents[0]);
  }
  return world;
}

// Makes column (x, y) a ledge: every link into it is cut, so one may step off it but never on.
void MakeLedge(Continent& c, std::uint32_t x, std::uint32_t y) {
  const SurfaceId ledge = testing::SurfaceAt(c, x, y);
  for (SurfaceId u = 0; u < c.surface_count(); ++u) {
    for (int d = 0; d < kDirectionCount; ++d) {
      if (HasLink(c.links[u][d]) && c.LinkTarget(u, d) == ledge) c.links[u][d] = kNoLink;
    }
  }
}

// Asks `pairs` random pairs of one region both ways, the check with no budget to stop it and
// the walker, and counts the walks found (`yes`) and not (`no`): they must agree on every one.
void ExpectCheckAgreesWithWalker(const World& world, const Metric& metric, std::mt19937& random,
                                 int pairs, int* yes, int* no) {
  const Continent& c = world.continents[0];
  FineGridAStar astar;
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  for (int pair = 0; pair < pairs; ++pair) {
    const SurfaceId a = any(random), b = any(random);
    if (c.region[a] != c.region[b]) continue;
    const ReachResult reach = CheckReach(c, metric, a, b, UINT64_MAX);
    const SearchResult walk = astar.FindWalk(c, world.column_yards, metric, a, b);
    ASSERT_NE(reach.reach, Reach::kUnknown);
    ASSERT_EQ(reach.reach == Reach::kYes, walk.found)
        << metric.profile().name << ": " << a << " -> " << b;
    (walk.found ? *yes : *no) += 1;
  }
}

TEST(ReachCheckTest, AgreesWithTheWalkerOnRandomOneWayGrids) {
  // Random walls, and a fifth of the links cut one way: many ends of one region have no walk
  // between them. With no budget to stop it, the check must say exactly what the walker finds.
  std::mt19937 random(11);
  int no = 0, yes = 0;
  for (int map = 0; map < 6; ++map) {
    std::vector<std::string> rows(24, std::string(32, '.'));
    for (auto& row : rows) {
      for (char& ch : row) ch = random() % 4 == 0 ? '@' : (random() % 8 == 0 ? 'W' : '.');
    }
    World world = testing::AsciiWorld(rows);
    CutLinks(world.continents[0], random, 5);
    ComputeRegions(world.continents[0]);
    ExpectCheckAgreesWithWalker(world, Metric(world, *FindProfile("neutral"), 0), random, 200, &yes,
                                &no);
  }
  // Both answers were really asked for.
  EXPECT_GT(no, 100);
  EXPECT_GT(yes, 100);
}

TEST(ReachCheckTest, AgreesWithTheWalkerOnADemoWorldWithLinksCut) {
  // The demo world's floors, lifts, stairs, jumps and falls, with a tenth of its links cut one
  // way: the backward side must find every surface a walk may come from, by level, diagonal,
  // lift and price (a band's danger and a faction's hostile towns too).
  std::mt19937 random(23);
  World world = DemoWorldWithLinksCut(random);
  ASSERT_FALSE(world.continents.empty());
  const Continent& c = world.continents[0];
  ASSERT_FALSE(c.lifts.empty());
  int no = 0, yes = 0;
  for (const char* profile : {"neutral", "faction-a-heavy"}) {
    ExpectCheckAgreesWithWalker(world, Metric(world, *FindProfile(profile), 30), random, 40, &yes,
                                &no);
  }
  EXPECT_GT(yes, 10);
  EXPECT_GT(no, 3);
}

TEST(ReachCheckTest, StepsIntoASurfaceAreTheStepsOutOfItsNeighbours) {
  // The backward side is only as good as its list of steps into a surface: on the demo world
  // (floors, lifts, stairs, jumps, falls; a faction's hostile towns; a band's danger), with links
  // cut one way, u steps into v exactly when v is among u's steps out, for every u of v's own
  // and its eight neighbouring columns (a lift ride stays in its column).
  std::mt19937 random(29);
  World world = DemoWorldWithLinksCut(random);
  ASSERT_FALSE(world.continents.empty());
  const Continent& c = world.continents[0];
  std::uniform_int_distribution<SurfaceId> any(0, c.surface_count() - 1);
  int steps = 0, lift_steps = 0;
  for (const char* profile : {"neutral", "faction-a-heavy", "shortest"}) {
    const Metric metric(world, *FindProfile(profile), 30);
    std::vector<SurfaceId> landings;  // surfaces a ride lands on: every one, then random ones
    for (const LiftRide& ride : c.lifts) landings.push_back(ride.to);
    for (int i = 0; i < 3000; ++i) landings.push_back(any(random));
    for (const SurfaceId v : landings) {
      const std::uint16_t exempt_a = c.zone[landings[0]], exempt_b = c.zone[v];
      std::vector<SurfaceId> into;
      ForEachStepInto(c, metric, v, exempt_a, exempt_b, [&](SurfaceId u) {
        into.push_back(u);
        return false;
      });
      std::sort(into.begin(), into.end());
      std::vector<SurfaceId> expected;
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const std::int64_t x = std::int64_t{c.column_x[v]} + dx,
                             y = std::int64_t{c.column_y[v]} + dy;
          if (!c.OnMap(x, y)) continue;
          SurfaceId first, end;
          c.ColumnSurfaces(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), &first,
                           &end);
          for (SurfaceId u = first; u < end; ++u) {
            const bool steps_to_v = ForEachStepFrom(c, metric, u, exempt_a, exempt_b,
                                                    [&](SurfaceId w) { return w == v; });
            if (steps_to_v) expected.push_back(u);
            if (steps_to_v && dx == 0 && dy == 0) ++lift_steps;
          }
        }
      }
      std::sort(expected.begin(), expected.end());
      ASSERT_EQ(into, expected) << profile << ": surface " << v;
      steps += static_cast<int>(into.size());
    }
  }
  EXPECT_GT(steps, 10'000);
  EXPECT_GT(lift_steps, 10);
}

TEST(ReachCheckTest, StopsAtTheBudgetWhenBothSidesAreLarge) {
  World world = testing::AsciiWorld(std::vector<std::string>(40, std::string(40, '.')));
  const Metric shortest(world, *FindProfile("shortest"), 0);
  const Continent& c = world.continents[0];
  const ReachResult far =
      CheckReach(c, shortest, testing::SurfaceAt(c, 0, 0), testing::SurfaceAt(c, 39, 39), 50);
  EXPECT_EQ(far.reach, Reach::kUnknown);
  EXPECT_LT(far.visited, 200u);
  EXPECT_EQ(
      CheckReach(c, shortest, testing::SurfaceAt(c, 0, 0), testing::SurfaceAt(c, 39, 39), 4000)
          .reach,
      Reach::kYes);
}

TEST(ReachCheckTest, AWalkToALedgeIsRefusedWithoutSearchingTheWholeRegion) {
  // 64 x 64 ground, a wall most of the way across, and a ledge at (40, 40): one region, but no
  // walk onto the ledge. The fine grid would settle some 4,000 surfaces to learn it; after 100
  // it looks for the trap.
  std::vector<std::string> rows(64, std::string(64, '.'));
  rows[20] = std::string(56, '@') + std::string(8, '.');
  World world = testing::AsciiWorld(rows);
  MakeLedge(world.continents[0], 40, 40);
  const Metric shortest(world, *FindProfile("shortest"), 0);
  FineGridAStar astar;
  WalkOptions options;
  options.trap_check_after = 100;
  auto onto = AnswerWalk(world, shortest, At(5, 5), At(40, 40), astar, options);
  ASSERT_TRUE(onto.ok()) << onto.status();
  EXPECT_EQ(onto->status, WalkStatus::kNoWalk);
  EXPECT_EQ(onto->method, Method::kReach);
  EXPECT_LT(onto->stats.nodes_expanded, 1000u);
  // A forced `grid` (diagnostics) is the fine-grid walk alone: it searches everything.
  Searchers searchers;
  WalkOptions grid = options;
  grid.search = SearchMode::kGrid;
  auto forced = AnswerWalk(world, shortest, At(5, 5), At(40, 40), searchers, grid);
  ASSERT_TRUE(forced.ok()) << forced.status();
  EXPECT_EQ(forced->status, WalkStatus::kNoWalk);
  EXPECT_EQ(forced->method, Method::kFineGrid);
  EXPECT_GT(forced->stats.nodes_expanded, 3000u);
  // Off the ledge is a walk round the wall, and the check in the middle does not change it.
  WalkOptions unchecked;
  unchecked.trap_check_after = UINT64_MAX;
  unchecked.try_straight_line = options.try_straight_line = false;
  auto off = AnswerWalk(world, shortest, At(40, 40), At(5, 5), astar, options);
  auto plain = AnswerWalk(world, shortest, At(40, 40), At(5, 5), astar, unchecked);
  ASSERT_TRUE(off.ok() && plain.ok());
  EXPECT_EQ(off->status, WalkStatus::kOk);
  EXPECT_EQ(off->method, Method::kFineGrid);
  EXPECT_DOUBLE_EQ(off->seconds, plain->seconds);
  EXPECT_DOUBLE_EQ(off->yards, plain->yards);
  EXPECT_GT(off->stats.nodes_expanded, plain->stats.nodes_expanded);  // the check and the restart
}

}  // namespace
}  // namespace walk::nav
