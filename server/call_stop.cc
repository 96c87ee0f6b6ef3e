#include "server/call_stop.h"

namespace walk::server {

nav::SearchStop::Clock::time_point SteadyDeadline(std::chrono::system_clock::time_point deadline) {
  using Steady = nav::SearchStop::Clock;
  // A deadline decades away is no deadline (and would overflow the conversion).
  const auto system_now = std::chrono::system_clock::now();
  if (deadline >= system_now + std::chrono::hours(24 * 365)) return Steady::time_point::max();
  return Steady::now() + std::chrono::duration_cast<Steady::duration>(deadline - system_now);
}

nav::SearchStop StopOf(grpc::CallbackServerContext* context, const std::atomic<bool>& stopping,
                       std::uint64_t budget) {
  nav::SearchStop stop;
  stop.wanted = [context, &stopping]() -> absl::Status {
    if (stopping.load(std::memory_order_relaxed)) {
      return absl::UnavailableError("walkd is shutting down: the search was stopped");
    }
    if (context->IsCancelled()) {
      return absl::CancelledError("the call was cancelled: the search was stopped");
    }
    return absl::OkStatus();
  };
  stop.deadline = SteadyDeadline(context->deadline());
  stop.budget = budget;
  return stop;
}

}  // namespace walk::server
