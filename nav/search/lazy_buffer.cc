#include "nav/search/lazy_buffer.h"

#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <utility>
#include <vector>

namespace walk::nav {
namespace {

struct LazyMappings {
  std::mutex mu;
  std::vector<std::pair<const void*, std::size_t>> mappings;  // guarded by mu
};

LazyMappings& Mappings() {
  static LazyMappings* const mappings = new LazyMappings;  // never destroyed: buffers outlive main
  return *mappings;
}

}  // namespace

void AddLazyMapping(const void* address, std::size_t bytes) {
  LazyMappings& m = Mappings();
  std::lock_guard<std::mutex> lock(m.mu);
  m.mappings.emplace_back(address, bytes);
}

void DropLazyMapping(const void* address) {
  LazyMappings& m = Mappings();
  std::lock_guard<std::mutex> lock(m.mu);
  std::erase_if(m.mappings, [address](const auto& mapping) { return mapping.first == address; });
}

std::uint64_t LazyBuffersResidentBytes() {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  constexpr std::size_t kPagesAtOnce = std::size_t{1} << 16;
  std::vector<unsigned char> resident(kPagesAtOnce);
  std::uint64_t bytes = 0;
  LazyMappings& m = Mappings();
  // Held while counting, so that no buffer is unmapped meanwhile.
  std::lock_guard<std::mutex> lock(m.mu);
  for (const auto& [address, size] : m.mappings) {
    const std::size_t pages = (size + page - 1) / page;
    for (std::size_t first = 0; first < pages; first += kPagesAtOnce) {
      const std::size_t count = std::min(kPagesAtOnce, pages - first);
      void* at = const_cast<char*>(static_cast<const char*>(address) + first * page);
      if (mincore(at, count * page, resident.data()) != 0) break;
      for (std::size_t i = 0; i < count; ++i) bytes += (resident[i] & 1) ? page : 0;
    }
  }
  return bytes;
}

}  // namespace walk::nav
