// When a long build must be abandoned before it is done: walkd stopping while a world still
// loads (docs/operations.md, "Shutdown"). The builds that run for seconds on a large world (the
// demo world's tiles and its continent, the abstract graph's cells, a CCH's customization,
// walkd's setting up of a world) ask it every few thousand steps, or once per piece of work that
// takes milliseconds, and return CANCELLED once it says stop. What a stopped build leaves is
// discarded: nothing is saved from it.
//
// A BuildStop reads a flag its owner sets from another thread; it is a pointer, cheap to copy
// and to ask. The default one never stops.
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

#include "absl/status/status.h"

namespace walk::nav {

class BuildStop {
 public:
  // Never stops.
  BuildStop() = default;
  // Stops once `*flag` is true. `flag` (may be null: never) must outlive every build given this
  // stop or a copy of it.
  explicit BuildStop(const std::atomic<bool>* flag) : flag_(flag) {}

  // True once the owner wants the build abandoned. One relaxed atomic load: cheap enough for
  // every piece of work of a millisecond or more; loops of small steps ask every kPollEvery.
  bool requested() const { return flag_ != nullptr && flag_->load(std::memory_order_relaxed); }
  // requested(), asked only on every kPollEvery-th `step` (cheap to call on each).
  bool Poll(std::uint64_t step) const { return step % kPollEvery == 0 && requested(); }

  // OK, or CANCELLED saying that `what` (e.g. "building the abstract graph") was stopped before
  // it was done.
  absl::Status Check(std::string_view what) const;
  // The CANCELLED status Check returns, for builds that found requested() themselves.
  static absl::Status Stopped(std::string_view what);

  static constexpr std::uint64_t kPollEvery = 4096;

 private:
  const std::atomic<bool>* flag_ = nullptr;
};

}  // namespace walk::nav
