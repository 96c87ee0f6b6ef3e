// Weights customized onto a CCH's topology (nav/cch/cch.h): per arc the cost of the cheapest way
// between its ends through lower ranks, both ways, and how it was reached, so that paths unpack
// to input arcs. The weights are stored by direction (one array per direction, by arc), because
// most ranks a query visits are reached from one side only and read only that direction's.
// Where every weight is a whole number of ticks (nav/cch/cch_weights.h) a float holds, they are
// kept as 4-byte floats instead of 8-byte doubles: the same values, exactly
// (docs/abstract_graph.md).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/cch/cch.h"
#include "nav/cch/cch_weights.h"
#include "nav/cch/uninitialized_vector.h"
#include "nav/grid/build_stop.h"
#include "nav/grid/ids.h"

namespace walk::nav {

class CustomizeCrew;

// How a slot's way was found (CchMetric::StepOf): an input arc, or a lower triangle through a
// middle rank; neither when the slot is unreachable.
struct CchStep {
  std::uint32_t input = kInvalidId;  // the input arc, or kInvalidId
  // Through a lower triangle: the middle rank's arcs up to the slot's lower and upper ends, and
  // the middle.
  std::uint32_t to_lower = kInvalidId;
  std::uint32_t middle = kInvalidId;
  std::uint32_t to_upper = kInvalidId;
};

// One set of weights customized onto a Cch: for every arc a forward and a backward weight
// (slots, see above), each the cost of the cheapest path between the arc's ends through lower
// ranks, and how it was reached, so paths unpack to input arcs. Immutable once customized; safe
// to share across threads. Keeps a pointer to the Cch, which must outlive it.
class CchMetric {
 public:
  // A via() with this bit set names a lower triangle through its middle rank m: the bit
  // cleared, it is the arc from m up to the slot's lower end (the arc from m up to the upper
  // end follows it among m's arcs, heads being sorted). Without it, an input arc id;
  // kInvalidId when the slot is unreachable.
  static constexpr std::uint32_t kViaMiddle = 1u << 31;

  // Customizes `weights` (weights[a] = cost of input arc a, >= 0, or kInfCost where the arc is
  // absent) onto `cch`. Of parallel input arcs the cheapest counts. `perfect` adds perfect
  // customization (Dibbelt, Strasser, Wagner): every weight becomes the true distance between
  // the arc's ends, and arcs that a way through a higher or intermediate rank matches are
  // dropped from the queries' graph, so queries relax only the arcs some shortest way needs. It
  // costs a second pass over the triangles, which runs on one thread.
  //
  // The basic pass runs on `threads` threads (0: one per core): a rank's arcs depend only on
  // the ranks below it in the elimination tree, so separate subtrees customize side by side.
  // With a `crew`, threads that want the metric meanwhile may join that pass (CustomizeCrew::Join)
  // up to one per core in all.
  CchMetric(const Cch& cch, const std::vector<double>& weights, bool perfect = false,
            unsigned threads = 0, CustomizeCrew* crew = nullptr);
  // The same from weights in floats, each a whole number of ticks below
  // CchWeights::kMostFloatSeconds or +inf (FitsFloatTicks): the customization is the one their
  // values in doubles give, its input held in half the bytes (a danger band's metric is made
  // beside the walks, within walkd's memory target). Not perfect.
  static CchMetric OfTicks(const Cch& cch, std::span<const float> ticks, unsigned threads = 0,
                           CustomizeCrew* crew = nullptr) {
    return CchMetric(cch, ticks, threads, crew);
  }
  // Whether `seconds` is a whole number of ticks a float holds exactly below
  // CchWeights::kMostFloatSeconds, or +inf: what a float input weight must be.
  static bool FitsFloatTicks(double seconds) {
    return !(seconds < kInfCost) ||
           (OnTicks(seconds) == seconds && seconds < CchWeights::kMostFloatSeconds);
  }
  // The same, abandoned with CANCELLED once `stop` says stop (asked every few dozen ranks, so
  // within milliseconds): walkd stopping while a world loads.
  static absl::StatusOr<std::unique_ptr<CchMetric>> Create(const Cch& cch,
                                                           const std::vector<double>& weights,
                                                           bool perfect, unsigned threads,
                                                           const BuildStop& stop);

  // Bytes customizing a metric onto `cch` on `threads` threads takes besides the metric and its
  // input weights, while it runs: each thread's scratch (a position a node, the vias of the
  // rank it settles) and the elimination tree's counts. A metric keeping steps in bytes holds
  // no via of its own (docs/abstract_graph.md, "What a metric holds").
  static std::uint64_t CustomizingBytes(const Cch& cch, unsigned threads);

  // Customizes other weights onto the same Cch, reusing this metric's arrays.
  void Customize(const std::vector<double>& weights, unsigned threads = 0);

  // Whether a metric whose input weights are all whole ticks below kMostFloatSeconds is
  // customized in floats (in_ticks(), unless a customized weight reaches kMostFloatSeconds: then
  // again in doubles). On by default; tests turn it off to compare with doubles. Not thread-safe.
  static void CustomizeTicksInFloats(bool on);

  // Perfectly customized: queries read the kept arcs (below), not all arcs.
  bool perfect() const { return perfect_; }
  // The kept arcs of direction d (Cch::kForward: lower -> upper; kBackward: upper -> lower),
  // by lower rank: kept_first(d)[r] .. kept_first(d)[r + 1] - 1 index kept_head, kept_weight
  // and kept_arc (the hierarchy arc, for unpacking). Empty unless perfect().
  const std::vector<std::uint32_t>& kept_first(std::uint32_t d) const { return kept_first_[d]; }
  const std::vector<std::uint32_t>& kept_head(std::uint32_t d) const { return kept_head_[d]; }
  const std::vector<double>& kept_weight(std::uint32_t d) const { return kept_weight_[d]; }
  const std::vector<std::uint32_t>& kept_arc(std::uint32_t d) const { return kept_arc_[d]; }
  // Arcs kept for queries, both directions (2 * arc_count() when not perfect).
  std::uint64_t kept_count() const;

  const Cch& cch() const { return *cch_; }
  // True when the weights are kept in floats: every input weight was a whole number of ticks
  // and every customized one is below CchWeights::kMostFloatSeconds (never a perfect metric's).
  bool in_ticks() const { return !narrow_[0].empty(); }
  double weight(std::uint32_t slot) const { return weights(slot & 1)[slot >> 1]; }
  // How slot `slot` (its arc's lower rank `tail`) was reached. A metric keeps a byte a slot
  // (a step: which of its lower rank's input arcs, or which of the arcs up into its lower rank
  // leads down to the triangle's middle, counted from the highest). Where a rank has more arcs
  // up into it than a byte names, a step names a block of them, and the triangle is found again
  // there: the first whose two sides sum to the slot's weight, as customization found it
  // (docs/abstract_graph.md, "What a metric holds").
  CchStep StepOf(std::uint32_t slot, std::uint32_t tail) const {
    return via_[0].empty() ? StepInBytes(slot, tail) : StepOfVia(slot);
  }
  // The input arc slot `slot` stands for alone, or kInvalidId for a shortcut or an unreachable
  // slot: StepOf's input without the search a block step takes.
  std::uint32_t InputOf(std::uint32_t slot, std::uint32_t tail) const;
  // The same as a via: an input arc id, kViaMiddle | to_lower, or kInvalidId (its tail found by
  // a binary search).
  std::uint32_t via(std::uint32_t slot) const;
  // Where slot's step is kept, to prefetch it.
  const void* step_address(std::uint32_t slot) const {
    return via_[0].empty() ? static_cast<const void*>(&step_[slot & 1][slot >> 1])
                           : static_cast<const void*>(&via_[slot & 1][slot >> 1]);
  }
  // What StepOf(slot, tail) reads, prefetched in three rounds, each reading what the one before
  // prefetched: the step and the rank's bounds; the down-list entry of a step naming one
  // triangle (returned, kInvalidId for any other step); that entry's middle's arcs. For
  // unpacking many slots at once, so that their reads overlap rather than wait one after
  // another.
  void PrefetchStep(std::uint32_t slot, std::uint32_t tail) const;
  std::uint32_t PrefetchEntry(std::uint32_t slot, std::uint32_t tail) const;
  void PrefetchMiddle(std::uint32_t entry) const;
  // Slots whose steps name a block of triangles, searched when unpacked.
  std::uint64_t searched_steps() const { return searched_steps_; }
  // Whether steps are kept in bytes (else as vias, 4 bytes a slot). On by default, except for
  // perfect metrics (their weights no longer sum along the triangles); tests turn it off to
  // compare. Not thread-safe.
  static void KeepStepsInBytes(bool on);
  // The weights of direction d (Cch::kForward or kBackward), by arc.
  CchWeights weights(std::uint32_t d) const {
    return in_ticks() ? CchWeights(narrow_[d].data()) : CchWeights(weight_[d].data());
  }
  // Calls f(up, down) with both directions' weights from arc `begin` on, as the arrays the
  // metric keeps (const float* or const double*): for loops that read many weights, each kind
  // compiled on its own.
  template <typename F>
  void WithArcWeights(std::uint32_t begin, F&& f) const {
    if (in_ticks()) {
      f(narrow_[Cch::kForward].data() + begin, narrow_[Cch::kBackward].data() + begin);
    } else {
      f(weight_[Cch::kForward].data() + begin, weight_[Cch::kBackward].data() + begin);
    }
  }
  // Bytes held by this object's arrays (not the Cch's).
  std::uint64_t MemoryBytes() const;

 private:
  // Ranks customized between two looks at a BuildStop: a few microseconds each.
  static constexpr std::uint32_t kRanksBetweenStopChecks = 64;
  static constexpr std::uint8_t kStepFarInput = 255;

  struct Uncustomized {};  // a tag: calls with braced weights still find the public ones
  CchMetric(const Cch& cch, bool perfect, Uncustomized) : cch_(&cch), perfect_(perfect) {}
  // OfTicks's: named, as braced weights would find this constructor beside the public ones.
  CchMetric(const Cch& cch, std::span<const float> ticks, unsigned threads, CustomizeCrew* crew);
  // Customize, or CANCELLED (the weights half customized) once `stop` says stop.
  // `In`: the input weights' type, double or float (whole ticks).
  template <typename In>
  absl::Status CustomizeUnlessStopped(std::span<const In> weights, unsigned threads,
                                      const BuildStop& stop, CustomizeCrew* crew = nullptr);
  // The basic customization of `weights` into `w` (weight_ or narrow_), the other kind freed.
  template <typename W, typename In>
  absl::Status CustomizeInto(std::span<const In> weights, unsigned threads, const BuildStop& stop,
                             UninitializedVector<W> (&w)[2], CustomizeCrew* crew);
  // Every slot unreachable in `w`, then the input arcs' weights (and their vias, unless steps
  // are kept in bytes) on `threads` threads.
  template <typename W, typename In>
  void FillInputs(std::span<const In> weights, unsigned threads, UninitializedVector<W> (&w)[2]);
  // What one customizing thread keeps between ranks.
  struct RankScratch {
    std::vector<std::uint32_t> position;  // rank b -> arc (a, b) of the rank a being settled
    std::vector<std::uint32_t> via[2];    // by direction, a's vias by arc less a's first
    std::vector<std::pair<std::uint32_t, std::uint32_t>> far;  // far inputs' (slot, input)
    std::uint64_t searched = 0;                                // steps naming a block of triangles
  };
  // Settles rank a's arcs: each lower triangle {v, a, b}, v below a with arcs up to a and b,
  // bounds arc (a, b) in both directions. The arcs of every v below a must be settled. Keeping
  // steps in bytes, a's vias live in `scratch` only while a is settled, and its steps are kept
  // at once: no via of the whole metric is held (4 bytes a slot, 144 MB on the 32 x 32 world).
  template <typename W, typename In>
  void PullTriangles(std::uint32_t a, std::span<const In> weights, RankScratch& scratch, W* forward,
                     W* backward);
  // Perfect customization over the basic weights; fills the kept arcs.
  void Perfect();
  // Rank a's steps from its vias (`vias[d]` by arc less a's first arc), far inputs appended to
  // *far; returns its steps that name a block of triangles.
  std::uint64_t StepsOfRank(std::uint32_t a, const std::uint32_t* const (&vias)[2],
                            std::vector<std::pair<std::uint32_t, std::uint32_t>>* far);
  // StepOf for a metric that keeps its vias: one read, the triangle's lower arc and middle
  // from the down lists (unpacking a long path reads thousands of these).
  CchStep StepOfVia(std::uint32_t slot) const {
    const std::uint32_t via = via_[slot & 1][slot >> 1];
    CchStep step;
    if (via == kInvalidId) return step;
    if ((via & kViaMiddle) == 0) {
      step.input = via;
      return step;
    }
    const std::uint32_t k = via & ~kViaMiddle;
    step.to_lower = cch_->down_arc()[k];
    step.middle = cch_->down_tail()[k];
    step.to_upper = cch_->ArcAfter(step.to_lower, step.middle, cch_->head()[slot >> 1]);
    return step;
  }
  // StepOf for a metric that keeps a byte a slot.
  CchStep StepInBytes(std::uint32_t slot, std::uint32_t tail) const;
  // The down-list entry a step naming one lower triangle names, else kInvalidId (an input, a
  // block, an unreachable slot).
  std::uint32_t TriangleEntry(std::uint32_t slot, std::uint32_t tail) const;
  // A triangle step naming a block of its lower rank's down list (entries first .. last): the
  // first lower triangle there whose sides sum to the slot's weight (in the kind kept).
  template <typename W>
  CchStep SearchStep(std::uint32_t slot, std::uint32_t first, std::uint32_t last, const W* up,
                     const W* down) const;

  const Cch* cch_;
  bool perfect_ = false;
  UninitializedVector<double> weight_[2];  // by direction, arc -> cost; empty when in_ticks()
  UninitializedVector<float> narrow_[2];   // by direction, arc -> cost when in_ticks(), or empty
  // By direction, arc -> input arc, or kViaMiddle | k, the triangle's lower arc at index k of
  // the down lists (Cch::down_arc, down_tail): for a metric that keeps no steps in bytes.
  UninitializedVector<std::uint32_t> via_[2];
  // By direction, arc -> step (StepOf), with I the inputs of the arc's lower rank (at most 253
  // named): 0 unreachable; kStepFarInput an input past those (in far_input_); 254 - j for j < I
  // the rank's input j; else c, the c-th block of the rank's down list from its end (RankSteps
  // in cch_metric.cc).
  UninitializedVector<std::uint8_t> step_[2];
  std::vector<std::pair<std::uint32_t, std::uint32_t>> far_input_;  // (slot, input arc), sorted
  std::uint64_t searched_steps_ = 0;
  bool steps_in_bytes_ = true;  // this customization's: not perfect, and KeepStepsInBytes
  std::vector<std::uint32_t> kept_first_[2], kept_head_[2], kept_arc_[2];
  std::vector<double> kept_weight_[2];
};

}  // namespace walk::nav
