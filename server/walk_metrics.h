// walkd's metrics, registered once: request counts and durations by RPC and code, searches and
// their counters (nodes expanded, heap operations, as the RTS seed counts them), walks by status,
// worlds loaded. Names follow Prometheus conventions: walk_ prefix, base units, _total counters.
#pragma once

#include <string>

#include "nav/query/answer.h"
#include "server/metrics.h"

namespace walk::server {

class WalkMetrics {
 public:
  // Registers every family in `registry`, which must outlive this object.
  explicit WalkMetrics(MetricsRegistry& registry);

  // One finished RPC: its method ("Walk"), gRPC code name ("OK") and duration in seconds.
  void RecordRequest(const std::string& method, const std::string& code, double seconds);
  // One answered walk: its status, the search that answered and what that search cost.
  void RecordWalk(const nav::WalkAnswer& answer);
  void SetWorlds(int loaded, int failed);
  // A walk-store lookup: a hit answers without a search.
  void RecordStoreLookup(bool hit);
  // `hits` and `misses` lookups at once (a block's MultiGet).
  void RecordStoreLookups(std::uint64_t hits, std::uint64_t misses);
  // One pair of a batch, by outcome: stored, routed, straight, failed, refused.
  void RecordBatchPair(const char* outcome);
  // `count` batch pairs of one outcome at once.
  void RecordBatchPairs(const char* outcome, std::uint64_t count);

 private:
  CounterFamily& requests_;
  HistogramFamily& request_seconds_;
  CounterFamily& searches_;
  Counter& nodes_expanded_;
  Counter& heap_operations_;
  CounterFamily& walks_;
  Gauge& worlds_loaded_;
  Gauge& worlds_failed_;
  CounterFamily& store_lookups_;
  CounterFamily& batch_pairs_;
};

}  // namespace walk::server
