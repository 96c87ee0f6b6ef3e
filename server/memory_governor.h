// Holds walkd's resident memory near --memory-mb. Every 20 ms it reads the process's resident
// pages (/proc/self/statm: a few counters, not a walk of the page tables, about 10 us) and gives
// back what costs least to get again:
//
// - The allocator's free pages, first, whenever walkd is over (either rule below would act): what
//   walkd freed (a band metric's customization, a profile's first parse) stays resident in the
//   arenas of the threads that freed it until trimmed (TrimHeap), and costs nothing to give
//   back. At most four times a second; the rules below then read memory afresh. Under the target
//   too, every 5 s once anonymous memory grew by 64 MB since the last trim.
// - Mapped grid pages, when anonymous and file-backed pages together, plus the most the
//   file-backed ones grew by between two looks over the last second, pass the target (so the
//   next look still finds walkd under it while walks read the grid in bursts as large): every
//   world's mapped image is handed back, and walks read the pages again from the page cache (a
//   minor fault each 64 KB). At most four times a second: each hand-back costs the walks their
//   hot pages again (handing back at every look cost band 0 of the routes stage a fifth of its
//   time where anonymous memory left the grids little room).
// - The search threads' lazily mapped buffers, when anonymous memory passes the target less the
//   grids' room: each searcher hands its pages back before its next search; at most every 5 s.
// - Band metrics and patches (decided about four times a second, from the worlds' caches): the
//   worlds' band metric caches may hold together what anonymous memory has room for besides
//   what walkd held otherwise at the least over the last 10 s (passing peaks, such as a metric
//   being customized, leave the room alone, so a customized metric is not evicted for its own
//   making), each what it holds and whatever none holds (BandMetricShares), at most
//   --band-metrics-mb. Customizing one more takes room besides the metric only while it is made
//   (its temporaries: the band's input weights and the customization's scratch, as a profile's
//   metric told its world's cache, BandMetricCache::making): a metric is customized only when it
//   and they fit the room, the least recently used going first. A danger band whose metric is not
//   held and cannot be made so is walked by the A*, as with --band-metrics-mb 0.
//
// - Caches that give way to band metrics (the answer cache and the store's block cache), while
//   danger bands are walked often enough to want a metric the room cannot hold (CacheYield):
//   they shrink to an eighth of their flags' bounds, the heap is trimmed, and the room grows by
//   what they held. They have their bounds back once band metrics were neither wanted nor read
//   for a minute. A band metric spares its walks several times their time (the A* instead of a
//   CCH query); the answers those caches drop are still in the store.
//
// The grids' room is the smaller of --grid-resident-mb and a quarter of the target. The leg
// caches and the store's row cache keep their own flags' bounds.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <thread>
#include <vector>

#include "server/process_memory.h"

namespace walk::server {

class WorldRegistry;

struct MemoryGovernorOptions {
  std::uint64_t target_bytes = 0;       // --memory-mb; 0: no governor
  std::uint64_t grid_room_bytes = 0;    // kept for mapped grid pages out of the target
  std::uint64_t band_metric_bytes = 0;  // --band-metrics-mb: the most a world's cache may hold
  // Shrinks the caches that give way to band metrics (true), or gives them their own bounds back
  // (false). Empty: none give way.
  std::function<void(bool)> yield_caches;
};

// A cache's bound while it gives way to band metrics: an eighth of `bytes` (its flag's bound),
// at least 16 MiB, never more than `bytes`.
constexpr std::uint64_t GivingWayBytes(std::uint64_t bytes) {
  const std::uint64_t eighth = bytes / 8, least = std::uint64_t{16} << 20;
  return eighth > least ? eighth : (bytes < least ? bytes : least);
}

// Whether the caches that give way to band metrics should now, from what the worlds' band metric
// caches counted: asks turned away for lack of room (BandMetricCache::refusals) and metrics read
// (hits and customizations). They give way once the refusals over the last 10 s reach the count
// of walks that makes a band's metric (AbstractRouter::kBandMetricAfterWalks; a walk asks about
// twice), and keep giving way until band metrics were neither refused nor read for a minute.
class CacheYield {
 public:
  // One look, about four times a second, with the counts so far (summed over the worlds; a
  // reloaded world's counts start again). True while the caches should give way.
  bool Look(std::uint64_t refusals, std::uint64_t reads);

 private:
  static constexpr std::size_t kWantLooks = 40;  // 10 s of looks
  static constexpr int kKeepLooks = 240;         // a minute of looks
  std::deque<std::uint64_t> refused_;            // each look's refusals, newest last
  std::uint64_t last_refusals_ = 0, last_reads_ = 0;
  // Looks since band metrics were last wanted or read; the caches give way while it is below
  // kKeepLooks.
  int since_used_ = kKeepLooks;
};

// What one look decides, from the resident bytes now, the most the file-backed ones grew by
// between two looks of late, and the least anonymous memory held besides the band metrics over the
// last 10 s.
struct GovernorStep {
  bool trim_heap = false;
  bool release_grids = false;
  bool recall_buffers = false;
  std::uint64_t band_metric_room = 0;  // for all worlds' band metrics together
};
GovernorStep DecideGovernorStep(const MemoryGovernorOptions& options, ResidentBytes now,
                                std::uint64_t file_growth, std::uint64_t other_anonymous_least);

// Each routing world's share of `room` for its band metrics, from what each holds (`held`): what
// it holds and all that none holds, so that a world walking danger bands may keep and make
// metrics while others walk none (two worlds making one each at once may pass the room by one
// until the next look); where they hold more than `room` together, shares of it as large as
// what each holds. At most `most` each.
std::vector<std::uint64_t> BandMetricShares(const std::vector<std::uint64_t>& held,
                                            std::uint64_t room, std::uint64_t most);

// What the governor did, for /metrics.
struct MemoryGovernorCounts {
  std::atomic<std::uint64_t> grid_releases{0};
  std::atomic<std::uint64_t> buffer_recalls{0};
  std::atomic<std::uint64_t> heap_trims{0};
  std::atomic<std::uint64_t> heap_trimmed_bytes{0};
  std::atomic<std::uint64_t> band_metric_room{0};  // bytes, all worlds together
  std::atomic<bool> caches_yielding{false};        // CacheYield's last answer
  std::atomic<std::uint64_t> cache_yields{0};      // times the caches gave way
};

// Governs `worlds` until stopped; counts into `counts` (outlives the thread).
std::jthread GovernMemory(const WorldRegistry* worlds, MemoryGovernorOptions options,
                          MemoryGovernorCounts* counts);

}  // namespace walk::server
