// A search buffer as large as a continent that costs only what searches touch: anonymous memory
// the kernel maps page by page on first touch (it reads as zeros until then). Sizing a buffer to
// 66 million surfaces reserves address space, not resident memory; Release hands every touched
// page back, and the buffer reads as zeros again.
//
// For generation-stamped searches: a zero stamp never equals a live generation (they start at 1),
// so pages handed back need no clearing. T must be trivially copyable; a zero T is its "unset".
// Not thread-safe; one per searcher. Every buffer's mapping is known process-wide, so that what
// they hold resident can be read (LazyBuffersResidentBytes).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

namespace walk::nav {

// Files and forgets a buffer's mapping (lazy_buffer.cc); thread-safe.
void AddLazyMapping(const void* address, std::size_t bytes);
void DropLazyMapping(const void* address);
// The bytes every live LazyBuffer holds resident (mincore over their mappings: about a
// millisecond for a few GB of them); thread-safe.
std::uint64_t LazyBuffersResidentBytes();

template <typename T>
class LazyBuffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  LazyBuffer() = default;
  LazyBuffer(const LazyBuffer&) = delete;
  LazyBuffer& operator=(const LazyBuffer&) = delete;
  ~LazyBuffer() { Unmap(); }

  // Makes room for `count` elements, all zero (what it held is gone). Throws std::bad_alloc
  // when the address space is not there.
  void Reset(std::size_t count) {
    Unmap();
    if (count == 0) return;
    void* p = mmap(nullptr, count * sizeof(T), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<T*>(p);
    size_ = count;
    AddLazyMapping(p, count * sizeof(T));
  }
  // Hands every touched page back to the kernel: the buffer reads as zeros again.
  void Release() {
    if (data_ != nullptr) madvise(data_, size_ * sizeof(T), MADV_DONTNEED);
  }

  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  void Unmap() {
    if (data_ != nullptr) {
      DropLazyMapping(data_);
      munmap(data_, size_ * sizeof(T));
    }
    data_ = nullptr;
    size_ = 0;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace walk::nav
