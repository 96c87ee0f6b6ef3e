// walkctl batch: streams pairs from a file through WalkBatch (as walks, or with --trips as
// trips) and writes one JSON answer per pair, in input order, then a summary line. Re-running with
// the same --out asks only the pairs that have no answer there yet.
#pragma once

#include <string>

#include "client/batch_input.h"
#include "client/connection.h"

namespace walk::client {

struct BatchArgs {
  Connection connection;    // walkd
  std::string pairs_path;   // JSON lines, or CSV when it ends in .csv
  std::string out_path;     // answers, JSON lines
  double timeout_s = 3600;  // the whole stream's deadline
  BatchDefaults defaults;
  // Ask each pair as a trip (docs/trips.md) instead of a walk.
  bool trips = false;
  // Walks are split over this many WalkBatch calls (at most 4 open at once) sharing one channel,
  // so a round_robin balancer spreads them over replicas. Trips take one call.
  int streams = 1;
};

// Returns walkctl's exit code (docs/api.md).
int RunBatch(const BatchArgs& args);

}  // namespace walk::client
