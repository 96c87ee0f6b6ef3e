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
// The grids' room is the smaller of --grid-resident-mb and a quarter of the target. The answer
// cache, the store's caches and the leg caches keep their own flags' bounds.
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "server/process_memory.h"

namespace walk::server {

class WorldRegistry;

struct MemoryGovernorOptions {
  std::uint64_t target_bytes = 0;       // --memory-mb; 0: no governor
  std::uint64_t grid_room_bytes = 0;    // kept for mapped grid pages out of the target
  std::uint64_t band_metric_bytes = 0;  // --band-metrics-mb: the most a world's cache may hold
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
};

// Governs `worlds` until stopped; counts into `counts` (outlives the thread).
std::jthread GovernMemory(const WorldRegistry* worlds, MemoryGovernorOptions options,
                          MemoryGovernorCounts* counts);

}  // namespace walk::server
