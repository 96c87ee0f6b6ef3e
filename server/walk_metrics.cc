#include "server/walk_metrics.h"

namespace walk::server {

WalkMetrics::WalkMetrics(MetricsRegistry& registry)
    : requests_(registry.AddCounter("walk_requests_total",
                                    "RPCs finished, by method and gRPC code.", {"method", "code"})),
      request_seconds_(registry.AddHistogram("walk_request_duration_seconds",
                                             "Time from an RPC's arrival to its reply, seconds.",
                                             {"method"}, ExponentialBuckets(0.00001, 2.5, 14))),
      searches_(registry.AddCounter(
          "walk_searches_total", "Walks answered, by the search that answered them.", {"method"})),
      nodes_expanded_(registry
                          .AddCounter("walk_search_nodes_expanded_total",
                                      "Surfaces or nodes the searches took off their heaps.", {})
                          .Get()),
      heap_operations_(registry
                           .AddCounter("walk_search_heap_operations_total",
                                       "Heap pushes, decrease-keys and pops of the searches.", {})
                           .Get()),
      walks_(
          registry.AddCounter("walk_walks_total", "Walks answered, by walk status.", {"status"})),
      worlds_loaded_(
          registry.AddGauge("walk_worlds_loaded", "Worlds loaded and serving.", {}).Get()),
      worlds_failed_(
          registry.AddGauge("walk_worlds_failed", "Worlds that failed to load.", {}).Get()),
      store_lookups_(registry.AddCounter(
          "walk_store_lookups_total", "Walk-store lookups, by result (hit or miss).", {"result"})),
      batch_pairs_(registry.AddCounter("walk_batch_pairs_total",
                                       "Pairs of WalkBatch streams, by outcome.", {"outcome"})) {}

void WalkMetrics::RecordStoreLookup(bool hit) {
  store_lookups_.WithLabels({hit ? "hit" : "miss"}).Increment();
}

void WalkMetrics::RecordBatchPair(const char* outcome) {
  batch_pairs_.WithLabels({outcome}).Increment();
}

void WalkMetrics::RecordStoreLookups(std::uint64_t hits, std::uint64_t misses) {
  if (hits > 0) store_lookups_.WithLabels({"hit"}).Increment(static_cast<double>(hits));
  if (misses > 0) store_lookups_.WithLabels({"miss"}).Increment(static_cast<double>(misses));
}

void WalkMetrics::RecordBatchPairs(const char* outcome, std::uint64_t count) {
  if (count > 0) batch_pairs_.WithLabels({outcome}).Increment(static_cast<double>(count));
}

void WalkMetrics::RecordRequest(const std::string& method, const std::string& code,
                                double seconds) {
  requests_.WithLabels({method, code}).Increment();
  request_seconds_.WithLabels({method}).Observe(seconds);
}

void WalkMetrics::RecordWalk(const nav::WalkAnswer& answer) {
  searches_.WithLabels({nav::MethodName(answer.method)}).Increment();
  walks_.WithLabels({nav::WalkStatusName(answer.status)}).Increment();
  nodes_expanded_.Increment(static_cast<double>(answer.stats.nodes_expanded));
  heap_operations_.Increment(static_cast<double>(answer.stats.heap_operations));
}

void WalkMetrics::SetWorlds(int loaded, int failed) {
  worlds_loaded_.Set(loaded);
  worlds_failed_.Set(failed);
}

}  // namespace walk::server
