// A helper thread that takes half of a walk's work while the asking thread does the other half:
// one leg of a cold walk (so a walk whose two legs are both uncached waits for one cell search,
// not two), and one direction of the CCH query. It only takes work when it is idle: a thread
// that finds it busy does both halves itself, so under load (every search thread busy) nothing
// waits on it and the work done is the same.
//
// Waking a sleeping thread takes about as long as a small walk, so both sides spin briefly
// before they sleep: the helper for a next job after finishing one (a walk hands over its next
// half soon after the first, the next walk of a batch soon after that), and the asking thread
// for its job's end. Spinning yields the core often, so a
// busy machine's other threads run.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include "absl/functional/function_ref.h"
#include "nav/abstract/cell_search.h"

namespace walk::nav {

class HelperThread {
 public:
  HelperThread();
  ~HelperThread();
  HelperThread(const HelperThread&) = delete;
  HelperThread& operator=(const HelperThread&) = delete;

  // Hands `job` to the helper thread (which runs it with its own CellSearch) when the helper is
  // idle, and returns a ticket for Wait; returns 0 when it is busy, and the caller does the work.
  std::uint64_t TryRun(std::function<void(CellSearch&)> job);
  // Returns once the job of `ticket` has run.
  void Wait(std::uint64_t ticket);
  // Runs `here` on this thread and `there` on the helper when it is idle (else here too), and
  // returns once both have run.
  void Both(absl::FunctionRef<void()> here, absl::FunctionRef<void()> there);

 private:
  void Loop();

  std::mutex mu_;
  std::condition_variable wake_, done_cv_;
  std::function<void(CellSearch&)> job_;  // guarded by mu_
  bool busy_ = false;                     // a job is handed over and not finished
  bool stop_ = false;
  std::uint64_t issued_ = 0;            // tickets
  std::atomic<std::uint64_t> done_{0};  // the last ticket run; written under mu_
  std::atomic<bool> has_job_{false};    // job_ is set; written under mu_
  CellSearch search_;                   // the helper thread's own
  std::thread thread_;                  // last: starts once the rest is ready
};

}  // namespace walk::nav
