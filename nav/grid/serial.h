// Serials: a number no other object of the process is given, never 0. An object that may be
// freed and another made where it stood (a reloaded world's navmesh, an evicted band metric, a
// subgoal hierarchy) is named by its serial wherever something is kept for it, never by its
// address.
#pragma once

#include <atomic>
#include <cstdint>

namespace walk::nav {

inline std::uint64_t NewSerial() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace walk::nav
