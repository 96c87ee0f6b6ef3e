// Threads that run searches, so gRPC's own threads never block on long work. Each thread owns a
// nav::Searchers (the fine-grid walker and the abstract searcher: its search buffers), reused
// for every search it runs.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "nav/query/walk_pipeline.h"

namespace walk::server {

class SearchPool {
 public:
  using Task = std::function<void(nav::Searchers&)>;

  // Starts `threads` threads (at least 1).
  explicit SearchPool(int threads);
  // Runs every task already submitted, then joins.
  ~SearchPool();
  SearchPool(const SearchPool&) = delete;
  SearchPool& operator=(const SearchPool&) = delete;

  // Queues `task`; it runs on a pool thread with that thread's searchers. Thread-safe.
  void Submit(Task task);
  // Tasks queued and not yet started.
  std::size_t Pending() const;

 private:
  void Run();

  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::deque<Task> queue_;  // guarded by mu_
  bool stopping_ = false;   // guarded by mu_
  std::vector<std::thread> threads_;
};

}  // namespace walk::server
