// The array a continent keeps per surface (and a tile per column): its own elements, or a view
// of elements that a memory-mapped file holds (nav/grid/grid_image.h), so a world of 66 million
// surfaces is resident only where walks read it.
//
// Reading is a pointer and an index either way. A mapped array is read-only in spirit: anything
// that changes it (push_back, resize, a non-const index) first copies it into memory of its own.
// Copies of a mapped array share the mapping; copies of an owned one copy the elements.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace walk::nav {

template <typename T>
class Array {
 public:
  Array() = default;
  Array(std::size_t count, const T& value) : owned_(count, value) { Sync(); }
  Array(const Array& other) { *this = other; }
  Array(Array&& other) noexcept { *this = std::move(other); }
  Array& operator=(const Array& other) {
    if (this == &other) return *this;
    mapping_ = other.mapping_;
    if (mapping_ != nullptr) {
      owned_.clear();
      data_ = other.data_;
      size_ = other.size_;
    } else {
      owned_ = other.owned_;
      Sync();
    }
    return *this;
  }
  Array& operator=(Array&& other) noexcept {
    mapping_ = std::move(other.mapping_);
    owned_ = std::move(other.owned_);
    data_ = mapping_ != nullptr ? other.data_ : owned_.data();
    size_ = other.size_;
    other.owned_.clear();
    other.mapping_.reset();
    other.Sync();
    return *this;
  }

  // Views `count` elements at `data`, which `mapping` keeps alive.
  static Array View(std::shared_ptr<const void> mapping, const T* data, std::size_t count) {
    Array a;
    a.mapping_ = std::move(mapping);
    a.data_ = const_cast<T*>(data);
    a.size_ = count;
    return a;
  }
  bool mapped() const { return mapping_ != nullptr; }
  // What keeps a mapped array's elements alive (null when it owns them).
  const std::shared_ptr<const void>& mapping() const { return mapping_; }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T& operator[](std::size_t i) { return Own()[i]; }
  const T* data() const { return data_; }
  T* data() { return Own().data(); }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T* begin() { return Own().data(); }
  T* end() { return Own().data() + size_; }
  const T& front() const { return data_[0]; }
  const T& back() const { return data_[size_ - 1]; }

  void push_back(const T& value) {
    Own().push_back(value);
    Sync();
  }
  void resize(std::size_t count) {
    Own().resize(count);
    Sync();
  }
  void assign(std::size_t count, const T& value) {
    mapping_.reset();
    owned_.assign(count, value);
    Sync();
  }
  template <typename It>
  void assign(It first, It last) {
    std::vector<T> copy(first, last);
    mapping_.reset();
    owned_ = std::move(copy);
    Sync();
  }
  void reserve(std::size_t count) {
    Own().reserve(count);
    Sync();
  }
  void clear() {
    mapping_.reset();
    owned_.clear();
    Sync();
  }

  friend bool operator==(const Array& a, const Array& b) {
    if (a.size_ != b.size_) return false;
    for (std::size_t i = 0; i < a.size_; ++i) {
      if (!(a.data_[i] == b.data_[i])) return false;
    }
    return true;
  }
  friend bool operator!=(const Array& a, const Array& b) { return !(a == b); }

 private:
  // The elements as a vector of its own, copied out of the mapping first if need be.
  std::vector<T>& Own() {
    if (mapping_ != nullptr) {
      owned_.assign(data_, data_ + size_);
      mapping_.reset();
      Sync();
    }
    return owned_;
  }
  void Sync() {
    data_ = owned_.data();
    size_ = owned_.size();
  }

  std::vector<T> owned_;
  std::shared_ptr<const void> mapping_;
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace walk::nav
