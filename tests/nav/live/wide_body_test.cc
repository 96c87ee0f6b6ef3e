// Wide bodies: a body radius (hard: cells of clearance below it are closed to the body) and a
// formation half-width (soft: an overlap price), in the search and in LiveWorld's answers; the
// search checked against a plain Dijkstra over the inflated grid.
#include <cmath>
#include <queue>
#include <random>

#include "gtest/gtest.h"
#include "nav/live/clearance.h"
#include "nav/live/live_search.h"
#include "nav/live/live_world.h"
#include "tests/nav/live/ascii_live.h"
#include "tests/nav/live/live_oracle.h"

namespace walk::nav::live {
namespace {

using testing::AsciiWorld;
using Rows = std::vector<std::string>;
using testing::kLight;

// Two rooms joined by a corridor two cells wide (rows 3 and 4).
const Rows kTwoRooms = {
    "......@@@@@......",  //
    "......@@@@@......",  //
    "......@@@@@......",  //
    ".................",  //
    ".................",  //
    "......@@@@@......",  //
    "......@@@@@......",  //
    "......@@@@@......",
};

LivePath Path(LiveWorld& world, PathRequest request) {
  absl::StatusOr<LivePath> path = world.FindPath(request);
  EXPECT_TRUE(path.ok()) << path.status();
  return path.ok() ? *std::move(path) : LivePath{};
}

PathRequest Wide(Cell a, Cell b, double radius, double half_width = 0.0) {
  PathRequest r{a, b, kLight};
  r.radius = radius;
  r.formation_half_width = half_width;
  return r;
}

// The clearance of `c` from its definition: the distance from the centre to the nearest closed
// cell (or cell off the map), in doubles, looking 10 cells away (further than any radius or
// half-width these tests use).
double TrueClearance(const LiveGrid& grid, Cell c, Passability p) {
  double best = std::numeric_limits<double>::infinity();
  const std::int32_t reach = 10;
  for (std::int32_t y = c.y - reach; y <= c.y + reach; ++y) {
    for (std::int32_t x = c.x - reach; x <= c.x + reach; ++x) {
      if (grid.Open(Cell{x, y}, p)) continue;
      const double ex = std::max(std::abs(x - c.x) - 0.5, 0.0);
      const double ey = std::max(std::abs(y - c.y) - 0.5, 0.0);
      best = std::min(best, std::sqrt(ex * ex + ey * ey));
    }
  }
  return best;
}

// Every cell's TrueClearance.
std::vector<double> TrueClearances(const LiveGrid& grid, Passability p) {
  std::vector<double> clear(grid.cell_count());
  for (CellIndex i = 0; i < grid.cell_count(); ++i) {
    clear[i] = TrueClearance(grid, grid.CellOf(i), p);
  }
  return clear;
}

// `clear`: TrueClearances for `p`. The oracle (live_oracle.h) over the inflated grid: a cell is
// closed when its true clearance is below `radius`; the overlap price is written out again.
std::uint32_t OracleCost(const LiveGrid& grid, const std::vector<double>& clear, Cell start,
                         Cell goal, Passability p, double radius, double half_width) {
  auto fits = [&](Cell c) { return grid.Open(c, p) && clear[grid.Index(c)] >= radius - 1e-12; };
  auto overlap = [&](Cell c) -> std::uint32_t {
    const double d = clear[grid.Index(c)];
    if (half_width <= 0.0 || d >= half_width) return 0;
    return static_cast<std::uint32_t>(std::lround(20.0 * (half_width - d) / half_width));
  };
  return testing::OracleCost(grid, start, goal, p, fits, overlap);
}

TEST(WideBodyTest, ACorridorTwoCellsWideRefusesABodyOfRadiusOneAndAHalf) {
  auto world = AsciiWorld(kTwoRooms);
  const Cell a{2, 3}, b{14, 3};
  const LivePath narrow = Path(*world, Wide(a, b, 0.5));
  EXPECT_EQ(narrow.status, PathStatus::kFound);
  EXPECT_EQ(narrow.cost, Path(*world, Wide(a, b, 0.0)).cost);  // the corridor is wide enough
  const LivePath wide = Path(*world, Wide(a, b, 1.5));
  EXPECT_EQ(wide.status, PathStatus::kUnreachable);
  EXPECT_EQ(wide.method, PathMethod::kSearch);  // the regions join the rooms; the search refuses
  EXPECT_TRUE(wide.cells.empty());
  EXPECT_EQ(*world->Reachable(a, b, kLight, 1.5), false);
  EXPECT_EQ(*world->Reachable(a, b, kLight, 0.5), true);
  EXPECT_EQ(*world->Reachable(a, b, kLight), true);
  // A body of radius 1.5 does not fit in the corridor at all: the start is reported as such.
  const LivePath inside = Path(*world, Wide({8, 3}, b, 1.5));
  EXPECT_EQ(inside.status, PathStatus::kStartBlocked);
  EXPECT_TRUE(inside.too_narrow);
  EXPECT_EQ(*world->Nearest({8, 3}, kLight, 1.5), (Cell{4, 3}));  // the nearest room cell clear
  EXPECT_EQ(*world->Nearest({8, 3}, kLight), (Cell{8, 3}));
}

TEST(WideBodyTest, ThreeCellsWideLetsRadiusOneAndAHalfThrough) {
  Rows rows = kTwoRooms;
  rows[5] = ".................";  // the corridor is rows 3 to 5 now
  auto world = AsciiWorld(rows);
  const LivePath wide = Path(*world, Wide({2, 4}, {14, 4}, 1.5));
  ASSERT_EQ(wide.status, PathStatus::kFound);
  for (const Cell& c : wide.cells) EXPECT_EQ(c.y, 4) << "only the middle row is clear enough";
}

// A wall from x 8 to 12 with a one-cell pass in row 3; below it a valley (rows 7 to 14). Going
// through the pass is the straight line; the valley a detour.
Rows PassAndValley(bool valley_open) {
  Rows rows(15, std::string(21, '.'));
  for (std::int32_t y = 0; y < 15; ++y) {
    if (y == 3 || (valley_open && y > 6)) continue;
    for (std::int32_t x = 8; x <= 12; ++x) rows[y][x] = '@';
  }
  return rows;
}

std::int32_t LowestRow(const std::vector<Cell>& cells) {
  std::int32_t y = 0;
  for (const Cell& c : cells) y = std::max(y, c.y);
  return y;
}

TEST(WideBodyTest, AWideFormationTakesTheValleyOverANarrowPass) {
  auto world = AsciiWorld(PassAndValley(/*valley_open=*/true));
  const Cell a{1, 3}, b{19, 3};
  const LivePath one = Path(*world, Wide(a, b, 0.0));
  ASSERT_EQ(one.status, PathStatus::kFound);
  EXPECT_EQ(LowestRow(one.cells), 3) << "a single body takes the pass";
  const LivePath formation = Path(*world, Wide(a, b, 0.5, 3.0));
  ASSERT_EQ(formation.status, PathStatus::kFound);
  EXPECT_GE(LowestRow(formation.cells), 7) << "a formation three cells either side goes round";
}

TEST(WideBodyTest, AWideFormationIsNotRefusedThePassWhenItIsTheOnlyWay) {
  auto world = AsciiWorld(PassAndValley(/*valley_open=*/false));
  const LivePath formation = Path(*world, Wide({1, 3}, {19, 3}, 0.5, 3.0));
  ASSERT_EQ(formation.status, PathStatus::kFound);
  EXPECT_EQ(LowestRow(formation.cells), 3);
  const LivePath one = Path(*world, Wide({1, 3}, {19, 3}, 0.0));
  EXPECT_GT(formation.cost, one.cost);  // the overlap is priced, not refused
}

TEST(WideBodyTest, CostsEqualADijkstraOverTheInflatedGrid) {
  std::mt19937 rng(20261204);
  std::uniform_int_distribution<int> pct(0, 99);
  const double radii[] = {0.0, 0.5, 0.5, 0.6, 0.75, 0.75, 1.0, 1.2, 1.5, 2.0};
  int compared = 0, found = 0, wide_found = 0;
  for (int map = 0; map < 60; ++map) {
    const std::int32_t w = 8 + static_cast<std::int32_t>(rng() % 16);
    const std::int32_t h = 7 + static_cast<std::int32_t>(rng() % 12);
    const int blocked = 2 + pct(rng) % 10;
    Rows rows(static_cast<std::size_t>(h));
    for (auto& row : rows) {
      for (std::int32_t x = 0; x < w; ++x) {
        const int r = pct(rng);
        row.push_back(r < blocked ? '@' : r < blocked + 8 ? 'F' : '.');
      }
    }
    LiveWorldOptions options;
    options.full_rebuild_fraction = 2.0;  // updates stay regional
    auto world = AsciiWorld(rows, "", options);
    ASSERT_NE(world, nullptr);
    for (int round = 0; round < 3; ++round) {
      if (round > 0) {  // a few blockers, placed through the regional update
        const double x = rng() % static_cast<unsigned>(w), y = rng() % static_cast<unsigned>(h);
        ASSERT_TRUE(world
                        ->UpdateBlockers(std::vector<BlockerChange>{BlockerChange::AddBuilding(
                            static_cast<EntityId>(map * 10 + round),
                            WorldRect{x, y, x + 1 + rng() % 3, y + 1 + rng() % 2})})
                        .ok());
      }
      world->Inspect([&](const LiveGrid& grid, const Layers&) {
        LiveSearch search;
        std::vector<Cell> cells;
        const std::vector<double> clear[2] = {TrueClearances(grid, Passability::kLight),
                                              TrueClearances(grid, Passability::kHeavy)};
        for (int pair = 0; pair < 6; ++pair) {
          const Cell a{static_cast<std::int32_t>(rng() % static_cast<unsigned>(w)),
                       static_cast<std::int32_t>(rng() % static_cast<unsigned>(h))};
          const Cell b{static_cast<std::int32_t>(rng() % static_cast<unsigned>(w)),
                       static_cast<std::int32_t>(rng() % static_cast<unsigned>(h))};
          const double radius = radii[rng() % 10];
          const double half_width = static_cast<double>(rng() % 65) / kHalfWidthSteps;
          const Passability p = pct(rng) < 50 ? Passability::kLight : Passability::kHeavy;
          const BodyClass body = ClassifyBody(radius, half_width);
          const SearchResult r = search.FindPath(grid, a, b, p, &cells, body);
          const std::uint32_t oracle =
              OracleCost(grid, clear[static_cast<int>(p)], a, b, p, radius, half_width);
          ++compared;
          ASSERT_EQ(r.found, oracle != kNoCost)
              << "map " << map << " round " << round << " pair " << pair << " r " << radius;
          if (!r.found) continue;
          ++found;
          wide_found += radius > 0.0 || half_width > 0.0;
          ASSERT_EQ(r.cost, oracle) << "map " << map << " round " << round << " pair " << pair
                                    << " r " << radius << " w " << half_width;
          ASSERT_EQ(PriceCells(grid, cells, p, body), r.cost);
          for (const Cell& c : cells) {
            ASSERT_GE(clear[static_cast<int>(p)][grid.Index(c)], radius - 1e-12);
          }
        }
      });
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(found, compared / 4);  // the comparison is not all "no path"
  EXPECT_GT(wide_found, found / 2);
}

TEST(WideBodyTest, TheCacheNeverAnswersAWideBodyWithANarrowPath) {
  Rows rows = kTwoRooms;
  rows.push_back(".................");  // a detour below, three rows wide
  rows.push_back(".................");
  rows.push_back(".................");
  auto world = AsciiWorld(rows);
  const Cell a{2, 3}, b{14, 3};
  const LivePath narrow = Path(*world, Wide(a, b, 0.0));
  ASSERT_EQ(narrow.status, PathStatus::kFound);
  EXPECT_LE(LowestRow(narrow.cells), 4);  // the corridor
  const LivePath wide = Path(*world, Wide(a, b, 1.5));
  ASSERT_EQ(wide.status, PathStatus::kFound);
  EXPECT_FALSE(wide.from_cache);
  EXPECT_GE(LowestRow(wide.cells), 9);  // the detour's middle row
  world->Inspect([&](const LiveGrid& grid, const Layers&) {
    for (const Cell& c : wide.cells) EXPECT_GE(grid.clearance().At(grid.Index(c), kLight), 9);
  });
  EXPECT_TRUE(Path(*world, Wide(a, b, 1.5)).from_cache);
  EXPECT_EQ(Path(*world, Wide(a, b, 1.5)).cells, wide.cells);
  EXPECT_TRUE(Path(*world, Wide(a, b, 0.0)).from_cache);
  // A half-width is a class of its own too.
  EXPECT_FALSE(Path(*world, Wide(a, b, 1.5, 2.0)).from_cache);
}

TEST(WideBodyTest, AKeptRouteServesOnlyTheBodyItWasAnsweredFor) {
  Rows rows = kTwoRooms;
  auto world = AsciiWorld(rows);
  PathRequest narrow = Wide({2, 3}, {14, 3}, 0.0);
  narrow.unit = 7;
  ASSERT_EQ(Path(*world, narrow).status, PathStatus::kFound);
  narrow.start = {3, 3};
  narrow.goal = {14, 4};  // moved one cell: the route is kept
  EXPECT_EQ(Path(*world, narrow).method, PathMethod::kKept);
  PathRequest wide = narrow;
  wide.radius = 1.5;
  const LivePath answer = Path(*world, wide);
  EXPECT_NE(answer.method, PathMethod::kKept);
  EXPECT_EQ(answer.status, PathStatus::kUnreachable);
}

TEST(WideBodyTest, GroupsAndFormationsUseTheRadius) {
  auto world = AsciiWorld(kTwoRooms);
  const std::vector<GroupMember> members = {{{2, 3}, kLight}, {{2, 4}, kLight}};
  absl::StatusOr<GroupPlan> narrow = world->PathGroup(members, {14, 3}, nullptr, nullptr, 0.5);
  ASSERT_TRUE(narrow.ok()) << narrow.status();
  for (const MemberPath& m : narrow->members) EXPECT_FALSE(m.cells.empty());
  absl::StatusOr<GroupPlan> wide = world->PathGroup(members, {14, 3}, nullptr, nullptr, 1.5);
  ASSERT_TRUE(wide.ok()) << wide.status();
  for (const MemberPath& m : wide->members) {
    EXPECT_EQ(m.route, GroupRoute::kUnreachable) << GroupRouteName(m.route);
  }
  // A slot whose cell is too narrow for the body collapses onto the centre.
  GroupFormation f;
  f.slots = {{0, 0}, {0, 4}};  // facing east: four cells to the right is row 7, by the map edge
  absl::StatusOr<FormationPlan> plan = world->FormationTargets({3, 3}, f, kLight, std::nullopt);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->slots[1].cell, (Cell{3, 7}));
  plan = world->FormationTargets({3, 3}, f, kLight, std::nullopt, 1.5);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->slots[1].outcome, SlotOutcome::kClosed);
}

TEST(WideBodyTest, DeferredGroupSearchesCarryTheBody) {
  LiveWorldOptions options;
  options.group_fallback_searches = 0;  // every member that cannot share is deferred
  auto world = AsciiWorld(PassAndValley(/*valley_open=*/true), "", options);
  const std::vector<GroupMember> members = {{{1, 3}, kLight}, {{1, 14}, kLight}};
  absl::StatusOr<GroupPlan> plan = world->PathGroup(members, {19, 3}, nullptr, nullptr, 0.5, 3.0);
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->deferred_requests.size(), 1u);
  const DeferredSearch d = plan->deferred_requests[0];
  EXPECT_EQ(d.body, ClassifyBody(0.5, 3.0));
  EXPECT_GT(world->ServeFallback(d.start, d.goal, d.passability, d.body), 0u);
  plan = world->PathGroup(members, {19, 3}, nullptr, nullptr, 0.5, 3.0);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->members[1].route, GroupRoute::kIndividual);  // served from the cache
  EXPECT_EQ(plan->deferred, 0u);
  // Another body's plan does not find it.
  plan = world->PathGroup(members, {19, 3}, nullptr, nullptr, 0.5);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->members[1].route, GroupRoute::kDeferred);
}

TEST(WideBodyTest, AWorkCellMustFitTheBody) {
  Rows rows = kTwoRooms;
  rows[1][1] = 'T';  // a tree in the room's corner: every cell beside it lies near the map's edge
  auto world = AsciiWorld(rows);
  absl::StatusOr<WorkCellAnswer> narrow = world->WorkCell({1, 1}, {4, 4}, kLight);
  ASSERT_TRUE(narrow.ok()) << narrow.status();
  EXPECT_TRUE(narrow->reachable);
  EXPECT_EQ(world->WorkCell({1, 1}, {4, 4}, kLight, nullptr, 1.5).status().code(),
            absl::StatusCode::kNotFound);
  absl::StatusOr<WorkCellAnswer> half = world->WorkCell({1, 1}, {4, 4}, kLight, nullptr, 0.6);
  ASSERT_TRUE(half.ok()) << half.status();
  EXPECT_EQ(half->cell, (Cell{2, 2}));  // the only neighbour with no closed cell beside it
  EXPECT_EQ(world->WorkCell({1, 1}, {4, 4}, kLight, nullptr, -1).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(WideBodyTest, BadRadiiAreInvalidArguments) {
  auto world = AsciiWorld(kTwoRooms);
  for (double bad : {-1.0, 8.5, std::nan("")}) {
    absl::StatusOr<LivePath> p = world->FindPath(Wide({2, 3}, {14, 3}, bad));
    ASSERT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(p.status().message().find("radius"), std::string::npos) << p.status();
    p = world->FindPath(Wide({2, 3}, {14, 3}, 0.0, bad));
    EXPECT_NE(p.status().message().find("formation_half_width"), std::string::npos);
    EXPECT_EQ(world->Reachable({2, 3}, {14, 3}, kLight, bad).status().code(),
              absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(world->Nearest({2, 3}, kLight, bad).status().code(),
              absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(world
                  ->PathGroup(std::vector<GroupMember>{{{2, 3}, kLight}}, {14, 3}, nullptr, nullptr,
                              0.0, bad)
                  .status()
                  .code(),
              absl::StatusCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace walk::nav::live
