// The search pool: interactive tasks before batch ones, and calls' interactive tasks in turn.
#include "server/search_pool.h"

#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace walk::server {
namespace {

// Records the order tasks ran in; a blocking task holds the pool's one thread until Release, so
// every task submitted meanwhile is queued before any runs.
class Recorder {
 public:
  SearchPool::Task Blocking() {
    return [this](nav::Searchers&) {
      std::unique_lock<std::mutex> lock(mu_);
      started_ = true;
      changed_.notify_all();
      changed_.wait(lock, [this] { return released_; });
    };
  }
  void WaitStarted() {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait(lock, [this] { return started_; });
  }
  SearchPool::Task Named(std::string name) {
    return [this, name](nav::Searchers&) {
      std::lock_guard<std::mutex> lock(mu_);
      order_.push_back(name);
    };
  }
  void Release() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      released_ = true;
    }
    changed_.notify_all();
  }
  std::vector<std::string> order() {
    std::lock_guard<std::mutex> lock(mu_);
    return order_;
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  bool started_ = false;
  bool released_ = false;
  std::vector<std::string> order_;
};

// A table's rows queued before a walk and a second table's: the walk runs after one row, and the
// tables' rows take turns, each table's in its own order; batch work waits for all of them.
TEST(SearchPoolTest, CallsTakeTurnsAndBatchWorkWaits) {
  Recorder recorder;
  {
    SearchPool pool(1);
    pool.Submit(recorder.Blocking());
    recorder.WaitStarted();
    const int table = 0, other_table = 0;
    pool.Submit(recorder.Named("batch"), SearchPool::Priority::kBatch);
    for (int row = 0; row < 4; ++row) {
      pool.Submit(recorder.Named("a" + std::to_string(row)), SearchPool::Priority::kInteractive,
                  &table);
    }
    pool.Submit(recorder.Named("walk"));
    for (int row = 0; row < 2; ++row) {
      pool.Submit(recorder.Named("b" + std::to_string(row)), SearchPool::Priority::kInteractive,
                  &other_table);
    }
    pool.Submit(recorder.Named("walk2"));
    EXPECT_EQ(pool.Pending(), 9u);
    recorder.Release();
  }  // the pool runs every task queued, then joins
  EXPECT_EQ(recorder.order(), (std::vector<std::string>{"a0", "walk", "b0", "walk2", "a1", "b1",
                                                        "a2", "a3", "batch"}));
}

}  // namespace
}  // namespace walk::server
