#include "nav/cch/cch.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>
#include <cmath>
#include <limits>
#include <optional>
#include <thread>
#include <type_traits>

#include "nav/cch/cch_triangle_row.h"
#include "nav/grid/surface.h"
#include "nav/search/indexed_heap.h"

namespace walk::nav {
namespace {

// Customization prefetches this many rows of triangles ahead: each row starts at a lower rank
// far away in memory, and a row is 76 triangles on average (the 32 x 32 world), so waiting
// for each row's first lines cost as much as a fifth of the work (6, 12 and 24 measured alike).
constexpr std::uint32_t kPrefetchRows = 6;

template <typename Vector>
std::uint64_t Bytes(const Vector& v) {
  return v.capacity() * sizeof(typename Vector::value_type);
}

}  // namespace

Cch::Cch(std::uint32_t node_count, const std::vector<std::uint32_t>& order,
         const std::vector<std::uint32_t>& tails, const std::vector<std::uint32_t>& heads)
    : node_count_(node_count),
      order_(order),
      rank_(node_count, kInvalidId),
      parent_(node_count, kInvalidId),
      first_out_(node_count + 1, 0),
      input_slot_(tails.size(), kInvalidId) {
  assert(order.size() == node_count);
  assert(tails.size() == heads.size());
  assert(tails.size() < CchMetric::kViaMiddle);  // input arc ids must not collide with kViaMiddle
  for (std::uint32_t r = 0; r < node_count; ++r) {
    assert(order[r] < node_count && rank_[order[r]] == kInvalidId);  // a permutation
    rank_[order[r]] = r;
  }

  // The input arcs as upward edges in rank space, grouped by lower rank (repeats allowed).
  std::vector<std::uint32_t> input_first(node_count + 1, 0);
  for (std::size_t a = 0; a < tails.size(); ++a) {
    assert(tails[a] < node_count && heads[a] < node_count);
    const std::uint32_t t = rank_[tails[a]];
    const std::uint32_t h = rank_[heads[a]];
    if (t != h) ++input_first[std::min(t, h) + 1];
  }
  for (std::uint32_t r = 0; r < node_count; ++r) input_first[r + 1] += input_first[r];
  std::vector<std::uint32_t> input_head(input_first[node_count]);
  {
    std::vector<std::uint32_t> fill(input_first.begin(), input_first.end() - 1);
    for (std::size_t a = 0; a < tails.size(); ++a) {
      const std::uint32_t t = rank_[tails[a]];
      const std::uint32_t h = rank_[heads[a]];
      if (t != h) input_head[fill[std::min(t, h)]++] = std::max(t, h);
    }
  }

  // Contract in rank order. Eliminating a rank joins its upward neighbours into a clique; all
  // of those edges but the ones at its lowest neighbour (its parent) reach their own lower end
  // by passing up the elimination tree, so a rank's upward neighbours are its input ones plus
  // its children's, itself removed. Children are finished before their parent.
  std::vector<std::uint32_t> first_child(node_count, kInvalidId);
  std::vector<std::uint32_t> next_sibling(node_count, kInvalidId);
  std::vector<std::uint32_t> mark(node_count, kInvalidId);
  std::vector<std::uint32_t> up;
  for (std::uint32_t r = 0; r < node_count; ++r) {
    up.clear();
    mark[r] = r;
    for (std::uint32_t e = input_first[r]; e < input_first[r + 1]; ++e) {
      const std::uint32_t h = input_head[e];
      if (mark[h] != r) {
        mark[h] = r;
        up.push_back(h);
      }
    }
    for (std::uint32_t c = first_child[r]; c != kInvalidId; c = next_sibling[c]) {
      for (std::uint32_t e = first_out_[c]; e < first_out_[c + 1]; ++e) {
        const std::uint32_t h = head_[e];
        if (mark[h] != r) {
          mark[h] = r;
          up.push_back(h);
        }
      }
    }
    std::sort(up.begin(), up.end());
    head_.insert(head_.end(), up.begin(), up.end());
    assert(head_.size() < CchMetric::kViaMiddle);  // slots 2 * arc + 1 must fit 32 bits
    first_out_[r + 1] = static_cast<std::uint32_t>(head_.size());
    if (!up.empty()) {
      const std::uint32_t p = up.front();
      parent_[r] = p;
      next_sibling[r] = first_child[p];
      first_child[p] = r;
    }
  }
  head_.shrink_to_fit();

  // The same arcs by upper rank, for customization (counting sort; lower ranks stay ascending).
  down_first_.assign(node_count + 1, 0);
  for (const std::uint32_t h : head_) ++down_first_[h + 1];
  for (std::uint32_t r = 0; r < node_count; ++r) down_first_[r + 1] += down_first_[r];
  down_arc_.resize(head_.size());
  down_tail_.resize(head_.size());
  {
    std::vector<std::uint32_t> fill(down_first_.begin(), down_first_.end() - 1);
    for (std::uint32_t r = 0; r < node_count; ++r) {
      for (std::uint32_t arc = first_out_[r]; arc < first_out_[r + 1]; ++arc) {
        const std::uint32_t at = fill[head_[arc]]++;
        down_arc_[at] = arc;
        down_tail_[at] = r;
      }
    }
  }

  std::vector<std::uint32_t> depth(node_count, 0);
  for (std::uint32_t r = node_count; r-- > 0;) {
    depth[r] = parent_[r] == kInvalidId ? 1 : depth[parent_[r]] + 1;
    elimination_tree_height_ = std::max(elimination_tree_height_, depth[r]);
  }

  for (std::size_t a = 0; a < tails.size(); ++a) {
    const std::uint32_t t = rank_[tails[a]];
    const std::uint32_t h = rank_[heads[a]];
    if (t == h) continue;
    const std::uint32_t arc = FindArc(std::min(t, h), std::max(t, h));
    assert(arc != kInvalidId);
    input_slot_[a] = 2 * arc + (t < h ? kForward : kBackward);
  }
}

std::uint32_t Cch::FindArc(std::uint32_t lower, std::uint32_t upper) const {
  const auto begin = head_.begin() + first_out_[lower];
  const auto end = head_.begin() + first_out_[lower + 1];
  const auto it = std::lower_bound(begin, end, upper);
  if (it == end || *it != upper) return kInvalidId;
  return static_cast<std::uint32_t>(it - head_.begin());
}

std::uint64_t Cch::MemoryBytes() const {
  return sizeof(*this) + Bytes(order_) + Bytes(rank_) + Bytes(parent_) + Bytes(first_out_) +
         Bytes(head_) + Bytes(input_slot_) + Bytes(down_first_) + Bytes(down_arc_) +
         Bytes(down_tail_);
}

CchMetric::CchMetric(const Cch& cch, const std::vector<double>& weights, bool perfect,
                     unsigned threads)
    : cch_(&cch), perfect_(perfect) {
  Customize(weights, threads);
}

void CchMetric::Customize(const std::vector<double>& weights, unsigned threads) {
  const Cch& cch = *cch_;
  assert(weights.size() == cch.input_arc_count());
  // Threads pay off only on hierarchies with millions of triangles.
  const std::uint32_t n = cch.node_count();
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  if (cch.arc_count() < (1u << 16)) threads = 1;
  auto on_threads = [threads](auto work) {  // work(t) on threads t = 0 .. threads - 1
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
    work(0u);
    for (std::thread& thread : pool) thread.join();
  };

  // Every slot unreachable, then the input arcs' weights, each thread taking the slots of one
  // range of arcs: on the first customization that is where their pages are first touched.
  // Input arcs land at random slots, so each thread reads every input arc, in order (of
  // equally cheap parallel arcs the first still counts), and keeps those of its range.
  const std::size_t arcs = cch.arc_count();
  for (std::uint32_t d = 0; d < 2; ++d) {
    weight_[d].resize(arcs);
    via_[d].resize(arcs);
  }
  on_threads([&](unsigned t) {
    const std::size_t begin = arcs * t / threads, end = arcs * (t + 1) / threads;
    for (std::uint32_t d = 0; d < 2; ++d) {
      std::fill(weight_[d].begin() + begin, weight_[d].begin() + end, kInfCost);
      std::fill(via_[d].begin() + begin, via_[d].begin() + end, kInvalidId);
    }
    for (std::uint32_t a = 0; a < cch.input_arc_count(); ++a) {
      const std::uint32_t slot = cch.input_slot(a);
      assert(!(weights[a] < 0.0));
      if (slot == kInvalidId || (slot >> 1) < begin || (slot >> 1) >= end) continue;
      double& weight = weight_[slot & 1][slot >> 1];
      if (weights[a] < weight) {  // parallel arcs: the cheapest
        weight = weights[a];
        via_[slot & 1][slot >> 1] = a;
      }
    }
  });

  if (threads == 1) {
    std::vector<std::uint32_t> position(n);
    for (std::uint32_t a = 0; a < n; ++a) PullTriangles(a, position.data());
  } else {
    // Bottom up the elimination tree: workers take leaves in rank order, and whoever settles
    // the last child of a rank goes on to settle that rank (acquire-release on the count makes
    // every child's arcs visible there). Subtrees apart in the tree settle side by side.
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
    on_threads([&](unsigned) {
      std::vector<std::uint32_t> position(n);
      for (std::size_t begin; (begin = next_leaf.fetch_add(kLeavesATake)) < leaves.size();) {
        const std::size_t end = std::min(leaves.size(), begin + kLeavesATake);
        for (std::size_t i = begin; i < end; ++i) {
          for (std::uint32_t r = leaves[i];;) {
            PullTriangles(r, position.data());
            r = cch.parent(r);
            if (r == kInvalidId ||
                unsettled_children[r].fetch_sub(1, std::memory_order_acq_rel) != 1)
              break;
          }
        }
      }
    });
  }
  if (perfect_) Perfect();
}

void CchMetric::PullTriangles(std::uint32_t a, std::uint32_t* position) {
  const Cch& cch = *cch_;
  double* const forward = weight_[Cch::kForward].data();
  double* const backward = weight_[Cch::kBackward].data();
  std::uint32_t* const forward_via = via_[Cch::kForward].data();
  std::uint32_t* const backward_via = via_[Cch::kBackward].data();
  const std::uint32_t* const first_out = cch.first_out().data();
  const std::uint32_t* const head = cch.head().data();
  const std::uint32_t begin = first_out[a], end = first_out[a + 1];
  if (begin == end) return;
  // Where each upward neighbour b of a sits among a's arcs. The arcs of every v below a,
  // above a, are a subset of a's (chordality), so every b is found here.
  for (std::uint32_t z = begin; z < end; ++z) position[head[z]] = z;
  const TriangleArrays arrays{head, position, forward, backward, forward_via, backward_via};
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
    const double v_to_a = forward[x];
    const double a_to_v = backward[x];
    if (v_to_a == kInfCost && a_to_v == kInfCost) continue;
    // Arcs x + 1 .. of v go up to the b above a; the triangle goes by its arc (v, a).
    RelaxTriangleRow(arrays, x + 1, first_out[v + 1], a_to_v, v_to_a, kViaMiddle | x);
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

std::uint64_t CchMetric::kept_count() const {
  if (!perfect_) return 2 * cch_->arc_count();
  return kept_head_[0].size() + kept_head_[1].size();
}

std::uint64_t CchMetric::MemoryBytes() const {
  std::uint64_t kept = 0;
  for (std::uint32_t d = 0; d < 2; ++d) {
    kept +=
        Bytes(kept_first_[d]) + Bytes(kept_head_[d]) + Bytes(kept_weight_[d]) + Bytes(kept_arc_[d]);
  }
  return sizeof(*this) + Bytes(weight_[0]) + Bytes(weight_[1]) + Bytes(via_[0]) + Bytes(via_[1]) +
         kept;
}

CchQuery::CchQuery(const Cch& cch) : cch_(&cch) {
  label_.assign(cch.node_count(), Label{{kInfCost, kInfCost}, {kInvalidId, kInvalidId}});
  stamp_.assign(cch.node_count(), {0, 0});
  rank_bits_.assign((cch.node_count() + 63) / 64, 0);
  rank_words_.assign((rank_bits_.size() + 63) / 64, 0);
}

void CchQuery::NextGeneration() {
  if (++generation_ != 0) return;
  // Wrapped: the only time the stamps are cleared.
  std::fill(stamp_.begin(), stamp_.end(), std::array<std::uint32_t, 2>{0, 0});
  for (Side& side : side_) std::fill(side.stamp.begin(), side.stamp.end(), 0);
  generation_ = 1;
}

std::uint32_t CchQuery::Tail(std::uint32_t arc) const {
  const std::vector<std::uint32_t>& first_out = cch_->first_out();
  return static_cast<std::uint32_t>(std::upper_bound(first_out.begin(), first_out.end(), arc) -
                                    first_out.begin()) -
         1;
}

void CchQuery::Start(std::uint32_t d, const std::vector<Seed>& seeds) {
  seed_at_[d].clear();
  for (const Seed& seed : seeds) {
    assert(seed.node < cch_->node_count());
    if (!(seed.cost < kInfCost)) continue;
    // Up to the first ancestor already visited: the rest of the way is visited too.
    for (std::uint32_t r = cch_->rank(seed.node); r != kInvalidId && stamp_[r][d] != generation_;
         r = cch_->parent(r)) {
      Label& label = label_[r];
      if (stamp_[r][d ^ 1] != generation_) {  // new to both directions
        label.cost[0] = label.cost[1] = kInfCost;
        label.pred_arc[0] = label.pred_arc[1] = kInvalidId;
        Mark(r, rank_bits_.data(), rank_words_.data());
      }
      stamp_[r][d] = generation_;
    }
  }
  SetSeedCosts(d, seeds);
}

void CchQuery::SetSeedCosts(std::uint32_t d, const std::vector<Seed>& seeds) {
  for (std::uint32_t i = 0; i < seeds.size(); ++i) {
    if (!(seeds[i].cost < kInfCost)) continue;
    const std::uint32_t r = cch_->rank(seeds[i].node);
    if (!(seeds[i].cost < label_[r].cost[d])) continue;  // an earlier seed as cheap wins
    if (label_[r].cost[d] == kInfCost) {
      seed_at_[d].push_back({r, i});
    } else {
      for (auto& at : seed_at_[d]) {
        if (at.first == r) at.second = i;
      }
    }
    label_[r].cost[d] = seeds[i].cost;
  }
}

void CchQuery::Mark(std::uint32_t r, std::uint64_t* bits, std::uint64_t* words) {
  bits[r / 64] |= std::uint64_t{1} << (r % 64);
  words[r / 4096] |= std::uint64_t{1} << (r / 64 % 64);
}

void CchQuery::CollectMarks(std::vector<std::uint64_t>& bits, std::vector<std::uint64_t>& words,
                            std::vector<std::uint32_t>* ranks) {
  // The ranks marked, in ascending order: each 64-rank word of marks that has any is itself
  // marked one level up, so a scan of the upper level finds them without a sort.
  ranks->clear();
  for (std::size_t u = 0; u < words.size(); ++u) {
    for (std::uint64_t upper = words[u]; upper != 0; upper &= upper - 1) {
      const std::size_t word = u * 64 + static_cast<std::size_t>(std::countr_zero(upper));
      for (std::uint64_t marks = bits[word]; marks != 0; marks &= marks - 1) {
        ranks->push_back(static_cast<std::uint32_t>(
            word * 64 + static_cast<std::size_t>(std::countr_zero(marks))));
      }
      bits[word] = 0;
    }
    words[u] = 0;
  }
}

CchQuery::SeedArea CchQuery::SeedArea::Of(const CchBound& bound, const Cch& cch,
                                          const std::vector<Seed>& seeds) {
  SeedArea area;
  for (const Seed& s : seeds) {
    if (!(s.cost < kInfCost)) continue;
    const std::uint32_t r = cch.rank(s.node);
    area.x0 = std::min(area.x0, double{(*bound.x)[r]});
    area.y0 = std::min(area.y0, double{(*bound.y)[r]});
    area.x1 = std::max(area.x1, double{(*bound.x)[r]});
    area.y1 = std::max(area.y1, double{(*bound.y)[r]});
    area.cheapest = std::min(area.cheapest, s.cost);
  }
  return area;
}

double CchQuery::SeedArea::Columns(double x, double y) const {
  return OctileColumns(std::max({0.0, x0 - x, x - x1}), std::max({0.0, y0 - y, y - y1}));
}

double BoundBetween(const CchBound& bound, const Cch& cch,
                    const std::vector<CchQuery::Seed>& sources,
                    const std::vector<CchQuery::Seed>& targets) {
  double lowest = kInfCost;
  for (const CchQuery::Seed& s : sources) {
    if (!(s.cost < kInfCost)) continue;
    const std::uint32_t rs = cch.rank(s.node);
    for (const CchQuery::Seed& t : targets) {
      if (!(t.cost < kInfCost)) continue;
      const std::uint32_t rt = cch.rank(t.node);
      const double units = OctileColumns(std::abs(double{(*bound.x)[rs]} - (*bound.x)[rt]),
                                         std::abs(double{(*bound.y)[rs]} - (*bound.y)[rt]));
      lowest = std::min(lowest, s.cost + t.cost + bound.cost_per_unit * units);
    }
  }
  return lowest;
}

double CchBound::LowestCostPerUnit(const std::vector<std::uint32_t>& tails,
                                   const std::vector<std::uint32_t>& heads,
                                   const std::vector<double>& weights, const std::vector<float>& x,
                                   const std::vector<float>& y) {
  double lowest = kInfCost;
  for (std::size_t a = 0; a < tails.size(); ++a) {
    const double units = OctileColumns(std::abs(double{x[tails[a]]} - x[heads[a]]),
                                       std::abs(double{y[tails[a]]} - y[heads[a]]));
    if (units > 0.0 && weights[a] < kInfCost) lowest = std::min(lowest, weights[a] / units);
  }
  return lowest < kInfCost ? lowest * (1.0 - 1e-9) : 0.0;
}

namespace {

// Costs from `source` to every node over the CSR (first, head, weight), kInfCost where none.
void Distances(std::uint32_t source, const std::vector<std::uint32_t>& first,
               const std::vector<std::uint32_t>& head, const std::vector<double>& weight,
               IndexedMinHeap& heap, std::vector<double>* cost) {
  const std::uint32_t n = static_cast<std::uint32_t>(first.size() - 1);
  cost->assign(n, kInfCost);
  heap.Reset(n);
  std::vector<std::uint8_t> queued(n, 0);
  (*cost)[source] = 0.0;
  heap.Push(source, 0.0);
  queued[source] = 1;
  while (!heap.empty()) {
    double c;
    const std::uint32_t v = heap.PopMin(&c);
    for (std::uint32_t a = first[v]; a < first[v + 1]; ++a) {
      const double via = c + weight[a];
      const std::uint32_t h = head[a];
      if (!(via < (*cost)[h])) continue;
      (*cost)[h] = via;
      if (queued[h]) {
        heap.Decrease(h, via);
      } else {
        queued[h] = 1;
        heap.Push(h, via);
      }
    }
  }
}

}  // namespace

CchLandmarks CchLandmarks::Compute(const Cch& cch, const std::vector<std::uint32_t>& tails,
                                   const std::vector<std::uint32_t>& heads,
                                   const std::vector<double>& weights, std::uint32_t count) {
  const std::uint32_t n = cch.node_count();
  CchLandmarks marks;
  if (n == 0 || count == 0) return marks;
  // Both directions as CSR over the arcs that can be taken.
  std::vector<std::uint32_t> first[2], head[2];
  std::vector<double> weight[2];
  for (int d = 0; d < 2; ++d) {
    const auto& from = d == 0 ? tails : heads;
    const auto& to = d == 0 ? heads : tails;
    first[d].assign(n + 1, 0);
    for (std::size_t a = 0; a < from.size(); ++a) {
      if (weights[a] < kInfCost) ++first[d][from[a] + 1];
    }
    for (std::uint32_t v = 0; v < n; ++v) first[d][v + 1] += first[d][v];
    head[d].resize(first[d][n]);
    weight[d].resize(first[d][n]);
    std::vector<std::uint32_t> at(first[d].begin(), first[d].end() - 1);
    for (std::size_t a = 0; a < from.size(); ++a) {
      if (!(weights[a] < kInfCost)) continue;
      head[d][at[from[a]]] = to[a];
      weight[d][at[from[a]]++] = weights[a];
    }
  }
  marks.count = count;
  marks.from.assign(std::size_t{n} * count, std::numeric_limits<float>::infinity());
  marks.to.assign(std::size_t{n} * count, std::numeric_limits<float>::infinity());
  IndexedMinHeap heap;
  std::vector<double> cost;
  std::vector<double> nearest(n, kInfCost);  // cost from the nearest chosen landmark
  // Start from the node farthest from node 0, then always the farthest from those chosen.
  Distances(0, first[0], head[0], weight[0], heap, &cost);
  std::uint32_t next = 0;
  for (std::uint32_t v = 0; v < n; ++v) {
    if (cost[v] < kInfCost && cost[v] > cost[next]) next = v;
  }
  for (std::uint32_t l = 0; l < count; ++l) {
    const std::uint32_t mark = next;
    for (int d = 0; d < 2; ++d) {
      Distances(mark, first[d], head[d], weight[d], heap, &cost);
      std::vector<float>& out = d == 0 ? marks.from : marks.to;
      for (std::uint32_t v = 0; v < n; ++v) {
        if (cost[v] < kInfCost)
          out[std::size_t{cch.rank(v)} * count + l] = static_cast<float>(cost[v]);
        if (d == 0) nearest[v] = std::min(nearest[v], cost[v]);
      }
    }
    double farthest = -1.0;
    for (std::uint32_t v = 0; v < n; ++v) {
      if (nearest[v] < kInfCost && nearest[v] > farthest) {
        farthest = nearest[v];
        next = v;
      }
    }
  }
  return marks;
}

namespace {

// A lower bound of the cost from a rank at (x, y) to the cheapest of some seeds (or from them
// to it): their centre, how far the farthest lies from it, and the cheapest seed's cost.
struct SeedsBound {
  double x = 0.0, y = 0.0, radius = 0.0, cheapest = 0.0, cost_per_unit = 0.0;

  SeedsBound(const CchBound& bound, const Cch& cch, const std::vector<CchQuery::Seed>& seeds)
      : cost_per_unit(bound.cost_per_unit) {
    std::size_t n = 0;
    cheapest = kInfCost;
    for (const CchQuery::Seed& s : seeds) {
      if (!(s.cost < kInfCost)) continue;
      const std::uint32_t r = cch.rank(s.node);
      x += (*bound.x)[r];
      y += (*bound.y)[r];
      cheapest = std::min(cheapest, s.cost);
      ++n;
    }
    if (n == 0) return;
    x /= static_cast<double>(n);
    y /= static_cast<double>(n);
    for (const CchQuery::Seed& s : seeds) {
      if (!(s.cost < kInfCost)) continue;
      const std::uint32_t r = cch.rank(s.node);
      radius =
          std::max(radius, OctileColumns(std::abs((*bound.x)[r] - x), std::abs((*bound.y)[r] - y)));
    }
  }
  // dist(r, seed) + seed cost >= cost_per_unit * (octile(r, centre) - radius) + cheapest.
  double At(double rx, double ry) const {
    const double units = OctileColumns(std::abs(rx - x), std::abs(ry - y)) - radius;
    return (units > 0.0 ? cost_per_unit * units : 0.0) + cheapest;
  }
};

// The landmark (ALT) bound of one side: for the forward side, of the rest of the way from a rank
// to the targets; for the backward side, of the way from the sources to a rank. Per landmark L,
// what the seeds (cost c) contribute, by the triangle inequality:
//   to targets:    d(r,t) + c >= p - d(L,r), p = min (d(L,t) + c);  >= d(r,L) - q, q = max (d(t,L)
//   - c) from sources:  d(s,r) + c >= d(L,r) - p, p = max (d(L,s) - c);  >= q - d(r,L), q = min
//   (d(s,L) + c)
// An infinite cost where a finite one is needed proves the rank cut off: the bound is infinite.
struct LandmarkBound {
  const CchLandmarks* marks;
  bool to_seeds;
  std::vector<double> p, q;

  LandmarkBound(const CchLandmarks& m, const Cch& cch, const std::vector<CchQuery::Seed>& seeds,
                bool to)
      : marks(&m),
        to_seeds(to),
        p(m.count, to ? kInfCost : -kInfCost),
        q(m.count, to ? -kInfCost : kInfCost) {
    for (const CchQuery::Seed& s : seeds) {
      if (!(s.cost < kInfCost)) continue;
      const std::size_t at = std::size_t{cch.rank(s.node)} * m.count;
      for (std::uint32_t l = 0; l < m.count; ++l) {
        const double from_l = Cost(m.from[at + l]), to_l = Cost(m.to[at + l]);
        if (to) {
          p[l] = std::min(p[l], from_l + s.cost);
          q[l] = std::max(q[l], to_l - s.cost);
        } else {
          p[l] = std::max(p[l], from_l - s.cost);
          q[l] = std::min(q[l], to_l + s.cost);
        }
      }
    }
  }
  static double Cost(float c) { return std::isinf(c) ? kInfCost : static_cast<double>(c); }
  // a - b, a hair less (floats round); b finite, a possibly infinite.
  static double Less(double a, double b) { return a - b - 1e-6 * (std::abs(a) + std::abs(b)); }

  double At(std::uint32_t r) const {
    const std::size_t at = std::size_t{r} * marks->count;
    double bound = 0.0;
    for (std::uint32_t l = 0; l < marks->count; ++l) {
      const double from_l = Cost(marks->from[at + l]), to_l = Cost(marks->to[at + l]);
      if (to_seeds) {
        if (from_l < kInfCost)
          bound = std::max(bound, p[l] < kInfCost ? Less(p[l], from_l) : kInfCost);
        if (q[l] < kInfCost) bound = std::max(bound, to_l < kInfCost ? Less(to_l, q[l]) : kInfCost);
      } else {
        if (p[l] < kInfCost)
          bound = std::max(bound, from_l < kInfCost ? Less(from_l, p[l]) : kInfCost);
        if (to_l < kInfCost) bound = std::max(bound, q[l] < kInfCost ? Less(q[l], to_l) : kInfCost);
      }
    }
    return bound;
  }
};

}  // namespace

CchQuery::Result CchQuery::Run(const CchMetric& metric, const std::vector<Seed>& sources,
                               const std::vector<Seed>& targets,
                               std::vector<std::uint32_t>* arc_path, const CchBound* bound,
                               double below) {
  assert(&metric.cch() == cch_);
  if (arc_path != nullptr) arc_path->clear();
  NextGeneration();
  Start(Cch::kForward, sources);
  Start(Cch::kBackward, targets);
  CollectMarks(rank_bits_, rank_words_, &visited_);

  // One sweep up the union of the two ancestor sets, rank by rank, both directions at once:
  // near the top, where the separators are long and both sides share their ranks, each arc's
  // two weights and its head's label are read once for both. Pruned: a direction whose cost at
  // a rank is already no better than the best meeting found cannot lead to a better one
  // (weights are not negative), so its arcs are not relaxed; with a bound, not even when its
  // cost plus the least the rest of the way costs is no better.
  const double* const forward_weight = metric.weights(Cch::kForward).data();
  const double* const backward_weight = metric.weights(Cch::kBackward).data();
  const std::uint32_t* const first_out = cch_->first_out().data();
  const std::uint32_t* const head = cch_->head().data();
  Label* const label = label_.data();
  double best = below;
  std::uint32_t meet = kInvalidId;
  // With a bound: the rest of the way from a rank of the forward side to the targets, and from
  // the sources to a rank of the backward side.
  std::optional<SeedsBound> to_targets, from_sources;
  if (bound != nullptr && bound->cost_per_unit > 0.0) {
    to_targets.emplace(*bound, *cch_, targets);
    from_sources.emplace(*bound, *cch_, sources);
  }
  std::optional<LandmarkBound> alt_to_targets, alt_from_sources;
  if (bound != nullptr && bound->landmarks != nullptr && bound->landmarks->count > 0) {
    alt_to_targets.emplace(*bound->landmarks, *cch_, targets, true);
    alt_from_sources.emplace(*bound->landmarks, *cch_, sources, false);
  }
  // The cost direction d carries on from rank r, infinite where it cannot beat `best`.
  auto onward = [&](std::uint32_t r, std::uint32_t d) {
    const double cost = label[r].cost[d];
    if (!(cost < best)) return kInfCost;
    if (best == kInfCost) return cost;
    if (to_targets) {
      const SeedsBound& rest = d == Cch::kForward ? *to_targets : *from_sources;
      if (!(cost + rest.At((*bound->x)[r], (*bound->y)[r]) < best)) return kInfCost;
    }
    if (alt_to_targets) {
      const LandmarkBound& rest = d == Cch::kForward ? *alt_to_targets : *alt_from_sources;
      if (!(cost + rest.At(r) < best)) return kInfCost;
    }
    return cost;
  };
  // A rank both directions reach is a way already, before either settles it: the best of those
  // bounds the search from the start, so the pruning above bites low in the tree too.
  auto reach = [&](Label& to, std::uint32_t d, double cost, std::uint32_t arc, std::uint32_t h) {
    if (!(cost < to.cost[d])) return;
    to.cost[d] = cost;
    to.pred_arc[d] = arc;
    if (cost + to.cost[d ^ 1] < best) {
      best = cost + to.cost[d ^ 1];
      meet = h;
    }
  };

  for (const std::uint32_t r : visited_) {
    if (label[r].cost[0] + label[r].cost[1] < best) {
      best = label[r].cost[0] + label[r].cost[1];
      meet = r;
    }
    const double up = onward(r, Cch::kForward);
    const double down = onward(r, Cch::kBackward);
    if (up == kInfCost && down == kInfCost) continue;
    if (metric.perfect()) {  // only the arcs some shortest way needs, by direction
      for (std::uint32_t d = 0; d < 2; ++d) {
        const double cost = d == Cch::kForward ? up : down;
        if (cost == kInfCost) continue;
        const std::vector<std::uint32_t>& first = metric.kept_first(d);
        for (std::uint32_t k = first[r]; k < first[r + 1]; ++k) {
          const std::uint32_t h = metric.kept_head(d)[k];
          assert(stamp_[h][d] == generation_);
          reach(label[h], d, cost + metric.kept_weight(d)[k], metric.kept_arc(d)[k], h);
        }
      }
      continue;
    }
    // A direction that is not carried on is left out of the loop.
    auto relax = [&](auto forward, auto backward) {
      const std::uint32_t end = first_out[r + 1];
      for (std::uint32_t x = first_out[r]; x < end; ++x) {
        const std::uint32_t h = head[x];
        Label& to = label[h];
        assert(!forward || stamp_[h][Cch::kForward] == generation_);  // upward: ancestors
        assert(!backward || stamp_[h][Cch::kBackward] == generation_);
        if constexpr (forward) reach(to, Cch::kForward, up + forward_weight[x], x, h);
        if constexpr (backward) reach(to, Cch::kBackward, down + backward_weight[x], x, h);
      }
    };
    if (down == kInfCost) {
      relax(std::true_type{}, std::false_type{});
    } else if (up == kInfCost) {
      relax(std::false_type{}, std::true_type{});
    } else {
      relax(std::true_type{}, std::true_type{});
    }
  }
  return ConcludeFromLabels(metric, meet, best, arc_path);
}

CchQuery::Result CchQuery::RunSplit(const CchMetric& metric, const std::vector<Seed>& sources,
                                    const std::vector<Seed>& targets,
                                    std::vector<std::uint32_t>* arc_path, const CchBound* bound,
                                    double below, RunBoth both) {
  SplitBegin(metric);
  const SeedArea target_area = bound != nullptr ? SeedArea::Of(*bound, *cch_, targets) : SeedArea{};
  const SeedArea source_area = bound != nullptr ? SeedArea::Of(*bound, *cch_, sources) : SeedArea{};
  both([&] { SplitSide(Cch::kForward, metric, sources, bound, target_area, below); },
       [&] { SplitSide(Cch::kBackward, metric, targets, bound, source_area, below); });
  return SplitEnd(metric, below, arc_path, both);
}

void CchQuery::SplitBegin(const CchMetric& metric) {
  assert(&metric.cch() == cch_);
  NextGeneration();
  if (side_bits_[0].empty()) {
    for (std::uint32_t d = 0; d < 2; ++d) {
      side_bits_[d].assign(rank_bits_.size(), 0);
      side_words_[d].assign(rank_words_.size(), 0);
    }
  }
}

void CchQuery::SplitSide(std::uint32_t d, const CchMetric& metric, const std::vector<Seed>& seeds,
                         const CchBound* bound, const SeedArea& other, double below) {
  assert(&metric.cch() == cch_);
  // This direction's ancestors of its seeds, in its own marks and its own half of the labels:
  // nothing here touches the other direction's state, so the two sides may run at once.
  const std::uint32_t generation = generation_;
  Label* const label = label_.data();
  std::uint64_t* const bits = side_bits_[d].data();
  std::uint64_t* const words = side_words_[d].data();
  seed_at_[d].clear();
  for (const Seed& seed : seeds) {
    assert(seed.node < cch_->node_count());
    if (!(seed.cost < kInfCost)) continue;
    for (std::uint32_t r = cch_->rank(seed.node); r != kInvalidId && stamp_[r][d] != generation;
         r = cch_->parent(r)) {
      stamp_[r][d] = generation;
      label[r].cost[d] = kInfCost;
      label[r].pred_arc[d] = kInvalidId;
      Mark(r, bits, words);
    }
  }
  SetSeedCosts(d, seeds);
  CollectMarks(side_bits_[d], side_words_[d], &side_visited_[d]);

  // Up the ancestors in rank order, against `below` only (the other direction's costs are not
  // known yet): a rank whose cost, plus the least the way on to the other side's seeds costs,
  // is not below it leads to no way below it.
  const double* const w = metric.weights(d).data();
  const std::uint32_t* const first_out = cch_->first_out().data();
  const std::uint32_t* const head = cch_->head().data();
  const bool pruned = bound != nullptr && bound->cost_per_unit > 0.0;
  for (const std::uint32_t r : side_visited_[d]) {
    const double cost = label[r].cost[d];
    if (!(cost < below)) continue;
    if (pruned && !(cost + bound->cost_per_unit * other.Columns((*bound->x)[r], (*bound->y)[r]) +
                        other.cheapest <
                    below)) {
      continue;
    }
    const std::uint32_t end = first_out[r + 1];
    for (std::uint32_t x = first_out[r]; x < end; ++x) {
      Label& to = label[head[x]];
      assert(stamp_[head[x]][d] == generation);  // upward: ancestors
      const double reached = cost + w[x];
      if (reached < to.cost[d]) {
        to.cost[d] = reached;
        to.pred_arc[d] = x;
      }
    }
  }
}

CchQuery::Result CchQuery::SplitEnd(const CchMetric& metric, double below,
                                    std::vector<std::uint32_t>* arc_path, RunBoth both) {
  if (arc_path != nullptr) arc_path->clear();
  // The cheapest meeting, the lowest rank among equals.
  double best = below;
  std::uint32_t meet = kInvalidId;
  for (const std::uint32_t r : side_visited_[Cch::kForward]) {
    if (stamp_[r][Cch::kBackward] != generation_) continue;
    const double way = label_[r].cost[0] + label_[r].cost[1];
    if (way < best) {
      best = way;
      meet = r;
    }
  }
  return ConcludeFromLabels(metric, meet, best, arc_path, both);
}

CchQuery::Result CchQuery::ConcludeFromLabels(const CchMetric& metric, std::uint32_t meet,
                                              double cost, std::vector<std::uint32_t>* arc_path,
                                              RunBoth both) {
  auto step = [&](std::uint32_t d, std::uint32_t r) {
    const std::uint32_t arc = label_[r].pred_arc[d];
    return std::pair<std::uint32_t, std::uint32_t>{arc == kInvalidId ? kInvalidId : Tail(arc), arc};
  };
  auto seed = [&](std::uint32_t d, std::uint32_t r) {
    for (const auto& at : seed_at_[d]) {
      if (at.first == r) return at.second;
    }
    assert(false);
    return kInvalidId;
  };
  return Conclude(metric, meet, cost, step, seed, arc_path, both);
}

template <typename Step, typename SeedAt>
CchQuery::Result CchQuery::Conclude(const CchMetric& metric, std::uint32_t meet, double cost,
                                    Step step, SeedAt seed, std::vector<std::uint32_t>* arc_path,
                                    RunBoth both) {
  Result result;
  if (meet == kInvalidId) return result;  // (cost may be the `below` no way beat)
  result.cost = cost;
  result.found = true;
  // Up from the source to the meeting rank (collected top down, unpacked bottom up), then
  // down to the target.
  chain_.clear();
  std::uint32_t r = meet;
  for (auto s = step(Cch::kForward, r); s.first != kInvalidId; s = step(Cch::kForward, r)) {
    chain_.push_back(s.second);
    r = s.first;
  }
  result.source = seed(Cch::kForward, r);
  down_arcs_.clear();
  r = meet;
  for (auto s = step(Cch::kBackward, r); s.first != kInvalidId; s = step(Cch::kBackward, r)) {
    down_arcs_.push_back(s.second);
    r = s.first;
  }
  result.target = seed(Cch::kBackward, r);
  if (arc_path != nullptr) {
    down_path_.clear();
    both(
        [&] {
          for (auto it = chain_.rbegin(); it != chain_.rend(); ++it) {
            Unpack(metric, *it, Cch::kForward, &unpack_stack_[0], arc_path);
          }
        },
        [&] {
          for (const std::uint32_t arc : down_arcs_) {
            Unpack(metric, arc, Cch::kBackward, &unpack_stack_[1], &down_path_);
          }
        });
    arc_path->insert(arc_path->end(), down_path_.begin(), down_path_.end());
  }
  return result;
}

CchQuery::Result CchQuery::RunDijkstra(const CchMetric& metric, const std::vector<Seed>& sources,
                                       const std::vector<Seed>& targets,
                                       std::vector<std::uint32_t>* arc_path) {
  assert(&metric.cch() == cch_);
  if (arc_path != nullptr) arc_path->clear();
  if (side_[0].stamp.empty()) {
    for (Side& side : side_) {
      side.stamp.assign(cch_->node_count(), 0);
      side.cost.resize(cch_->node_count());
      side.seed.resize(cch_->node_count());
      side.pred.resize(cch_->node_count());
      side.pred_arc.resize(cch_->node_count());
      side.settled.resize(cch_->node_count());
    }
  }
  NextGeneration();
  const double* const w[2] = {metric.weights(Cch::kForward).data(),
                              metric.weights(Cch::kBackward).data()};
  const std::uint32_t* const first_out = cch_->first_out().data();
  const std::uint32_t* const head = cch_->head().data();
  auto reach = [&](Side& side, std::uint32_t r, double cost, std::uint32_t seed, std::uint32_t pred,
                   std::uint32_t pred_arc) {
    if (side.stamp[r] != generation_) {
      side.stamp[r] = generation_;
      side.settled[r] = 0;
      side.cost[r] = cost;
      side.seed[r] = seed;
      side.pred[r] = pred;
      side.pred_arc[r] = pred_arc;
      side.heap.Push(r, cost);
    } else if (!side.settled[r] && cost < side.cost[r]) {
      side.cost[r] = cost;
      side.seed[r] = seed;
      side.pred[r] = pred;
      side.pred_arc[r] = pred_arc;
      side.heap.Decrease(r, cost);
    }
  };
  for (std::uint32_t d = 0; d < 2; ++d) {
    Side& side = side_[d];
    side.heap.Reset(cch_->node_count());
    const std::vector<Seed>& seeds = d == Cch::kForward ? sources : targets;
    for (std::uint32_t i = 0; i < seeds.size(); ++i) {
      assert(seeds[i].node < cch_->node_count());
      if (seeds[i].cost < kInfCost)
        reach(side, cch_->rank(seeds[i].node), seeds[i].cost, i, kInvalidId, kInvalidId);
    }
  }
  double best = kInfCost;
  std::uint32_t meet = kInvalidId;
  bool open[2] = {true, true};
  std::uint32_t turn = Cch::kForward;
  while (open[0] || open[1]) {
    if (!open[turn]) turn ^= 1;
    Side& side = side_[turn];
    const Side& other = side_[turn ^ 1];
    if (side.heap.empty()) {
      open[turn] = false;
      continue;
    }
    double cost;
    const std::uint32_t r = side.heap.PopMin(&cost);
    if (!(cost < best)) {  // nothing cheaper is left on this side
      open[turn] = false;
      continue;
    }
    side.settled[r] = 1;
    if (other.stamp[r] == generation_ && cost + other.cost[r] < best) {
      best = cost + other.cost[r];
      meet = r;
    }
    if (metric.perfect()) {  // the kept arcs only (their weights are exact: no stalling needed)
      const auto& first = metric.kept_first(turn);
      for (std::uint32_t k = first[r]; k < first[r + 1]; ++k) {
        reach(side, metric.kept_head(turn)[k], cost + metric.kept_weight(turn)[k], side.seed[r], r,
              metric.kept_arc(turn)[k]);
      }
      turn ^= 1;
      continue;
    }
    // Stalled: a higher rank reaches r more cheaply going down, so no shortest up-way passes r.
    bool stalled = false;
    for (std::uint32_t x = first_out[r]; x < first_out[r + 1] && !stalled; ++x) {
      const std::uint32_t h = head[x];
      stalled = side.stamp[h] == generation_ && side.cost[h] + w[turn ^ 1][x] < cost;
    }
    if (!stalled) {
      for (std::uint32_t x = first_out[r]; x < first_out[r + 1]; ++x) {
        reach(side, head[x], cost + w[turn][x], side.seed[r], r, x);
      }
    }
    turn ^= 1;
  }
  auto step = [&](std::uint32_t d, std::uint32_t r) {
    return std::pair<std::uint32_t, std::uint32_t>{side_[d].pred[r], side_[d].pred_arc[r]};
  };
  auto seed = [&](std::uint32_t d, std::uint32_t r) { return side_[d].seed[r]; };
  return Conclude(metric, meet, best, step, seed, arc_path);
}

void CchQuery::Unpack(const CchMetric& metric, std::uint32_t arc, std::uint32_t direction,
                      std::vector<Pending>* stack, std::vector<std::uint32_t>* arc_path) const {
  const std::uint32_t* const head = cch_->head().data();
  std::vector<Pending>& pending = *stack;
  pending.clear();
  pending.push_back({arc, direction});
  while (!pending.empty()) {
    const Pending p = pending.back();
    pending.pop_back();
    const std::uint32_t via = metric.via(2 * p.arc + p.direction);
    assert(via != kInvalidId);
    if ((via & CchMetric::kViaMiddle) == 0) {
      arc_path->push_back(via);
      continue;
    }
    // Through middle rank m below both ends: its arc up to the lower end, and after it among
    // m's arcs (heads ascending) its arc up to the upper end. Pushed last goes first.
    const std::uint32_t to_lower = via & ~CchMetric::kViaMiddle;
    std::uint32_t to_upper = to_lower + 1;
    while (head[to_upper] != head[p.arc]) ++to_upper;
    if (p.direction == Cch::kForward) {  // lower -> m -> upper
      pending.push_back({to_upper, Cch::kForward});
      pending.push_back({to_lower, Cch::kBackward});
    } else {  // upper -> m -> lower
      pending.push_back({to_lower, Cch::kForward});
      pending.push_back({to_upper, Cch::kBackward});
    }
    // Both halves' steps are read soon, at random places in the metric: fetch them now.
    for (const Pending* q : {&pending.end()[-1], &pending.end()[-2]}) {
      __builtin_prefetch(metric.via_address(2 * q->arc + q->direction));
    }
  }
}

}  // namespace walk::nav
