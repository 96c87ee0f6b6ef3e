#include "nav/abstract/legs.h"

#include "nav/cost/zone_mix.h"

namespace walk::nav {

Leg ComputeLeg(const LegRequest& request, CellSearch& search) {
  const Continent& c = request.c;
  const ContinentGraph& graph = request.graph;
  const std::uint32_t cell_columns = request.cell_columns;
  const Metric& base = request.base;
  const SurfaceId s = request.surface;
  Leg leg;
  // Every portal of the cell: its own nodes and those one step outside it.
  const std::span<const std::uint32_t> nodes =
      graph.CellPortals(cell_columns, c.column_x[s], c.column_y[s]);
  if (nodes.empty()) return leg;
  std::vector<SurfaceId> targets;
  targets.reserve(nodes.size());
  for (std::uint32_t n : nodes) targets.push_back(graph.node_surface[n]);
  search.Run(c, CellOf(c, cell_columns, s), base,
             {.origin = s, .backward = request.backward, .targets = targets});
  std::vector<PathStep> steps;
  for (std::uint32_t n : nodes) {
    const SurfaceId t = graph.node_surface[n];
    if (!search.Settled(t)) continue;
    search.Steps(t, &steps);
    const PieceCost cost = PriceSteps(c, request.column_yards, base, steps);
    Leg::Entry e;
    e.node = n;
    e.seconds = cost.seconds;
    e.yards = static_cast<float>(cost.yards);
    e.mix_first = static_cast<std::uint32_t>(leg.mix.size());
    leg.mix.insert(leg.mix.end(), cost.mix.begin(), cost.mix.end());
    e.mix_end = static_cast<std::uint32_t>(leg.mix.size());
    leg.entries.push_back(e);
  }
  return leg;
}

std::shared_ptr<const Leg> LegCache::Find(const Key& key) {
  Shard& shard = ShardOf(key);
  std::lock_guard<std::mutex> lock(shard.mu);
  auto it = shard.index.find(key);
  if (it == shard.index.end()) {
    misses_.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  hits_.fetch_add(1, std::memory_order_relaxed);
  shard.lru.splice(shard.lru.begin(), shard.lru, it->second);
  return it->second->second;
}

bool LegCache::Contains(const Key& key) const {
  const Shard& shard = shards_[KeyHash{}(key) % kShards];
  std::lock_guard<std::mutex> lock(shard.mu);
  return shard.index.count(key) != 0;
}

void LegCache::Insert(const Key& key, std::shared_ptr<const Leg> leg) {
  Shard& shard = ShardOf(key);
  std::lock_guard<std::mutex> lock(shard.mu);
  if (shard.index.count(key) != 0) return;  // another thread computed it too
  shard.bytes += leg->MemoryBytes();
  shard.lru.emplace_front(key, std::move(leg));
  shard.index.emplace(key, shard.lru.begin());
  while (shard.bytes > shard_capacity_ && shard.lru.size() > 1) {
    shard.bytes -= shard.lru.back().second->MemoryBytes();
    shard.index.erase(shard.lru.back().first);
    shard.lru.pop_back();
  }
}

void LegCache::Clear() {
  for (Shard& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard.mu);
    shard.index.clear();
    shard.lru.clear();
    shard.bytes = 0;
  }
}

std::uint64_t LegCache::bytes() const {
  std::uint64_t total = 0;
  for (const Shard& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard.mu);
    total += shard.bytes;
  }
  return total;
}

}  // namespace walk::nav
