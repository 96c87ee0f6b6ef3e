#include "server/memory_governor.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>

#include "nav/grid/grid_image.h"
#include "nav/search/buffer_recall.h"
#include "server/world_registry.h"

namespace walk::server {
namespace {

constexpr auto kLookEvery = std::chrono::milliseconds(250);
constexpr std::size_t kOtherLooks = 40;   // the other memory's least is over the last 10 s
constexpr int kLooksBetweenRecalls = 20;  // buffers recalled at most every 5 s

}  // namespace

GovernorStep DecideGovernorStep(const MemoryGovernorOptions& options, ResidentBytes now,
                                std::uint64_t file_growth, std::uint64_t other_anonymous_least,
                                std::uint64_t making_bytes) {
  GovernorStep step;
  if (options.target_bytes == 0) return step;
  const std::uint64_t room = std::min(options.grid_room_bytes, options.target_bytes / 4);
  const std::uint64_t ceiling = options.target_bytes - room;  // for anonymous memory
  step.release_grids = now.total + file_growth > options.target_bytes && now.file > 0;
  step.recall_buffers = now.anonymous() > ceiling;
  const std::uint64_t taken = other_anonymous_least + making_bytes;
  step.band_metric_room = ceiling > taken ? ceiling - taken : 0;
  return step;
}

std::jthread GovernMemory(const WorldRegistry* worlds, MemoryGovernorOptions options,
                          MemoryGovernorCounts* counts) {
  return std::jthread([worlds, options, counts](std::stop_token stop) {
    std::mutex mu;
    std::condition_variable_any wake;
    std::deque<std::uint64_t> others;  // anonymous bytes besides band metrics, newest last
    std::uint64_t last_file = 0;
    int since_recall = kLooksBetweenRecalls;
    while (!stop.stop_requested()) {
      {
        std::unique_lock<std::mutex> lock(mu);
        wake.wait_for(lock, stop, kLookEvery, [] { return false; });
      }
      if (stop.stop_requested()) break;
      const std::vector<WorldStatus> served = worlds->Snapshot();
      std::uint64_t band_bytes = 0, largest = 0, routers = 0;
      for (const WorldStatus& w : served) {
        if (!w.served || !w.served->router) continue;
        band_bytes += w.served->router->band_metrics().bytes();
        largest = std::max(largest, w.served->router->band_metrics().largest());
        ++routers;
      }
      const ResidentBytes now = ReadResidentBytes();
      others.push_back(now.anonymous() > band_bytes ? now.anonymous() - band_bytes : 0);
      if (others.size() > kOtherLooks) others.pop_front();
      const std::uint64_t growth = now.file > last_file ? now.file - last_file : 0;
      last_file = now.file;
      const GovernorStep step = DecideGovernorStep(
          options, now, growth, *std::min_element(others.begin(), others.end()), largest / 5 * 4);

      if (step.release_grids) {
        bool released = false;
        for (const WorldStatus& w : served) {
          if (w.served) released |= nav::ReleaseMappedPages(w.served->world);
        }
        if (released) {
          last_file = ReadResidentBytes().file;
          counts->grid_releases.fetch_add(1, std::memory_order_relaxed);
        }
      }
      ++since_recall;
      if (step.recall_buffers && since_recall >= kLooksBetweenRecalls) {
        nav::RecallSearchBuffers();
        since_recall = 0;
        counts->buffer_recalls.fetch_add(1, std::memory_order_relaxed);
      }
      // The room split evenly between the worlds that route, each at most its flag's budget.
      const std::uint64_t each =
          routers == 0 ? 0 : std::min(options.band_metric_bytes, step.band_metric_room / routers);
      for (const WorldStatus& w : served) {
        if (w.served && w.served->router) w.served->router->band_metrics().SetCapacity(each);
      }
      counts->band_metric_room.store(each * routers, std::memory_order_relaxed);
    }
  });
}

}  // namespace walk::server
