// The surfaces of columns snapped before, so that a place asked again (a batch's next band, the
// next block naming the same hub, a planner's usual places) snaps without reading the grid. A
// snap reads the column table and the column's heights or flags; on a mapped grid each read maps
// the 64 KB around it, so snapping the 17,000 places of a routes stage maps hundreds of MB of
// grid pages within a fraction of a second, at every band.
//
// Keyed by the whole question a snap answers: the continent, the column and the height asked
// (or none). One cache belongs to one loaded world, whose grid never changes: a world loaded
// again gets a new cache. Two-way set associative, the older of a set's two snaps replaced; its
// slots are zeroed pages from the system, so memory is taken as snaps fill them. Thread-safe:
// one mutex a stripe of sets.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>

#include "nav/grid/grid.h"
#include "nav/query/snap.h"

namespace walk::nav {

class SnapCache {
 public:
  // Holds at most `sets` x 2 snaps (`sets` rounded up to a power of two, at least 2).
  explicit SnapCache(std::size_t sets = kDefaultSets);
  ~SnapCache();
  SnapCache(const SnapCache&) = delete;
  SnapCache& operator=(const SnapCache&) = delete;

  // SnapSurface(continent, frame, place), from the cache when it holds that column and height.
  SurfaceSnap SurfaceOf(const Continent& continent, const WorldFrame& frame, const Place& place);
  // SnapPlace(continent, frame, place), its surface through the cache.
  Snap SnapOf(const Continent& continent, const WorldFrame& frame, const Place& place) {
    return SnapOfSurface(continent, SurfaceOf(continent, frame, place));
  }

  // Snaps held now.
  std::size_t Size() const;
  std::uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }
  std::uint64_t misses() const { return misses_.load(std::memory_order_relaxed); }

  static constexpr std::size_t kDefaultSets = std::size_t{1} << 15;  // 64 Ki snaps, 3 MB

 private:
  struct Key {
    std::uint64_t continent_and_flags = 0;  // continent << 1 | has height
    std::int64_t column_x = 0;
    std::int64_t column_y = 0;
    std::uint64_t height_bits = 0;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct Slot {
    Key key;
    SurfaceSnap snap;
    std::uint32_t stamp = 0;  // 0: empty; else when it was last filled or hit
  };
  static constexpr std::size_t kStripes = 64;

  std::size_t SetOf(const Key& key) const;

  std::size_t set_mask_;
  mutable std::array<std::mutex, kStripes> stripes_;
  Slot* slots_;                                  // two a set, from calloc: all empty
  std::array<std::uint32_t, kStripes> clock_{};  // a stripe's stamps, counted under its mutex
  std::atomic<std::uint64_t> hits_{0}, misses_{0};
};

}  // namespace walk::nav
