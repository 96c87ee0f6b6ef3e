#include "nav/query/snap_cache.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>

namespace walk::nav {

SnapCache::SnapCache(std::size_t sets)
    : set_mask_(std::bit_ceil(std::max<std::size_t>(sets, 2)) - 1),
      // Zeroed pages: the kernel gives them as they are first written.
      slots_(static_cast<Slot*>(std::calloc(2 * (set_mask_ + 1), sizeof(Slot)))) {
  static_assert(std::is_trivially_copyable_v<Slot>);
  if (slots_ == nullptr) throw std::bad_alloc();
}

SnapCache::~SnapCache() { std::free(slots_); }

std::size_t SnapCache::SetOf(const Key& key) const {
  std::uint64_t h = key.continent_and_flags * 0x9e3779b97f4a7c15ULL;
  h ^= static_cast<std::uint64_t>(key.column_x) * 0xff51afd7ed558ccdULL;
  h ^= static_cast<std::uint64_t>(key.column_y) * 0xc4ceb9fe1a85ec53ULL;
  h ^= key.height_bits;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return static_cast<std::size_t>(h) & set_mask_;
}

SurfaceSnap SnapCache::SurfaceOf(const Continent& continent, const WorldFrame& frame,
                                 const Place& place) {
  Key key;
  key.continent_and_flags =
      (std::uint64_t{continent.id} << 1) | (place.z_yards.has_value() ? 1 : 0);
  key.column_x = frame.ColumnX(place.x_yards);
  key.column_y = frame.ColumnY(place.y_yards);
  if (place.z_yards.has_value()) {
    const double z = *place.z_yards == 0.0 ? 0.0 : *place.z_yards;  // -0 asks what 0 asks
    std::memcpy(&key.height_bits, &z, sizeof z);
  }
  const std::size_t set = SetOf(key);
  Slot* pair = &slots_[2 * set];
  std::mutex& mu = stripes_[set % kStripes];
  {
    std::lock_guard<std::mutex> lock(mu);
    for (int k = 0; k < 2; ++k) {
      if (pair[k].stamp != 0 && pair[k].key == key) {
        pair[k].stamp = ++clock_[set % kStripes] | 1;
        hits_.fetch_add(1, std::memory_order_relaxed);
        return pair[k].snap;
      }
    }
  }
  // Snapped outside the lock: its reads may wait for the disk.
  const SurfaceSnap snap = SnapSurface(continent, frame, place);
  misses_.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(mu);
  Slot& slot = pair[0].stamp == 0 || (pair[1].stamp != 0 && pair[0].stamp < pair[1].stamp)
                   ? pair[0]
                   : pair[1];
  slot.key = key;
  slot.snap = snap;
  slot.stamp = ++clock_[set % kStripes] | 1;
  return snap;
}

std::size_t SnapCache::Size() const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < 2 * (set_mask_ + 1); ++i) {
    std::lock_guard<std::mutex> lock(stripes_[(i / 2) % kStripes]);
    n += slots_[i].stamp != 0 ? 1 : 0;
  }
  return n;
}

}  // namespace walk::nav
