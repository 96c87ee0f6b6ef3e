// What the fuzz targets share: the check that stops a target on a broken promise, a reader of
// raw input bytes, and the small world the graph, layers and request targets work on.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "nav/grid/grid.h"

namespace walk::fuzz {

// Stops the run (abort: libFuzzer keeps the input as a crash) when `condition` is false: a reader
// broke a promise its header makes (an accepted file that is not what it says, a refusal with
// another code, a round trip that changes the bytes).
#define WALK_FUZZ_CHECK(condition)                                                            \
  do {                                                                                        \
    if (!(condition)) {                                                                       \
      std::fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                           \
    }                                                                                         \
  } while (false)

// The input as text.
inline std::string_view AsText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// True when `status` is OK or has `code`: a reader refuses with the code its header names.
inline bool OkOr(const absl::Status& status, absl::StatusCode code) {
  return status.ok() || status.code() == code;
}

// Takes typed values off the front of the input; zeros once it runs out.
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  template <typename T>
  T Take() {
    T value{};
    const std::size_t n = std::min(sizeof(T), size_);
    std::memcpy(&value, data_, n);
    data_ += n;
    size_ -= n;
    return value;
  }
  // Up to `most` bytes as a string, its length taken first.
  std::string TakeString(std::size_t most) {
    const std::size_t n = std::min<std::size_t>({Take<std::uint8_t>(), most, size_});
    std::string text(reinterpret_cast<const char*>(data_), n);
    data_ += n;
    size_ -= n;
    return text;
  }
  std::size_t left() const { return size_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
};

// The world the graph, layers and request targets work on: tests/fuzz/fuzz_world.map (96 x 80
// columns, walls, trees, a lake) imported as walkgrid import-movingai imports it, so the seeds
// `walkgrid prepare` writes for it match (tests/fuzz/make_seeds). Built once.
const nav::World& FuzzWorld();

}  // namespace walk::fuzz
