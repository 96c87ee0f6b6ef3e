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
  std::uint32_t* __restrict forward_via;
  std::uint32_t* __restrict backward_via;
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
        forward_via[z] = middle;
      }
      const W b_to_a = backward[y] + v_to_a;
      if (b_to_a < backward[z]) {
        backward[z] = b_to_a;
        backward_via[z] = middle;
      }
    }
  }
};

template <typename W>
Row<W> RowOf(const TriangleArrays<W>& t, W a_to_v, W v_to_a, std::uint32_t middle) {
  return Row<W>{t.head,         t.position, t.forward, t.backward, t.forward_via,
                t.backward_via, a_to_v,     v_to_a,    middle};
}

#if defined(__x86_64__)
// Eight triangles at a time where their eight z are consecutive arcs of a (v's arcs above a
// are a subset of a's, sorted alike, so a block is consecutive when its ends are seven apart):
// plain loads, and masked stores of the lanes that improve. Elsewhere two triangles go one by
// one before a run is looked for again (gathering and scattering cost more than one by one).
__attribute__((target("avx512f,avx512vl"))) void RelaxRowAvx512(const Row<double> row,
                                                                std::uint32_t y,
                                                                const std::uint32_t y_end) {
  const __m512d av = _mm512_set1_pd(row.a_to_v);
  const __m512d va = _mm512_set1_pd(row.v_to_a);
  const __m256i via = _mm256_set1_epi32(static_cast<int>(row.middle));
  while (y + 8 <= y_end) {
    const std::uint32_t z = row.position[row.head[y]];
    if (row.position[row.head[y + 7]] != z + 7) {
      if (row.position[row.head[y + 3]] != z + 3) {
        row.Relax(y, y + 2);
        y += 2;
        continue;
      }
      const __m256d a_to_b =
          _mm256_add_pd(_mm256_set1_pd(row.a_to_v), _mm256_loadu_pd(row.forward + y));
      const __m256d b_to_a =
          _mm256_add_pd(_mm256_loadu_pd(row.backward + y), _mm256_set1_pd(row.v_to_a));
      const __mmask8 forward_better =
          _mm256_cmp_pd_mask(a_to_b, _mm256_loadu_pd(row.forward + z), _CMP_LT_OQ);
      const __mmask8 backward_better =
          _mm256_cmp_pd_mask(b_to_a, _mm256_loadu_pd(row.backward + z), _CMP_LT_OQ);
      _mm256_mask_storeu_pd(row.forward + z, forward_better, a_to_b);
      _mm_mask_storeu_epi32(row.forward_via + z, forward_better,
                            _mm_set1_epi32(static_cast<int>(row.middle)));
      _mm256_mask_storeu_pd(row.backward + z, backward_better, b_to_a);
      _mm_mask_storeu_epi32(row.backward_via + z, backward_better,
                            _mm_set1_epi32(static_cast<int>(row.middle)));
      y += 4;
      continue;
    }
    const __m512d a_to_b = _mm512_add_pd(av, _mm512_loadu_pd(row.forward + y));
    const __m512d b_to_a = _mm512_add_pd(_mm512_loadu_pd(row.backward + y), va);
    const __mmask8 forward_better =
        _mm512_cmp_pd_mask(a_to_b, _mm512_loadu_pd(row.forward + z), _CMP_LT_OQ);
    const __mmask8 backward_better =
        _mm512_cmp_pd_mask(b_to_a, _mm512_loadu_pd(row.backward + z), _CMP_LT_OQ);
    _mm512_mask_storeu_pd(row.forward + z, forward_better, a_to_b);
    _mm256_mask_storeu_epi32(row.forward_via + z, forward_better, via);
    _mm512_mask_storeu_pd(row.backward + z, backward_better, b_to_a);
    _mm256_mask_storeu_epi32(row.backward_via + z, backward_better, via);
    y += 8;
  }
  row.Relax(y, y_end);
}

// The same for floats: sixteen triangles at a time where sixteen z are consecutive, else
// eight, else two one by one.
__attribute__((target("avx512f,avx512vl"))) void RelaxRowAvx512(const Row<float> row,
                                                                std::uint32_t y,
                                                                const std::uint32_t y_end) {
  const __m512 av = _mm512_set1_ps(row.a_to_v);
  const __m512 va = _mm512_set1_ps(row.v_to_a);
  const __m512i via = _mm512_set1_epi32(static_cast<int>(row.middle));
  while (y + 8 <= y_end) {
    const std::uint32_t z = row.position[row.head[y]];
    if (y + 16 <= y_end && row.position[row.head[y + 15]] == z + 15) {
      const __m512 a_to_b = _mm512_add_ps(av, _mm512_loadu_ps(row.forward + y));
      const __m512 b_to_a = _mm512_add_ps(_mm512_loadu_ps(row.backward + y), va);
      const __mmask16 forward_better =
          _mm512_cmp_ps_mask(a_to_b, _mm512_loadu_ps(row.forward + z), _CMP_LT_OQ);
      const __mmask16 backward_better =
          _mm512_cmp_ps_mask(b_to_a, _mm512_loadu_ps(row.backward + z), _CMP_LT_OQ);
      _mm512_mask_storeu_ps(row.forward + z, forward_better, a_to_b);
      _mm512_mask_storeu_epi32(row.forward_via + z, forward_better, via);
      _mm512_mask_storeu_ps(row.backward + z, backward_better, b_to_a);
      _mm512_mask_storeu_epi32(row.backward_via + z, backward_better, via);
      y += 16;
      continue;
    }
    if (row.position[row.head[y + 7]] != z + 7) {
      row.Relax(y, y + 2);
      y += 2;
      continue;
    }
    const __m256 a_to_b =
        _mm256_add_ps(_mm256_set1_ps(row.a_to_v), _mm256_loadu_ps(row.forward + y));
    const __m256 b_to_a =
        _mm256_add_ps(_mm256_loadu_ps(row.backward + y), _mm256_set1_ps(row.v_to_a));
    const __mmask8 forward_better =
        _mm256_cmp_ps_mask(a_to_b, _mm256_loadu_ps(row.forward + z), _CMP_LT_OQ);
    const __mmask8 backward_better =
        _mm256_cmp_ps_mask(b_to_a, _mm256_loadu_ps(row.backward + z), _CMP_LT_OQ);
    _mm256_mask_storeu_ps(row.forward + z, forward_better, a_to_b);
    _mm256_mask_storeu_epi32(row.forward_via + z, forward_better,
                             _mm256_set1_epi32(static_cast<int>(row.middle)));
    _mm256_mask_storeu_ps(row.backward + z, backward_better, b_to_a);
    _mm256_mask_storeu_epi32(row.backward_via + z, backward_better,
                             _mm256_set1_epi32(static_cast<int>(row.middle)));
    y += 8;
  }
  row.Relax(y, y_end);
}

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
