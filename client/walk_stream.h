// Streams many walks through WalkBatch, 256 pairs a message, and collects every answer by its
// index (unpacking answers carried in `more`): the client side of a batch, shared by walkctl
// batch and walkctl routes.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "walk/v1/walk.pb.h"

namespace walk::client {

struct StreamedWalks {
  // answers[i] answers walks[i]; nullopt when the stream ended before answering it.
  std::vector<std::optional<walk::v1::WalkBatchResponse>> answers;
  std::optional<walk::v1::BatchSummary> summary;
  // The stream's own outcome (UNAVAILABLE, DEADLINE_EXCEEDED, ...); a pair refused alone has its
  // own code in its answer.
  absl::Status status;
};

// Answers `walks`; the stream's deadline is `timeout_s`. `on_answer`, when set, sees each answer
// as it arrives (on the calling thread).
StreamedWalks StreamWalks(const std::string& address, double timeout_s,
                          const std::vector<walk::v1::WalkRequest>& walks,
                          const std::function<void(const walk::v1::WalkBatchResponse&)>& on_answer = {});

}  // namespace walk::client
