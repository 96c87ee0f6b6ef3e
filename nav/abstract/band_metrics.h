// Per-band CCH metrics: a continent's hierarchy customized for one profile in one danger band,
// every arc priced by the band with no zone exempt, so that a walk whose ends' zones the band
// does not price (exempting them changes nothing) is a plain CCH query at band-0 speed.
//
// They are customized on demand, on the thread of the walk that first needs one (walks wanting
// it meanwhile may help: JoinMaking), and kept in a byte-bounded LRU (walkd's
// --band-metrics-mb). A metric is handed out by shared_ptr: evicting it drops only the cache's
// reference, never one a query still reads.
#pragma once

#include <atomic>
#include <cstdint>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "nav/abstract/abstract_graph.h"
#include "nav/cch/cch.h"
#include "nav/cch/cch_metric.h"
#include "nav/cch/cch_metric_patch.h"
#include "nav/cch/cost_guess.h"
#include "nav/cch/customize_crew.h"
#include "nav/cost/metric.h"
#include "nav/grid/serial.h"

namespace walk::nav {

// The weights of `prices`' arcs in danger band `band` (the same profile): band-0 seconds plus
// the danger of every zone in the arc's mix, none exempt; +inf where the profile cannot go.
std::vector<double> BandWeights(const ArcPrices& prices, const Metric& band);

// The same in floats, where every weight fits one as whole ticks (CchMetric::FitsFloatTicks:
// any arc below 18 hours); else nullopt. Half the bytes, while a band's metric is made.
std::optional<std::vector<float>> BandTicks(const ArcPrices& prices, const Metric& band);

// One band's metric and what its walks learn about their costs (as the router keeps per
// profile for band 0). The metric is immutable; the guesses are atomics, safe to share.
struct BandMetric {
  // Customizes `weights` onto `cch` on the calling thread and `threads` - 1 more (0: one per
  // core).
  BandMetric(const Cch& cch, const std::vector<double>& weights, unsigned threads = 1)
      : metric(cch, weights, /*perfect=*/false, threads) {}
  // Customizes band `band`'s weights of `prices` (BandWeights), from BandTicks where they fit
  // floats: its making then holds half the input bytes (what BandMakingBytes counts). Threads
  // wanting it meanwhile may join through `crew` (CchMetric's).
  BandMetric(const Cch& cch, const ArcPrices& prices, const Metric& band, unsigned threads = 1,
             CustomizeCrew* crew = nullptr);
  const CchMetric metric;
  // Names this metric among every one walkd makes, which may come and go at one address: what
  // was priced on it may be kept for its later walks (ZoneBound::Request::band_serial).
  const std::uint64_t serial = NewSerial();
  mutable CostGuess guess;           // over the endpoints' bound (BoundBetween)
  mutable CostGuess straight_guess;  // over the straight line (a cold walk's)
};

// The bytes making a band's metric holds besides the metric, on `threads` threads: its input
// weights and the customization's scratch. The weights are counted in floats, as a walkd's
// prices give them (BandTicks); a band with an arc too dear for them holds doubles, 4 bytes an
// arc more, while it is made.
std::uint64_t BandMakingBytes(const Cch& cch, std::uint64_t input_arcs, unsigned threads);

// A band's metric with the zones of a walk's ends exempt, as a patch over the band's metric
// (the arcs whose mix has those zones lowered to their price without them): what a walk with an
// end in a zone the band prices reads. Immutable; safe to share.
struct ExemptPatch {
  CchMetricPatch patch;
};

// The input arcs of a continent's graph whose zone mix (for one profile) has each zone.
class ZoneArcs {
 public:
  ZoneArcs() = default;
  explicit ZoneArcs(const ArcPrices& prices);
  // The arcs with zone `zone` in their mix, ascending (none for zone 0).
  std::span<const std::uint32_t> Of(std::uint16_t zone) const {
    if (zone + 1u >= first_.size()) return {};
    return {arcs_.data() + first_[zone], arcs_.data() + first_[zone + 1]};
  }
  // Zones 0 .. zone_count() - 1 may have arcs.
  std::uint32_t zone_count() const {
    return first_.empty() ? 0 : static_cast<std::uint32_t>(first_.size() - 1);
  }
  std::uint64_t MemoryBytes() const;

 private:
  std::vector<std::uint32_t> first_;  // by zone, + 1: where its arcs start in arcs_
  std::vector<std::uint32_t> arcs_;
};

// The input arcs' weights a band's metric with `exempt_a` and `exempt_b` exempt lowers (those
// whose mix has either zone), at their price without those zones.
std::vector<CchMetricPatch::Lowered> ExemptWeights(const ArcPrices& prices, const ZoneArcs& zones,
                                                   const Metric& band, std::uint16_t exempt_a,
                                                   std::uint16_t exempt_b);

// The LRU of band metrics of one router, and of patches over them exempting the ends' zones of
// walks (one budget for both). Thread-safe.
class BandMetricCache {
 public:
  struct Key {
    std::uint32_t continent_index = 0;
    std::uint16_t profile_index = 0;
    std::uint32_t band = 0;
    // A patch's zones exempt (exempt_a <= exempt_b, zone 0 for none); both 0 for a band's metric.
    std::uint16_t exempt_a = 0, exempt_b = 0;
    bool operator==(const Key&) const = default;
  };

  // Holds at most `capacity_bytes` of metrics (0: none; callers check Admits() first).
  explicit BandMetricCache(std::uint64_t capacity_bytes) : capacity_(capacity_bytes) {}

  // The metric of `key`: cached, or made by `customize` on this thread and cached. A caller
  // asking for a key being customized joins that customization through the crew `customize`
  // was handed (where it has room: CchMetric's), then waits for it, rather than doing it again
  // (and counts as a hit). The least recently used metrics go once the cache holds more than
  // its capacity (even the one just made, when it alone is larger); the caller's reference stays
  // valid.
  std::shared_ptr<const BandMetric> Get(
      const Key& key, absl::FunctionRef<std::unique_ptr<BandMetric>(CustomizeCrew&)> customize);
  // Whether the metric or patch of `key` is cached (or being made), without counting a hit.
  bool Has(const Key& key) const;
  // The same for the patch of `key` (its zones exempt), made by `make` on this thread.
  std::shared_ptr<const ExemptPatch> GetPatch(
      const Key& key, absl::FunctionRef<std::unique_ptr<ExemptPatch>()> make);
  // Whether the metric or patch of `key` is being made by another caller, whom Get and GetPatch
  // would wait for: a walk that can go on without it (exactly, if slower) and cannot help make
  // it (JoinMaking) does rather than idle.
  bool Making(const Key& key) const;
  // Helps make the metric of `key` that another caller is customizing, where its crew has room
  // (CchMetric's), until no rank is left to take; false at once where it is not being made or
  // has no room. Get then returns it, as soon as its last ranks are settled.
  bool JoinMaking(const Key& key);
  // Helps make the metric of `key` where it can (JoinMaking); true where another caller is still
  // making it without this one: a walk that can go on without it (exactly, if slower) does.
  bool MakingElsewhere(const Key& key) { return !JoinMaking(key) && Making(key); }

  // True when the metric of `key` is cached or being made, or one of `bytes` may be made: it and
  // what making it takes besides (SetCapacity's `making_bytes`) fit the capacity once the least
  // recently used metrics go. False when the cache is off; each false is counted (refusals()).
  bool Admits(const Key& key, std::uint64_t bytes) const;
  // Changes the capacity, evicting down to it (0 turns the cache off). Customizing a metric takes
  // `making_bytes` besides the metric (its temporaries): room kept only while one is made, as Get
  // evicts the least recently used until the largest metric and that fit beside what stays.
  void SetCapacity(std::uint64_t capacity_bytes, std::uint64_t making_bytes = 0);

  std::uint64_t capacity() const;
  std::uint64_t bytes() const;  // held by the cache's metrics (those in use too)
  // The largest metric or patch it has held or been told to expect (0: none yet).
  std::uint64_t largest() const;
  // The most making one of the metrics it was told to expect takes besides the metric.
  std::uint64_t making() const;
  // Tells it a metric of `bytes` may be asked for (a band's is as large as its profile's), and
  // making it takes `making_bytes` besides (its temporaries: input weights, scratch).
  void Expect(std::uint64_t bytes, std::uint64_t making_bytes = 0);
  // Band metrics customized, and patches made.
  std::uint64_t customizations() const { return customizations_.load(std::memory_order_relaxed); }
  // Callers that joined a metric's customization another caller was making.
  std::uint64_t joins() const { return joins_.load(std::memory_order_relaxed); }
  std::uint64_t patches() const { return patches_.load(std::memory_order_relaxed); }
  std::uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }
  std::uint64_t evictions() const { return evictions_.load(std::memory_order_relaxed); }
  // Asks Admits turned away: a band metric wanted, not held, and no room to make it. The memory
  // governor has other caches give way while they mount (server/memory_governor.h).
  std::uint64_t refusals() const { return refusals_.load(std::memory_order_relaxed); }

  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      return std::hash<std::uint64_t>()(
          (std::uint64_t{k.continent_index} << 40) ^ (std::uint64_t{k.profile_index} << 32) ^
          k.band ^ (std::uint64_t{k.exempt_a} << 48) ^ (std::uint64_t{k.exempt_b} << 16));
    }
  };

 private:
  // A metric or a patch, and its bytes.
  using Made = std::pair<std::shared_ptr<const void>, std::uint64_t>;
  struct Entry {
    std::shared_future<std::shared_ptr<const void>> metric;  // a BandMetric or an ExemptPatch
    std::shared_ptr<CustomizeCrew> crew;                     // a metric's, while it is made
    std::uint64_t bytes = 0;                                 // 0 while it is being made
    std::list<Key>::iterator lru;                            // valid once made
  };
  // What Get and GetPatch share: the entry of `key`, cached or made by `make` (counted in
  // *made) and cached. A metric (`making_room`) is made with a crew that callers asking
  // meanwhile join, and the least recently used go before it is made, until the largest metric
  // and what making one takes fit beside what stays.
  std::shared_ptr<const void> GetAny(const Key& key, absl::FunctionRef<Made(CustomizeCrew*)> make,
                                     std::atomic<std::uint64_t>* made, bool making_room);
  // Caches `metric` of `bytes`, made for `key`, and evicts down to the capacity. Under mu_.
  void AddLocked(const Key& key, std::uint64_t bytes);
  // Evicts the least recently used until `room` more fits the capacity. Under mu_.
  void EvictLocked(std::uint64_t room = 0);

  mutable std::mutex mu_;
  std::uint64_t capacity_;                           // guarded by mu_
  std::uint64_t making_ = 0;                         // guarded by mu_
  std::uint64_t bytes_ = 0;                          // guarded by mu_
  std::uint64_t largest_ = 0;                        // guarded by mu_
  std::uint64_t expected_making_ = 0;                // guarded by mu_
  std::list<Key> lru_;                               // guarded by mu_: customized, newest first
  std::unordered_map<Key, Entry, KeyHash> entries_;  // guarded by mu_
  std::atomic<std::uint64_t> customizations_{0};
  std::atomic<std::uint64_t> joins_{0};
  std::atomic<std::uint64_t> patches_{0};
  std::atomic<std::uint64_t> hits_{0};
  std::atomic<std::uint64_t> evictions_{0};
  mutable std::atomic<std::uint64_t> refusals_{0};
};

}  // namespace walk::nav
