#include "server/memory_governor.h"

#include <chrono>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "nav/abstract/abstract_router.h"
#include "server/world_registry.h"

namespace walk::server {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

MemoryGovernorOptions TwoGigabytes() {
  MemoryGovernorOptions o;
  o.target_bytes = 2048 * kMiB;
  o.grid_room_bytes = 512 * kMiB;  // a quarter: the ceiling for anonymous memory is 1536 MiB
  o.band_metric_bytes = 1024 * kMiB;
  return o;
}

ResidentBytes Resident(std::uint64_t anonymous_mib, std::uint64_t file_mib) {
  return {(anonymous_mib + file_mib) * kMiB, file_mib * kMiB};
}

TEST(MemoryGovernorTest, WithoutATargetItDoesNothing) {
  const GovernorStep step = DecideGovernorStep({}, Resident(9000, 9000), 0, 9000 * kMiB);
  EXPECT_FALSE(step.release_grids);
  EXPECT_FALSE(step.recall_buffers);
  EXPECT_EQ(step.band_metric_room, 0u);
}

TEST(MemoryGovernorTest, UnderTheTargetBandMetricsGetTheAnonymousRoomLeft) {
  const GovernorStep step =
      DecideGovernorStep(TwoGigabytes(), Resident(1200, 300), 10 * kMiB, 1100 * kMiB);
  EXPECT_FALSE(step.release_grids);
  EXPECT_FALSE(step.recall_buffers);
  EXPECT_EQ(step.band_metric_room, (1536 - 1100) * kMiB);
}

TEST(MemoryGovernorTest, TheHeapIsTrimmedWheneverWalkdIsOver) {
  // Under the target and the anonymous ceiling: nothing to give back.
  EXPECT_FALSE(
      DecideGovernorStep(TwoGigabytes(), Resident(1200, 300), 10 * kMiB, 1100 * kMiB).trim_heap);
  // Over the target with grid pages to hand back, or over the anonymous ceiling.
  EXPECT_TRUE(DecideGovernorStep(TwoGigabytes(), Resident(1200, 900), 0, 1100 * kMiB).trim_heap);
  EXPECT_TRUE(DecideGovernorStep(TwoGigabytes(), Resident(1700, 100), 0, 1600 * kMiB).trim_heap);
  EXPECT_FALSE(DecideGovernorStep({}, Resident(9000, 9000), 0, 9000 * kMiB).trim_heap);
}

// What walkd frees in small pieces stays resident in the allocator's arenas until trimmed.
TEST(MemoryGovernorTest, TrimmingTheHeapGivesFreedPiecesBack) {
  std::vector<std::unique_ptr<char[]>> pieces;
  for (int i = 0; i < 100'000; ++i) {  // 100 MB in pieces under the allocator's mmap threshold
    pieces.emplace_back(new char[1000]);
    std::memset(pieces.back().get(), 1, 1000);
  }
  auto last = std::make_unique<char[]>(1000);  // above the others: the arena's top stays in use
  std::memset(last.get(), 1, 1000);
  pieces.clear();
  EXPECT_GT(TrimHeap(), std::uint64_t{50} << 20);
  EXPECT_LT(TrimHeap(), std::uint64_t{8} << 20);  // nothing much left to give back
}

TEST(MemoryGovernorTest, GridPagesGoWhenTheNextLookWouldFindWalkdOver) {
  // 1,900 MiB now: another burst as large as the largest of late (the file-backed pages' growth
  // between two looks) leaves walkd under the target at 100 MiB, not at 200 MiB.
  EXPECT_FALSE(DecideGovernorStep(TwoGigabytes(), Resident(1200, 700), 100 * kMiB, 1100 * kMiB)
                   .release_grids);
  EXPECT_TRUE(DecideGovernorStep(TwoGigabytes(), Resident(1200, 700), 200 * kMiB, 1100 * kMiB)
                  .release_grids);
  EXPECT_TRUE(
      DecideGovernorStep(TwoGigabytes(), Resident(1200, 900), 0, 1100 * kMiB).release_grids);
  // Nothing file-backed, or too little to be worth faulting in again: nothing to hand back.
  EXPECT_FALSE(DecideGovernorStep(TwoGigabytes(), Resident(3000, 0), 0, 0).release_grids);
  EXPECT_FALSE(DecideGovernorStep(TwoGigabytes(), Resident(3000, 32), 0, 0).release_grids);
  EXPECT_TRUE(DecideGovernorStep(TwoGigabytes(), Resident(3000, 33), 0, 0).release_grids);
}

TEST(MemoryGovernorTest, SearchBuffersAndBandMetricsGiveWayPastTheAnonymousCeiling) {
  const GovernorStep step = DecideGovernorStep(TwoGigabytes(), Resident(1700, 100), 0, 1600 * kMiB);
  EXPECT_TRUE(step.recall_buffers);
  EXPECT_EQ(step.band_metric_room, 0u);  // then danger bands take the A*
}

TEST(MemoryGovernorTest, BandMetricsHoldWhatAnonymousMemoryHasRoomForBesidesTheRest) {
  // 1536 MiB for anonymous memory, 1,300 held otherwise: a 180 MiB metric stays (what making
  // one more takes is the band metric cache's to reserve, only while it makes one).
  EXPECT_EQ(DecideGovernorStep(TwoGigabytes(), Resident(1480, 0), 0, 1300 * kMiB).band_metric_room,
            (1536 - 1300) * kMiB);
  EXPECT_EQ(DecideGovernorStep(TwoGigabytes(), Resident(1600, 0), 0, 1600 * kMiB).band_metric_room,
            0u);
}

TEST(MemoryGovernorTest, AWorldKeepsTheBandMetricsItHoldsAndSharesTheRest) {
  // Two worlds, one holding a 180 MiB metric, 280 MiB of room: each may have the 100 left
  // besides what it holds, where half of the room each would evict the metric.
  EXPECT_EQ(BandMetricShares({180 * kMiB, 0}, 280 * kMiB, 1024 * kMiB),
            (std::vector<std::uint64_t>{280 * kMiB, 100 * kMiB}));
  // Neither holding any, either may make a metric that needs more than half of the room.
  EXPECT_EQ(BandMetricShares({0, 0}, 400 * kMiB, 1024 * kMiB),
            (std::vector<std::uint64_t>{400 * kMiB, 400 * kMiB}));
  // Holding more than the room together, each keeps a share as large as what it holds.
  EXPECT_EQ(BandMetricShares({300 * kMiB, 100 * kMiB, 0}, 200 * kMiB, 1024 * kMiB),
            (std::vector<std::uint64_t>{150 * kMiB, 50 * kMiB, 0}));
  // At most --band-metrics-mb each.
  EXPECT_EQ(BandMetricShares({0, 0}, 4096 * kMiB, 1024 * kMiB),
            (std::vector<std::uint64_t>{1024 * kMiB, 1024 * kMiB}));
  EXPECT_TRUE(BandMetricShares({}, 4096 * kMiB, 1024 * kMiB).empty());
}

TEST(MemoryGovernorTest, TheGridsRoomIsAtMostAQuarterOfTheTarget) {
  MemoryGovernorOptions o = TwoGigabytes();
  o.target_bytes = 1024 * kMiB;  // a quarter, 256 MiB, under --grid-resident-mb's 512
  EXPECT_EQ(DecideGovernorStep(o, Resident(500, 0), 0, 500 * kMiB).band_metric_room,
            (768 - 500) * kMiB);
  o.grid_room_bytes = 64 * kMiB;
  EXPECT_EQ(DecideGovernorStep(o, Resident(500, 0), 0, 500 * kMiB).band_metric_room,
            (960 - 500) * kMiB);
}

TEST(CacheYieldTest, GivesWayOnceABandWantsItsMetricAndBackAMinuteAfterMetricsWentUnused) {
  constexpr std::uint64_t kWant = nav::AbstractRouter::kBandMetricAfterWalks;
  CacheYield yield;
  std::uint64_t refusals = 0, reads = 0;
  // Refusals short of a metric's walks within 10 s (40 looks): no yield.
  for (int look = 0; look < 200; ++look) {
    refusals += look % 40 == 0 ? kWant - 1 : 0;
    ASSERT_FALSE(yield.Look(refusals, reads)) << look;
  }
  refusals += kWant;  // a band walked often enough to want its metric
  EXPECT_TRUE(yield.Look(refusals, reads));
  // Its metric made and read: the caches keep giving way as long as it is read.
  for (int look = 0; look < 1000; ++look) {
    reads += 3;
    ASSERT_TRUE(yield.Look(refusals, reads)) << look;
  }
  // Unread for a minute (240 looks): they have their bounds back.
  int looks_until_back = 0;
  while (yield.Look(refusals, reads) && looks_until_back < 1000) ++looks_until_back;
  EXPECT_EQ(looks_until_back, 239);
  EXPECT_FALSE(yield.Look(refusals, reads));
  // Reads alone (metrics that have their room) never make them give way.
  for (int look = 0; look < 100; ++look) ASSERT_FALSE(yield.Look(refusals, reads += 5));
}

TEST(CacheYieldTest, AReloadedWorldsCountsStartingAgainCountAsNew) {
  constexpr std::uint64_t kWant = nav::AbstractRouter::kBandMetricAfterWalks;
  CacheYield yield;
  EXPECT_FALSE(yield.Look(kWant - 1, 0));  // walkd's first look: all new, short by one
  EXPECT_TRUE(yield.Look(kWant, 0));
  CacheYield slow;
  std::uint64_t refusals = 0;
  for (int look = 0; look < 500; ++look) ASSERT_FALSE(slow.Look(refusals += kWant / 100, 0));
  for (int look = 0; look < 40; ++look) ASSERT_FALSE(slow.Look(refusals, 0));
  EXPECT_FALSE(slow.Look(50, 0)) << "a world reloaded: 50 refusals since, not minus thousands";
  EXPECT_TRUE(slow.Look(kWant, 0));
}

TEST(CacheYieldTest, GivingWayLeavesAnEighthOfACache) {
  EXPECT_EQ(GivingWayBytes(256 * kMiB), 32 * kMiB);
  EXPECT_EQ(GivingWayBytes(64 * kMiB), 16 * kMiB);
  EXPECT_EQ(GivingWayBytes(8 * kMiB), 8 * kMiB);
  EXPECT_EQ(GivingWayBytes(0), 0u);
}

TEST(MemoryGovernorTest, ReadsThisProcesssResidentBytes) {
  const ResidentBytes before = ReadResidentBytes();
  ASSERT_GT(before.total, 0u);
  EXPECT_LE(before.file, before.total);  // the program's own code at least is file-backed
  EXPECT_GT(before.file, 0u);
  const std::size_t bytes = 64 * kMiB;
  std::unique_ptr<char[]> touched(new char[bytes]);
  std::memset(touched.get(), 1, bytes);
  const ResidentBytes after = ReadResidentBytes();
  EXPECT_GE(after.anonymous(), before.anonymous() + 60 * kMiB);
  EXPECT_EQ(touched[bytes - 1], 1);
}

TEST(MemoryGovernorTest, StopsWhenAsked) {
  WorldRegistry worlds;
  MemoryGovernorCounts counts;
  const std::size_t bytes = 32 * kMiB;  // this process's anonymous memory, at least
  std::unique_ptr<char[]> touched(new char[bytes]);
  std::memset(touched.get(), 1, bytes);
  {
    MemoryGovernorOptions o = TwoGigabytes();
    o.target_bytes = 8 * kMiB;  // under this process: every look would hand back and recall
    std::jthread governor = GovernMemory(&worlds, o, &counts);
    for (int k = 0; k < 600 && counts.buffer_recalls.load() == 0; ++k) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }                                            // stopped and joined here, mid-wait
  EXPECT_EQ(counts.grid_releases.load(), 0u);  // no world, nothing mapped to hand back
  EXPECT_GE(counts.buffer_recalls.load(), 1u);
  EXPECT_EQ(counts.band_metric_room.load(), 0u);
  EXPECT_EQ(touched[bytes - 1], 1);
}

}  // namespace
}  // namespace walk::server
