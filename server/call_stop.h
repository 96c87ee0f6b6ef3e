// When the searches of one call must stop: the call was cancelled (or its client went away),
// its deadline passed, walkd is shutting down past its grace, or a search spent its work budget
// (--max-search-expansions). The searches poll it (nav/search/search_stop.h), so an abandoned
// call frees its search thread within milliseconds.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "grpcpp/grpcpp.h"
#include "nav/search/search_stop.h"

namespace walk::server {

// The stop of the searches of the call `context` (which must outlive them; a unary call's and a
// stream's do), with `stopping` (walkd's, set when it stops for good) and `budget` (surfaces or
// nodes one search may expand).
nav::SearchStop StopOf(grpc::CallbackServerContext* context, const std::atomic<bool>& stopping,
                       std::uint64_t budget);

// `deadline` (a gRPC deadline, system clock; max: none) on the steady clock.
nav::SearchStop::Clock::time_point SteadyDeadline(std::chrono::system_clock::time_point deadline);

}  // namespace walk::server
