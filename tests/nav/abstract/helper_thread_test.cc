#include "nav/abstract/helper_thread.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace walk::nav {
namespace {

TEST(WalkHelperTest, RunsAHandedJobAndRefusesWhileBusy) {
  HelperThread helper;
  std::atomic<bool> release{false};
  std::atomic<int> ran{0};
  const std::uint64_t first = helper.TryRun([&](CellSearch&) {
    while (!release.load()) std::this_thread::yield();
    ran.fetch_add(1);
  });
  ASSERT_NE(first, 0u);
  // Busy until the first job ends: a second is refused (its caller does the work itself).
  EXPECT_EQ(helper.TryRun([&](CellSearch&) { ran.fetch_add(10); }), 0u);
  release.store(true);
  helper.Wait(first);
  EXPECT_EQ(ran.load(), 1);
  // Idle again: the next job is taken, and Wait returns only once it has run.
  std::uint64_t second = 0;
  for (int tries = 0; second == 0 && tries < 1000; ++tries) {
    second = helper.TryRun([&](CellSearch&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      ran.fetch_add(100);
    });
  }
  ASSERT_GT(second, first);
  helper.Wait(second);
  EXPECT_EQ(ran.load(), 101);
}

TEST(WalkHelperTest, ManyCallersEachGetTheirOwnJobBack) {
  HelperThread helper;
  std::atomic<int> done{0}, inline_done{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        int mine = 0;
        const std::uint64_t ticket = helper.TryRun([&](CellSearch&) { mine = 1; });
        if (ticket != 0) {
          helper.Wait(ticket);
          EXPECT_EQ(mine, 1);  // our own job ran before Wait returned
          done.fetch_add(1);
        } else {
          inline_done.fetch_add(1);
        }
      }
    });
  }
  for (std::thread& c : callers) c.join();
  EXPECT_EQ(done.load() + inline_done.load(), 800);
  EXPECT_GT(done.load(), 0);
}

TEST(WalkHelperTest, StopsCleanlyWithAndWithoutWork) {
  { HelperThread idle; }
  HelperThread helper;
  const std::uint64_t ticket = helper.TryRun([](CellSearch&) {});
  ASSERT_NE(ticket, 0u);
  helper.Wait(ticket);
}

}  // namespace
}  // namespace walk::nav
