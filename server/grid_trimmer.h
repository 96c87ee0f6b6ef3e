// Keeps each mapped grid's resident pages under walkd's --grid-resident-mb. Each world's share
// of the process's pages is known only from /proc/self/smaps, a read that walks every mapping
// (milliseconds on a large walkd), while the process's file-backed resident bytes (RssFile in
// /proc/self/status) cost microseconds and grow as the mapped grids do. So the trimmer reads the
// cheap figure every second and the dear one only when the file-backed pages have grown by as
// much as a world still had room for: no world passes its budget by more than a second's reads,
// where a look every 5 s let long walks pass it by a gigabyte (docs/benchmarks.md).
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>

#include "server/world_registry.h"

namespace walk::server {

// When to look at each world's mapped pages.
class GridTrimTrigger {
 public:
  explicit GridTrimTrigger(std::uint64_t budget_bytes) : budget_bytes_(budget_bytes) {}

  // Whether to look now, the process holding `file_resident_bytes` of file-backed pages: before
  // the first look, and once they have grown by the room the fullest world had at the last look
  // from the least they have been since (pages handed back elsewhere, a world's load done, lower
  // the base the growth counts from).
  bool Due(std::uint64_t file_resident_bytes) {
    least_since_ = std::min(least_since_, file_resident_bytes);
    return !looked_ || file_resident_bytes >= least_since_ + room_bytes_;
  }
  // After a look: the process's file-backed resident bytes then (after any hand-back), and the
  // most pages a world kept.
  void Looked(std::uint64_t file_resident_bytes, std::uint64_t most_kept_bytes) {
    looked_ = true;
    least_since_ = file_resident_bytes;
    room_bytes_ = most_kept_bytes < budget_bytes_ ? budget_bytes_ - most_kept_bytes : 0;
  }

 private:
  std::uint64_t budget_bytes_;
  bool looked_ = false;
  std::uint64_t least_since_ = 0;  // file-backed resident bytes, the least since the last look
  std::uint64_t room_bytes_ = 0;   // what the fullest world could still take at the last look
};

// The process's file-backed resident bytes (RssFile in /proc/self/status); 0 where unknown.
std::uint64_t FileResidentBytes();

// Every second, as GridTrimTrigger says, each world of `worlds` whose mapped grid holds more
// than `budget_bytes` resident hands its pages back (what walks read next comes back from the
// page cache). Stops with the returned thread.
std::jthread TrimMappedGrids(const WorldRegistry* worlds, std::uint64_t budget_bytes);

}  // namespace walk::server
