// A customizable contraction hierarchy (CCH) over a small directed graph: the topology built
// once from a node order (Cch), weights customized onto it (CchMetric), and per-thread
// elimination-tree queries from many sources to many targets (CchQuery).
//
// Conventions, as in RoutingKit:
//  - Nodes are renamed to their rank (0 = contracted first); the hierarchy is the chordal
//    supergraph of the input graph (read as undirected) under that order.
//  - Its arcs are stored upward only, in rank space: the arcs of rank r are
//    first_out()[r] .. first_out()[r + 1] - 1, to head()[arc] > r, heads sorted ascending.
//  - A metric keeps two weights per arc, named by "slots": slot 2 * arc + kForward for
//    lower -> higher rank, slot 2 * arc + kBackward for higher -> lower. They are stored by
//    direction (one array per direction, by arc), because most ranks a query visits are
//    reached from one side only and read only that direction's weights.
//  - The elimination-tree parent of a rank is its lowest upward neighbour; every upward
//    neighbour is an elimination-tree ancestor, so a query only visits the ancestors of its
//    seeds.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "nav/grid/ids.h"
#include "nav/search/indexed_heap.h"

namespace walk::nav {

// The topology: built once from an order, independent of weights. Immutable; safe to share
// across threads.
class Cch {
 public:
  static constexpr std::uint32_t kForward = 0;   // slot of lower -> higher rank
  static constexpr std::uint32_t kBackward = 1;  // slot of higher -> lower rank

  // Builds the hierarchy of the graph with arcs `tails[a] -> heads[a]` (a = input arc id) on
  // nodes 0 .. node_count - 1, contracted in `order` (order[rank] = node, a permutation, e.g.
  // NestedDissectionOrder). Self loops are kept as input arcs that map to no slot.
  Cch(std::uint32_t node_count, const std::vector<std::uint32_t>& order,
      const std::vector<std::uint32_t>& tails, const std::vector<std::uint32_t>& heads);

  std::uint32_t node_count() const { return node_count_; }
  // Arcs of the chordal supergraph, each stored once (upward).
  std::uint64_t arc_count() const { return head_.size(); }
  std::uint32_t input_arc_count() const { return static_cast<std::uint32_t>(input_slot_.size()); }
  // Nodes on the longest root-to-leaf path of the elimination tree (0 for an empty graph).
  std::uint32_t elimination_tree_height() const { return elimination_tree_height_; }
  // Bytes held by this object's arrays.
  std::uint64_t MemoryBytes() const;

  std::uint32_t rank(std::uint32_t node) const { return rank_[node]; }
  std::uint32_t node_at(std::uint32_t rank) const { return order_[rank]; }
  // The elimination-tree parent of `rank`, kInvalidId at a root.
  std::uint32_t parent(std::uint32_t rank) const { return parent_[rank]; }
  const std::vector<std::uint32_t>& first_out() const { return first_out_; }
  const std::vector<std::uint32_t>& head() const { return head_; }
  // The slot (2 * arc + direction) input arc `a` customizes, kInvalidId for a self loop.
  std::uint32_t input_slot(std::uint32_t a) const { return input_slot_[a]; }
  // The arc from rank `lower` up to rank `upper`, kInvalidId if there is none.
  std::uint32_t FindArc(std::uint32_t lower, std::uint32_t upper) const;
  // The arcs up into a rank, for customization: down_first()[r] .. down_first()[r + 1] - 1
  // index down_arc() (the arc) and down_tail() (its lower rank), lower ranks ascending.
  const std::vector<std::uint32_t>& down_first() const { return down_first_; }
  const std::vector<std::uint32_t>& down_arc() const { return down_arc_; }
  const std::vector<std::uint32_t>& down_tail() const { return down_tail_; }

 private:
  std::uint32_t node_count_;
  std::uint32_t elimination_tree_height_ = 0;
  std::vector<std::uint32_t> order_;       // rank -> node
  std::vector<std::uint32_t> rank_;        // node -> rank
  std::vector<std::uint32_t> parent_;      // rank -> elimination-tree parent rank
  std::vector<std::uint32_t> first_out_;   // rank -> first upward arc; node_count + 1 entries
  std::vector<std::uint32_t> head_;        // arc -> upper rank
  std::vector<std::uint32_t> input_slot_;  // input arc -> slot
  std::vector<std::uint32_t> down_first_;  // rank -> first arc up into it; node_count + 1 entries
  std::vector<std::uint32_t> down_arc_;    // arcs up into each rank, by lower rank
  std::vector<std::uint32_t> down_tail_;   // their lower ranks
};

// An allocator whose resize() leaves new elements uninitialized, so that a metric's arrays
// (hundreds of MB on a continent) are first written by the threads that customize them, page
// faults and all, instead of zeroed by one thread first.
template <typename T>
struct UninitializedAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <typename U>
  UninitializedAllocator(const UninitializedAllocator<U>&) {}
  template <typename U>
  void construct(U* p) {
    ::new (static_cast<void*>(p)) U;  // default-initialized: left as it is for a double
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
template <typename T>
using UninitializedVector = std::vector<T, UninitializedAllocator<T>>;

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

  // Customizes other weights onto the same Cch, reusing this metric's arrays.
  void Customize(const std::vector<double>& weights, unsigned threads = 0);

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
  double weight(std::uint32_t slot) const { return weight_[slot & 1][slot >> 1]; }
  std::uint32_t via(std::uint32_t slot) const { return via_[slot & 1][slot >> 1]; }
  // Where via(slot) is kept, to prefetch it.
  const std::uint32_t* via_address(std::uint32_t slot) const { return &via_[slot & 1][slot >> 1]; }
  // The weights of direction d (Cch::kForward or kBackward), by arc.
  const UninitializedVector<double>& weights(std::uint32_t d) const { return weight_[d]; }
  // Bytes held by this object's arrays (not the Cch's).
  std::uint64_t MemoryBytes() const;

 private:
  // Settles rank a's arcs: each lower triangle {v, a, b}, v below a with arcs up to a and b,
  // bounds arc (a, b) in both directions. The arcs of every v below a must be settled.
  // `position` is scratch of node_count() entries.
  void PullTriangles(std::uint32_t a, std::uint32_t* position);
  // Perfect customization over the basic weights; fills the kept arcs.
  void Perfect();

  const Cch* cch_;
  bool perfect_ = false;
  UninitializedVector<double> weight_[2];  // by direction, arc -> cost
  UninitializedVector<std::uint32_t>
      via_[2];  // by direction, arc -> input arc, or kViaMiddle | lower arc
  std::vector<std::uint32_t> kept_first_[2], kept_head_[2], kept_arc_[2];
  std::vector<double> kept_weight_[2];
};

// Landmark costs for tighter bounds (ALT): for `count` landmarks far apart, the cost from each
// landmark to every rank and from every rank to each landmark (by the triangle inequality,
// d(r, t) >= d(L, t) - d(L, r) and >= d(r, L) - d(t, L)). By rank, `count` floats a rank.
struct CchLandmarks {
  std::uint32_t count = 0;
  std::vector<float> from;  // [rank * count + l]: cost landmark l -> rank (infinity: none)
  std::vector<float> to;    // [rank * count + l]: cost rank -> landmark l

  // Chooses `count` landmarks (each the node farthest from those already chosen) and runs a
  // Dijkstra from and to each over arcs tails[a] -> heads[a] priced `weights`.
  static CchLandmarks Compute(const Cch& cch, const std::vector<std::uint32_t>& tails,
                              const std::vector<std::uint32_t>& heads,
                              const std::vector<double>& weights, std::uint32_t count);
  std::uint64_t MemoryBytes() const { return (from.capacity() + to.capacity()) * sizeof(float); }
};

// A lower bound on ways, for pruning queries: every input arc costs at least `cost_per_unit`
// times the octile distance between its ends' coordinates, so no way costs less than that times
// the octile distance between its ends (octile distance is a norm). Coordinates are by rank.
struct CchBound {
  const std::vector<float>* x = nullptr;  // by rank
  const std::vector<float>* y = nullptr;  // by rank
  double cost_per_unit = 0.0;
  const CchLandmarks* landmarks = nullptr;  // optional: tighter bounds

  // The largest cost_per_unit that holds for `weights` on arcs tails[a] -> heads[a], with node
  // coordinates x[node], y[node]; a hair below it, so rounding never makes a bound too high.
  static double LowestCostPerUnit(const std::vector<std::uint32_t>& tails,
                                  const std::vector<std::uint32_t>& heads,
                                  const std::vector<double>& weights, const std::vector<float>& x,
                                  const std::vector<float>& y);
};

// A reusable query: its buffers are sized once to the Cch and generation-stamped, so nothing is
// cleared or allocated per query after the first. One CchQuery per thread; not thread-safe.
// Keeps a pointer to the Cch, which must outlive it.
class CchQuery {
 public:
  explicit CchQuery(const Cch& cch);
  CchQuery(const CchQuery&) = delete;
  CchQuery& operator=(const CchQuery&) = delete;

  // A node with a cost already paid to reach it (a source) or still to pay after it (a target).
  struct Seed {
    std::uint32_t node;
    double cost;
  };
  struct Result {
    bool found = false;
    double cost = kInfCost;
    std::uint32_t source = kInvalidId;  // index into `sources`
    std::uint32_t target = kInvalidId;  // index into `targets`
  };

  // The cheapest s.cost + dist(s.node, t.node) + t.cost over all s in `sources` and t in
  // `targets`, priced by `metric` (customized on this query's Cch). Seed nodes must be below
  // node_count(); seeds costing kInfCost are ignored; an empty list finds nothing. Ties are
  // broken deterministically (the first meeting found at the best cost). When `arc_path` is
  // non-null it is cleared and, when found, receives the input arc ids of the path from
  // sources[source].node to targets[target].node in order (empty when they are the same node).
  // With `bound`, a rank whose cost plus the bound of the rest of the way to the other side's
  // seeds is no better than the best meeting found so far is not relaxed: far fewer ranks of
  // the long separators are (the cost is the same; among equally cheap ways another may win).
  // With `below`, only a way cheaper than it is sought: ranks are pruned against it from the
  // start, and when no such way exists the result is not found (ask again without it).
  Result Run(const CchMetric& metric, const std::vector<Seed>& sources,
             const std::vector<Seed>& targets, std::vector<std::uint32_t>* arc_path = nullptr,
             const CchBound* bound = nullptr, double below = kInfCost);

  // Runs its two arguments, side by side where a second thread is free (e.g. HelperThread).
  using RunBoth = absl::FunctionRef<void(absl::FunctionRef<void()>, absl::FunctionRef<void()>)>;
  // A RunBoth on this thread alone: the first, then the second.
  static void OneAfterTheOther(absl::FunctionRef<void()> first, absl::FunctionRef<void()> second) {
    first();
    second();
  }
  // Run with an upper bound `below`, each direction swept up its own ancestors on its own,
  // pruned against `below` alone (and `bound`'s geometric part, toward the box around the
  // other side's seeds; not its landmarks), then the cheapest meeting taken: `both` may run
  // the two sweeps on two threads, and the path's two halves' unpacking. Same cost as Run
  // with `below`.
  Result RunSplit(const CchMetric& metric, const std::vector<Seed>& sources,
                  const std::vector<Seed>& targets, std::vector<std::uint32_t>* arc_path,
                  const CchBound* bound, double below, RunBoth both);

  // Where one side's seeds lie, for a split side's bound: a box of columns [x0, x1] x [y0, y1]
  // around them (by CchBound's coordinates) and the least seed cost. Empty: no seed.
  struct SeedArea {
    double x0 = kInfCost, y0 = kInfCost, x1 = -kInfCost, y1 = -kInfCost;
    double cheapest = kInfCost;
    // The box around `seeds`.
    static SeedArea Of(const CchBound& bound, const Cch& cch, const std::vector<Seed>& seeds);
    // Octile columns from (x, y) to the box (0 inside it).
    double Columns(double x, double y) const;
  };
  // RunSplit in pieces, for a caller that sweeps each side on its own thread as soon as its
  // seeds are known: SplitBegin, then SplitSide for each direction (the two may run at the
  // same time, on two threads), then SplitEnd. `other` holds the other side's seeds: its box
  // and least cost (with `bound`; ignored without). SplitEnd may unpack the path's way up
  // and way down on two threads (`both`).
  void SplitBegin(const CchMetric& metric);
  void SplitSide(std::uint32_t d, const CchMetric& metric, const std::vector<Seed>& seeds,
                 const CchBound* bound, const SeedArea& other, double below);
  Result SplitEnd(const CchMetric& metric, double below, std::vector<std::uint32_t>* arc_path,
                  RunBoth both = OneAfterTheOther);

  // The same answer by a bidirectional Dijkstra over the hierarchy's upward arcs, with
  // stall-on-demand: each side settles ranks in cost order and stops once its cheapest open
  // rank costs no less than the best meeting, so ranks far along a long separator are never
  // touched. (Ties may pick another of the equally cheap ways.)
  Result RunDijkstra(const CchMetric& metric, const std::vector<Seed>& sources,
                     const std::vector<Seed>& targets,
                     std::vector<std::uint32_t>* arc_path = nullptr);

 private:
  // Run's state of one rank, both directions side by side (index Cch::kForward: from the
  // sources; Cch::kBackward: from the targets), so that relaxing an arc of a rank both sides
  // reach reads its weights and its head's label once. Valid where stamp_[r][d] == generation_.
  struct Label {
    double cost[2];
    std::uint32_t pred_arc[2];  // the arc from the lower rank reached from, kInvalidId at a seed
  };
  // RunDijkstra's state of one direction: up from the sources over forward slots, or up from
  // the targets over backward slots. Per rank, valid where stamp == generation_; allocated on
  // first use.
  struct Side {
    std::vector<std::uint32_t> stamp;
    std::vector<double> cost;
    std::vector<std::uint32_t> seed;      // index of the seed the cost comes from
    std::vector<std::uint32_t> pred;      // lower rank reached from, kInvalidId at a seed
    std::vector<std::uint32_t> pred_arc;  // the arc from pred
    std::vector<std::uint8_t> settled;    // taken off the heap
    IndexedMinHeap heap;
  };
  // A meeting at `meet` (kInvalidId: none) as a Result, its path unpacked when asked.
  // `step(d, r)` gives the lower rank and arc rank r of direction d was reached from
  // ({kInvalidId, _} at a seed); `seed(d, r)` the index of the seed at such a bottom rank.
  // The way up and the way down unpack apart, by `both` (on two threads where it finds them:
  // a path's arcs are read at random places of the metric, hundreds of misses each half).
  template <typename Step, typename SeedAt>
  Result Conclude(const CchMetric& metric, std::uint32_t meet, double cost, Step step, SeedAt seed,
                  std::vector<std::uint32_t>* arc_path, RunBoth both = OneAfterTheOther);
  // Marks the elimination-tree ancestors of `seeds` for direction d, marking those neither
  // direction had in rank_bits_, and sets the seeds' costs.
  void Start(std::uint32_t d, const std::vector<Seed>& seeds);
  // Conclude for Run and SplitEnd: the steps from label_, the seeds from seed_at_.
  Result ConcludeFromLabels(const CchMetric& metric, std::uint32_t meet, double cost,
                            std::vector<std::uint32_t>* arc_path, RunBoth both = OneAfterTheOther);
  // Starts a new generation of stamps.
  void NextGeneration();
  // Marks rank r in `bits` (a bit a rank) and its word of them in `words` (a bit a word).
  static void Mark(std::uint32_t r, std::uint64_t* bits, std::uint64_t* words);
  // Appends the ranks marked in `bits` (a bit a rank; `words`, a bit a word of it) to `ranks`,
  // ascending, and clears the marks (Run: visited_ from the marks Start left in rank_bits_).
  static void CollectMarks(std::vector<std::uint64_t>& bits, std::vector<std::uint64_t>& words,
                           std::vector<std::uint32_t>* ranks);
  // Sets the costs of `seeds` in direction d (their ranks started), noting which seed each
  // rank's cost comes from.
  void SetSeedCosts(std::uint32_t d, const std::vector<Seed>& seeds);
  // The lower rank of arc `arc`.
  std::uint32_t Tail(std::uint32_t arc) const;
  struct Pending {
    std::uint32_t arc, direction;
  };
  // Appends the input arcs of slot 2 * arc + direction, with `stack` as scratch.
  void Unpack(const CchMetric& metric, std::uint32_t arc, std::uint32_t direction,
              std::vector<Pending>* stack, std::vector<std::uint32_t>* arc_path) const;

  const Cch* cch_;
  std::uint32_t generation_ = 0;
  std::vector<Label> label_;                         // by rank (Run)
  std::vector<std::array<std::uint32_t, 2>> stamp_;  // by rank and direction (Run)
  std::vector<std::uint32_t> visited_;  // Run: ranks either direction visits, ascending
  // Run: the ranks Start marks, a bit each (by rank / 64), and which of those words have any
  // (by rank / 4096): read in order and cleared after Start, so visited_ needs no sort.
  std::vector<std::uint64_t> rank_bits_, rank_words_;
  // SplitSide: the same marks and ranks per direction (allocated on first use).
  std::vector<std::uint64_t> side_bits_[2], side_words_[2];
  std::vector<std::uint32_t> side_visited_[2];
  // Run: {rank, index of the seed whose cost the rank holds}, per direction
  std::vector<std::pair<std::uint32_t, std::uint32_t>> seed_at_[2];
  Side side_[2];  // RunDijkstra: [Cch::kForward] from the sources, [Cch::kBackward] the targets
  // Conclude: the arcs up to the meeting (top down), the arcs down from it, and each half's
  // unpacking scratch; the way down's input arcs until they follow the way up's.
  std::vector<std::uint32_t> chain_, down_arcs_, down_path_;
  std::vector<Pending> unpack_stack_[2];
};

// A lower bound on the cost of any way from a source to a target (seed costs included) under
// `bound`: the least, over pairs of seeds, of both seeds' costs plus cost_per_unit times the
// octile distance between them. kInfCost when a side has no seed.
double BoundBetween(const CchBound& bound, const Cch& cch,
                    const std::vector<CchQuery::Seed>& sources,
                    const std::vector<CchQuery::Seed>& targets);

}  // namespace walk::nav
