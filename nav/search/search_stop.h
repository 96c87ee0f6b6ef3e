// When a search must stop before it has its answer: its caller gave up (a cancelled call, walkd
// shutting down), its deadline passed, or it spent its work budget. Searches that can run long
// (the fine-grid A*, the danger Dijkstra over the abstract graph) ask Check every kPollEvery
// surfaces or nodes they expand, so an abandoned search frees its thread within milliseconds.
// Searches bounded by construction (a cell's leg, a trap check, a navmesh's node pool) need not.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>

#include "absl/status/status.h"

namespace walk::nav {

struct SearchStop {
  using Clock = std::chrono::steady_clock;
  // Expansions between two checks: a check reads the clock and may call `cancelled`; 4,096
  // expansions take well under a millisecond.
  static constexpr std::uint64_t kPollEvery = 4096;

  // OK while the caller still wants the answer, else why not (CANCELLED: the call was
  // cancelled; UNAVAILABLE: walkd is shutting down). Empty: always wanted. Called from the
  // searching thread.
  std::function<absl::Status()> wanted;
  Clock::time_point deadline = Clock::time_point::max();
  // Most surfaces or nodes one search may expand; UINT64_MAX: no budget.
  std::uint64_t budget = UINT64_MAX;

  // OK, or why a search that has expanded `expanded` must stop: RESOURCE_EXHAUSTED naming the
  // budget, what `wanted` says, or DEADLINE_EXCEEDED.
  absl::Status Check(std::uint64_t expanded) const;
  // Check, but only on every kPollEvery-th expansion (cheap to call on each).
  absl::Status Poll(std::uint64_t expanded) const {
    return expanded % kPollEvery == 0 ? Check(expanded) : absl::OkStatus();
  }
};

}  // namespace walk::nav
