#include "server/walk_metrics.h"

#include <array>
#include <cmath>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

// The children of one labelled family, found by their label values. Family::Add builds a whole
// child (a histogram with its buckets, or a counter) and a label map on every call before it
// finds the one there, so each child is looked up once through Family::Add and kept here, by its
// values joined; the family still creates it on first use, as a scrape would see. Thread-safe.
template <typename T, std::size_t N>
class Children {
 public:
  Children(prometheus::Family<T>& family, std::array<const char*, N> names)
      : family_(family), names_(names) {}

  // The child of `values` (one per label name, in order), built with `args` the first time it
  // is asked for.
  template <typename... Args>
  T& Of(const std::array<std::string_view, N>& values, const Args&... args) {
    thread_local std::string key;  // reused: no allocation once it has grown
    key.clear();
    for (std::string_view value : values) {
      key.append(value);
      key.push_back('\x1f');
    }
    std::lock_guard<std::mutex> lock(mu_);
    const auto it = children_.find(key);
    if (it != children_.end()) return *it->second;
    std::map<std::string, std::string> labels;
    for (std::size_t i = 0; i < N; ++i) labels.emplace(names_[i], std::string(values[i]));
    T& child = family_.Add(labels, args...);
    children_.emplace(key, &child);
    return child;
  }

  // Removes every child whose label `index` is `value` (a live world dropped: its series go).
  void RemoveWhere(std::size_t index, std::string_view value) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = children_.begin(); it != children_.end();) {
      std::string_view rest = it->first;
      for (std::size_t i = 0; i < index; ++i) rest.remove_prefix(rest.find('\x1f') + 1);
      if (rest.substr(0, rest.find('\x1f')) == value) {
        family_.Remove(it->second);
        it = children_.erase(it);
      } else {
        ++it;
      }
    }
  }

 private:
  prometheus::Family<T>& family_;
  const std::array<const char*, N> names_;
  std::mutex mu_;
  std::map<std::string, T*> children_;  // guarded by mu_; the family owns the children
};

}  // namespace

struct WalkMetrics::Families {
  explicit Families(prometheus::Registry& registry)
      : requests(
            AddCounter(registry, "walk_requests_total", "RPCs finished, by method and gRPC code."),
            {"method", "code"}),
        request_seconds(prometheus::BuildHistogram()
                            .Name("walk_request_duration_seconds")
                            .Help("Time from an RPC's arrival to its reply, seconds.")
                            .Register(registry),
                        {"method"}),
        searches(AddCounter(registry, "walk_searches_total",
                            "Walks answered, by the search that answered them."),
                 {"method"}),
        nodes_expanded(AddCounter(registry, "walk_search_nodes_expanded_total",
                                  "Surfaces or nodes the searches took off their heaps.")
                           .Add({})),
        heap_operations(AddCounter(registry, "walk_search_heap_operations_total",
                                   "Heap pushes, decrease-keys and pops of the searches.")
                            .Add({})),
        walks(AddCounter(registry, "walk_walks_total",
                         "Walks answered, by walk status and danger band."),
              {"status", "band"}),
        cch_customize_seconds(prometheus::BuildGauge()
                                  .Name("walk_cch_customize_seconds")
                                  .Help("Seconds each world's CCH took to customize its metrics "
                                        "when the world loaded.")
                                  .Register(registry),
                              {"world"}),
        band_zero_walks(AddCounter(registry, "walk_band_zero_walks_total",
                                   "Danger-band walks answered by band 0's walk without a danger "
                                   "search, by band."),
                        {"band"}),
        hybrid_walks(AddCounter(registry, "walk_hybrid_walks_total",
                                "Hybrid walks, by band and by what they took: navmesh, "
                                "navmesh_none (the grid's: the navmesh has no walk) or "
                                "navmesh_detour (the grid's: the navmesh's costs over the slack)."),
                     {"band", "taken"}),
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
                                 "Walk-store lookups, by result (hit or miss)."),
                      {"result"}),
        store_write_errors(AddCounter(registry, "walk_store_write_errors_total",
                                      "Walk-store writes that failed: each degrades the store "
                                      "until it takes writes again.")
                               .Add({})),
        store_read_errors(AddCounter(registry, "walk_store_read_errors_total",
                                     "Walk-store lookups that failed (answered as misses).")
                              .Add({})),
        unkept_answers(AddCounter(registry, "walk_store_unkept_answers_total",
                                  "Answers computed and returned but not kept in the walk store "
                                  "(its write failed, or it was degraded).")
                           .Add({})),
        store_degraded(prometheus::BuildGauge()
                           .Name("walk_store_degraded")
                           .Help("1 while the walk store takes no writes (a full disk, an I/O "
                                 "error, its quota): walks are answered but not kept.")
                           .Register(registry)
                           .Add({})),
        batch_pairs(AddCounter(registry, "walk_batch_pairs_total",
                               "Pairs of WalkBatch streams, by outcome."),
                    {"outcome"}),
        live_requests(AddCounter(registry, "walk_live_requests_total",
                                 "LiveService calls finished, by method and gRPC code."),
                      {"method", "code"}),
        live_events(AddCounter(registry, "walk_live_events_total",
                               "What each live world did: paths, cache hits and misses, "
                               "searches, direct lines, kept routes, fallbacks deferred and "
                               "served, updates, ... (docs/operations.md)."),
                    {"world", "event"}),
        live_revision(prometheus::BuildGauge()
                          .Name("walk_live_revision")
                          .Help("Each live world's revision: it increments once per update.")
                          .Register(registry),
                      {"world"}),
        live_cache_entries(prometheus::BuildGauge()
                               .Name("walk_live_path_cache_entries")
                               .Help("Answers each live world's path cache holds.")
                               .Register(registry),
                           {"world"}),
        live_unit_routes(prometheus::BuildGauge()
                             .Name("walk_live_unit_routes")
                             .Help("Units each live world keeps a route for.")
                             .Register(registry),
                         {"world"}),
        live_world_bytes(prometheus::BuildGauge()
                             .Name("walk_live_world_bytes")
                             .Help("Bytes each live world holds (grid, layers, regions, caches, "
                                   "kept routes; estimated).")
                             .Register(registry),
                         {"world"}),
        live_worlds(prometheus::BuildGauge()
                        .Name("walk_live_worlds")
                        .Help("Live worlds held now, loaded and created.")
                        .Register(registry)
                        .Add({})),
        live_fallbacks_waiting(prometheus::BuildGauge()
                                   .Name("walk_live_fallbacks_waiting")
                                   .Help("Deferred group searches waiting in the fallback queue.")
                                   .Register(registry)
                                   .Add({})),
        world_reloads(AddCounter(registry, "walk_world_reloads_total",
                                 "Reloads that found a world's files changed, by world and "
                                 "result: reloaded (the new world serves) or failed (the old "
                                 "one still does)."),
                      {"world", "result"}) {}

  // 10 µs × 2.5ⁿ, up to ~1.5 s.
  const prometheus::Histogram::BucketBoundaries request_buckets =
      ExponentialBuckets(0.00001, 2.5, 14);

  Children<prometheus::Counter, 2> requests;
  Children<prometheus::Histogram, 1> request_seconds;
  Children<prometheus::Counter, 1> searches;
  prometheus::Counter& nodes_expanded;
  prometheus::Counter& heap_operations;
  Children<prometheus::Counter, 2> walks;
  Children<prometheus::Gauge, 1> cch_customize_seconds;
  Children<prometheus::Counter, 1> band_zero_walks;
  Children<prometheus::Counter, 2> hybrid_walks;
  prometheus::Gauge& worlds_loaded;
  prometheus::Gauge& worlds_failed;
  Children<prometheus::Counter, 1> store_lookups;
  prometheus::Counter& store_write_errors;
  prometheus::Counter& store_read_errors;
  prometheus::Counter& unkept_answers;
  prometheus::Gauge& store_degraded;
  Children<prometheus::Counter, 1> batch_pairs;
  Children<prometheus::Counter, 2> live_requests;
  Children<prometheus::Counter, 2> live_events;
  Children<prometheus::Gauge, 1> live_revision;
  Children<prometheus::Gauge, 1> live_cache_entries;
  Children<prometheus::Gauge, 1> live_unit_routes;
  Children<prometheus::Gauge, 1> live_world_bytes;
  prometheus::Gauge& live_worlds;
  prometheus::Gauge& live_fallbacks_waiting;
  Children<prometheus::Counter, 2> world_reloads;
};

WalkMetrics::WalkMetrics(prometheus::Registry& registry)
    : families_(std::make_unique<Families>(registry)) {}

WalkMetrics::~WalkMetrics() = default;

void WalkMetrics::RecordStoreLookup(bool hit) {
  families_->store_lookups.Of({hit ? "hit" : "miss"}).Increment();
}

void WalkMetrics::RecordBatchPair(const char* outcome) {
  families_->batch_pairs.Of({outcome}).Increment();
}

void WalkMetrics::RecordStoreLookups(std::uint64_t hits, std::uint64_t misses) {
  if (hits > 0) {
    families_->store_lookups.Of({"hit"}).Increment(static_cast<double>(hits));
  }
  if (misses > 0) {
    families_->store_lookups.Of({"miss"}).Increment(static_cast<double>(misses));
  }
}

void WalkMetrics::RecordBatchPairs(const char* outcome, std::uint64_t count) {
  if (count > 0) {
    families_->batch_pairs.Of({outcome}).Increment(static_cast<double>(count));
  }
}

void WalkMetrics::RecordRequest(const std::string& method, const std::string& code,
                                double seconds) {
  families_->requests.Of({method, code}).Increment();
  // NaN would turn the sum into NaN for good.
  if (!std::isnan(seconds)) {
    families_->request_seconds.Of({method}, families_->request_buckets).Observe(seconds);
  }
}

void WalkMetrics::RecordWalk(const nav::WalkAnswer& answer, std::uint32_t band) {
  families_->searches.Of({nav::MethodName(answer.method)}).Increment();
  const std::string band_name = std::to_string(band);
  families_->walks.Of({nav::WalkStatusName(answer.status), band_name}).Increment();
  families_->nodes_expanded.Increment(static_cast<double>(answer.stats.nodes_expanded));
  families_->heap_operations.Increment(static_cast<double>(answer.stats.heap_operations));
}

void WalkMetrics::RecordBandZeroWalk(std::uint32_t band) {
  const std::string name = std::to_string(band);
  families_->band_zero_walks.Of({name}).Increment();
}

void WalkMetrics::RecordHybridWalks(std::uint32_t band, const char* taken, std::uint64_t count) {
  if (count == 0) return;
  const std::string name = std::to_string(band);
  families_->hybrid_walks.Of({name, taken}).Increment(static_cast<double>(count));
}

void WalkMetrics::RecordStoreError(const char* operation) {
  (std::string_view(operation) == "write" ? families_->store_write_errors
                                          : families_->store_read_errors)
      .Increment();
}

void WalkMetrics::RecordUnkeptAnswer() { families_->unkept_answers.Increment(); }

void WalkMetrics::SetStoreDegraded(bool degraded) {
  families_->store_degraded.Set(degraded ? 1.0 : 0.0);
}

void WalkMetrics::SetCchCustomizeSeconds(const std::string& world, double seconds) {
  families_->cch_customize_seconds.Of({world}).Set(seconds);
}

void WalkMetrics::DeclareWorldReloads(const std::string& world) {
  for (const char* result : {"reloaded", "failed"}) families_->world_reloads.Of({world, result});
}

void WalkMetrics::RecordWorldReload(const std::string& world, bool reloaded) {
  families_->world_reloads.Of({world, reloaded ? "reloaded" : "failed"}).Increment();
}

void WalkMetrics::SetWorlds(int loaded, int failed) {
  families_->worlds_loaded.Set(loaded);
  families_->worlds_failed.Set(failed);
}

void WalkMetrics::RecordLiveRequest(const std::string& method, const std::string& code) {
  families_->live_requests.Of({method, code}).Increment();
}

void WalkMetrics::RecordLiveEvents(const std::string& world, const std::string& event,
                                   std::uint64_t count) {
  if (count > 0) {
    families_->live_events.Of({world, event}).Increment(static_cast<double>(count));
  }
}

void WalkMetrics::SetLiveWorld(const std::string& world, std::uint64_t revision,
                               std::uint64_t cache_entries, std::uint64_t unit_routes) {
  families_->live_revision.Of({world}).Set(static_cast<double>(revision));
  families_->live_cache_entries.Of({world}).Set(static_cast<double>(cache_entries));
  families_->live_unit_routes.Of({world}).Set(static_cast<double>(unit_routes));
}

void WalkMetrics::SetLiveWorldBytes(const std::string& world, std::uint64_t bytes) {
  families_->live_world_bytes.Of({world}).Set(static_cast<double>(bytes));
}

void WalkMetrics::SetLiveWorlds(std::uint64_t count) {
  families_->live_worlds.Set(static_cast<double>(count));
}

void WalkMetrics::ForgetLiveWorld(const std::string& world) {
  families_->live_events.RemoveWhere(0, world);
  families_->live_revision.RemoveWhere(0, world);
  families_->live_cache_entries.RemoveWhere(0, world);
  families_->live_unit_routes.RemoveWhere(0, world);
  families_->live_world_bytes.RemoveWhere(0, world);
}

void WalkMetrics::SetLiveFallbacksWaiting(std::uint64_t waiting) {
  families_->live_fallbacks_waiting.Set(static_cast<double>(waiting));
}

}  // namespace walk::server
