#include "nav/cch/cch_metric.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <mutex>
#include <thread>
#include <type_traits>

#include "nav/cch/cch_triangle_row.h"
#include "nav/cch/customize_crew.h"
#include "nav/cch/uninitialized_vector.h"

namespace walk::nav {
namespace {

// Customization prefetches this many rows of triangles ahead: each row starts at a lower rank
// far away in memory, and waiting for each row's first lines would stall the work.
constexpr std::uint32_t kPrefetchRows = 6;

// How rank a's steps are laid out: its first named_inputs inputs have steps 254 down, and its
// down list, counted from its end, in blocks of `block` entries, steps 1 up (a triangle's step
// names its block; a block of one is the entry itself).
struct RankSteps {
  std::uint32_t named_inputs, block, down_begin, down_end;
};

// Rank a's inputs that have steps of their own (254 down): at most 253, a step at least being
// left for triangles.
std::uint32_t NamedInputs(const Cch& cch, std::uint32_t a) {
  return std::min<std::uint32_t>(cch.lower_input_first()[a + 1] - cch.lower_input_first()[a], 253);
}

// The down-list entries a triangle step names, for a list of `entries` and `named_inputs`.
std::uint32_t BlockOf(std::uint32_t entries, std::uint32_t named_inputs) {
  const std::uint32_t triangle_steps = 254 - named_inputs;
  return std::max<std::uint32_t>(1, (entries + triangle_steps - 1) / triangle_steps);
}

RankSteps StepsOf(const Cch& cch, std::uint32_t a) {
  RankSteps r;
  r.named_inputs = NamedInputs(cch, a);
  r.down_begin = cch.down_first()[a];
  r.down_end = cch.down_first()[a + 1];
  r.block = BlockOf(r.down_end - r.down_begin, r.named_inputs);
  return r;
}

}  // namespace

CchMetric::CchMetric(const Cch& cch, const std::vector<double>& weights, bool perfect,
                     unsigned threads, CustomizeCrew* crew)
    : cch_(&cch), perfect_(perfect) {
  // A default BuildStop never stops: this cannot fail.
  CustomizeUnlessStopped(std::span<const double>(weights), threads, BuildStop(), crew)
      .IgnoreError();
}

CchMetric::CchMetric(const Cch& cch, std::span<const float> ticks, unsigned threads,
                     CustomizeCrew* crew)
    : cch_(&cch), perfect_(false) {
  CustomizeUnlessStopped(ticks, threads, BuildStop(), crew).IgnoreError();
}

absl::StatusOr<std::unique_ptr<CchMetric>> CchMetric::Create(const Cch& cch,
                                                             const std::vector<double>& weights,
                                                             bool perfect, unsigned threads,
                                                             const BuildStop& stop) {
  std::unique_ptr<CchMetric> metric(new CchMetric(cch, perfect, Uncustomized()));
  if (absl::Status done =
          metric->CustomizeUnlessStopped(std::span<const double>(weights), threads, stop);
      !done.ok()) {
    return done;
  }
  return metric;
}

std::uint64_t CchMetric::CustomizingBytes(const Cch& cch, unsigned threads) {
  std::uint64_t most_arcs = 0;  // a rank's, up: its vias while it is settled
  for (std::uint32_t r = 0; r < cch.node_count(); ++r) {
    most_arcs = std::max<std::uint64_t>(most_arcs, cch.first_out()[r + 1] - cch.first_out()[r]);
  }
  const std::uint64_t nodes = cch.node_count();
  return threads * (nodes * sizeof(std::uint32_t) + 2 * most_arcs * sizeof(std::uint32_t)) +
         2 * nodes * sizeof(std::uint32_t);  // children unsettled, leaves
}

void CchMetric::Customize(const std::vector<double>& weights, unsigned threads) {
  // A default BuildStop never stops: this cannot fail.
  CustomizeUnlessStopped(std::span<const double>(weights), threads, BuildStop()).IgnoreError();
}

namespace {

std::atomic<bool> ticks_in_floats{true};
std::atomic<bool> steps_in_bytes{true};

// True when every input weight is a whole number of ticks below what a float holds exactly.
template <typename In>
bool FloatTicks(std::span<const In> weights) {
  return std::all_of(weights.begin(), weights.end(), CchMetric::FitsFloatTicks);
}

// work(t) on threads t = 0 .. threads - 1, the calling thread taking t = 0.
template <typename Work>
void OnThreads(unsigned threads, const Work& work) {
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0u);
  for (std::thread& thread : pool) thread.join();
}

}  // namespace

void CchMetric::CustomizeTicksInFloats(bool on) { ticks_in_floats = on; }

void CchMetric::KeepStepsInBytes(bool on) { steps_in_bytes = on; }

template <typename In>
absl::Status CchMetric::CustomizeUnlessStopped(std::span<const In> weights, unsigned threads,
                                               const BuildStop& stop, CustomizeCrew* crew) {
  assert(weights.size() == cch_->input_arc_count());
  // Floats in are whole ticks already, which a float holds exactly.
  assert((std::is_same_v<In, double> || FloatTicks(weights)));
  steps_in_bytes_ = !perfect_ && steps_in_bytes;
  // In floats, every sum of whole ticks below 2^24 of them is exact, and a sum at or past it
  // rounds to a value still at or past it (rounding is monotone and 2^24 ticks is a float): so
  // every customized weight below kMostFloatSeconds is the one doubles give, with the same via
  // (the first candidate reaching it). A weight at or past it means doubles.
  if (!perfect_ && ticks_in_floats && (std::is_same_v<In, float> || FloatTicks(weights))) {
    if (absl::Status done = CustomizeInto(weights, threads, stop, narrow_, crew); !done.ok())
      return done;
    const auto small = [](float w) { return !(w < kInfCost) || w < CchWeights::kMostFloatSeconds; };
    if (std::all_of(narrow_[0].begin(), narrow_[0].end(), small) &&
        std::all_of(narrow_[1].begin(), narrow_[1].end(), small)) {
      return absl::OkStatus();
    }
  }
  if (absl::Status done = CustomizeInto(weights, threads, stop, weight_, crew); !done.ok())
    return done;
  if (perfect_) Perfect();
  return absl::OkStatus();
}

template <typename W, typename In>
void CchMetric::FillInputs(std::span<const In> weights, unsigned threads,
                           UninitializedVector<W> (&w)[2]) {
  const Cch& cch = *cch_;
  // Every slot unreachable, then the input arcs' weights, each thread taking the slots of one
  // range of arcs: on the first customization that is where their pages are first touched.
  // Input arcs land at random slots, so each thread reads every input arc, in order (of
  // equally cheap parallel arcs the first still counts), and keeps those of its range.
  // Steps in bytes are kept rank by rank as customization settles it (PullTriangles); else the
  // vias of every arc are.
  const std::size_t arcs = cch.arc_count();
  const bool vias = !steps_in_bytes_;
  for (std::uint32_t d = 0; d < 2; ++d) {
    UninitializedVector<float>().swap(narrow_[d]);  // the other kind goes
    UninitializedVector<double>().swap(weight_[d]);
    w[d].resize(arcs);
    if (vias) {
      via_[d].resize(arcs);
      UninitializedVector<std::uint8_t>().swap(step_[d]);
    } else {
      UninitializedVector<std::uint32_t>().swap(via_[d]);
      step_[d].resize(arcs);
    }
  }
  far_input_.clear();
  searched_steps_ = 0;
  OnThreads(threads, [&](unsigned t) {
    const std::size_t begin = arcs * t / threads, end = arcs * (t + 1) / threads;
    for (std::uint32_t d = 0; d < 2; ++d) {
      std::fill(w[d].begin() + begin, w[d].begin() + end, static_cast<W>(kInfCost));
      if (vias) std::fill(via_[d].begin() + begin, via_[d].begin() + end, kInvalidId);
    }
    for (std::uint32_t a = 0; a < cch.input_arc_count(); ++a) {
      const std::uint32_t slot = cch.input_slot(a);
      assert(!(weights[a] < 0.0));
      if (slot == kInvalidId || (slot >> 1) < begin || (slot >> 1) >= end) continue;
      W& weight = w[slot & 1][slot >> 1];
      if (static_cast<W>(weights[a]) < weight) {  // parallel arcs: the cheapest
        weight = static_cast<W>(weights[a]);
        if (vias) via_[slot & 1][slot >> 1] = a;
      }
    }
  });
}

template <typename W, typename In>
absl::Status CchMetric::CustomizeInto(std::span<const In> weights, unsigned threads,
                                      const BuildStop& stop, UninitializedVector<W> (&w)[2],
                                      CustomizeCrew* crew) {
  const Cch& cch = *cch_;
  // Threads pay off only on hierarchies with millions of triangles.
  const std::uint32_t n = cch.node_count();
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  if (cch.arc_count() < (1u << 16)) threads = 1;
  FillInputs(weights, threads, w);

  W* const forward = w[Cch::kForward].data();
  W* const backward = w[Cch::kBackward].data();
  const auto time_to_stop = [&stop](std::uint32_t pulled) {
    return pulled % kRanksBetweenStopChecks == 0 && stop.requested();
  };
  std::vector<RankScratch> scratch(threads);
  for (RankScratch& mine : scratch) mine.position.resize(n);
  // Joiners fill the cores the customization's own threads leave.
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned joiners = crew != nullptr && cores > threads ? cores - threads : 0;
  if (threads == 1 && joiners == 0) {
    for (std::uint32_t a = 0; a < n && !time_to_stop(a); ++a) {
      PullTriangles(a, weights, scratch[0], forward, backward);
    }
  } else {
    // Bottom up the elimination tree: workers take leaves in rank order, and whoever settles
    // the last child of a rank goes on to settle that rank (acquire-release on the count makes
    // every child's arcs visible there). Subtrees apart in the tree settle side by side, and a
    // thread may join while leaves are left.
    std::vector<std::atomic<std::uint32_t>> unsettled_children(n);
    std::vector<std::uint32_t> leaves;
    for (std::uint32_t r = 0; r < n; ++r) {
      if (cch.parent(r) != kInvalidId)
        unsettled_children[cch.parent(r)].fetch_add(1, std::memory_order_relaxed);
    }
    for (std::uint32_t r = 0; r < n; ++r) {
      if (unsettled_children[r].load(std::memory_order_relaxed) == 0) leaves.push_back(r);
    }
    constexpr std::size_t kLeavesATake = 64;
    std::atomic<std::size_t> next_leaf{0};
    // Settles leaves and the ranks they free until none is left; whether it took any.
    const auto settle = [&](RankScratch& mine) {
      std::uint32_t pulled = 0;
      bool took = false;
      for (std::size_t begin; (begin = next_leaf.fetch_add(kLeavesATake)) < leaves.size();) {
        took = true;
        const std::size_t end = std::min(leaves.size(), begin + kLeavesATake);
        for (std::size_t i = begin; i < end; ++i) {
          for (std::uint32_t r = leaves[i];;) {
            // Stopped: the ranks above are left unsettled; the metric is discarded.
            if (time_to_stop(++pulled)) return took;
            PullTriangles(r, weights, mine, forward, backward);
            r = cch.parent(r);
            if (r == kInvalidId ||
                unsettled_children[r].fetch_sub(1, std::memory_order_acq_rel) != 1)
              break;
          }
        }
      }
      return took;
    };
    std::mutex joined_mu;
    RankScratch joined;  // what joiners found: their far inputs and searched steps
    const auto join = [&] {
      RankScratch mine;
      mine.position.resize(n);
      if (!settle(mine)) return false;
      std::lock_guard<std::mutex> lock(joined_mu);
      joined.far.insert(joined.far.end(), mine.far.begin(), mine.far.end());
      joined.searched += mine.searched;
      return true;
    };
    {
      const OpenCrew open(joiners > 0 ? crew : nullptr, join, joiners);
      OnThreads(threads, [&](unsigned t) { settle(scratch[t]); });
    }  // every joiner is done
    scratch.push_back(std::move(joined));
  }
  if (stop.requested()) return BuildStop::Stopped("customizing the CCH");
  for (const RankScratch& mine : scratch) {
    far_input_.insert(far_input_.end(), mine.far.begin(), mine.far.end());
    searched_steps_ += mine.searched;
  }
  std::sort(far_input_.begin(), far_input_.end());
  return absl::OkStatus();
}

template <typename W, typename In>
void CchMetric::PullTriangles(std::uint32_t a, std::span<const In> weights, RankScratch& scratch,
                              W* const forward, W* const backward) {
  const Cch& cch = *cch_;
  const std::uint32_t* const first_out = cch.first_out().data();
  const std::uint32_t* const head = cch.head().data();
  const std::uint32_t begin = first_out[a], end = first_out[a + 1];
  if (begin == end) return;
  // Where each upward neighbour b of a sits among a's arcs. The arcs of every v below a,
  // above a, are a subset of a's (chordality), so every b is found here.
  std::uint32_t* const position = scratch.position.data();
  for (std::uint32_t z = begin; z < end; ++z) position[head[z]] = z;
  const W inf = static_cast<W>(kInfCost);
  std::uint32_t* via[2] = {via_[Cch::kForward].data(), via_[Cch::kBackward].data()};
  std::uint32_t via_first = 0;
  if (steps_in_bytes_) {
    // a's vias here alone: first its inputs', as the whole metric's would be set (of parallel
    // inputs the first of the cheapest, inputs ascending); a's arcs are settled by a alone.
    via_first = begin;
    for (std::uint32_t d = 0; d < 2; ++d) {
      scratch.via[d].assign(end - begin, kInvalidId);
      via[d] = scratch.via[d].data();
    }
    for (std::uint32_t j = cch.lower_input_first()[a]; j < cch.lower_input_first()[a + 1]; ++j) {
      const std::uint32_t input = cch.lower_input()[j];
      const std::uint32_t slot = cch.input_slot(input);
      if (slot == kInvalidId) continue;
      const W weight = static_cast<W>(weights[input]);
      const W settled = (slot & 1) == Cch::kForward ? forward[slot >> 1] : backward[slot >> 1];
      std::uint32_t& first = via[slot & 1][(slot >> 1) - begin];
      if (weight < inf && weight == settled && first == kInvalidId) first = input;
    }
  }
  const TriangleArrays<W> arrays{head, position, forward, backward, via[0], via[1], via_first};
  const std::uint32_t* const down_arc = cch.down_arc().data();
  const std::uint32_t* const down_tail = cch.down_tail().data();
  const std::uint32_t down_end = cch.down_first()[a + 1];
  const std::uint32_t down_total = cch.down_first()[cch.node_count()];
  for (std::uint32_t k = cch.down_first()[a]; k < down_end; ++k) {
    if (k + kPrefetchRows < down_total) {
      const std::uint32_t ahead = down_arc[k + kPrefetchRows];
      __builtin_prefetch(first_out + down_tail[k + kPrefetchRows] + 1);
      __builtin_prefetch(forward + ahead);
      __builtin_prefetch(backward + ahead);
      __builtin_prefetch(head + ahead);
    }
    const std::uint32_t x = down_arc[k], v = down_tail[k];  // arc x = (v, a)
    const W v_to_a = forward[x];
    const W a_to_v = backward[x];
    if (v_to_a == inf && a_to_v == inf) continue;
    // Arcs x + 1 .. of v go up to the b above a; the triangle goes by its arc (v, a), named
    // by its place k in a's down list, which gives both the arc and v at once.
    RelaxTriangleRow(arrays, x + 1, first_out[v + 1], a_to_v, v_to_a, kViaMiddle | k);
  }
  if (steps_in_bytes_) {
    const std::uint32_t* const settled[2] = {via[0], via[1]};
    scratch.searched += StepsOfRank(a, settled, &scratch.far);
  }
}

void CchMetric::Perfect() {
  // Top down: when rank x is reached, every arc above it holds the true distance between its
  // ends. A way from x to its upward neighbour y starts with an arc up from x to some upward
  // neighbour z (after the basic pass, a shortest way is an up-down way) and goes on above x,
  // where arc (z, y) holds the distance: so the triangles {x, y, z} with z above x make x's
  // arcs exact. An arc that such a way matches is not needed by queries: with positive pieces
  // the ways that justify drops end at kept arcs (each step strictly shorter), so every
  // shortest way survives as kept arcs. Unpacking still follows via_, which the dropped arcs
  // alone may disagree with.
  const Cch& cch = *cch_;
  const std::uint32_t* const first_out = cch.first_out().data();
  const std::uint32_t* const head = cch.head().data();
  auto w = [&](std::uint32_t slot) -> double& { return weight_[slot & 1][slot >> 1]; };
  std::vector<std::uint8_t> keep(2 * cch.arc_count(), 1);
  std::vector<double> basic;  // x's slots before this pass
  for (std::uint32_t x = cch.node_count(); x-- > 0;) {
    const std::uint32_t begin = first_out[x], end = first_out[x + 1];
    basic.clear();
    for (std::uint32_t s = 2 * begin; s < 2 * end; ++s) basic.push_back(w(s));
    // A way matching slot s (at least as cheap, from two positive pieces, or cheaper) drops it.
    auto offer = [&](std::uint32_t s, double first, double second) {
      const double way = first + second;
      const double before = basic[s - 2 * begin];
      if (way < before || (way == before && first > 0.0 && second > 0.0)) keep[s] = 0;
      if (way < w(s)) w(s) = way;
    };
    for (std::uint32_t i = begin; i + 1 < end; ++i) {
      const std::uint32_t y = head[i];
      std::uint32_t t = first_out[y];
      for (std::uint32_t j = i + 1; j < end; ++j) {
        const std::uint32_t z = head[j];  // x < y < z: arcs i = (x, y), j = (x, z), t = (y, z)
        while (head[t] != z) ++t;
        assert(t < first_out[y + 1]);
        const double x_y = w(2 * i + Cch::kForward), y_x = w(2 * i + Cch::kBackward);
        const double x_z = w(2 * j + Cch::kForward), z_x = w(2 * j + Cch::kBackward);
        const double y_z = w(2 * t + Cch::kForward), z_y = w(2 * t + Cch::kBackward);
        offer(2 * i + Cch::kForward, x_z, z_y);   // x -> z -> y (z above y)
        offer(2 * i + Cch::kBackward, y_z, z_x);  // y -> z -> x
        offer(2 * j + Cch::kForward, x_y, y_z);   // x -> y -> z (y between)
        offer(2 * j + Cch::kBackward, z_y, y_x);  // z -> y -> x
      }
    }
  }
  for (std::uint32_t d = 0; d < 2; ++d) {
    kept_first_[d].assign(cch.node_count() + 1, 0);
    kept_head_[d].clear();
    kept_weight_[d].clear();
    kept_arc_[d].clear();
    for (std::uint32_t r = 0; r < cch.node_count(); ++r) {
      kept_first_[d][r] = static_cast<std::uint32_t>(kept_head_[d].size());
      for (std::uint32_t a = first_out[r]; a < first_out[r + 1]; ++a) {
        if (!keep[2 * a + d] || !(weight_[d][a] < kInfCost)) continue;
        kept_head_[d].push_back(head[a]);
        kept_weight_[d].push_back(weight_[d][a]);
        kept_arc_[d].push_back(a);
      }
    }
    kept_first_[d][cch.node_count()] = static_cast<std::uint32_t>(kept_head_[d].size());
  }
}

std::uint64_t CchMetric::StepsOfRank(std::uint32_t a, const std::uint32_t* const (&vias)[2],
                                     std::vector<std::pair<std::uint32_t, std::uint32_t>>* far) {
  const Cch& cch = *cch_;
  const RankSteps r = StepsOf(cch, a);
  const std::uint32_t begin = cch.first_out()[a];
  std::uint64_t searched = 0;
  for (std::uint32_t x = begin; x < cch.first_out()[a + 1]; ++x) {
    for (std::uint32_t d = 0; d < 2; ++d) {
      const std::uint32_t via = vias[d][x - begin];
      std::uint8_t step = 0;  // unreachable; an input's step is set below
      if (via != kInvalidId && (via & kViaMiddle) != 0) {
        const std::uint32_t from_end = r.down_end - (via & ~kViaMiddle);  // 1: the last
        step = static_cast<std::uint8_t>((from_end + r.block - 1) / r.block);
        searched += r.block > 1;
      }
      step_[d][x] = step;
    }
  }
  const std::uint32_t input_begin = cch.lower_input_first()[a];
  for (std::uint32_t j = input_begin; j < cch.lower_input_first()[a + 1]; ++j) {
    const std::uint32_t input = cch.lower_input()[j];
    const std::uint32_t slot = cch.input_slot(input);
    if (vias[slot & 1][(slot >> 1) - begin] != input) continue;  // another way was cheaper
    if (j - input_begin < r.named_inputs) {
      step_[slot & 1][slot >> 1] = static_cast<std::uint8_t>(254 - (j - input_begin));
    } else {
      step_[slot & 1][slot >> 1] = kStepFarInput;
      far->push_back({slot, input});
    }
  }
  return searched;
}

std::uint32_t CchMetric::InputOf(std::uint32_t slot, std::uint32_t tail) const {
  const Cch& cch = *cch_;
  const std::uint32_t d = slot & 1, arc = slot >> 1;
  if (!via_[0].empty()) {
    const std::uint32_t via = via_[d][arc];
    return via == kInvalidId || (via & kViaMiddle) != 0 ? kInvalidId : via;
  }
  const std::uint32_t code = step_[d][arc];
  if (code == 0) return kInvalidId;
  if (code == kStepFarInput) {
    return std::lower_bound(far_input_.begin(), far_input_.end(),
                            std::pair<std::uint32_t, std::uint32_t>{slot, 0})
        ->second;
  }
  const std::uint32_t named_inputs = NamedInputs(cch, tail);
  if (code < 255 - named_inputs) return kInvalidId;
  return cch.lower_input()[cch.lower_input_first()[tail] + (254 - code)];
}

std::uint32_t CchMetric::TriangleEntry(std::uint32_t slot, std::uint32_t tail) const {
  const Cch& cch = *cch_;
  const std::uint32_t d = slot & 1, arc = slot >> 1;
  if (!via_[0].empty()) {
    const std::uint32_t via = via_[d][arc];
    return via != kInvalidId && (via & kViaMiddle) != 0 ? via & ~kViaMiddle : kInvalidId;
  }
  const std::uint32_t code = step_[d][arc];
  if (code == 0 || code == kStepFarInput) return kInvalidId;
  const std::uint32_t named_inputs = NamedInputs(cch, tail);
  if (code >= 255 - named_inputs) return kInvalidId;  // an input
  const std::uint32_t down_begin = cch.down_first()[tail], down_end = cch.down_first()[tail + 1];
  return down_end - down_begin <= 254 - named_inputs ? down_end - code : kInvalidId;
}

void CchMetric::PrefetchStep(std::uint32_t slot, std::uint32_t tail) const {
  __builtin_prefetch(step_address(slot));
  __builtin_prefetch(&cch_->lower_input_first()[tail]);
  __builtin_prefetch(&cch_->down_first()[tail]);
}

std::uint32_t CchMetric::PrefetchEntry(std::uint32_t slot, std::uint32_t tail) const {
  const std::uint32_t k = TriangleEntry(slot, tail);
  if (k != kInvalidId) {
    __builtin_prefetch(&cch_->down_arc()[k]);
    __builtin_prefetch(&cch_->down_tail()[k]);
  }
  return k;
}

void CchMetric::PrefetchMiddle(std::uint32_t entry) const {
  // ArcAfter's reads: the middle's arcs just past the lower side, and where they end.
  __builtin_prefetch(&cch_->head()[cch_->down_arc()[entry] + 1]);
  __builtin_prefetch(&cch_->first_out()[cch_->down_tail()[entry] + 1]);
}

CchStep CchMetric::StepInBytes(std::uint32_t slot, std::uint32_t tail) const {
  const Cch& cch = *cch_;
  const std::uint32_t d = slot & 1, arc = slot >> 1;
  CchStep step;
  step.input = InputOf(slot, tail);
  if (step.input != kInvalidId) return step;
  const std::uint32_t code = step_[d][arc];
  if (code == 0) return step;
  // As StepsOf lays them out, its division left to the steps that name a block (the hot path
  // reads inputs and single entries).
  const std::uint32_t named_inputs = NamedInputs(cch, tail);
  const std::uint32_t down_begin = cch.down_first()[tail], down_end = cch.down_first()[tail + 1];
  if (down_end - down_begin <= 254 - named_inputs) {  // a block of one: the entry itself
    const std::uint32_t k = down_end - code;
    step.to_lower = cch.down_arc()[k];
    step.middle = cch.down_tail()[k];
    step.to_upper = cch.ArcAfter(step.to_lower, step.middle, cch.head()[arc]);
    return step;
  }
  // The block's entries, k ascending; clamped at the list's start.
  const std::uint32_t block = BlockOf(down_end - down_begin, named_inputs);
  const std::uint32_t last = down_end - (code - 1) * block - 1;
  const std::uint32_t first = std::max(down_begin, down_end - std::min(down_end, code * block));
  WithArcWeights(0, [&](auto up, auto down) { step = SearchStep(slot, first, last, up, down); });
  return step;
}

template <typename W>
CchStep CchMetric::SearchStep(std::uint32_t slot, std::uint32_t first, std::uint32_t last,
                              const W* up, const W* down) const {
  // Down-list entries first .. last of the slot's lower rank a, each an arc (m, a): where m also
  // has an arc up to the upper rank b, {m, a, b} is a lower triangle. Customization took the
  // first, in a's down list, whose sum is below what came before; it lies in this block, so the
  // first here whose sum is the slot's weight is that one. Both down lists run by ascending m,
  // so b's arcs from the block's middles are found by one binary search and a merge.
  const Cch& cch = *cch_;
  const std::uint32_t d = slot & 1, arc = slot >> 1;
  const std::uint32_t b = cch.head()[arc];
  const std::uint32_t* const down_arc = cch.down_arc().data();
  const std::uint32_t* const down_tail = cch.down_tail().data();
  const std::uint32_t* const b_end = down_tail + cch.down_first()[b + 1];
  const std::uint32_t* at =
      std::lower_bound(down_tail + cch.down_first()[b], b_end, down_tail[first]);
  const W weight = d == Cch::kForward ? up[arc] : down[arc];
  for (std::uint32_t k = first; k <= last && at != b_end; ++k) {
    const std::uint32_t m = down_tail[k];
    while (at != b_end && *at < m) ++at;
    if (at == b_end || *at != m) continue;
    const std::uint32_t to_lower = down_arc[k];
    const std::uint32_t to_upper = down_arc[at - down_tail];
    // a -> m -> b forward, b -> m -> a backward, summed as customization sums them.
    const W sum = d == Cch::kForward ? static_cast<W>(down[to_lower] + up[to_upper])
                                     : static_cast<W>(down[to_upper] + up[to_lower]);
    if (sum == weight) return {kInvalidId, to_lower, m, to_upper};
  }
  assert(false);  // the weight came from one of them
  return {};
}

std::uint32_t CchMetric::via(std::uint32_t slot) const {
  const CchStep step = StepOf(slot, cch_->TailOf(slot >> 1));
  if (step.input != kInvalidId) return step.input;
  return step.to_lower != kInvalidId ? kViaMiddle | step.to_lower : kInvalidId;
}

std::uint64_t CchMetric::kept_count() const {
  if (!perfect_) return 2 * cch_->arc_count();
  return kept_head_[0].size() + kept_head_[1].size();
}

std::uint64_t CchMetric::MemoryBytes() const {
  std::uint64_t kept = 0;
  for (std::uint32_t d = 0; d < 2; ++d) {
    kept += CapacityBytes(kept_first_[d]) + CapacityBytes(kept_head_[d]) +
            CapacityBytes(kept_weight_[d]) + CapacityBytes(kept_arc_[d]);
  }
  return sizeof(*this) + CapacityBytes(weight_[0]) + CapacityBytes(weight_[1]) +
         CapacityBytes(narrow_[0]) + CapacityBytes(narrow_[1]) + CapacityBytes(via_[0]) +
         CapacityBytes(via_[1]) + CapacityBytes(step_[0]) + CapacityBytes(step_[1]) +
         CapacityBytes(far_input_) + kept;
}

}  // namespace walk::nav
