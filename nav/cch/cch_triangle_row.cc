#include "nav/cch/cch_triangle_row.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <atomic>

namespace walk::nav {
namespace {

// The arrays in locals, so that the compiler keeps them in registers across the stores.
template <typename W>
struct Row {
  const std::uint32_t* __restrict head;
  const std::uint32_t* __restrict position;
  W* __restrict forward;
  W* __restrict backward;
  std::uint32_t* __restrict forward_via;  // by arc less via_first
  std::uint32_t* __restrict backward_via;
  std::uint32_t via_first;
  W a_to_v, v_to_a;
  std::uint32_t middle;

  // Branches, not conditional moves: storing on every triangle costs more than the branches'
  // mispredictions, though one triangle in six improves a cost.
  [[gnu::always_inline]] inline void Relax(std::uint32_t y, std::uint32_t y_end) const {
    for (; y < y_end; ++y) {
      const std::uint32_t z = position[head[y]];
      const W a_to_b = a_to_v + forward[y];
      if (a_to_b < forward[z]) {
        forward[z] = a_to_b;
        forward_via[z - via_first] = middle;
      }
      const W b_to_a = backward[y] + v_to_a;
      if (b_to_a < backward[z]) {
        backward[z] = b_to_a;
        backward_via[z - via_first] = middle;
      }
    }
  }
};

template <typename W>
Row<W> RowOf(const TriangleArrays<W>& t, W a_to_v, W v_to_a, std::uint32_t middle) {
  return Row<W>{t.head,         t.position,  t.forward, t.backward, t.forward_via,
                t.backward_via, t.via_first, a_to_v,    v_to_a,     middle};
}

#if defined(__x86_64__)
#define WALK_AVX512 __attribute__((target("avx512f,avx512vl")))

// AVX-512 registers of costs and their masks: eight doubles or four, sixteen floats or eight.
struct EightDoubles {
  static constexpr std::uint32_t kLanes = 8;
  WALK_AVX512 static __m512d Set(double x) { return _mm512_set1_pd(x); }
  WALK_AVX512 static __m512d Load(const double* p) { return _mm512_loadu_pd(p); }
  WALK_AVX512 static __m512d Add(__m512d a, __m512d b) { return _mm512_add_pd(a, b); }
  WALK_AVX512 static __mmask8 Less(__m512d a, __m512d b) {
    return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ);
  }
  WALK_AVX512 static void Store(double* p, __mmask8 m, __m512d x) {
    _mm512_mask_storeu_pd(p, m, x);
  }
  WALK_AVX512 static void StoreVia(std::uint32_t* p, __mmask8 m, std::uint32_t via) {
    _mm256_mask_storeu_epi32(p, m, _mm256_set1_epi32(static_cast<int>(via)));
  }
};
struct FourDoubles {
  static constexpr std::uint32_t kLanes = 4;
  WALK_AVX512 static __m256d Set(double x) { return _mm256_set1_pd(x); }
  WALK_AVX512 static __m256d Load(const double* p) { return _mm256_loadu_pd(p); }
  WALK_AVX512 static __m256d Add(__m256d a, __m256d b) { return _mm256_add_pd(a, b); }
  WALK_AVX512 static __mmask8 Less(__m256d a, __m256d b) {
    return _mm256_cmp_pd_mask(a, b, _CMP_LT_OQ);
  }
  WALK_AVX512 static void Store(double* p, __mmask8 m, __m256d x) {
    _mm256_mask_storeu_pd(p, m, x);
  }
  WALK_AVX512 static void StoreVia(std::uint32_t* p, __mmask8 m, std::uint32_t via) {
    _mm_mask_storeu_epi32(p, m, _mm_set1_epi32(static_cast<int>(via)));
  }
};
struct SixteenFloats {
  static constexpr std::uint32_t kLanes = 16;
  WALK_AVX512 static __m512 Set(float x) { return _mm512_set1_ps(x); }
  WALK_AVX512 static __m512 Load(const float* p) { return _mm512_loadu_ps(p); }
  WALK_AVX512 static __m512 Add(__m512 a, __m512 b) { return _mm512_add_ps(a, b); }
  WALK_AVX512 static __mmask16 Less(__m512 a, __m512 b) {
    return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ);
  }
  WALK_AVX512 static void Store(float* p, __mmask16 m, __m512 x) { _mm512_mask_storeu_ps(p, m, x); }
  WALK_AVX512 static void StoreVia(std::uint32_t* p, __mmask16 m, std::uint32_t via) {
    _mm512_mask_storeu_epi32(p, m, _mm512_set1_epi32(static_cast<int>(via)));
  }
};
struct EightFloats {
  static constexpr std::uint32_t kLanes = 8;
  WALK_AVX512 static __m256 Set(float x) { return _mm256_set1_ps(x); }
  WALK_AVX512 static __m256 Load(const float* p) { return _mm256_loadu_ps(p); }
  WALK_AVX512 static __m256 Add(__m256 a, __m256 b) { return _mm256_add_ps(a, b); }
  WALK_AVX512 static __mmask8 Less(__m256 a, __m256 b) {
    return _mm256_cmp_ps_mask(a, b, _CMP_LT_OQ);
  }
  WALK_AVX512 static void Store(float* p, __mmask8 m, __m256 x) { _mm256_mask_storeu_ps(p, m, x); }
  WALK_AVX512 static void StoreVia(std::uint32_t* p, __mmask8 m, std::uint32_t via) {
    _mm256_mask_storeu_epi32(p, m, _mm256_set1_epi32(static_cast<int>(via)));
  }
};

// The triangles y .. y + Lanes::kLanes - 1, whose z are z .. z + kLanes - 1: plain loads, and
// masked stores of the lanes that improve (the same sums and comparisons as one by one).
template <typename Lanes, typename W>
WALK_AVX512 inline void RelaxBlock(const Row<W>& row, std::uint32_t y, std::uint32_t z) {
  const auto a_to_b = Lanes::Add(Lanes::Set(row.a_to_v), Lanes::Load(row.forward + y));
  const auto b_to_a = Lanes::Add(Lanes::Load(row.backward + y), Lanes::Set(row.v_to_a));
  const auto forward_better = Lanes::Less(a_to_b, Lanes::Load(row.forward + z));
  const auto backward_better = Lanes::Less(b_to_a, Lanes::Load(row.backward + z));
  Lanes::Store(row.forward + z, forward_better, a_to_b);
  Lanes::StoreVia(row.forward_via + (z - row.via_first), forward_better, row.middle);
  Lanes::Store(row.backward + z, backward_better, b_to_a);
  Lanes::StoreVia(row.backward_via + (z - row.via_first), backward_better, row.middle);
}

// A block of Wide (else Half) triangles at a time where their z are consecutive arcs of a (v's
// arcs above a are a subset of a's, sorted alike, so a block is consecutive when its ends'
// positions are its length less one apart). Elsewhere two triangles go one by one before a run
// is looked for again (gathering and scattering cost more than one by one).
template <typename Wide, typename Half, typename W>
WALK_AVX512 void RelaxRowVector(const Row<W> row, std::uint32_t y, const std::uint32_t y_end) {
  while (y + Half::kLanes <= y_end) {
    const std::uint32_t z = row.position[row.head[y]];
    if (y + Wide::kLanes <= y_end &&
        row.position[row.head[y + Wide::kLanes - 1]] == z + Wide::kLanes - 1) {
      RelaxBlock<Wide>(row, y, z);
      y += Wide::kLanes;
    } else if (row.position[row.head[y + Half::kLanes - 1]] == z + Half::kLanes - 1) {
      RelaxBlock<Half>(row, y, z);
      y += Half::kLanes;
    } else {
      row.Relax(y, y + 2);
      y += 2;
    }
  }
  row.Relax(y, y_end);
}

void RelaxRowAvx512(const Row<double> row, std::uint32_t y, const std::uint32_t y_end) {
  RelaxRowVector<EightDoubles, FourDoubles>(row, y, y_end);
}
void RelaxRowAvx512(const Row<float> row, std::uint32_t y, const std::uint32_t y_end) {
  RelaxRowVector<SixteenFloats, EightFloats>(row, y, y_end);
}

#undef WALK_AVX512

bool HasAvx512() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
}
#else
template <typename W>
void RelaxRowAvx512(const Row<W> row, std::uint32_t y, const std::uint32_t y_end) {
  row.Relax(y, y_end);
}
bool HasAvx512() { return false; }
#endif

std::atomic<bool> vector_on{HasAvx512()};

}  // namespace

void RelaxTriangleRow(const TriangleArrays<double>& arrays, std::uint32_t y_begin,
                      std::uint32_t y_end, double a_to_v, double v_to_a, std::uint32_t middle) {
  if (vector_on.load(std::memory_order_relaxed)) {
    RelaxRowAvx512(RowOf(arrays, a_to_v, v_to_a, middle), y_begin, y_end);
  } else {
    RowOf(arrays, a_to_v, v_to_a, middle).Relax(y_begin, y_end);
  }
}

void RelaxTriangleRow(const TriangleArrays<float>& arrays, std::uint32_t y_begin,
                      std::uint32_t y_end, float a_to_v, float v_to_a, std::uint32_t middle) {
  if (vector_on.load(std::memory_order_relaxed)) {
    RelaxRowAvx512(RowOf(arrays, a_to_v, v_to_a, middle), y_begin, y_end);
  } else {
    RowOf(arrays, a_to_v, v_to_a, middle).Relax(y_begin, y_end);
  }
}

bool UseVectorTriangles(bool on) {
  vector_on.store(on && HasAvx512(), std::memory_order_relaxed);
  return VectorTriangles();
}

bool VectorTriangles() { return vector_on.load(std::memory_order_relaxed); }

}  // namespace walk::nav
