// The process's memory as the kernel counts it (/proc/self/statm: a few counters, not a walk
// of the page tables), for /metrics' process gauges and walkd's memory governor.
#pragma once

#include <cstdint>

namespace walk::server {

// The process's resident bytes now, and of those file-backed (mapped files; shared memory too);
// its virtual size beside them.
struct ResidentBytes {
  std::uint64_t total = 0;
  std::uint64_t file = 0;
  std::uint64_t virtual_size = 0;
  std::uint64_t anonymous() const { return total > file ? total - file : 0; }
};
// From /proc/self/statm; zeros where it cannot be read.
ResidentBytes ReadResidentBytes();

// Hands the allocator's free pages back to the kernel (malloc_trim: the free chunks inside
// every arena, not only at their tops), and returns the anonymous bytes that gave back. Memory
// freed by walkd (a metric's customization, a parse) otherwise stays resident in the arenas of
// the threads that used it.
std::uint64_t TrimHeap();

}  // namespace walk::server
