#include "nav/cch/cch_rank_relax.h"

#include <algorithm>
#include <atomic>
#include <type_traits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace walk::nav {
namespace {

// Relaxes arc `arc` (weight `w`) from a label (cost `cost`, place `from`) into rank `head`'s.
template <typename W>
inline void RelaxOne(const CchRankLabels& to, double cost, W w, std::uint32_t arc,
                     std::uint32_t from, std::uint32_t head) {
  const std::uint32_t p = head;
  const double reached = cost + w;
  if (reached < to.cost[p]) {
    to.cost[p] = reached;
    to.arc[p] = arc;
    if (to.from != nullptr) to.from[p] = from;
  }
}

#if defined(__x86_64__)
// Four weights as doubles.
__attribute__((target("avx2"))) inline __m256d LoadFour(const float* w) {
  return _mm256_cvtps_pd(_mm_loadu_ps(w));
}
__attribute__((target("avx2"))) inline __m256d LoadFour(const double* w) {
  return _mm256_loadu_pd(w);
}

// Arcs first_arc .. first_arc + count - 1 (heads `head`, weights `w`) from one label, four at a
// time where their heads are four consecutive ranks (then four consecutive places), else one
// by one: the same sums (each weight widened to a double, then added) and comparisons as
// RelaxOne, and the arcs of one rank have distinct heads, so the same labels.
template <typename W>
__attribute__((target("avx2"))) void RelaxArcsAvx2(const CchRankLabels& to, double cost, const W* w,
                                                   const std::uint32_t* head, std::uint32_t count,
                                                   std::uint32_t first_arc, std::uint32_t from) {
  const __m256d c = _mm256_set1_pd(cost);
  const __m256i low_halves = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
  const __m128i from4 = _mm_set1_epi32(static_cast<int>(from));
  const __m128i steps = _mm_setr_epi32(0, 1, 2, 3);
  std::uint32_t y = 0;
  while (y + 4 <= count) {
    if (head[y + 3] - head[y] != 3) {  // heads ascend: 3 apart means consecutive
      RelaxOne(to, cost, w[y], first_arc + y, from, head[y]);
      ++y;
      continue;
    }
    const std::uint32_t p = head[y];
    const __m256d reached = _mm256_add_pd(c, LoadFour(w + y));
    const __m256d old = _mm256_loadu_pd(to.cost + p);
    const __m256d lower = _mm256_cmp_pd(reached, old, _CMP_LT_OQ);
    _mm256_storeu_pd(to.cost + p, _mm256_blendv_pd(old, reached, lower));
    // The four 64-bit lanes of the mask as four 32-bit lanes.
    const __m128i mask =
        _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(lower), low_halves));
    auto* arcs = reinterpret_cast<__m128i*>(to.arc + p);
    auto* froms = to.from != nullptr ? reinterpret_cast<__m128i*>(to.from + p) : nullptr;
    const __m128i arc4 = _mm_add_epi32(_mm_set1_epi32(static_cast<int>(first_arc + y)), steps);
    _mm_storeu_si128(arcs, _mm_blendv_epi8(_mm_loadu_si128(arcs), arc4, mask));
    if (froms != nullptr) {
      _mm_storeu_si128(froms, _mm_blendv_epi8(_mm_loadu_si128(froms), from4, mask));
    }
    y += 4;
  }
  for (; y < count; ++y) RelaxOne(to, cost, w[y], first_arc + y, from, head[y]);
}

// Eight weights as doubles.
__attribute__((target("avx512f,avx512vl"))) inline __m512d LoadEight(const float* w) {
  // Every lane, masked: GCC 12 warns of _mm512_cvtps_pd (maybe-uninitialized).
  return _mm512_maskz_cvtps_pd(0xFF, _mm256_loadu_ps(w));
}
__attribute__((target("avx512f,avx512vl"))) inline __m512d LoadEight(const double* w) {
  return _mm512_loadu_pd(w);
}

// RelaxArcsAvx2 eight at a time where eight heads are consecutive, else four, else one; the
// lanes that improve stored under a mask.
template <typename W>
__attribute__((target("avx512f,avx512vl"))) void RelaxArcsAvx512(
    const CchRankLabels& to, double cost, const W* w, const std::uint32_t* head,
    std::uint32_t count, std::uint32_t first_arc, std::uint32_t from) {
  const __m512d c8 = _mm512_set1_pd(cost);
  const __m256d c4 = _mm256_set1_pd(cost);
  const __m256i steps8 = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m128i steps4 = _mm_setr_epi32(0, 1, 2, 3);
  std::uint32_t y = 0;
  while (y + 4 <= count) {
    const std::uint32_t p = head[y];
    if (y + 8 <= count && head[y + 7] - p == 7) {
      const __m512d reached = _mm512_add_pd(c8, LoadEight(w + y));
      const __mmask8 lower = _mm512_cmp_pd_mask(reached, _mm512_loadu_pd(to.cost + p), _CMP_LT_OQ);
      _mm512_mask_storeu_pd(to.cost + p, lower, reached);
      _mm256_mask_storeu_epi32(
          to.arc + p, lower,
          _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(first_arc + y)), steps8));
      if (to.from != nullptr) {
        _mm256_mask_storeu_epi32(to.from + p, lower, _mm256_set1_epi32(static_cast<int>(from)));
      }
      y += 8;
    } else if (head[y + 3] - p == 3) {
      const __m256d reached = _mm256_add_pd(c4, LoadFour(w + y));
      const __mmask8 lower = _mm256_cmp_pd_mask(reached, _mm256_loadu_pd(to.cost + p), _CMP_LT_OQ);
      _mm256_mask_storeu_pd(to.cost + p, lower, reached);
      _mm_mask_storeu_epi32(to.arc + p, lower,
                            _mm_add_epi32(_mm_set1_epi32(static_cast<int>(first_arc + y)), steps4));
      if (to.from != nullptr) {
        _mm_mask_storeu_epi32(to.from + p, lower, _mm_set1_epi32(static_cast<int>(from)));
      }
      y += 4;
    } else {
      RelaxOne(to, cost, w[y], first_arc + y, from, p);
      ++y;
    }
  }
  for (; y < count; ++y) RelaxOne(to, cost, w[y], first_arc + y, from, head[y]);
}

// The tree query's step at one arc (head `head`, weights `up_w` and `down_w`): each direction
// carried on (kUp, kDown) lowers the head's label where cheaper, and a lowered head whose two
// costs now sum below *best is the best meeting so far.
template <bool kUp, bool kDown, typename W>
inline void MeetOne(const CchRankLabels (&to)[2], double up, W up_w, double down, W down_w,
                    std::uint32_t arc, std::uint32_t head, double* best, std::uint32_t* meet) {
  bool lowered = false;
  // One direction's label of the head, lowered to `from` + `w` where that is less.
  auto lower = [&](const CchRankLabels& labels, double from, W w) {
    const double reached = from + w;
    if (reached < labels.cost[head]) {
      labels.cost[head] = reached;
      labels.arc[head] = arc;
      lowered = true;
    }
  };
  if constexpr (kUp) lower(to[0], up, up_w);
  if constexpr (kDown) lower(to[1], down, down_w);
  if (lowered && to[0].cost[head] + to[1].cost[head] < *best) {
    *best = to[0].cost[head] + to[1].cost[head];
    *meet = head;
  }
}

#if defined(__x86_64__)
// One direction of eight arcs from a label of cost `cost` (weights `w`) into the labels of eight
// consecutive heads from `p` (their costs *costs, updated): the lanes that lower stored under a
// mask, which is returned.
template <typename W>
__attribute__((target("avx512f,avx512vl"))) inline __mmask8 LowerEight(const CchRankLabels& to,
                                                                       double cost, const W* w,
                                                                       std::uint32_t p,
                                                                       __m256i arcs,
                                                                       __m512d* costs) {
  const __m512d reached = _mm512_add_pd(_mm512_set1_pd(cost), LoadEight(w));
  const __mmask8 lower = _mm512_cmp_pd_mask(reached, *costs, _CMP_LT_OQ);
  *costs = _mm512_mask_blend_pd(lower, *costs, reached);
  _mm512_mask_storeu_pd(to.cost + p, lower, reached);
  _mm256_mask_storeu_epi32(to.arc + p, lower, arcs);
  return lower;
}

// MeetOne eight arcs at a time where their heads are eight consecutive ranks: the lanes that
// lower stored under masks, then the lowered heads' sums checked against *best in head order
// (as eight MeetOne find them: a head's costs only drop, so its final sum is the one that
// counts).
template <bool kUp, bool kDown, typename W>
__attribute__((target("avx512f,avx512vl"))) void MeetArcsAvx512(
    const CchRankLabels (&to)[2], double up, const W* up_w, double down, const W* down_w,
    const std::uint32_t* head, std::uint32_t count, std::uint32_t first_arc, double* best,
    std::uint32_t* meet) {
  const __m256i steps8 = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  std::uint32_t y = 0;
  while (y + 8 <= count) {
    const std::uint32_t p = head[y];
    if (head[y + 7] - p != 7) {
      MeetOne<kUp, kDown>(to, up, up_w[y], down, down_w[y], first_arc + y, p, best, meet);
      ++y;
      continue;
    }
    const __m256i arcs =
        _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(first_arc + y)), steps8);
    __m512d cost_up = _mm512_loadu_pd(to[0].cost + p);
    __m512d cost_down = _mm512_loadu_pd(to[1].cost + p);
    __mmask8 lowered = 0;
    if constexpr (kUp) lowered |= LowerEight(to[0], up, up_w + y, p, arcs, &cost_up);
    if constexpr (kDown) lowered |= LowerEight(to[1], down, down_w + y, p, arcs, &cost_down);
    const __m512d sums = _mm512_add_pd(cost_up, cost_down);
    const __mmask8 better =
        _mm512_mask_cmp_pd_mask(lowered, sums, _mm512_set1_pd(*best), _CMP_LT_OQ);
    if (better != 0) {  // rare: the lanes in head order, as one at a time
      alignas(64) double sum[8];
      _mm512_store_pd(sum, sums);
      for (unsigned m = better; m != 0; m &= m - 1) {
        const unsigned lane = static_cast<unsigned>(__builtin_ctz(m));
        if (sum[lane] < *best) {
          *best = sum[lane];
          *meet = p + lane;
        }
      }
    }
    y += 8;
  }
  for (; y < count; ++y) {
    MeetOne<kUp, kDown>(to, up, up_w[y], down, down_w[y], first_arc + y, head[y], best, meet);
  }
}
#endif

// LeastOverRankArcs's arcs (heads `head`, weights `w`), four at a time where their heads are
// four consecutive ranks, else one by one.
template <typename W>
__attribute__((target("avx2"))) double LeastOverArcsAvx2(const W* w, const std::uint32_t* head,
                                                         std::uint32_t count,
                                                         const double* labels) {
  __m256d least4 = _mm256_set1_pd(kInfCost);
  double least = kInfCost;
  std::uint32_t y = 0;
  while (y + 4 <= count) {
    if (head[y + 3] - head[y] != 3) {  // heads ascend: 3 apart means consecutive
      least = std::min(least, w[y] + labels[head[y]]);
      ++y;
      continue;
    }
    least4 =
        _mm256_min_pd(least4, _mm256_add_pd(LoadFour(w + y), _mm256_loadu_pd(labels + head[y])));
    y += 4;
  }
  for (; y < count; ++y) least = std::min(least, w[y] + labels[head[y]]);
  alignas(32) double lanes4[4];
  _mm256_store_pd(lanes4, least4);
  for (const double l : lanes4) least = std::min(least, l);
  return least;
}

// Eight weights plus the labels of eight consecutive ranks.
template <typename W>
__attribute__((target("avx512f,avx512vl"))) inline __m512d SumEight(const W* w,
                                                                    const double* labels) {
  return _mm512_add_pd(LoadEight(w), _mm512_loadu_pd(labels));
}

// The lanes' minima, masked: GCC 12 warns of _mm512_min_pd (maybe-uninitialized).
__attribute__((target("avx512f,avx512vl"))) inline __m512d Min8(__m512d a, __m512d b) {
  return _mm512_mask_min_pd(a, 0xFF, a, b);
}

// LeastOverArcsAvx2 eight at a time where eight heads are consecutive (sixteen, into two
// minima, so that one lane's minimum need not wait for the last), else four, else one.
template <typename W>
__attribute__((target("avx512f,avx512vl"))) double LeastOverArcsAvx512(const W* w,
                                                                       const std::uint32_t* head,
                                                                       std::uint32_t count,
                                                                       const double* labels) {
  __m512d least8 = _mm512_set1_pd(kInfCost), other8 = least8;
  __m256d least4 = _mm256_set1_pd(kInfCost);
  double least = kInfCost;
  std::uint32_t y = 0;
  while (y + 4 <= count) {
    const std::uint32_t p = head[y];
    if (y + 16 <= count && head[y + 15] - p == 15) {
      least8 = Min8(least8, SumEight(w + y, labels + p));
      other8 = Min8(other8, SumEight(w + y + 8, labels + p + 8));
      y += 16;
    } else if (y + 8 <= count && head[y + 7] - p == 7) {
      least8 = Min8(least8, SumEight(w + y, labels + p));
      y += 8;
    } else if (head[y + 3] - p == 3) {
      least4 = _mm256_min_pd(least4, _mm256_add_pd(LoadFour(w + y), _mm256_loadu_pd(labels + p)));
      y += 4;
    } else {
      least = std::min(least, w[y] + labels[p]);
      ++y;
    }
  }
  for (; y < count; ++y) least = std::min(least, w[y] + labels[head[y]]);
  // Stored rather than reduced in registers: GCC 12's reduction reads undefined lanes.
  alignas(64) double lanes8[8];
  _mm512_store_pd(lanes8, Min8(least8, other8));
  for (const double l : lanes8) least = std::min(least, l);
  alignas(32) double lanes4[4];
  _mm256_store_pd(lanes4, least4);
  for (const double l : lanes4) least = std::min(least, l);
  return least;
}

unsigned LanesHere() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")) return 8;
  return __builtin_cpu_supports("avx2") ? 4 : 1;
}
#else
template <typename W>
void RelaxArcsAvx2(const CchRankLabels& to, double cost, const W* w, const std::uint32_t* head,
                   std::uint32_t count, std::uint32_t first_arc, std::uint32_t from) {}
template <typename W>
void RelaxArcsAvx512(const CchRankLabels& to, double cost, const W* w, const std::uint32_t* head,
                     std::uint32_t count, std::uint32_t first_arc, std::uint32_t from) {}
template <typename W>
double LeastOverArcsAvx2(const W* w, const std::uint32_t* head, std::uint32_t count,
                         const double* labels) {
  return kInfCost;
}
template <typename W>
double LeastOverArcsAvx512(const W* w, const std::uint32_t* head, std::uint32_t count,
                           const double* labels) {
  return kInfCost;
}
unsigned LanesHere() { return 1; }
#endif

std::atomic<unsigned> lanes{LanesHere()};

}  // namespace

template <typename W>
void RelaxRankArcs(const Cch& cch, std::uint32_t r, double cost, const W* w,
                   const CchRankLabels& to) {
  const std::uint32_t begin = cch.first_out()[r], count = cch.first_out()[r + 1] - begin;
  const std::uint32_t* const head = cch.head().data() + begin;
  switch (lanes.load(std::memory_order_relaxed)) {
    case 8:
      RelaxArcsAvx512(to, cost, w, head, count, begin, r);
      break;
    case 4:
      RelaxArcsAvx2(to, cost, w, head, count, begin, r);
      break;
    default:
      for (std::uint32_t y = 0; y < count; ++y) RelaxOne(to, cost, w[y], begin + y, r, head[y]);
  }
}

template void RelaxRankArcs<float>(const Cch&, std::uint32_t, double, const float*,
                                   const CchRankLabels&);
template void RelaxRankArcs<double>(const Cch&, std::uint32_t, double, const double*,
                                    const CchRankLabels&);

template <typename W>
void RelaxRankArcsMeeting(const Cch& cch, std::uint32_t r, double up, const W* up_w, double down,
                          const W* down_w, const CchRankLabels (&to)[2], double* best,
                          std::uint32_t* meet) {
  const std::uint32_t begin = cch.first_out()[r], count = cch.first_out()[r + 1] - begin;
  const std::uint32_t* const head = cch.head().data() + begin;
  auto run = [&](auto up_on, auto down_on) {
    constexpr bool kUp = decltype(up_on)::value, kDown = decltype(down_on)::value;
#if defined(__x86_64__)
    if (lanes.load(std::memory_order_relaxed) == 8) {
      MeetArcsAvx512<kUp, kDown>(to, up, up_w, down, down_w, head, count, begin, best, meet);
      return;
    }
#endif
    for (std::uint32_t y = 0; y < count; ++y) {
      MeetOne<kUp, kDown>(to, up, up_w[y], down, down_w[y], begin + y, head[y], best, meet);
    }
  };
  if (!(down < kInfCost)) return run(std::true_type{}, std::false_type{});
  if (!(up < kInfCost)) return run(std::false_type{}, std::true_type{});
  run(std::true_type{}, std::true_type{});
}

template void RelaxRankArcsMeeting<float>(const Cch&, std::uint32_t, double, const float*, double,
                                          const float*, const CchRankLabels (&)[2], double*,
                                          std::uint32_t*);
template void RelaxRankArcsMeeting<double>(const Cch&, std::uint32_t, double, const double*, double,
                                           const double*, const CchRankLabels (&)[2], double*,
                                           std::uint32_t*);

template <typename W>
double LeastOverRankArcs(const Cch& cch, std::uint32_t r, const W* w, const double* labels) {
  const std::uint32_t begin = cch.first_out()[r], count = cch.first_out()[r + 1] - begin;
  const std::uint32_t* const head = cch.head().data() + begin;
  const unsigned width = lanes.load(std::memory_order_relaxed);
  if (width == 8) return LeastOverArcsAvx512(w, head, count, labels);
  if (width == 4) return LeastOverArcsAvx2(w, head, count, labels);
  double least = kInfCost;
  for (std::uint32_t y = 0; y < count; ++y) least = std::min(least, w[y] + labels[head[y]]);
  return least;
}

template double LeastOverRankArcs<float>(const Cch&, std::uint32_t, const float*, const double*);
template double LeastOverRankArcs<double>(const Cch&, std::uint32_t, const double*, const double*);

unsigned UseRankRelaxLanes(unsigned most) {
  const unsigned here = LanesHere();
  lanes.store(most >= 8 ? here : most >= 4 ? std::min(here, 4u) : 1u, std::memory_order_relaxed);
  return lanes.load(std::memory_order_relaxed);
}

}  // namespace walk::nav
