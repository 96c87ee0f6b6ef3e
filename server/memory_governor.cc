#include "server/memory_governor.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>

#include "nav/abstract/abstract_router.h"
#include "nav/grid/grid_image.h"
#include "nav/search/buffer_recall.h"
#include "server/world_registry.h"

namespace walk::server {
namespace {

// Resident bytes are read (and the grids handed back) every look; the band metrics' room and the
// buffers' recall are decided every kLooksPerRoom looks (about four times a second), from the
// worlds' band metrics.
constexpr auto kLookEvery = std::chrono::milliseconds(20);
constexpr int kLooksPerRoom = 12;
constexpr std::size_t kGrowthLooks = 50;   // the file-backed pages' growth over the last 1 s
constexpr int kLooksBetweenReleases = 12;  // grids handed back at most about four times a second
constexpr std::size_t kOtherRooms = 40;    // the other memory's least over the last 10 s
constexpr int kRoomsBetweenRecalls = 20;   // buffers recalled at most every 5 s
constexpr int kLooksBetweenTrims = 12;     // the heap trimmed at most about four times a second
// And every 5 s, under the target too, once anonymous memory grew by kTrimGrowth since the last
// trim: a metric's customization frees more than that.
constexpr int kLooksBetweenGrowthTrims = 250;
constexpr std::uint64_t kTrimGrowth = std::uint64_t{64} << 20;

// Hands back every world's mapped grid pages; true when any were mapped.
bool ReleaseGrids(const std::vector<WorldStatus>& served) {
  bool released = false;
  for (const WorldStatus& w : served) {
    if (w.served) released |= nav::ReleaseMappedPages(w.served->world);
  }
  return released;
}

// Has the caches that give way to band metrics shrink (`yield`) or grow back; a shrink's freed
// pages go back to the kernel at once, so the band metrics' room grows by them at the next look.
void YieldCaches(const MemoryGovernorOptions& options, MemoryGovernorCounts* counts, bool yield) {
  options.yield_caches(yield);
  counts->caches_yielding.store(yield);
  if (!yield) return;
  counts->cache_yields.fetch_add(1, std::memory_order_relaxed);
  counts->heap_trimmed_bytes.fetch_add(TrimHeap(), std::memory_order_relaxed);
  counts->heap_trims.fetch_add(1, std::memory_order_relaxed);
}

// Sets each routing world's band metric capacity to its share of `room` (BandMetricShares), at
// most `most`, customizing one taking `making` besides the metric; returns what they may hold
// together.
std::uint64_t ShareBandMetricRoom(const std::vector<WorldStatus>& served, std::uint64_t room,
                                  std::uint64_t most, std::uint64_t making) {
  std::vector<nav::BandMetricCache*> caches;
  std::vector<std::uint64_t> held;
  for (const WorldStatus& w : served) {
    if (!w.served || !w.served->router) continue;
    caches.push_back(&w.served->router->band_metrics());
    held.push_back(caches.back()->bytes());
  }
  const std::vector<std::uint64_t> shares = BandMetricShares(held, room, most);
  std::uint64_t given = 0;
  for (std::size_t i = 0; i < caches.size(); ++i) {
    caches[i]->SetCapacity(shares[i], making);
    given += shares[i];
  }
  return std::min(given, room);
}

// What the worlds' band metric caches hold and counted, summed.
struct BandMetricTotals {
  std::uint64_t bytes = 0;
  std::uint64_t making = 0;  // the most making one takes besides it, of any world
  std::uint64_t refusals = 0;
  std::uint64_t reads = 0;  // hits and customizations
};

BandMetricTotals SumBandMetrics(const std::vector<WorldStatus>& served) {
  BandMetricTotals sum;
  for (const WorldStatus& w : served) {
    if (!w.served || !w.served->router) continue;
    const nav::BandMetricCache& cache = w.served->router->band_metrics();
    sum.bytes += cache.bytes();
    sum.making = std::max(sum.making, cache.making());
    sum.refusals += cache.refusals();
    sum.reads += cache.hits() + cache.customizations();
  }
  return sum;
}

}  // namespace

bool CacheYield::Look(std::uint64_t refusals, std::uint64_t reads) {
  // A reloaded world's counts start again: a total below the last one is all new.
  const std::uint64_t refused = refusals >= last_refusals_ ? refusals - last_refusals_ : refusals;
  const bool read = reads != last_reads_;
  last_refusals_ = refusals;
  last_reads_ = reads;
  refused_.push_back(refused);
  if (refused_.size() > kWantLooks) refused_.pop_front();
  std::uint64_t recent = 0;
  for (const std::uint64_t r : refused_) recent += r;
  const bool wanted = recent >= nav::AbstractRouter::kBandMetricAfterWalks;
  const bool yielding = since_used_ < kKeepLooks;
  if (wanted || (yielding && (read || refused > 0))) {
    since_used_ = 0;
  } else if (yielding) {
    ++since_used_;
  }
  return since_used_ < kKeepLooks;
}

std::vector<std::uint64_t> BandMetricShares(const std::vector<std::uint64_t>& held,
                                            std::uint64_t room, std::uint64_t most) {
  std::vector<std::uint64_t> shares(held.size(), 0);
  if (held.empty()) return shares;
  long double total = 0;
  for (const std::uint64_t h : held) total += static_cast<long double>(h);
  if (total > static_cast<long double>(room)) {
    for (std::size_t i = 0; i < held.size(); ++i) {
      shares[i] = static_cast<std::uint64_t>(static_cast<long double>(held[i]) * room / total);
    }
  } else {
    const std::uint64_t free = room - static_cast<std::uint64_t>(total);
    for (std::size_t i = 0; i < held.size(); ++i) shares[i] = held[i] + free;
  }
  for (std::uint64_t& share : shares) share = std::min(share, most);
  return shares;
}

GovernorStep DecideGovernorStep(const MemoryGovernorOptions& options, ResidentBytes now,
                                std::uint64_t file_growth, std::uint64_t other_anonymous_least) {
  GovernorStep step;
  if (options.target_bytes == 0) return step;
  const std::uint64_t room = std::min(options.grid_room_bytes, options.target_bytes / 4);
  const std::uint64_t ceiling = options.target_bytes - room;  // for anonymous memory
  // Less than a few tens of MB mapped is not worth handing back (and refaulting) many times a
  // second when anonymous memory alone is near the target.
  const std::uint64_t worth = std::min<std::uint64_t>(room, std::uint64_t{32} << 20);
  step.release_grids = now.total + file_growth > options.target_bytes && now.file > worth;
  step.recall_buffers = now.anonymous() > ceiling;
  step.trim_heap = step.release_grids || step.recall_buffers;
  step.band_metric_room = ceiling > other_anonymous_least ? ceiling - other_anonymous_least : 0;
  return step;
}

std::jthread GovernMemory(const WorldRegistry* worlds, MemoryGovernorOptions options,
                          MemoryGovernorCounts* counts) {
  return std::jthread([worlds, options, counts](std::stop_token stop) {
    std::mutex mu;
    std::condition_variable_any wake;
    std::deque<std::uint64_t> others;   // anonymous bytes besides band metrics, newest last
    std::deque<std::uint64_t> growths;  // what the file-backed bytes grew by at each look
    std::uint64_t last_file = 0, making = 0;
    CacheYield yield;
    int look = 0, since_recall = kRoomsBetweenRecalls, since_release = kLooksBetweenReleases;
    int since_trim = kLooksBetweenGrowthTrims;
    std::uint64_t trimmed_to = ReadResidentBytes().anonymous();  // anonymous after the last trim
    while (!stop.stop_requested()) {
      {
        std::unique_lock<std::mutex> lock(mu);
        wake.wait_for(lock, stop, kLookEvery, [] { return false; });
      }
      if (stop.stop_requested()) break;
      ResidentBytes now = ReadResidentBytes();
      growths.push_back(now.file > last_file ? now.file - last_file : 0);
      if (growths.size() > kGrowthLooks) growths.pop_front();
      last_file = now.file;
      const bool room_look = look++ % kLooksPerRoom == 0;
      std::vector<WorldStatus> served;
      if (room_look) {
        served = worlds->Snapshot();
        const BandMetricTotals band = SumBandMetrics(served);
        making = band.making;
        if (options.yield_caches && options.band_metric_bytes > 0) {
          const bool yielding = yield.Look(band.refusals, band.reads);
          if (yielding != counts->caches_yielding.load()) {
            YieldCaches(options, counts, yielding);
            now = ReadResidentBytes();
            trimmed_to = now.anonymous();
          }
        }
        others.push_back(now.anonymous() > band.bytes ? now.anonymous() - band.bytes : 0);
        if (others.size() > kOtherRooms) others.pop_front();
      }
      auto decide = [&] {
        return DecideGovernorStep(options, now, *std::max_element(growths.begin(), growths.end()),
                                  *std::min_element(others.begin(), others.end()));
      };
      GovernorStep step = decide();
      // The allocator's free pages first: they cost nothing to give back.
      ++since_trim;
      const bool grown = now.anonymous() > trimmed_to + kTrimGrowth;
      if ((step.trim_heap && since_trim >= kLooksBetweenTrims) ||
          (grown && since_trim >= kLooksBetweenGrowthTrims)) {
        since_trim = 0;
        counts->heap_trimmed_bytes.fetch_add(TrimHeap(), std::memory_order_relaxed);
        counts->heap_trims.fetch_add(1, std::memory_order_relaxed);
        now = ReadResidentBytes();
        trimmed_to = now.anonymous();
        step = decide();
      }
      // Each hand-back costs the walks their hot pages again: at most four a second.
      ++since_release;
      if (step.release_grids && since_release >= kLooksBetweenReleases) {
        since_release = 0;
        if (served.empty()) served = worlds->Snapshot();
        if (ReleaseGrids(served)) {
          last_file = ReadResidentBytes().file;
          counts->grid_releases.fetch_add(1, std::memory_order_relaxed);
        }
      }
      if (!room_look) continue;
      ++since_recall;
      if (step.recall_buffers && since_recall >= kRoomsBetweenRecalls) {
        nav::RecallSearchBuffers();
        since_recall = 0;
        counts->buffer_recalls.fetch_add(1, std::memory_order_relaxed);
      }
      counts->band_metric_room.store(
          ShareBandMetricRoom(served, step.band_metric_room, options.band_metric_bytes, making),
          std::memory_order_relaxed);
    }
  });
}

}  // namespace walk::server
