// Streams many trips through WalkBatch (WalkBatchRequest.trip, 256 a stream message by default) and
// collects every answer by its index: the client side of batch trips, used by walkctl routes.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "client/connection.h"
#include "walk/v1/walk.pb.h"

namespace walk::client {

// One trip's answer: the reply, or why the trip was refused.
struct TripAnswer {
  int code = 0;         // 0 or a gRPC code number
  std::string message;  // why, when code is not 0
  walk::v1::TripResponse trip;

  bool found() const { return code == 0 && trip.status() == walk::v1::TRIP_STATUS_OK; }
};

struct StreamedTrips {
  // answers[i] answers trips[i]; nullopt when the stream ended before answering it.
  std::vector<std::optional<TripAnswer>> answers;
  std::optional<walk::v1::BatchSummary> summary;
  absl::Status status;  // the stream's own outcome
};

// Answers `trips`, `message_pairs` a stream message (at most Info's max_pairs_per_message); the
// stream's deadline is `timeout_s`. `on_answer` (when set) is called with each answer as it
// arrives (on the calling thread), with the trip's position.
StreamedTrips StreamTrips(
    const Connection& connection, double timeout_s, const std::vector<walk::v1::TripRequest>& trips,
    const std::function<void(std::size_t, const TripAnswer&)>& on_answer = nullptr,
    std::size_t message_pairs = 256);

}  // namespace walk::client
