#include "server/grid_trimmer.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>

#include "nav/grid/grid_image.h"

namespace walk::server {

std::uint64_t FileResidentBytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("RssFile:", 0) == 0) {
      return std::strtoull(line.c_str() + 8, nullptr, 10) << 10;  // kB
    }
  }
  return 0;
}

std::jthread TrimMappedGrids(const WorldRegistry* worlds, std::uint64_t budget_bytes) {
  return std::jthread([worlds, budget_bytes](std::stop_token stop) {
    std::mutex mu;
    std::condition_variable_any wake;
    GridTrimTrigger trigger(budget_bytes);
    while (!stop.stop_requested()) {
      {
        std::unique_lock<std::mutex> lock(mu);
        wake.wait_for(lock, stop, std::chrono::seconds(1), [] { return false; });
      }
      if (stop.stop_requested()) break;
      if (!trigger.Due(FileResidentBytes())) continue;
      std::uint64_t most_kept = 0;
      for (const WorldStatus& w : worlds->Snapshot()) {
        if (!w.served) continue;
        const std::uint64_t resident = nav::MappedResidence(w.served->world).resident;
        if (resident > budget_bytes) {
          nav::ReleaseMappedPages(w.served->world);
        } else {
          most_kept = std::max(most_kept, resident);
        }
      }
      trigger.Looked(FileResidentBytes(), most_kept);
    }
  });
}

}  // namespace walk::server
