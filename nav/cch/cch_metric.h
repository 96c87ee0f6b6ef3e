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
#include <vector>

#include "absl/status/statusor.h"
#include "nav/cch/cch.h"
#include "nav/cch/cch_weights.h"
#include "nav/cch/uninitialized_vector.h"
#include "nav/grid/build_stop.h"
#include "nav/grid/ids.h"

namespace walk::nav {

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
  CchMetric(const Cch& cch, const std::vector<double>& weights, bool perfect = false,
            unsigned threads = 0);
  // The same, abandoned with CANCELLED once `stop` says stop (asked every few dozen ranks, so
  // within milliseconds): walkd stopping while a world loads.
  static absl::StatusOr<std::unique_ptr<CchMetric>> Create(const Cch& cch,
                                                           const std::vector<double>& weights,
                                                           bool perfect, unsigned threads,
                                                           const BuildStop& stop);

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
  std::uint32_t via(std::uint32_t slot) const { return via_[slot & 1][slot >> 1]; }
  // Where via(slot) is kept, to prefetch it.
  const std::uint32_t* via_address(std::uint32_t slot) const { return &via_[slot & 1][slot >> 1]; }
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

  struct Uncustomized {};  // a tag: calls with braced weights still find the public ones
  CchMetric(const Cch& cch, bool perfect, Uncustomized) : cch_(&cch), perfect_(perfect) {}
  // Customize, or CANCELLED (the weights half customized) once `stop` says stop.
  absl::Status CustomizeUnlessStopped(const std::vector<double>& weights, unsigned threads,
                                      const BuildStop& stop);
  // The basic customization of `weights` into `w` (weight_ or narrow_), the other kind freed.
  template <typename W>
  absl::Status CustomizeInto(const std::vector<double>& weights, unsigned threads,
                             const BuildStop& stop, UninitializedVector<W> (&w)[2]);
  // Settles rank a's arcs: each lower triangle {v, a, b}, v below a with arcs up to a and b,
  // bounds arc (a, b) in both directions. The arcs of every v below a must be settled.
  // `position` is scratch of node_count() entries.
  template <typename W>
  void PullTriangles(std::uint32_t a, std::uint32_t* position, W* forward, W* backward);
  // Perfect customization over the basic weights; fills the kept arcs.
  void Perfect();

  const Cch* cch_;
  bool perfect_ = false;
  UninitializedVector<double> weight_[2];  // by direction, arc -> cost; empty when in_ticks()
  UninitializedVector<float> narrow_[2];   // by direction, arc -> cost when in_ticks(), or empty
  // By direction, arc -> input arc, or kViaMiddle | lower arc.
  UninitializedVector<std::uint32_t> via_[2];
  std::vector<std::uint32_t> kept_first_[2], kept_head_[2], kept_arc_[2];
  std::vector<double> kept_weight_[2];
};

}  // namespace walk::nav
