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
  // WalkBatch calls open at once on one channel, each pulling pieces of the walks as it
  // finishes the last, so a round_robin balancer spreads them over replicas. Trips take one
  // call. 0: DefaultStreams.
  int streams = 0;
};

// The streams a batch opens when none are asked: with round_robin, one per address of an
// ipv4:/ipv6: target (4 for a name that resolves to several), else 1.
int DefaultStreams(const ConnectionFiles& files);

// Returns walkctl's exit code (docs/api.md).
int RunBatch(const BatchArgs& args);

}  // namespace walk::client
