#include "nav/cch/cch_many_to_many.h"

#include <algorithm>
#include <atomic>
#include <cassert>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace walk::nav {

std::uint64_t CchSide::MemoryBytes() const {
  return sizeof(CchSide) + rank.capacity() * sizeof(std::uint32_t) +
         cost.capacity() * sizeof(double) + from.capacity() * sizeof(std::uint32_t) +
         slot.capacity() * sizeof(std::uint32_t) + sums.capacity() * sizeof(std::atomic<double>);
}

std::uint32_t CchSide::EndpointNode(const Cch& cch, std::uint32_t label) const {
  while (from[label] != kInvalidId) label = from[label];
  return cch.node_at(rank[label]);
}

double CchSide::SumTo(std::uint32_t label, CchSlotSum& sum) const {
  if (from[label] == kInvalidId) return 0.0;
  const double known = sums[label].load(std::memory_order_relaxed);
  if (known >= 0.0) return known;
  const double total = SumTo(from[label], sum) + sum.Of(slot[label]);
  sums[label].store(total, std::memory_order_relaxed);
  return total;
}

namespace {

// The labels a sweep relaxes into, by rank.
struct Places {
  double* cost;
  std::uint32_t* arc;
  std::uint32_t* from;
};

// Relaxes arc `arc` (weight `w`) from a label (cost `cost`, place `from`) into rank `head`'s.
template <typename W>
inline void RelaxOne(const Places& to, double cost, W w, std::uint32_t arc, std::uint32_t from,
                     std::uint32_t head) {
  const std::uint32_t p = head;
  const double reached = cost + w;
  if (reached < to.cost[p]) {
    to.cost[p] = reached;
    to.arc[p] = arc;
    to.from[p] = from;
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
__attribute__((target("avx2"))) void RelaxArcsAvx2(const Places& to, double cost, const W* w,
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
    auto* froms = reinterpret_cast<__m128i*>(to.from + p);
    const __m128i arc4 = _mm_add_epi32(_mm_set1_epi32(static_cast<int>(first_arc + y)), steps);
    _mm_storeu_si128(arcs, _mm_blendv_epi8(_mm_loadu_si128(arcs), arc4, mask));
    _mm_storeu_si128(froms, _mm_blendv_epi8(_mm_loadu_si128(froms), from4, mask));
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
    const Places& to, double cost, const W* w, const std::uint32_t* head, std::uint32_t count,
    std::uint32_t first_arc, std::uint32_t from) {
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
      _mm256_mask_storeu_epi32(to.from + p, lower, _mm256_set1_epi32(static_cast<int>(from)));
      y += 8;
    } else if (head[y + 3] - p == 3) {
      const __m256d reached = _mm256_add_pd(c4, LoadFour(w + y));
      const __mmask8 lower = _mm256_cmp_pd_mask(reached, _mm256_loadu_pd(to.cost + p), _CMP_LT_OQ);
      _mm256_mask_storeu_pd(to.cost + p, lower, reached);
      _mm_mask_storeu_epi32(to.arc + p, lower,
                            _mm_add_epi32(_mm_set1_epi32(static_cast<int>(first_arc + y)), steps4));
      _mm_mask_storeu_epi32(to.from + p, lower, _mm_set1_epi32(static_cast<int>(from)));
      y += 4;
    } else {
      RelaxOne(to, cost, w[y], first_arc + y, from, p);
      ++y;
    }
  }
  for (; y < count; ++y) RelaxOne(to, cost, w[y], first_arc + y, from, head[y]);
}

unsigned LanesHere() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")) return 8;
  return __builtin_cpu_supports("avx2") ? 4 : 1;
}
#else
template <typename W>
void RelaxArcsAvx2(const Places& to, double cost, const W* w, const std::uint32_t* head,
                   std::uint32_t count, std::uint32_t first_arc, std::uint32_t from) {}
template <typename W>
void RelaxArcsAvx512(const Places& to, double cost, const W* w, const std::uint32_t* head,
                     std::uint32_t count, std::uint32_t first_arc, std::uint32_t from) {}
unsigned LanesHere() { return 1; }
#endif

std::atomic<unsigned> lanes{LanesHere()};

}  // namespace

template <typename W>
void CchSideSweep::RelaxArcs(const Cch& cch, std::uint32_t r, double cost, const W* w) {
  const std::uint32_t begin = cch.first_out()[r], count = cch.first_out()[r + 1] - begin;
  const std::uint32_t* const head = cch.head().data() + begin;
  // Every head is an ancestor of r, so it has a place.
  const Places to{cost_.data(), arc_.data(), from_.data()};
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

unsigned CchSideSweep::UseLanes(unsigned most) {
  const unsigned here = LanesHere();
  lanes.store(most >= 8 ? here : most >= 4 ? std::min(here, 4u) : 1u, std::memory_order_relaxed);
  return lanes.load(std::memory_order_relaxed);
}

void CchSideSweep::Run(CchSplitQuery& query, const CchMetric& metric, std::uint32_t d,
                       const std::vector<CchEndpoint>& endpoints, CchSide* side) {
  query.Begin(metric);
  query.MarkSide(d, endpoints);
  const Cch& cch = metric.cch();
  const std::vector<std::uint32_t>& ancestors = query.visited(d);
  if (cost_.size() < cch.node_count()) {
    cost_.resize(cch.node_count());
    arc_.resize(cch.node_count());
    from_.resize(cch.node_count());
    label_of_.resize(cch.node_count());
  }
  for (const std::uint32_t r : ancestors) {
    cost_[r] = query.walk().label(r).cost[d];  // the endpoints' costs, else +inf
    arc_[r] = kInvalidId;
  }
  for (const std::uint32_t r : ancestors) {
    const double cost = cost_[r];  // final: every lower ancestor has been relaxed
    if (!(cost < kInfCost)) continue;
    metric.WithArcWeights(cch.first_out()[r], [&](auto up, auto down) {
      RelaxArcs(cch, r, cost, d == Cch::kForward ? up : down);
    });
  }
  side->direction = d;
  side->rank.clear();
  side->cost.clear();
  side->from.clear();
  side->slot.clear();
  for (const std::uint32_t r : ancestors) {
    if (!(cost_[r] < kInfCost)) continue;
    label_of_[r] = static_cast<std::uint32_t>(side->rank.size());
    const bool endpoint = arc_[r] == kInvalidId;
    side->rank.push_back(r);
    side->cost.push_back(cost_[r]);
    // The arc's lower end was reached before (ranks ascend), so it has its label.
    side->from.push_back(endpoint ? kInvalidId : label_of_[from_[r]]);
    side->slot.push_back(endpoint ? kInvalidId : 2 * arc_[r] + d);
  }
  side->sums = std::vector<std::atomic<double>>(side->size());
  for (std::atomic<double>& s : side->sums) s.store(-1.0, std::memory_order_relaxed);
}

CchBuckets::CchBuckets(const Cch& cch, const std::vector<const CchSide*>& targets)
    : targets_(targets), first_(cch.node_count() + 1, 0) {
  // Counted, then filed (a counting sort by rank).
  for (const CchSide* side : targets_) {
    if (side == nullptr) continue;
    for (const std::uint32_t r : side->rank) ++first_[r + 1];
  }
  for (std::size_t r = 1; r < first_.size(); ++r) first_[r] += first_[r - 1];
  entries_.resize(first_.back());
  std::vector<std::uint32_t> next(first_.begin(), first_.end() - 1);
  for (std::uint32_t j = 0; j < targets_.size(); ++j) {
    const CchSide* side = targets_[j];
    if (side == nullptr) continue;
    for (std::uint32_t i = 0; i < side->size(); ++i) {
      entries_[next[side->rank[i]]++] = {j, i, side->cost[i]};
    }
  }
}

void CchBuckets::Scan(const CchSide& source, std::vector<CchMeeting>* row) const {
  row->assign(targets_.size(), CchMeeting());
  CchMeeting* const meeting = row->data();
  const Entry* const entries = entries_.data();
  for (std::uint32_t i = 0; i < source.size(); ++i) {
    const std::uint32_t r = source.rank[i];
    const double cost = source.cost[i];
    const std::uint32_t end = first_[r + 1];
    for (std::uint32_t e = first_[r]; e < end; ++e) {
      const Entry& entry = entries[e];
      CchMeeting& m = meeting[entry.target];
      const double way = cost + entry.cost;
      if (way < m.cost) m = {way, i, entry.label};
    }
  }
}

std::uint64_t CchBuckets::MemoryBytes() const {
  return sizeof(CchBuckets) + targets_.capacity() * sizeof(const CchSide*) +
         first_.capacity() * sizeof(std::uint32_t) + entries_.capacity() * sizeof(Entry);
}

}  // namespace walk::nav
