// Formation slot targets from ASCII maps (open ground, a one-cell bridge, a slot in a tree), group
// moves to formation slots, the bound on a group's fallback searches, and the fallback queue that
// serves the deferred ones: worlds in turn, each within its share.
#include "nav/live/formation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "gtest/gtest.h"
#include "nav/live/fallback_queue.h"
#include "nav/live/live_search.h"
#include "nav/live/live_world.h"
#include "nav/live/taut_path.h"
#include "tests/nav/live/ascii_live.h"

namespace walk::nav::live {
namespace {

using testing::AsciiWorld;
using testing::kLight;

// Two ranks of three, the centre in the middle of the front rank: a b c / d e f.
GroupFormation TwoRanks(double facing) {
  GroupFormation f;
  f.facing_degrees = facing;
  for (double back : {0.0, -1.0}) {
    for (double right : {-1.0, 0.0, 1.0}) f.slots.push_back(FormationSlot{back, right});
  }
  return f;
}

std::vector<Cell> Cells(const FormationPlan& plan) {
  std::vector<Cell> cells;
  for (const SlotTarget& t : plan.slots) cells.push_back(t.cell);
  return cells;
}

TEST(SlotOffsetTest, TurnsWithTheFacing) {
  const FormationSlot ahead{2, 0}, right{0, 1};
  EXPECT_EQ(SlotOffset(ahead, 0), (Cell{2, 0}));     // facing east
  EXPECT_EQ(SlotOffset(ahead, 90), (Cell{0, 2}));    // facing south (+y)
  EXPECT_EQ(SlotOffset(ahead, -90), (Cell{0, -2}));  // facing north
  EXPECT_EQ(SlotOffset(right, 0), (Cell{0, 1}));     // facing east, the right hand is south
  EXPECT_EQ(SlotOffset(right, 90), (Cell{-1, 0}));   // facing south, it is west
  EXPECT_EQ(SlotOffset(FormationSlot{1, 1}, 45), (Cell{0, 1}));  // (0, 1.41) rounds to (0, 1)
}

TEST(FormationTest, OnOpenGroundEverySlotIsUsed) {
  auto world = AsciiWorld({".......", ".......", ".......", ".......", "......."});
  // Facing north: the front rank runs west to east through the centre, the rear rank below it.
  absl::StatusOr<FormationPlan> plan = world->FormationTargets({3, 2}, TwoRanks(-90), kLight);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->center, (Cell{3, 2}));
  EXPECT_EQ(Cells(*plan), (std::vector<Cell>{{2, 2}, {3, 2}, {4, 2}, {2, 3}, {3, 3}, {4, 3}}));
  EXPECT_EQ(plan->used, 6u);
  EXPECT_EQ(plan->collapsed, 0u);
  EXPECT_EQ(plan->slots[1].outcome, SlotOutcome::kCentre);
  EXPECT_EQ(plan->slots[0].outcome, SlotOutcome::kUsed);
  // Facing east the same formation stands north to south.
  plan = world->FormationTargets({3, 2}, TwoRanks(0), kLight);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(Cells(*plan), (std::vector<Cell>{{3, 1}, {3, 2}, {3, 3}, {2, 1}, {2, 2}, {2, 3}}));
}

TEST(FormationTest, OnAOneCellBridgeEverySlotCollapses) {
  auto world = AsciiWorld({".......", ".......", "RRR+RRR", ".......", "......."});
  absl::StatusOr<FormationPlan> plan = world->FormationTargets({3, 2}, TwoRanks(-90), kLight);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->center, (Cell{3, 2}));
  for (const SlotTarget& t : plan->slots) EXPECT_EQ(t.cell, (Cell{3, 2}));
  EXPECT_EQ(plan->slots[0].outcome, SlotOutcome::kClosed);  // the river beside the deck
  EXPECT_EQ(plan->slots[4].outcome,
            SlotOutcome::kCrossing);  // the bank behind: the centre is on the deck
  EXPECT_EQ(plan->collapsed, 5u);
  // Ordered to the bank instead, no slot may be across the deck either.
  plan = world->FormationTargets({3, 3}, TwoRanks(90), kLight);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->slots[4].cell, (Cell{3, 3}));  // the rear slot would stand on the deck
  EXPECT_EQ(plan->slots[4].outcome, SlotOutcome::kCrossing);
  EXPECT_EQ(plan->slots[3].outcome, SlotOutcome::kClosed);  // river
  EXPECT_EQ(plan->slots[0].cell, (Cell{4, 3}));             // the front rank stands on the bank
}

TEST(FormationTest, ASlotInATreeCollapsesAlone) {
  auto world = AsciiWorld({".......", ".......", "..T....", ".......", "......."});
  absl::StatusOr<FormationPlan> plan = world->FormationTargets({3, 2}, TwoRanks(-90), kLight);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(Cells(*plan), (std::vector<Cell>{{3, 2}, {3, 2}, {4, 2}, {3, 2}, {3, 3}, {4, 3}}));
  EXPECT_EQ(plan->slots[0].outcome, SlotOutcome::kClosed);
  // The rear slot beside it is open, but the line to it squeezes past the tree's corner.
  EXPECT_EQ(plan->slots[3].outcome, SlotOutcome::kCutOff);
  EXPECT_EQ(plan->collapsed, 2u);
}

TEST(FormationTest, ASlotBehindAWallIsCutOff) {
  // The slot's cell is open but a wall stands between it and the centre: the unit would be sent
  // round the wall, so it stays with the centre.
  auto world = AsciiWorld({".....", "..@..", ".....", "....."});
  GroupFormation f;
  f.slots = {FormationSlot{0, 0}, FormationSlot{-2, 0}};  // facing east; two cells behind
  absl::StatusOr<FormationPlan> plan = world->FormationTargets({2, 2}, f, kLight);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->slots[1].outcome, SlotOutcome::kUsed);  // (0, 2): the line along row 2 is clear
  f.facing_degrees = 90;                                  // facing south: behind is north
  plan = world->FormationTargets({2, 2}, f, kLight);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->slots[1].outcome, SlotOutcome::kCutOff);  // (2, 0), through the wall at (2, 1)
  EXPECT_EQ(plan->slots[1].cell, (Cell{2, 2}));
}

TEST(FormationTest, TheCentreSnapsToStandableGround) {
  auto world = AsciiWorld({".......", "..MMM..", "..MMM..", "..MMM..", "......."});
  absl::StatusOr<FormationPlan> plan =
      world->FormationTargets({3, 2}, TwoRanks(0), kLight, Cell{3, 4});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->center, (Cell{3, 4}));  // toward the side the formation stands on
  EXPECT_FALSE(world->FormationTargets({3, 2}, TwoRanks(0), kLight, Cell{9, 9}).ok());
  GroupFormation bad = TwoRanks(0);
  bad.facing_degrees = std::nan("");
  absl::StatusOr<FormationPlan> refused = world->FormationTargets({3, 4}, bad, kLight);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(refused.status().message(), "formation.facing_degrees: must be finite");
  bad = TwoRanks(0);
  bad.slots[2].right = 1e9;
  refused = world->FormationTargets({3, 4}, bad, kLight);
  EXPECT_EQ(refused.status().message(),
            "formation.slots[2]: forward and right must be finite and within 7 cells");
}

TEST(FormationGroupTest, MembersWalkToTheirSlots) {
  auto world = AsciiWorld({"..................", "..................", "........@@........",
                           "........@@........", "..................", ".................."});
  const std::vector<GroupMember> members = {{{0, 1}, kLight}, {{1, 1}, kLight}, {{2, 1}, kLight},
                                            {{0, 2}, kLight}, {{1, 2}, kLight}, {{2, 2}, kLight}};
  const GroupFormation formation = TwoRanks(0);  // facing east at the goal
  absl::StatusOr<GroupPlan> plan = world->PathGroup(members, {15, 2}, &formation);
  ASSERT_TRUE(plan.ok()) << plan.status();
  const std::vector<Cell> slots = {{15, 1}, {15, 2}, {15, 3}, {14, 1}, {14, 2}, {14, 3}};
  world->Inspect([&](const LiveGrid& grid, const Layers&) {
    for (std::size_t k = 0; k < members.size(); ++k) {
      const MemberPath& m = plan->members[k];
      EXPECT_EQ(m.target, slots[k]) << k;
      ASSERT_FALSE(m.cells.empty()) << k;
      EXPECT_EQ(m.cells.front(), members[k].start);
      EXPECT_EQ(m.cells.back(), slots[k]) << k;
      EXPECT_EQ(PriceCells(grid, m.cells, kLight), m.cost) << k;
      EXPECT_EQ(m.waypoints.back(), slots[k]);
    }
  });
  EXPECT_EQ(plan->shared, 6u);
  EXPECT_EQ(world->Counters().formations, 1u);
  // A slot count other than the members' is refused.
  GroupFormation short_one = formation;
  short_one.slots.pop_back();
  absl::StatusOr<GroupPlan> refused = world->PathGroup(members, {15, 2}, &short_one);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(refused.status().message(), "formation.slots: 5 slots for 6 members");
}

// Members far apart (beyond the corridor's local radius) each need a search of their own.
std::unique_ptr<LiveWorld> ScatteredWorld(std::uint32_t max_fallbacks) {
  LiveWorldOptions options;
  options.group_local_radius = 1;
  options.group_fallback_searches = max_fallbacks;
  return AsciiWorld({"....................", "....................", "....................",
                     "....................", "...................."},
                    "", options);
}

std::vector<GroupMember> Scattered() {
  std::vector<GroupMember> members;
  for (std::int32_t x = 0; x < 20; x += 3) members.push_back({{x, (x / 3) % 5}, kLight});
  return members;  // 7 members, each 3 cells from the next
}

TEST(FallbackBoundTest, MembersOverTheBoundAreDeferredThenServed) {
  auto world = ScatteredWorld(2);
  const std::vector<GroupMember> members = Scattered();
  absl::StatusOr<GroupPlan> plan = world->PathGroup(members, {10, 4});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->individual, 2u);
  EXPECT_EQ(plan->fallback_searches, 2u);
  const std::uint32_t deferred = plan->deferred;
  EXPECT_GT(deferred, 0u);
  EXPECT_EQ(plan->deferred_requests.size(), deferred);
  for (const MemberPath& m : plan->members) {
    if (m.route == GroupRoute::kDeferred) {
      EXPECT_TRUE(m.cells.empty());
    }
  }
  EXPECT_EQ(world->Counters().group_deferred_members, deferred);

  FallbackQueue queue;
  for (const DeferredSearch& s : plan->deferred_requests) EXPECT_TRUE(queue.Push(world.get(), s));
  EXPECT_EQ(queue.Serve(100), deferred);
  EXPECT_EQ(world->Counters().fallbacks_served, deferred);

  // Asked again, the deferred members are answered from the cache: no new search is run.
  const std::uint64_t searches = world->Counters().searches;
  plan = world->PathGroup(members, {10, 4});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->deferred, 0u);
  EXPECT_EQ(plan->fallback_searches, 0u);
  EXPECT_EQ(world->Counters().searches, searches);
  for (const MemberPath& m : plan->members) EXPECT_NE(m.route, GroupRoute::kDeferred);
}

TEST(FallbackBoundTest, TheCellsTheSearchesExpandBoundThemToo) {
  // A bound of one cell: the first fallback runs (it starts under the bound), the rest wait.
  LiveWorldOptions options;
  options.group_local_radius = 1;
  options.group_fallback_cells = 1;
  auto world = AsciiWorld({"....................", "....................", "....................",
                           "....................", "...................."},
                          "", options);
  absl::StatusOr<GroupPlan> plan = world->PathGroup(Scattered(), {10, 4});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->fallback_searches, 1u);
  EXPECT_GT(plan->fallback_cells, 1u);
  EXPECT_EQ(plan->individual, 1u);
  EXPECT_EQ(plan->deferred, 5u);
  // The queue's budget works the same way: one search, then the cells are spent.
  FallbackQueue queue;
  for (const DeferredSearch& s : plan->deferred_requests) queue.Push(world.get(), s);
  EXPECT_EQ(queue.Serve(100, 1), 1u);
  EXPECT_EQ(queue.Serve(100), 4u);
}

TEST(FallbackBoundTest, ABoundOfZeroDefersEveryUncachedFallback) {
  auto world = ScatteredWorld(0);
  absl::StatusOr<GroupPlan> plan = world->PathGroup(Scattered(), {10, 4});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->individual, 0u);
  EXPECT_EQ(plan->deferred + plan->shared, 7u);
}

TEST(FallbackQueueTest, WorldsAreServedInTurnWithinTheirShare) {
  auto a = ScatteredWorld(0);
  auto b = ScatteredWorld(0);
  FallbackQueueOptions options;
  options.capacity = 8;
  options.per_world = 5;
  FallbackQueue queue(options);
  auto search = [](std::int32_t x) { return DeferredSearch{{x, 0}, {19, 4}, kLight}; };
  for (std::int32_t x = 0; x < 6; ++x) {
    EXPECT_EQ(queue.Push(a.get(), search(x)), x < 5) << x;  // a's share is 5
  }
  EXPECT_TRUE(queue.Push(a.get(), search(0)));  // already waiting: not queued twice
  EXPECT_TRUE(queue.Push(b.get(), search(0)));
  EXPECT_TRUE(queue.Push(b.get(), search(1)));
  EXPECT_TRUE(queue.Push(b.get(), search(2)));
  EXPECT_FALSE(queue.Push(b.get(), search(3)));  // the whole queue holds 8
  EXPECT_EQ(queue.Counters().dropped, 2u);
  // Four searches: two of each world, alternating, so b is not left behind a's five.
  EXPECT_EQ(queue.Serve(4), 4u);
  EXPECT_EQ(a->Counters().fallbacks_served, 2u);
  EXPECT_EQ(b->Counters().fallbacks_served, 2u);
  EXPECT_EQ(queue.Waiting(a.get()), 3u);
  EXPECT_EQ(queue.Waiting(b.get()), 1u);
  EXPECT_EQ(queue.Serve(100), 4u);
  EXPECT_EQ(queue.Counters().served, 8u);
  EXPECT_EQ(queue.Counters().waiting, 0u);
}

TEST(FallbackQueueTest, ItsThreadServesWhatIsPushed) {
  auto world = ScatteredWorld(0);
  FallbackQueue queue;
  queue.Start();
  for (std::int32_t x = 0; x < 10; ++x)
    queue.Push(world.get(), DeferredSearch{{x, 0}, {19, 4}, kLight});
  for (int tries = 0; tries < 2000 && queue.Counters().served < 10; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(queue.Counters().served, 10u);
  EXPECT_EQ(world->Counters().fallbacks_served, 10u);
}

}  // namespace
}  // namespace walk::nav::live
