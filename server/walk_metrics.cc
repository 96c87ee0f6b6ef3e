#include "server/walk_metrics.h"

#include <cmath>
#include <map>
#include <mutex>

#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace walk::server {
namespace {

// `count` histogram upper bounds start, start*factor, start*factor^2, ...
prometheus::Histogram::BucketBoundaries ExponentialBuckets(double start, double factor, int count) {
  prometheus::Histogram::BucketBoundaries bounds;
  bounds.reserve(count);
  double bound = start;
  for (int i = 0; i < count; ++i) {
    bounds.push_back(bound);
    bound *= factor;
  }
  return bounds;
}

prometheus::Family<prometheus::Counter>& AddCounter(prometheus::Registry& registry,
                                                    const std::string& name,
                                                    const std::string& help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(registry);
}

}  // namespace

struct WalkMetrics::Families {
  explicit Families(prometheus::Registry& registry)
      : requests(
            AddCounter(registry, "walk_requests_total", "RPCs finished, by method and gRPC code.")),
        request_seconds(prometheus::BuildHistogram()
                            .Name("walk_request_duration_seconds")
                            .Help("Time from an RPC's arrival to its reply, seconds.")
                            .Register(registry)),
        searches(AddCounter(registry, "walk_searches_total",
                            "Walks answered, by the search that answered them.")),
        nodes_expanded(AddCounter(registry, "walk_search_nodes_expanded_total",
                                  "Surfaces or nodes the searches took off their heaps.")
                           .Add({})),
        heap_operations(AddCounter(registry, "walk_search_heap_operations_total",
                                   "Heap pushes, decrease-keys and pops of the searches.")
                            .Add({})),
        walks(AddCounter(registry, "walk_walks_total", "Walks answered, by walk status.")),
        worlds_loaded(prometheus::BuildGauge()
                          .Name("walk_worlds_loaded")
                          .Help("Worlds loaded and serving.")
                          .Register(registry)
                          .Add({})),
        worlds_failed(prometheus::BuildGauge()
                          .Name("walk_worlds_failed")
                          .Help("Worlds that failed to load.")
                          .Register(registry)
                          .Add({})),
        store_lookups(AddCounter(registry, "walk_store_lookups_total",
                                 "Walk-store lookups, by result (hit or miss).")),
        batch_pairs(AddCounter(registry, "walk_batch_pairs_total",
                               "Pairs of WalkBatch streams, by outcome.")),
        live_requests(AddCounter(registry, "walk_live_requests_total",
                                 "LiveService calls finished, by method and gRPC code.")),
        live_events(AddCounter(registry, "walk_live_events_total",
                               "What the live worlds did: paths, cache hits and misses, "
                               "searches, cells expanded, heap operations, updates, dirty cells "
                               "rebuilt, ring cells scanned.")) {}

  // The histogram of `method`. Family::Add builds a histogram (buckets and all) on every call
  // before it finds the one there, so each method's is looked up here instead.
  prometheus::Histogram& RequestSeconds(const std::string& method) {
    std::lock_guard<std::mutex> lock(request_seconds_mu);
    prometheus::Histogram*& histogram = request_seconds_by_method[method];
    if (histogram == nullptr) {
      histogram = &request_seconds.Add({{"method", method}}, request_buckets);
    }
    return *histogram;
  }

  // 10 µs × 2.5ⁿ, up to ~1.5 s.
  const prometheus::Histogram::BucketBoundaries request_buckets =
      ExponentialBuckets(0.00001, 2.5, 14);

  prometheus::Family<prometheus::Counter>& requests;           // {method, code}
  prometheus::Family<prometheus::Histogram>& request_seconds;  // {method}
  std::mutex request_seconds_mu;
  // Guarded by request_seconds_mu; the histograms are request_seconds' children.
  std::map<std::string, prometheus::Histogram*> request_seconds_by_method;
  prometheus::Family<prometheus::Counter>& searches;  // {method}
  prometheus::Counter& nodes_expanded;
  prometheus::Counter& heap_operations;
  prometheus::Family<prometheus::Counter>& walks;  // {status}
  prometheus::Gauge& worlds_loaded;
  prometheus::Gauge& worlds_failed;
  prometheus::Family<prometheus::Counter>& store_lookups;  // {result}
  prometheus::Family<prometheus::Counter>& batch_pairs;    // {outcome}
  prometheus::Family<prometheus::Counter>& live_requests;  // {method, code}
  prometheus::Family<prometheus::Counter>& live_events;    // {event}
};

WalkMetrics::WalkMetrics(prometheus::Registry& registry)
    : families_(std::make_unique<Families>(registry)) {}

WalkMetrics::~WalkMetrics() = default;

void WalkMetrics::RecordStoreLookup(bool hit) {
  families_->store_lookups.Add({{"result", hit ? "hit" : "miss"}}).Increment();
}

void WalkMetrics::RecordBatchPair(const char* outcome) {
  families_->batch_pairs.Add({{"outcome", outcome}}).Increment();
}

void WalkMetrics::RecordStoreLookups(std::uint64_t hits, std::uint64_t misses) {
  if (hits > 0) {
    families_->store_lookups.Add({{"result", "hit"}}).Increment(static_cast<double>(hits));
  }
  if (misses > 0) {
    families_->store_lookups.Add({{"result", "miss"}}).Increment(static_cast<double>(misses));
  }
}

void WalkMetrics::RecordBatchPairs(const char* outcome, std::uint64_t count) {
  if (count > 0) {
    families_->batch_pairs.Add({{"outcome", outcome}}).Increment(static_cast<double>(count));
  }
}

void WalkMetrics::RecordRequest(const std::string& method, const std::string& code,
                                double seconds) {
  families_->requests.Add({{"method", method}, {"code", code}}).Increment();
  // NaN would turn the sum into NaN for good.
  if (!std::isnan(seconds)) families_->RequestSeconds(method).Observe(seconds);
}

void WalkMetrics::RecordWalk(const nav::WalkAnswer& answer) {
  families_->searches.Add({{"method", nav::MethodName(answer.method)}}).Increment();
  families_->walks.Add({{"status", nav::WalkStatusName(answer.status)}}).Increment();
  families_->nodes_expanded.Increment(static_cast<double>(answer.stats.nodes_expanded));
  families_->heap_operations.Increment(static_cast<double>(answer.stats.heap_operations));
}

void WalkMetrics::SetWorlds(int loaded, int failed) {
  families_->worlds_loaded.Set(loaded);
  families_->worlds_failed.Set(failed);
}

void WalkMetrics::RecordLiveRequest(const std::string& method, const std::string& code) {
  families_->live_requests.Add({{"method", method}, {"code", code}}).Increment();
}

void WalkMetrics::RecordLiveEvents(const std::string& event, std::uint64_t count) {
  if (count > 0) {
    families_->live_events.Add({{"event", event}}).Increment(static_cast<double>(count));
  }
}

}  // namespace walk::server
