// A small, stable 64-bit hash for content ids. Stable across builds, machines and versions of
// this program (unlike absl::Hash or std::hash), so ids can be stored on disk and in store keys.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace walk::nav {

class ContentHasher {
 public:
  ContentHasher() = default;

  void AddU64(std::uint64_t value);
  void AddDouble(double value);
  void AddString(std::string_view text);  // length-prefixed, so "ab"+"c" != "a"+"bc"
  void AddBytes(const void* data, std::size_t size);
  template <typename T>
  void AddArray(const T& values) {
    AddU64(values.size());
    AddBytes(values.data(), values.size() * sizeof(values[0]));
  }

  // The hash of everything added so far.
  std::uint64_t Finish() const;

 private:
  void Mix(std::uint64_t word);
  std::uint64_t state_ = 0x9E3779B97F4A7C15ULL;
  std::uint64_t count_ = 0;
};

}  // namespace walk::nav
