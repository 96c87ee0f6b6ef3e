// A vector whose resize() leaves new elements uninitialized, for arrays that the threads meant
// to fill should touch first.
#pragma once

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace walk::nav {

// An allocator whose resize() leaves new elements uninitialized, so that a metric's arrays
// (hundreds of MB on a continent) are first written by the threads that customize them, page
// faults and all, instead of zeroed by one thread first.
template <typename T>
struct UninitializedAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <typename U>
  UninitializedAllocator(const UninitializedAllocator<U>&) {}
  template <typename U>
  void construct(U* p) {
    ::new (static_cast<void*>(p)) U;  // default-initialized: left as it is for a double
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  // Arrays of kHugeFrom bytes or more (a metric's weights and steps, faulted in whole by each
  // customization, again after every eviction) are asked for in transparent huge pages: 2 MB a
  // fault rather than 4 KB. Their last huge page may hold up to 2 MB past the array's capacity.
  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugeFrom) return std::allocator<T>::allocate(n);
    const std::size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
    void* p = std::aligned_alloc(kHuge, rounded);
    if (p == nullptr) throw std::bad_alloc();
    madvise(p, rounded, MADV_HUGEPAGE);
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) {
    if (n * sizeof(T) < kHugeFrom) return std::allocator<T>::deallocate(p, n);
    std::free(p);
  }
  static constexpr std::size_t kHuge = std::size_t{2} << 20;
  static constexpr std::size_t kHugeFrom = std::size_t{8} << 20;
};
template <typename T>
using UninitializedVector = std::vector<T, UninitializedAllocator<T>>;

// The bytes a vector's storage takes (its capacity), as MemoryBytes() counts them.
template <typename Vector>
std::uint64_t CapacityBytes(const Vector& v) {
  return v.capacity() * sizeof(typename Vector::value_type);
}

}  // namespace walk::nav
