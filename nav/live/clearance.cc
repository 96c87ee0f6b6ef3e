#include "nav/live/clearance.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace walk::nav::live {
namespace {

// max(2a − 1, 0)²: the term of a closed cell a cells away along one axis, as 4·d².
constexpr std::uint32_t AxisTerm(std::int32_t a) {
  return a <= 0 ? 0 : static_cast<std::uint32_t>((2 * a - 1) * (2 * a - 1));
}
static_assert(AxisTerm(kClearanceReach + 1) > kClearanceCap,
              "a closed cell beyond the reach cannot lower a capped clearance");

absl::Status CheckLength(double value, const char* field) {
  if (std::isfinite(value) && value >= 0.0 && value <= kMaxBodyRadius) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      field, ": ", value, " is not a length in cells within [0, ", kMaxBodyRadius, "]"));
}

// The horizontal terms of map row `y` for columns r.x0 .. r.x1 - 1 into `out`: AxisTerm of the
// distance to the nearest closed column within the reach (capped), every column off the map
// closed. Written as straight-line loops over bytes, so they vectorize: `closed` marks each column
// within the reach 0 (closed) or kFar, `near` takes the minimum of closed[x + dx] + |dx|.
void RowTerms(const std::uint8_t* flags, std::uint8_t open_bit, std::int32_t width,
              std::int32_t height, std::int32_t y, const CellRect& r, Clearance::Scratch* scratch,
              std::uint16_t* __restrict out) {
  const std::int32_t n = r.x1 - r.x0;
  if (y < 0 || y >= height) {
    std::fill_n(out, n, std::uint16_t{0});
    return;
  }
  constexpr std::uint8_t kFar = kClearanceReach + 1;
  const std::uint8_t* row = flags + static_cast<std::size_t>(y) * width;
  const std::int32_t x0 = r.x0 - kClearanceReach, span = n + 2 * kClearanceReach;
  scratch->closed.resize(static_cast<std::size_t>(span));
  scratch->near.resize(static_cast<std::size_t>(n));
  std::uint8_t* __restrict closed = scratch->closed.data();
  std::uint8_t* __restrict near = scratch->near.data();
  const std::int32_t lo = std::max(0, -x0), hi = std::min(span, width - x0);  // on the map
  std::fill_n(closed, lo, std::uint8_t{0});
  for (std::int32_t k = lo; k < hi; ++k) closed[k] = (row[x0 + k] & open_bit) ? kFar : 0;
  if (hi < span) std::fill_n(closed + std::max(hi, 0), span - std::max(hi, 0), std::uint8_t{0});
  std::fill_n(near, n, kFar);
  for (std::int32_t j = 0; j <= 2 * kClearanceReach; ++j) {
    const std::uint8_t step =
        static_cast<std::uint8_t>(j < kClearanceReach ? kClearanceReach - j : j - kClearanceReach);
    const std::uint8_t* __restrict c = closed + j;
    for (std::int32_t k = 0; k < n; ++k) {
      const std::uint8_t v = static_cast<std::uint8_t>(c[k] + step);
      near[k] = v < near[k] ? v : near[k];
    }
  }
  for (std::int32_t k = 0; k < n; ++k) {
    const std::uint16_t a = near[k];
    const std::uint16_t term = a == 0 ? 0 : static_cast<std::uint16_t>((2 * a - 1) * (2 * a - 1));
    out[k] = term < kClearanceCap ? term : kClearanceCap;
  }
}

// True when every cell of `r` is open to both passabilities or to neither.
bool SameForBoth(const std::uint8_t* flags, std::int32_t width, const CellRect& r) {
  for (std::int32_t y = r.y0; y < r.y1; ++y) {
    const std::uint8_t* row = flags + static_cast<std::size_t>(y) * width;
    std::uint8_t differ = 0;
    for (std::int32_t x = r.x0; x < r.x1; ++x) differ |= (row[x] ^ (row[x] >> 1)) & 1;
    if (differ != 0) return false;
  }
  return true;
}

// o[k] = min(o[k], h[k] + t): one row of terms t rows away. Signed 16-bit (every value is at most
// 2 · kClearanceCap), so SSE2's signed minimum applies.
void MinPlus(std::int16_t* __restrict o, const std::int16_t* __restrict h, std::int16_t t,
             std::int32_t n) {
  for (std::int32_t k = 0; k < n; ++k) {
    const std::int16_t v = static_cast<std::int16_t>(h[k] + t);
    o[k] = v < o[k] ? v : o[k];
  }
}

}  // namespace

absl::Status ValidateBody(double radius, double half_width) {
  if (absl::Status s = CheckLength(radius, "radius"); !s.ok()) return s;
  return CheckLength(half_width, "formation_half_width");
}

BodyClass ClassifyBody(double radius, double half_width) {
  constexpr double kSlack = 1e-9;  // 4·0.5² must stay 1, not round up to 2
  BodyClass body;
  body.need = static_cast<std::uint16_t>(std::max(0.0, std::ceil(4.0 * radius * radius - kSlack)));
  body.half_width =
      static_cast<std::uint16_t>(std::max(0.0, std::ceil(half_width * kHalfWidthSteps - kSlack)));
  return body;
}

std::uint32_t OverlapPrice(std::uint16_t clearance4, std::uint16_t half_width) {
  if (half_width == 0) return 0;
  const double w = static_cast<double>(half_width) / kHalfWidthSteps;
  const double d = std::sqrt(static_cast<double>(clearance4)) / 2.0;
  if (d >= w) return 0;
  return static_cast<std::uint32_t>(std::lround(kOverlapCost * (w - d) / w));
}

void FillOverlapTable(std::uint16_t half_width, std::uint8_t* table) {
  for (std::uint32_t v = 0; v <= kClearanceCap; ++v) {
    table[v] = static_cast<std::uint8_t>(OverlapPrice(static_cast<std::uint16_t>(v), half_width));
  }
}

void Clearance::Resize(std::int32_t width, std::int32_t height) {
  width_ = width;
  height_ = height;
  for (std::vector<std::uint16_t>& v : values_) {
    v.assign(static_cast<std::size_t>(width) * height, 0);
  }
}

void Clearance::Compute(const std::uint8_t* flags, std::uint8_t open_bit, std::int32_t width,
                        std::int32_t height, const CellRect& r, std::uint16_t* out,
                        Scratch* scratch) {
  if (r.empty()) return;
  // Rows are computed 16 columns at a time, so a small block's loops have no scalar tails: the
  // padding columns (closed where they lie off the map) are computed and dropped.
  const std::int32_t n = r.x1 - r.x0;
  const std::int32_t padded = (n + 15) / 16 * 16;
  const CellRect wide{r.x0, r.y0, r.x0 + padded, r.y1};
  const std::int32_t rows = r.y1 - r.y0 + 2 * kClearanceReach;
  scratch->terms.resize(static_cast<std::size_t>(rows) * padded);
  scratch->row.resize(static_cast<std::size_t>(padded));
  for (std::int32_t k = 0; k < rows; ++k) {
    RowTerms(flags, open_bit, width, height, r.y0 - kClearanceReach + k, wide, scratch,
             scratch->terms.data() + static_cast<std::size_t>(k) * padded);
  }
  // A signed view (an unsigned type may be read through its signed twin): see MinPlus.
  const std::int16_t* terms = reinterpret_cast<const std::int16_t*>(scratch->terms.data());
  std::int16_t* o = scratch->row.data();
  // Map row y's window of terms starts at scratch row y - r.y0 (map row y - kClearanceReach).
  for (std::int32_t y = r.y0; y < r.y1; ++y) {
    std::fill_n(o, padded, static_cast<std::int16_t>(kClearanceCap));
    for (std::int32_t dy = -kClearanceReach; dy <= kClearanceReach; ++dy) {
      const std::int16_t t = static_cast<std::int16_t>(AxisTerm(dy < 0 ? -dy : dy));
      MinPlus(o, terms + static_cast<std::size_t>(y - r.y0 + kClearanceReach + dy) * padded, t,
              padded);
    }
    std::copy_n(o, n, out + static_cast<std::size_t>(y) * width + r.x0);
  }
}

void Clearance::ComputeAll(const std::uint8_t* flags) {
  Update(flags, CellRect{0, 0, width_, height_});
}

void Clearance::Update(const std::uint8_t* flags, const CellRect& changed) {
  const CellRect all{0, 0, width_, height_};
  const CellRect r = Intersect(Expand(changed, kClearanceReach), all);
  Compute(flags, 0x01, width_, height_, r, values_[0].data(), &scratch_);  // kLightOpen
  // Without forest within the reach of `r` both passabilities see the same closed cells.
  if (SameForBoth(flags, width_, Intersect(Expand(r, kClearanceReach), all))) {
    for (std::int32_t y = r.y0; y < r.y1; ++y) {
      const std::size_t at = static_cast<std::size_t>(y) * width_ + r.x0;
      std::copy_n(values_[0].data() + at, r.x1 - r.x0, values_[1].data() + at);
    }
  } else {
    Compute(flags, 0x02, width_, height_, r, values_[1].data(), &scratch_);  // kHeavyOpen
  }
}

std::size_t Clearance::MemoryBytes() const {
  std::size_t bytes = scratch_.terms.capacity() * sizeof(std::uint16_t) +
                      scratch_.closed.capacity() + scratch_.near.capacity() +
                      scratch_.row.capacity() * sizeof(std::int16_t);
  for (const std::vector<std::uint16_t>& v : values_) bytes += v.capacity() * sizeof(std::uint16_t);
  return bytes;
}

}  // namespace walk::nav::live
