// Converting a caller's number to an integer cell, column or index. A bare cast of a double that
// is NaN or past the integer's range is undefined behaviour (seen: a blocker at x = 1e300 named
// cell -2147483648), so every such conversion goes through one of these.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

namespace walk::nav {

// floor(value) as T, or nothing when value is NaN, infinite or floors outside T's range.
template <typename T>
std::optional<T> FloorWithin(double value) {
  static_assert(std::is_integral_v<T>);
  const double f = std::floor(value);
  // T's lowest value and 2^digits (one past its highest) are exact doubles.
  const double lowest = static_cast<double>(std::numeric_limits<T>::min());
  const double past_highest = std::ldexp(1.0, std::numeric_limits<T>::digits);
  if (!(f >= lowest && f < past_highest)) return std::nullopt;
  return static_cast<T>(f);
}

// floor(value) as T, clamped to T's range (NaN to T's lowest): for callers that only compare the
// result with a smaller range, where any value past it means "off the map".
template <typename T>
T SaturatingFloor(double value) {
  if (std::optional<T> v = FloorWithin<T>(value)) return *v;
  return value > 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
}

// floor(value) clamped to [-limit, limit] (NaN to -limit), as an int64: a frame column whose
// offsets can still be added without overflow.
inline std::int64_t ClampedFloor(double value, std::int64_t limit) {
  const double f = std::floor(value);
  const double bound = static_cast<double>(limit);
  if (!(f > -bound)) return -limit;
  if (f > bound) return limit;
  return static_cast<std::int64_t>(f);
}

}  // namespace walk::nav
