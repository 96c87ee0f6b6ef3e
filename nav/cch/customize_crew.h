// Threads that need a metric another thread is customizing join its customization, rather than
// wait idle for it or go on without it (a danger band's walks, which would take an unguided A*).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>

#include "absl/functional/function_ref.h"

namespace walk::nav {

class CustomizeCrew {
 public:
  // Works on the customization at hand, on this thread, until no rank is left to take. Returns
  // false at once where none is open, it has as many threads as it takes, or no work was left
  // to take (the last ranks then belong to those already on them); the caller then waits for
  // the metric as it would have. True if it did some of the work.
  bool Join();

  // For the customizing thread: while open, up to `most` joiners run `work` (each on scratch of
  // its own) beside it; `work` says whether it found any to do, and once it found none no one
  // else joins. `work` must stay valid until Close, which turns new joiners away and returns
  // once those working are done, so that what they settled is visible to the caller.
  void Open(absl::FunctionRef<bool()> work, unsigned most);
  void Close();

  // Joins that did some of the work, over every customization it was opened for.
  std::uint64_t joined() const;

 private:
  mutable std::mutex mu_;
  std::condition_variable left_;
  std::optional<absl::FunctionRef<bool()>> work_;  // guarded by mu_: set while open
  bool drained_ = false;                           // guarded by mu_: a joiner found no work
  unsigned most_ = 0;                              // guarded by mu_
  unsigned working_ = 0;                           // guarded by mu_
  std::uint64_t joined_ = 0;                       // guarded by mu_
};

// Opens `crew` (when given) to `work` for the scope's length.
class OpenCrew {
 public:
  OpenCrew(CustomizeCrew* crew, absl::FunctionRef<bool()> work, unsigned most) : crew_(crew) {
    if (crew_ != nullptr) crew_->Open(work, most);
  }
  ~OpenCrew() {
    if (crew_ != nullptr) crew_->Close();
  }
  OpenCrew(const OpenCrew&) = delete;
  OpenCrew& operator=(const OpenCrew&) = delete;

 private:
  CustomizeCrew* crew_;
};

}  // namespace walk::nav
