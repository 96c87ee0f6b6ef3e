// Per-band CCH metrics: a continent's hierarchy customized for one profile in one danger band,
// every arc priced by the band with no zone exempt, so that a walk whose ends' zones the band
// does not price (exempting them changes nothing) is a plain CCH query at band-0 speed.
//
// They are customized on demand, on the thread of the walk that first needs one, and kept in a
// byte-bounded LRU (walkd's --band-metrics-mb). A metric is handed out by shared_ptr: evicting
// it drops only the cache's reference, never one a query still reads.
#pragma once

#include <atomic>
#include <cstdint>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "absl/functional/function_ref.h"
#include "nav/abstract/abstract_graph.h"
#include "nav/cch/cch.h"
#include "nav/cch/cch_metric.h"
#include "nav/cch/cost_guess.h"
#include "nav/cost/metric.h"

namespace walk::nav {

// The weights of `prices`' arcs in danger band `band` (the same profile): band-0 seconds plus
// the danger of every zone in the arc's mix, none exempt; +inf where the profile cannot go.
std::vector<double> BandWeights(const ArcPrices& prices, const Metric& band);

// One band's metric and what its walks learn about their costs (as the router keeps per
// profile for band 0). The metric is immutable; the guesses are atomics, safe to share.
struct BandMetric {
  // Customizes `weights` onto `cch` on the calling thread.
  BandMetric(const Cch& cch, const std::vector<double>& weights)
      : metric(cch, weights, /*perfect=*/false, /*threads=*/1) {}
  const CchMetric metric;
  mutable CostGuess guess;           // over the endpoints' bound (BoundBetween)
  mutable CostGuess straight_guess;  // over the straight line (a cold walk's)
};

// The LRU of band metrics of one router. Thread-safe.
class BandMetricCache {
 public:
  struct Key {
    std::uint32_t continent_index = 0;
    std::uint16_t profile_index = 0;
    std::uint32_t band = 0;
    bool operator==(const Key&) const = default;
  };

  // Holds at most `capacity_bytes` of metrics (0: none; callers check fits() first).
  explicit BandMetricCache(std::uint64_t capacity_bytes) : capacity_(capacity_bytes) {}

  // The metric of `key`: cached, or made by `customize` on this thread and cached. A caller
  // asking for a key being customized waits for that customization rather than doing it
  // again (and counts as a hit). The least recently used metrics go once the cache holds more than
  // its capacity (even the one just made, when it alone is larger); the caller's reference stays
  // valid.
  std::shared_ptr<const BandMetric> Get(const Key& key,
                                        absl::FunctionRef<std::unique_ptr<BandMetric>()> customize);

  // True when a metric of `bytes` fits the capacity (false when the cache is off).
  bool fits(std::uint64_t bytes) const;
  // Changes the capacity, evicting down to it (0 turns the cache off).
  void SetCapacity(std::uint64_t capacity_bytes);

  std::uint64_t capacity() const;
  std::uint64_t bytes() const;  // held by the cache's metrics (those in use too)
  std::uint64_t customizations() const { return customizations_.load(std::memory_order_relaxed); }
  std::uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }
  std::uint64_t evictions() const { return evictions_.load(std::memory_order_relaxed); }

 private:
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      return std::hash<std::uint64_t>()((std::uint64_t{k.continent_index} << 40) ^
                                        (std::uint64_t{k.profile_index} << 32) ^ k.band);
    }
  };
  struct Entry {
    std::shared_future<std::shared_ptr<const BandMetric>> metric;
    std::uint64_t bytes = 0;       // 0 while it is being customized
    std::list<Key>::iterator lru;  // valid once customized
  };
  // Caches `metric`, made for `key`, and evicts down to the capacity. Under mu_.
  void AddLocked(const Key& key, const std::shared_ptr<const BandMetric>& metric);
  void EvictLocked();

  mutable std::mutex mu_;
  std::uint64_t capacity_;                           // guarded by mu_
  std::uint64_t bytes_ = 0;                          // guarded by mu_
  std::list<Key> lru_;                               // guarded by mu_: customized, newest first
  std::unordered_map<Key, Entry, KeyHash> entries_;  // guarded by mu_
  std::atomic<std::uint64_t> customizations_{0};
  std::atomic<std::uint64_t> hits_{0};
  std::atomic<std::uint64_t> evictions_{0};
};

}  // namespace walk::nav
