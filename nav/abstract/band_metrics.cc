#include "nav/abstract/band_metrics.h"

#include <algorithm>
#include <chrono>

#include "nav/cost/zone_mix.h"

namespace walk::nav {

std::vector<double> BandWeights(const ArcPrices& prices, const Metric& band) {
  std::vector<double> weights(prices.seconds.size());
  for (std::uint32_t a = 0; a < weights.size(); ++a) {
    // Zone 0 is in no mix, so exempting it exempts nothing: the danger Dijkstra's pricing with
    // the ends' zones exempt, where the band does not price them.
    weights[a] = prices.DangerSecondsOf(a, band, 0, 0);
  }
  return weights;
}

std::optional<std::vector<float>> BandTicks(const ArcPrices& prices, const Metric& band) {
  std::vector<float> ticks(prices.seconds.size());
  for (std::uint32_t a = 0; a < ticks.size(); ++a) {
    const double seconds = prices.DangerSecondsOf(a, band, 0, 0);  // as BandWeights
    if (!CchMetric::FitsFloatTicks(seconds)) return std::nullopt;
    ticks[a] = static_cast<float>(seconds);
  }
  return ticks;
}

namespace {

CchMetric CustomizedBand(const Cch& cch, const ArcPrices& prices, const Metric& band,
                         unsigned threads, CustomizeCrew* crew) {
  if (std::optional<std::vector<float>> ticks = BandTicks(prices, band))
    return CchMetric::OfTicks(cch, *ticks, threads, crew);
  return CchMetric(cch, BandWeights(prices, band), /*perfect=*/false, threads, crew);
}

}  // namespace

BandMetric::BandMetric(const Cch& cch, const ArcPrices& prices, const Metric& band,
                       unsigned threads, CustomizeCrew* crew)
    : metric(CustomizedBand(cch, prices, band, threads, crew)) {}

std::uint64_t BandMakingBytes(const Cch& cch, std::uint64_t input_arcs, unsigned threads) {
  return input_arcs * sizeof(float) + CchMetric::CustomizingBytes(cch, threads);
}

ZoneArcs::ZoneArcs(const ArcPrices& prices) {
  std::uint32_t zones = 0;
  for (const ZoneShare& share : prices.mix) zones = std::max<std::uint32_t>(zones, share.zone + 1u);
  first_.assign(zones + 1, 0);
  const std::uint32_t arc_count = static_cast<std::uint32_t>(prices.seconds.size());
  for (std::uint32_t a = 0; a < arc_count; ++a) {
    for (const ZoneShare& share : prices.MixOf(a)) ++first_[share.zone + 1];
  }
  for (std::uint32_t z = 0; z < zones; ++z) first_[z + 1] += first_[z];
  arcs_.resize(first_.back());
  std::vector<std::uint32_t> fill(first_.begin(), first_.end() - 1);
  for (std::uint32_t a = 0; a < arc_count; ++a) {
    for (const ZoneShare& share : prices.MixOf(a)) arcs_[fill[share.zone]++] = a;
  }
}

std::uint64_t ZoneArcs::MemoryBytes() const {
  return (first_.capacity() + arcs_.capacity()) * sizeof(std::uint32_t);
}

std::vector<CchMetricPatch::Lowered> ExemptWeights(const ArcPrices& prices, const ZoneArcs& zones,
                                                   const Metric& band, std::uint16_t exempt_a,
                                                   std::uint16_t exempt_b) {
  std::vector<CchMetricPatch::Lowered> lowered;
  // An arc in both zones comes twice: the second lowers nothing.
  const std::uint16_t exempt[2] = {exempt_a, exempt_b};
  for (int i = 0; i < 2; ++i) {
    const std::uint16_t zone = exempt[i];
    if (zone == 0 || (i == 1 && zone == exempt_a)) continue;
    for (const std::uint32_t a : zones.Of(zone)) {
      if (!(prices.seconds[a] < kInfCost)) continue;
      // As the danger Dijkstra prices the arc for a walk whose ends stand in those zones.
      lowered.push_back({a, prices.DangerSecondsOf(a, band, exempt_a, exempt_b)});
    }
  }
  return lowered;
}

std::shared_ptr<const void> BandMetricCache::GetAny(const Key& key,
                                                    absl::FunctionRef<Made(CustomizeCrew*)> make,
                                                    std::atomic<std::uint64_t>* made_count,
                                                    bool making_room) {
  std::promise<std::shared_ptr<const void>> made;
  std::shared_future<std::shared_ptr<const void>> waiting;
  std::shared_ptr<CustomizeCrew> crew;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(key);
    if (it != entries_.end()) {
      hits_.fetch_add(1, std::memory_order_relaxed);
      if (it->second.bytes > 0) lru_.splice(lru_.begin(), lru_, it->second.lru);
      waiting = it->second.metric;
      crew = it->second.crew;
    } else {
      Entry& entry = entries_[key];
      entry.metric = made.get_future().share();
      if (making_room) {
        entry.crew = crew = std::make_shared<CustomizeCrew>();
        EvictLocked(largest_ + making_);
      }
    }
  }
  if (waiting.valid()) {  // cached, or made by another caller, whom this one helps
    if (crew != nullptr && crew->Join()) joins_.fetch_add(1, std::memory_order_relaxed);
    return waiting.get();
  }
  const auto [value, bytes] = make(crew.get());
  made_count->fetch_add(1, std::memory_order_relaxed);
  made.set_value(value);
  std::lock_guard<std::mutex> lock(mu_);
  AddLocked(key, bytes);
  return value;
}

std::shared_ptr<const BandMetric> BandMetricCache::Get(
    const Key& key, absl::FunctionRef<std::unique_ptr<BandMetric>(CustomizeCrew&)> customize) {
  return std::static_pointer_cast<const BandMetric>(GetAny(
      key,
      [&](CustomizeCrew* crew) -> Made {
        std::shared_ptr<const BandMetric> metric = customize(*crew);
        return {metric, metric->metric.MemoryBytes()};
      },
      &customizations_, /*making_room=*/true));
}

std::shared_ptr<const ExemptPatch> BandMetricCache::GetPatch(
    const Key& key, absl::FunctionRef<std::unique_ptr<ExemptPatch>()> make) {
  return std::static_pointer_cast<const ExemptPatch>(GetAny(
      key,
      [&](CustomizeCrew*) -> Made {
        std::shared_ptr<const ExemptPatch> patch = make();
        return {patch, sizeof(ExemptPatch) + patch->patch.MemoryBytes()};
      },
      &patches_, /*making_room=*/false));
}

bool BandMetricCache::Has(const Key& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.count(key) != 0;
}

bool BandMetricCache::Making(const Key& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = entries_.find(key);
  return it != entries_.end() &&
         it->second.metric.wait_for(std::chrono::seconds(0)) != std::future_status::ready;
}

bool BandMetricCache::JoinMaking(const Key& key) {
  std::shared_ptr<CustomizeCrew> crew;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const auto it = entries_.find(key);
    if (it != entries_.end()) crew = it->second.crew;
  }
  if (crew == nullptr || !crew->Join()) return false;
  joins_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void BandMetricCache::AddLocked(const Key& key, std::uint64_t bytes) {
  Entry& entry = entries_.at(key);
  entry.crew = nullptr;  // made: nothing left to join
  entry.bytes = std::max<std::uint64_t>(1, bytes);
  largest_ = std::max(largest_, entry.bytes);
  lru_.push_front(key);
  entry.lru = lru_.begin();
  bytes_ += entry.bytes;
  EvictLocked();
}

void BandMetricCache::EvictLocked(std::uint64_t room) {
  while (bytes_ + room > capacity_ && !lru_.empty()) {
    auto it = entries_.find(lru_.back());
    bytes_ -= it->second.bytes;
    lru_.pop_back();
    entries_.erase(it);  // a query holding the metric keeps it alive
    evictions_.fetch_add(1, std::memory_order_relaxed);
  }
}

bool BandMetricCache::Admits(const Key& key, std::uint64_t bytes) const {
  std::lock_guard<std::mutex> lock(mu_);
  const bool admits = capacity_ > 0 && (entries_.count(key) != 0 || bytes + making_ <= capacity_);
  if (!admits) refusals_.fetch_add(1, std::memory_order_relaxed);
  return admits;
}

void BandMetricCache::SetCapacity(std::uint64_t capacity_bytes, std::uint64_t making_bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  capacity_ = capacity_bytes;
  making_ = making_bytes;
  EvictLocked();
}

std::uint64_t BandMetricCache::capacity() const {
  std::lock_guard<std::mutex> lock(mu_);
  return capacity_;
}

void BandMetricCache::Expect(std::uint64_t bytes, std::uint64_t making_bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  largest_ = std::max(largest_, bytes);
  expected_making_ = std::max(expected_making_, making_bytes);
}

std::uint64_t BandMetricCache::making() const {
  std::lock_guard<std::mutex> lock(mu_);
  return expected_making_;
}

std::uint64_t BandMetricCache::largest() const {
  std::lock_guard<std::mutex> lock(mu_);
  return largest_;
}

std::uint64_t BandMetricCache::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

}  // namespace walk::nav
