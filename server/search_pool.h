// Threads that run searches, so gRPC's own threads never block on long work. Each thread owns a
// nav::Searchers (the fine-grid walker, the abstract searcher, the navmesh walkers: its search
// buffers), reused for every search it runs.
//
// Two queues: interactive work (Walk, Path, Table: a caller waits on each answer) runs before
// batch work (WalkBatch pairs), which a thread takes only when no interactive task waits. A
// batch pair is one task, so a thread returns to the queues between pairs: under any batch load
// an interactive walk waits at most for the searches already running. Interactive tasks are
// queued by call, and the calls take turns, a task each: a Table's hundred rows (or a stream's
// window of them) queued before a Walk hold it back by one row, not by all of them.
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
  enum class Priority { kInteractive, kBatch };

  // Starts `threads` threads (at least 1).
  explicit SearchPool(int threads);
  // Runs every task already submitted, then joins.
  ~SearchPool();
  SearchPool(const SearchPool&) = delete;
  SearchPool& operator=(const SearchPool&) = delete;

  // Queues `task`; it runs on a pool thread with that thread's searchers, interactive tasks
  // before batch ones. Interactive tasks of one `call` (any address naming it while its tasks
  // run; null: a call of one task) run in the order submitted, taking turns with other calls'.
  // Thread-safe.
  void Submit(Task task, Priority priority = Priority::kInteractive, const void* call = nullptr);
  // Tasks queued and not yet started (both queues).
  std::size_t Pending() const;

 private:
  void Run();

  mutable std::mutex mu_;
  std::condition_variable wake_;
  // One call's interactive tasks waiting.
  struct CallTasks {
    const void* call;
    std::deque<Task> tasks;
  };
  // The next task that takes a thread (interactive first, the front call's first task; that
  // call then goes behind the others), or an empty task when none waits.
  Task TakeLocked();

  std::deque<CallTasks> interactive_;  // guarded by mu_; each call once, in turn
  std::deque<Task> batch_;             // guarded by mu_
  bool stopping_ = false;              // guarded by mu_
  std::vector<std::thread> threads_;
};

}  // namespace walk::server
