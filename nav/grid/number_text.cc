#include "nav/grid/number_text.h"

#include <charconv>
#include <cmath>
#include <cstdint>

namespace walk::nav {

std::string NumberText(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char text[64];
  if (value == std::floor(value) && std::abs(value) < 1e15) {
    const auto [end, error] =
        std::to_chars(text, text + sizeof text, static_cast<std::int64_t>(value));
    return std::string(text, end);
  }
  const auto [end, error] = std::to_chars(text, text + sizeof text, value);
  return std::string(text, end);
}

std::string NumberText(float value) {
  if (std::isnan(value) || std::isinf(value) ||
      (value == std::floor(value) && std::abs(value) < 1e15f)) {
    return NumberText(static_cast<double>(value));
  }
  char text[64];
  const auto [end, error] = std::to_chars(text, text + sizeof text, value);
  return std::string(text, end);
}

}  // namespace walk::nav
