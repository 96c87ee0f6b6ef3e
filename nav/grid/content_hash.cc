#include "nav/grid/content_hash.h"

#include <cstring>

namespace walk::nav {
namespace {

// The finalizer of splitmix64: a strong 64-bit mixer.
std::uint64_t Avalanche(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBULL;
  x ^= x >> 31;
  return x;
}

}  // namespace

void ContentHasher::Mix(std::uint64_t word) {
  state_ = Avalanche(state_ ^ (word + 0x9E3779B97F4A7C15ULL * ++count_));
}

void ContentHasher::AddU64(std::uint64_t value) { Mix(value); }

void ContentHasher::AddDouble(double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  Mix(bits);
}

void ContentHasher::AddString(std::string_view text) {
  AddU64(text.size());
  AddBytes(text.data(), text.size());
}

void ContentHasher::AddBytes(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, bytes + i, 8);
    Mix(word);
  }
  if (i < size) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes + i, size - i);
    Mix(word ^ (static_cast<std::uint64_t>(size - i) << 56));
  }
}

std::uint64_t ContentHasher::Finish() const { return Avalanche(state_ ^ count_); }

}  // namespace walk::nav
