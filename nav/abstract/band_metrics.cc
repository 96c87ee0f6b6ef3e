#include "nav/abstract/band_metrics.h"

#include <algorithm>

#include "nav/cost/zone_mix.h"

namespace walk::nav {

std::vector<double> BandWeights(const ArcPrices& prices, const Metric& band) {
  std::vector<double> weights(prices.seconds.size());
  for (std::uint32_t a = 0; a < weights.size(); ++a) {
    const double seconds = prices.seconds[a];
    // Zone 0 is in no mix, so exempting it exempts nothing: the danger Dijkstra's pricing with
    // the ends' zones exempt, where the band does not price them.
    weights[a] = seconds < kInfCost ? DangerSeconds(seconds, prices.MixOf(a), band, 0, 0) : seconds;
  }
  return weights;
}

std::shared_ptr<const BandMetric> BandMetricCache::Get(
    const Key& key, absl::FunctionRef<std::unique_ptr<BandMetric>()> customize) {
  std::promise<std::shared_ptr<const BandMetric>> made;
  std::shared_future<std::shared_ptr<const BandMetric>> waiting;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(key);
    if (it != entries_.end()) {
      hits_.fetch_add(1, std::memory_order_relaxed);
      if (it->second.bytes > 0) lru_.splice(lru_.begin(), lru_, it->second.lru);
      waiting = it->second.metric;
    } else {
      entries_[key].metric = made.get_future().share();
    }
  }
  if (waiting.valid()) return waiting.get();  // cached, or customized by another caller
  std::shared_ptr<const BandMetric> metric = customize();
  customizations_.fetch_add(1, std::memory_order_relaxed);
  made.set_value(metric);
  std::lock_guard<std::mutex> lock(mu_);
  AddLocked(key, metric);
  return metric;
}

void BandMetricCache::AddLocked(const Key& key, const std::shared_ptr<const BandMetric>& metric) {
  Entry& entry = entries_.at(key);
  entry.bytes = std::max<std::uint64_t>(1, metric->metric.MemoryBytes());
  lru_.push_front(key);
  entry.lru = lru_.begin();
  bytes_ += entry.bytes;
  EvictLocked();
}

void BandMetricCache::EvictLocked() {
  while (bytes_ > capacity_ && !lru_.empty()) {
    auto it = entries_.find(lru_.back());
    bytes_ -= it->second.bytes;
    lru_.pop_back();
    entries_.erase(it);  // a query holding the metric keeps it alive
    evictions_.fetch_add(1, std::memory_order_relaxed);
  }
}

bool BandMetricCache::fits(std::uint64_t bytes) const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes <= capacity_ && capacity_ > 0;
}

void BandMetricCache::SetCapacity(std::uint64_t capacity_bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  capacity_ = capacity_bytes;
  EvictLocked();
}

std::uint64_t BandMetricCache::capacity() const {
  std::lock_guard<std::mutex> lock(mu_);
  return capacity_;
}

std::uint64_t BandMetricCache::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

}  // namespace walk::nav
