// A process-wide request for the search threads' lazily mapped buffers (lazy_buffer.h): walkd's
// memory governor (server/memory_governor.h) asks them back when walkd is over its memory
// target, and each searcher hands its pages back before its next search. A counter, read with
// one relaxed load per search; no searcher is interrupted.
#pragma once

#include <atomic>
#include <cstdint>

namespace walk::nav {

inline std::atomic<std::uint64_t> search_buffer_recalls{0};

// Asks every searcher to hand its buffers' pages back before its next search.
inline void RecallSearchBuffers() { search_buffer_recalls.fetch_add(1, std::memory_order_relaxed); }

// How many times they were asked: a searcher that saw another count hands its pages back.
inline std::uint64_t SearchBufferRecalls() {
  return search_buffer_recalls.load(std::memory_order_relaxed);
}

}  // namespace walk::nav
