#include "server/process_memory.h"

#include <malloc.h>
#include <unistd.h>

#include <cstdio>

namespace walk::server {

ResidentBytes ReadResidentBytes() {
  ResidentBytes out;
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return out;
  unsigned long long size = 0, resident = 0, shared = 0;  // pages
  if (std::fscanf(f, "%llu %llu %llu", &size, &resident, &shared) == 3) {
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    out.total = resident * page;
    out.file = shared * page;
    out.virtual_size = size * page;
  }
  std::fclose(f);
  return out;
}

std::uint64_t TrimHeap() {
  const std::uint64_t before = ReadResidentBytes().anonymous();
  malloc_trim(0);
  const std::uint64_t after = ReadResidentBytes().anonymous();
  return before > after ? before - after : 0;
}

}  // namespace walk::server
