// Streams many walks through WalkBatch and collects every answer by its index: the client
// side of a batch, for tools that need all answers before they go on (walkctl routes).
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "walk/v1/walk.pb.h"

namespace walk::client {

// Answers `walks` (answer i is walks[i]'s); the stream's deadline is `timeout_s`. Errors are the
// stream's (UNAVAILABLE, DEADLINE_EXCEEDED, ...); a pair refused alone has its own code.
absl::StatusOr<std::vector<walk::v1::WalkBatchResponse>> StreamWalks(
    const std::string& address, double timeout_s, const std::vector<walk::v1::WalkRequest>& walks);

}  // namespace walk::client
