// The demo world's deterministic randomness: splitmix64, seeds salted by purpose, and value noise
// over a hashed lattice. Only integer hashing, +, -, *, /, sqrt and floor reach the geometry:
// those are exact (IEEE) on every machine, unlike std:: distributions or sin and exp.
// Internal to nav/demo.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace walk::nav::demo {

// The finalizer of splitmix64.
inline std::uint64_t Mix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// A seed for one purpose, derived from the world's seed.
inline std::uint64_t Salt(std::uint64_t seed, std::uint64_t salt) {
  return Mix64(seed ^ Mix64(salt * 0x632BE59BD9B4E019ULL + 1));
}

// splitmix64.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t Next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }  // [0, 1)
  double Uniform(double lo, double hi) { return lo + (hi - lo) * Unit(); }
  int Int(int lo, int hi) {  // [lo, hi]
    return lo + static_cast<int>(Next() % static_cast<std::uint64_t>(hi - lo + 1));
  }

 private:
  std::uint64_t state_;
};

// A hash of lattice point (ix, iy) under `seed`, in [0, 1).
inline double Hash01(std::uint64_t seed, std::int64_t ix, std::int64_t iy) {
  const std::uint64_t h = Mix64(seed ^ (static_cast<std::uint64_t>(ix) * 0x9E3779B97F4A7C15ULL) ^
                                (static_cast<std::uint64_t>(iy) * 0xC2B2AE3D27D4EB4FULL));
  return static_cast<double>(h >> 11) * 0x1.0p-53;
}

inline double Smoothstep(double t) {
  t = std::clamp(t, 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}

// Value noise in [-1, 1] with lattice spacing 1, smoothstep-interpolated.
inline double Noise(std::uint64_t seed, double x, double y) {
  const double fx = std::floor(x), fy = std::floor(y);
  const auto ix = static_cast<std::int64_t>(fx);
  const auto iy = static_cast<std::int64_t>(fy);
  const double sx = Smoothstep(x - fx), sy = Smoothstep(y - fy);
  const double a = Hash01(seed, ix, iy), b = Hash01(seed, ix + 1, iy);
  const double c = Hash01(seed, ix, iy + 1), d = Hash01(seed, ix + 1, iy + 1);
  const double top = a + (b - a) * sx;
  const double bottom = c + (d - c) * sx;
  return 2.0 * (top + (bottom - top) * sy) - 1.0;
}

}  // namespace walk::nav::demo
