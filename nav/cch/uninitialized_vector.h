// A vector whose resize() leaves new elements uninitialized, for arrays that the threads meant
// to fill should touch first.
#pragma once

#include <cstdint>
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
};
template <typename T>
using UninitializedVector = std::vector<T, UninitializedAllocator<T>>;

// The bytes a vector's storage takes (its capacity), as MemoryBytes() counts them.
template <typename Vector>
std::uint64_t CapacityBytes(const Vector& v) {
  return v.capacity() * sizeof(typename Vector::value_type);
}

}  // namespace walk::nav
