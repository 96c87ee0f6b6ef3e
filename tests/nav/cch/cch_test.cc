#include "nav/cch/cch.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <latch>
#include <numeric>
#include <queue>
#include <random>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "nav/abstract/helper_thread.h"
#include "nav/cch/cch_bound.h"
#include "nav/cch/cch_dijkstra_query.h"
#include "nav/cch/cch_landmarks.h"
#include "nav/cch/cch_many_to_many.h"
#include "nav/cch/cch_metric.h"
#include "nav/cch/cch_metric_patch.h"
#include "nav/cch/cch_order.h"
#include "nav/cch/cch_path_unpacker.h"
#include "nav/cch/cch_potential.h"
#include "nav/cch/cch_query.h"
#include "nav/cch/cch_rank_relax.h"
#include "nav/cch/cch_slot_sum.h"
#include "nav/cch/cch_split_query.h"
#include "nav/cch/cch_triangle_row.h"
#include "nav/cch/cost_guess.h"
#include "nav/cch/customize_crew.h"
#include "nav/cch/guessed_query.h"
#include "nav/grid/surface.h"

namespace walk::nav {
namespace {

// A directed graph with coordinates, as the abstract graph hands it over.
struct Graph {
  std::uint32_t node_count = 0;
  std::vector<std::uint32_t> tails;
  std::vector<std::uint32_t> heads;
  std::vector<float> x;
  std::vector<float> y;

  std::uint32_t AddNode(float px, float py) {
    x.push_back(px);
    y.push_back(py);
    return node_count++;
  }
  void AddArc(std::uint32_t tail, std::uint32_t head) {
    tails.push_back(tail);
    heads.push_back(head);
  }
};

// Cells of `cell_columns` x `cell_rows` tiles, `per_side` nodes on each side of each cell;
// nearly a clique inside each cell, arcs both ways across shared borders, a few parallel arcs
// and self loops.
Graph GridGraph(std::uint32_t cell_columns, std::uint32_t cell_rows, std::uint32_t per_side,
                std::mt19937_64& rng) {
  Graph g;
  std::bernoulli_distribution keep(0.9);
  std::bernoulli_distribution rare(0.02);
  // side 0: left, 1: right, 2: bottom, 3: top; first[cell] = first node, side-major.
  std::vector<std::uint32_t> first(cell_columns * cell_rows);
  for (std::uint32_t cy = 0; cy < cell_rows; ++cy) {
    for (std::uint32_t cx = 0; cx < cell_columns; ++cx) {
      first[cy * cell_columns + cx] = g.node_count;
      for (std::uint32_t side = 0; side < 4; ++side) {
        for (std::uint32_t k = 0; k < per_side; ++k) {
          const float along = (k + 0.5f) / per_side;
          const float in = side % 2 == 0 ? 0.01f : 0.99f;
          g.AddNode(cx + (side < 2 ? in : along), cy + (side < 2 ? along : in));
        }
      }
      const std::uint32_t begin = first[cy * cell_columns + cx];
      for (std::uint32_t a = begin; a < g.node_count; ++a) {
        for (std::uint32_t b = begin; b < g.node_count; ++b) {
          if (a != b && keep(rng)) g.AddArc(a, b);
          if (a != b && rare(rng)) g.AddArc(a, b);  // parallel
        }
        if (rare(rng)) g.AddArc(a, a);
      }
    }
  }
  for (std::uint32_t cy = 0; cy < cell_rows; ++cy) {
    for (std::uint32_t cx = 0; cx < cell_columns; ++cx) {
      const std::uint32_t here = first[cy * cell_columns + cx];
      for (std::uint32_t k = 0; k < per_side; ++k) {
        if (cx + 1 < cell_columns) {
          const std::uint32_t a = here + per_side + k;                    // right side
          const std::uint32_t b = first[cy * cell_columns + cx + 1] + k;  // its left side
          if (keep(rng)) g.AddArc(a, b);
          if (keep(rng)) g.AddArc(b, a);
        }
        if (cy + 1 < cell_rows) {
          const std::uint32_t a = here + 3 * per_side + k;  // top side
          const std::uint32_t b = first[(cy + 1) * cell_columns + cx] + 2 * per_side + k;
          if (keep(rng)) g.AddArc(a, b);
          if (keep(rng)) g.AddArc(b, a);
        }
      }
    }
  }
  return g;
}

// Random points, arcs mostly to near neighbours (by index along a random walk) plus a few long
// ones, self loops and parallel arcs; some nodes isolated.
Graph SparseGraph(std::uint32_t node_count, std::uint32_t arc_count, std::mt19937_64& rng) {
  Graph g;
  std::uniform_real_distribution<float> coordinate(0.0f, 100.0f);
  for (std::uint32_t v = 0; v < node_count; ++v) g.AddNode(coordinate(rng), coordinate(rng));
  std::uniform_int_distribution<std::uint32_t> any(0, node_count - 1);
  std::uniform_int_distribution<int> near(-4, 4);
  std::bernoulli_distribution far(0.1);
  for (std::uint32_t a = 0; a < arc_count; ++a) {
    const std::uint32_t tail = any(rng);
    std::uint32_t head = any(rng);
    if (!far(rng)) {
      head = static_cast<std::uint32_t>(
          std::clamp<std::int64_t>(std::int64_t{tail} + near(rng), 0, node_count - 1));
    }
    g.AddArc(tail, head);
  }
  return g;
}

// Asymmetric random weights, some absent (+inf), some zero.
std::vector<double> RandomWeights(const Graph& g, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> cost(0.5, 20.0);
  std::bernoulli_distribution absent(0.05);
  std::bernoulli_distribution zero(0.01);
  std::vector<double> weights(g.tails.size());
  for (double& w : weights) w = absent(rng) ? kInfCost : zero(rng) ? 0.0 : cost(rng);
  return weights;
}

// RandomWeights rounded to whole ticks, which a metric keeps in 4 bytes (CchMetric::in_ticks).
std::vector<double> RandomTickWeights(const Graph& g, std::mt19937_64& rng) {
  std::vector<double> weights = RandomWeights(g, rng);
  for (double& w : weights) w = OnTicks(w);
  return weights;
}

// The plain reference: multi-source Dijkstra, then the cheapest target.
double ReferenceCost(const Graph& g, const std::vector<double>& weights,
                     const std::vector<CchEndpoint>& sources,
                     const std::vector<CchEndpoint>& targets) {
  std::vector<std::uint32_t> first_out(g.node_count + 1, 0);
  for (std::uint32_t t : g.tails) ++first_out[t + 1];
  for (std::uint32_t v = 0; v < g.node_count; ++v) first_out[v + 1] += first_out[v];
  std::vector<std::uint32_t> arcs(g.tails.size());
  std::vector<std::uint32_t> fill(first_out.begin(), first_out.end() - 1);
  for (std::uint32_t a = 0; a < g.tails.size(); ++a) arcs[fill[g.tails[a]]++] = a;

  std::vector<double> dist(g.node_count, kInfCost);
  using Entry = std::pair<double, std::uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  for (const CchEndpoint& s : sources) {
    if (s.cost < dist[s.node]) {
      dist[s.node] = s.cost;
      queue.emplace(s.cost, s.node);
    }
  }
  while (!queue.empty()) {
    const auto [d, v] = queue.top();
    queue.pop();
    if (d > dist[v]) continue;
    for (std::uint32_t e = first_out[v]; e < first_out[v + 1]; ++e) {
      const std::uint32_t a = arcs[e];
      const double next = d + weights[a];
      if (next < dist[g.heads[a]]) {
        dist[g.heads[a]] = next;
        queue.emplace(next, g.heads[a]);
      }
    }
  }
  double best = kInfCost;
  for (const CchEndpoint& t : targets) best = std::min(best, dist[t.node] + t.cost);
  return best;
}

std::vector<CchEndpoint> RandomEndpoints(std::uint32_t node_count, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> count(1, 5);
  std::uniform_int_distribution<std::uint32_t> node(0, node_count - 1);
  std::uniform_real_distribution<double> cost(0.0, 15.0);
  std::bernoulli_distribution special(0.1);
  std::vector<CchEndpoint> endpoints(count(rng));
  for (CchEndpoint& s : endpoints) {
    s.node = node(rng);
    s.cost = special(rng) ? (special(rng) ? kInfCost : 0.0) : cost(rng);
  }
  return endpoints;
}

bool SameCost(double a, double b) {
  if (a == kInfCost || b == kInfCost) return a == b;
  return std::abs(a - b) <= 1e-12 * std::max(1.0, std::max(std::abs(a), std::abs(b)));
}

// The unpacked `path` of result `r` runs from its source endpoint's node to its target endpoint's
// node and costs what `r` says.
void ExpectPathCosts(const Graph& g, const std::vector<double>& weights,
                     const std::vector<CchEndpoint>& sources,
                     const std::vector<CchEndpoint>& targets, const CchResult& r,
                     const std::vector<std::uint32_t>& path) {
  std::uint32_t at = sources[r.source].node;
  double sum = sources[r.source].cost + targets[r.target].cost;
  for (std::uint32_t a : path) {
    ASSERT_LT(a, g.tails.size());
    ASSERT_EQ(g.tails[a], at);
    sum += weights[a];
    at = g.heads[a];
  }
  EXPECT_EQ(at, targets[r.target].node);
  EXPECT_TRUE(SameCost(sum, r.cost)) << sum << " vs " << r.cost;
}

// One of each query that can check itself against the reference, over one hierarchy.
struct Queries {
  explicit Queries(const Cch& cch) : tree(cch), dijkstra(cch) {}
  CchQuery tree;
  CchDijkstraQuery dijkstra;
};

// Checks the tree query and the Dijkstra query against the reference, their endpoints and their
// unpacked paths.
void ExpectMatchesReference(const Graph& g, const std::vector<double>& weights,
                            const CchMetric& metric, Queries& queries,
                            const std::vector<CchEndpoint>& sources,
                            const std::vector<CchEndpoint>& targets) {
  const double expected = ReferenceCost(g, weights, sources, targets);
  std::vector<std::uint32_t> path{12345};  // must be cleared
  const CchResult r = queries.tree.Run(metric, {.sources = sources, .targets = targets}, &path);
  ASSERT_EQ(r.found, expected < kInfCost);
  if (!r.found) {
    EXPECT_EQ(r.cost, kInfCost);
    EXPECT_TRUE(path.empty());
    EXPECT_FALSE(queries.dijkstra.Run(metric, sources, targets).found);
    return;
  }
  EXPECT_TRUE(SameCost(r.cost, expected)) << r.cost << " vs " << expected;
  ASSERT_LT(r.source, sources.size());
  ASSERT_LT(r.target, targets.size());
  ASSERT_NO_FATAL_FAILURE(ExpectPathCosts(g, weights, sources, targets, r, path));
  // The cost-only run agrees.
  const CchResult again = queries.tree.Run(metric, {.sources = sources, .targets = targets});
  EXPECT_EQ(again.cost, r.cost);
  EXPECT_EQ(again.source, r.source);
  EXPECT_EQ(again.target, r.target);
  // So does the bidirectional Dijkstra over the hierarchy, and its path is a real one.
  std::vector<std::uint32_t> dijkstra_path;
  const CchResult d = queries.dijkstra.Run(metric, sources, targets, &dijkstra_path);
  ASSERT_TRUE(d.found);
  EXPECT_TRUE(SameCost(d.cost, expected)) << d.cost << " vs " << expected;
  ASSERT_NO_FATAL_FAILURE(ExpectPathCosts(g, weights, sources, targets, d, dijkstra_path));
}

void ExpectPermutation(const std::vector<std::uint32_t>& order, std::uint32_t node_count) {
  ASSERT_EQ(order.size(), node_count);
  std::vector<bool> seen(node_count, false);
  for (std::uint32_t v : order) {
    ASSERT_LT(v, node_count);
    ASSERT_FALSE(seen[v]) << "node " << v << " twice";
    seen[v] = true;
  }
}

std::vector<std::uint32_t> Order(const Graph& g) {
  return NestedDissectionOrder(g.node_count, g.tails, g.heads, g.x, g.y);
}

// `count` queries between random endpoints of `g`, each checked against the reference.
void ExpectRandomQueriesMatch(const Graph& g, const std::vector<double>& weights,
                              const CchMetric& metric, std::mt19937_64& rng, int count) {
  Queries queries(metric.cch());
  for (int q = 0; q < count; ++q) {
    const auto sources = RandomEndpoints(g.node_count, rng);
    const auto targets = RandomEndpoints(g.node_count, rng);
    ASSERT_NO_FATAL_FAILURE(ExpectMatchesReference(g, weights, metric, queries, sources, targets))
        << "query " << q;
  }
}

TEST(CchOrderTest, IsAPermutation) {
  std::mt19937_64 rng(1);
  ExpectPermutation(NestedDissectionOrder(0, {}, {}, {}, {}), 0);
  ExpectPermutation(NestedDissectionOrder(1, {0}, {0}, {0.0f}, {0.0f}), 1);
  const Graph grid = GridGraph(5, 4, 3, rng);
  ExpectPermutation(Order(grid), grid.node_count);
  const Graph sparse = SparseGraph(500, 700, rng);
  ExpectPermutation(Order(sparse), sparse.node_count);
  const Graph isolated = SparseGraph(300, 20, rng);  // mostly isolated nodes
  ExpectPermutation(Order(isolated), isolated.node_count);
  // Every node at the same point: cuts fall between equal coordinates.
  Graph stacked = SparseGraph(200, 600, rng);
  std::fill(stacked.x.begin(), stacked.x.end(), 1.0f);
  std::fill(stacked.y.begin(), stacked.y.end(), 2.0f);
  ExpectPermutation(Order(stacked), stacked.node_count);
}

TEST(CchOrderTest, IsDeterministic) {
  std::mt19937_64 rng(2);
  const Graph g = GridGraph(6, 6, 3, rng);
  EXPECT_EQ(Order(g), Order(g));
}

TEST(CchOrderTest, KeepsTheHierarchyOfACellGridSmall) {
  // 12 x 12 cells of 12 nodes: a good order stays far below the worst case (a clique).
  std::mt19937_64 rng(3);
  const Graph g = GridGraph(12, 12, 3, rng);
  const Cch cch(g.node_count, Order(g), g.tails, g.heads);
  EXPECT_LT(cch.elimination_tree_height(), g.node_count / 8);
  EXPECT_LT(cch.arc_count(), 40ull * g.node_count);
}

TEST(CchTest, AsymmetricArcsOnATinyGraph) {
  //   0 --1--> 1 --1--> 2      back: 2 -> 0 directly costs 10, 1 -> 0 costs 5, 2 -> 1 costs 1
  Graph g;
  for (int i = 0; i < 3; ++i) g.AddNode(static_cast<float>(i), 0.0f);
  g.AddArc(0, 1);  // 0
  g.AddArc(1, 2);  // 1
  g.AddArc(2, 0);  // 2
  g.AddArc(1, 0);  // 3
  g.AddArc(2, 1);  // 4
  const std::vector<double> weights{1, 1, 10, 5, 1};
  const Cch cch(g.node_count, Order(g), g.tails, g.heads);
  const CchMetric metric(cch, weights);
  CchQuery query(cch);
  std::vector<std::uint32_t> path;
  CchResult r = query.Run(metric, {.sources = {{0, 0.0}}, .targets = {{2, 0.0}}}, &path);
  EXPECT_EQ(r.cost, 2.0);
  EXPECT_EQ(path, (std::vector<std::uint32_t>{0, 1}));
  r = query.Run(metric, {.sources = {{2, 0.0}}, .targets = {{0, 0.0}}}, &path);
  EXPECT_EQ(r.cost, 6.0);
  EXPECT_EQ(path, (std::vector<std::uint32_t>{4, 3}));
  // An endpoint cost can make the direct arc win: from 2 (cost 0) or 1 (cost 4.5) to 0.
  r = query.Run(metric, {.sources = {{2, 0.0}, {1, 4.5}}, .targets = {{0, 0.0}}}, &path);
  EXPECT_EQ(r.cost, 6.0);
  EXPECT_EQ(r.source, 0u);
}

TEST(CchTest, GridGraphsMatchDijkstra) {
  std::mt19937_64 rng(4);
  for (const auto& [columns, rows, per_side] : std::vector<std::tuple<int, int, int>>{
           {1, 1, 4},
           {3, 2, 2},
           {5, 5, 3},
           {8, 6, 4},
           {10, 3, 1},
           {40, 30, 3}}) {  // large enough that customization splits subtrees over two threads
    const Graph g = GridGraph(columns, rows, per_side, rng);
    const Cch cch(g.node_count, Order(g), g.tails, g.heads);
    for (const bool ticks : {false, true}) {  // weights kept as doubles, then as ticks
      const std::vector<double> weights = ticks ? RandomTickWeights(g, rng) : RandomWeights(g, rng);
      const CchMetric metric(cch, weights);
      ASSERT_EQ(metric.in_ticks(), ticks);
      ASSERT_NO_FATAL_FAILURE(ExpectRandomQueriesMatch(g, weights, metric, rng, 300))
          << columns << "x" << rows << " cells" << (ticks ? ", ticks" : "");
    }
  }
}

TEST(CchTest, WeightsTooLargeForTicksStayDoubles) {
  // Whole ticks each, but a shortcut over two arcs passes what a float holds exactly: every
  // weight stays a double.
  std::mt19937_64 rng(5);
  const Graph g = GridGraph(3, 3, 2, rng);
  const Cch cch(g.node_count, Order(g), g.tails, g.heads);
  const std::vector<double> weights(g.tails.size(), 0.75 * CchWeights::kMostFloatSeconds);
  const CchMetric metric(cch, weights);
  EXPECT_FALSE(metric.in_ticks());
  ASSERT_NO_FATAL_FAILURE(ExpectRandomQueriesMatch(g, weights, metric, rng, 50));
  // Fewer ticks fit: kept in floats, 8 bytes an arc less.
  const std::vector<double> small(g.tails.size(), 1000.0);
  const CchMetric ticked(cch, small);
  EXPECT_TRUE(ticked.in_ticks());
  EXPECT_LT(ticked.MemoryBytes(), metric.MemoryBytes());
}

TEST(CchTest, TicksCustomizedInFloatsAsInDoubles) {
  // Every slot's weight and via, customized in floats and in doubles, on one thread and two.
  std::mt19937_64 rng(9);
  const Graph g = GridGraph(40, 30, 3, rng);
  const Cch cch(g.node_count, Order(g), g.tails, g.heads);
  std::vector<double> weights = RandomTickWeights(g, rng);
  weights[3] = weights[7] = kInfCost;  // absent arcs too
  for (const unsigned threads : {1u, 2u}) {
    const CchMetric floats(cch, weights, /*perfect=*/false, threads);
    CchMetric::CustomizeTicksInFloats(false);
    const CchMetric doubles(cch, weights, /*perfect=*/false, threads);
    CchMetric::CustomizeTicksInFloats(true);
    ASSERT_TRUE(floats.in_ticks());
    ASSERT_FALSE(doubles.in_ticks());
    int differ = 0;
    for (std::uint32_t slot = 0; slot < 2 * cch.arc_count(); ++slot) {
      if (floats.weight(slot) != doubles.weight(slot) || floats.via(slot) != doubles.via(slot)) {
        if (++differ <= 3) {
          ADD_FAILURE() << "slot " << slot << ": " << floats.weight(slot) << " via "
                        << floats.via(slot) << ", in doubles " << doubles.weight(slot) << " via "
                        << doubles.via(slot);
        }
      }
    }
    EXPECT_EQ(differ, 0) << threads << " threads";
  }
}

// Each slot's step as its metric keeps it in a byte (an input arc of its lower rank, a triangle
// named from the end of the lower rank's down list, or, past a byte, a triangle found again by
// its weight or a far input kept aside) against the via kept whole: on hierarchies whose top
// ranks have hundreds of arcs up into them, with weights in doubles, in floats, and in whole
// seconds (many triangles of equal weight: the first must be found), and with 300 parallel
// arcs whose cheapest is the last.
TEST(CchTest, StepsInBytesAreTheViasKeptWhole) {
  std::mt19937_64 rng(53);
  std::uint64_t searched = 0;
  for (const auto& [nodes, arcs] :
       std::vector<std::pair<std::uint32_t, std::uint32_t>>{{300, 900}, {2500, 15000}}) {
    Graph g = SparseGraph(nodes, arcs, rng);
    const std::uint32_t p = g.AddNode(1.0f, 1.0f), q = g.AddNode(2.0f, 2.0f);
    g.AddArc(0, p);
    g.AddArc(q, 0);
    const std::uint32_t parallel_first = static_cast<std::uint32_t>(g.tails.size());
    for (int k = 0; k < 300; ++k) g.AddArc(p, q);
    const Cch cch(g.node_count, Order(g), g.tails, g.heads);
    std::vector<double> weights = RandomWeights(g, rng);
    std::vector<double> ticks = RandomTickWeights(g, rng);
    std::vector<double> seconds(g.tails.size());
    for (double& w : seconds) w = 1.0 + static_cast<double>(rng() % 2);
    for (std::vector<double>* w : {&weights, &ticks, &seconds}) {
      for (std::uint32_t a = parallel_first; a < g.tails.size(); ++a) {
        (*w)[a] = static_cast<double>(g.tails.size() - a) / 256;  // the last the cheapest
      }
      const CchMetric bytes(cch, *w);
      CchMetric::KeepStepsInBytes(false);
      const CchMetric whole(cch, *w);
      CchMetric::KeepStepsInBytes(true);
      ASSERT_LT(bytes.MemoryBytes(), whole.MemoryBytes());
      searched += bytes.searched_steps();
      int differ = 0;
      for (std::uint32_t slot = 0; slot < 2 * cch.arc_count(); ++slot) {
        if (bytes.via(slot) != whole.via(slot) && ++differ <= 3) {
          ADD_FAILURE() << nodes << " nodes, slot " << slot << ": " << bytes.via(slot)
                        << " in a byte, " << whole.via(slot) << " whole";
        }
      }
      EXPECT_EQ(differ, 0) << nodes << " nodes";
      const std::uint32_t slot = cch.input_slot(static_cast<std::uint32_t>(g.tails.size() - 1));
      EXPECT_EQ(bytes.via(slot), g.tails.size() - 1);  // the cheapest parallel arc, kept aside
    }
  }
  EXPECT_GT(searched, 0u) << "no step was past a byte: the search went untested";
}

TEST(CchTest, SparseGraphsMatchDijkstra) {
  std::mt19937_64 rng(5);
  for (const auto& [nodes, arcs] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{
           {2, 3}, {10, 15}, {100, 150}, {400, 1200}, {800, 1000}}) {
    const Graph g = SparseGraph(nodes, arcs, rng);
    const Cch cch(g.node_count, Order(g), g.tails, g.heads);
    const std::vector<double> weights = RandomWeights(g, rng);
    const CchMetric metric(cch, weights);
    Queries queries(cch);
    for (int q = 0; q < 300; ++q) {
      const auto sources = RandomEndpoints(g.node_count, rng);
      const auto targets = RandomEndpoints(g.node_count, rng);
      ASSERT_NO_FATAL_FAILURE(ExpectMatchesReference(g, weights, metric, queries, sources, targets))
          << nodes << " nodes, query " << q;
    }
  }
}

// The potential of every node, asked in a random order (so its memo is entered anywhere), is
// the reference distance to the targets.
TEST(CchPotentialTest, DistancesToTargetsMatchDijkstra) {
  std::mt19937_64 rng(31);
  for (const auto& [nodes, arcs] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{
           {1, 1}, {10, 15}, {100, 150}, {400, 1200}, {800, 1000}}) {
    const Graph g = SparseGraph(nodes, arcs, rng);
    const Cch cch(g.node_count, Order(g), g.tails, g.heads);
    const std::vector<double> weights = RandomWeights(g, rng);
    const CchMetric metric(cch, weights);
    CchPotential potential(cch);
    std::vector<std::uint32_t> asked(g.node_count);
    std::iota(asked.begin(), asked.end(), 0u);
    for (int q = 0; q < 8; ++q) {
      const std::vector<CchEndpoint> targets = RandomEndpoints(g.node_count, rng);
      potential.Reset(metric, targets);
      std::shuffle(asked.begin(), asked.end(), rng);
      for (const std::uint32_t v : asked) {
        const double expected = ReferenceCost(g, weights, {{v, 0.0}}, targets);
        ASSERT_TRUE(SameCost(potential.ToTargets(v), expected))
            << nodes << " nodes, set " << q << ", node " << v << ": " << potential.ToTargets(v)
            << " vs " << expected;
      }
      EXPECT_LE(potential.priced(), g.node_count);  // each rank priced once per target set
      // Asked again for the same targets it keeps its memo: nothing priced again, the same
      // distances. Other targets start afresh.
      const std::uint64_t priced = potential.priced();
      EXPECT_TRUE(potential.ResetUnlessSame(metric, targets));
      for (const std::uint32_t v : asked) {
        ASSERT_TRUE(
            SameCost(potential.ToTargets(v), ReferenceCost(g, weights, {{v, 0.0}}, targets)));
      }
      EXPECT_EQ(potential.priced(), priced);
      std::vector<CchEndpoint> other = targets;
      other.push_back({0, 0.0});
      EXPECT_FALSE(potential.ResetUnlessSame(metric, other));
      EXPECT_EQ(potential.priced(), 0u);
    }
  }
}

// Small whole weights (some zero, some absent): many ties, which perfect customization must not
// drop both sides of.
std::vector<double> TiedWeights(const Graph& g, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> cost(0, 3);
  std::bernoulli_distribution absent(0.05);
  std::vector<double> weights(g.tails.size());
  for (double& w : weights) w = absent(rng) ? kInfCost : cost(rng);
  return weights;
}

TEST(CchTest, PerfectCustomizationKeepsEveryShortestWay) {
  std::mt19937_64 rng(14);
  for (const bool tied : {false, true}) {
    for (const auto& [columns, rows, per_side] : std::vector<std::tuple<int, int, int>>{
             {1, 1, 4}, {3, 2, 2}, {5, 5, 3}, {8, 6, 4}, {20, 15, 3}}) {
      const Graph g = GridGraph(columns, rows, per_side, rng);
      const Cch cch(g.node_count, Order(g), g.tails, g.heads);
      const std::vector<double> weights = tied ? TiedWeights(g, rng) : RandomWeights(g, rng);
      const CchMetric metric(cch, weights, /*perfect=*/true);
      ASSERT_TRUE(metric.perfect());
      EXPECT_LE(metric.kept_count(), 2 * cch.arc_count());
      if (columns >= 8) {
        EXPECT_LT(metric.kept_count(), cch.arc_count()) << "most arcs are dropped";
      }
      ASSERT_NO_FATAL_FAILURE(ExpectRandomQueriesMatch(g, weights, metric, rng, 300))
          << columns << "x" << rows << " cells, tied " << tied;
    }
    for (const auto& [nodes, arcs] :
         std::vector<std::pair<std::uint32_t, std::uint32_t>>{{10, 15}, {100, 150}, {400, 1200}}) {
      const Graph g = SparseGraph(nodes, arcs, rng);
      const Cch cch(g.node_count, Order(g), g.tails, g.heads);
      const std::vector<double> weights = tied ? TiedWeights(g, rng) : RandomWeights(g, rng);
      const CchMetric metric(cch, weights, /*perfect=*/true);
      Queries queries(cch);
      for (int q = 0; q < 300; ++q) {
        const auto sources = RandomEndpoints(g.node_count, rng);
        const auto targets = RandomEndpoints(g.node_count, rng);
        ASSERT_NO_FATAL_FAILURE(
            ExpectMatchesReference(g, weights, metric, queries, sources, targets))
            << nodes << " nodes, tied " << tied << ", query " << q;
      }
    }
  }
}

// Weights that follow the nodes' coordinates (each arc 1-3 times its octile length; whole
// multiples when `tied`), so a geometric bound prunes.
std::vector<double> GeometricWeights(const Graph& g, std::mt19937_64& rng, bool tied) {
  std::uniform_real_distribution<double> factor(1.0, 3.0);
  std::uniform_int_distribution<int> whole(1, 3);
  std::vector<double> weights(g.tails.size());
  for (std::size_t a = 0; a < weights.size(); ++a) {
    const double units = OctileColumns(std::abs(double{g.x[g.tails[a]]} - g.x[g.heads[a]]),
                                       std::abs(double{g.y[g.tails[a]]} - g.y[g.heads[a]]));
    weights[a] = units * (tied ? whole(rng) : factor(rng));
  }
  return weights;
}

TEST(CchTest, BoundedQueriesFindTheSameCosts) {
  std::mt19937_64 rng(15);
  int asked_twice_count = 0;
  for (const bool tied : {false, true}) {
    for (const auto& [columns, rows, per_side] :
         std::vector<std::tuple<int, int, int>>{{1, 1, 4}, {3, 2, 2}, {8, 6, 4}, {20, 15, 3}}) {
      const Graph g = GridGraph(columns, rows, per_side, rng);
      const Cch cch(g.node_count, Order(g), g.tails, g.heads);
      for (const bool geometric : {true, false}) {
        const std::vector<double> weights =
            geometric ? GeometricWeights(g, rng, tied) : RandomWeights(g, rng);
        const CchMetric metric(cch, weights);
        std::vector<float> x(g.node_count), y(g.node_count);
        for (std::uint32_t v = 0; v < g.node_count; ++v) {
          x[cch.rank(v)] = g.x[v];
          y[cch.rank(v)] = g.y[v];
        }
        const CchBound bound{&x, &y,
                             CchBound::LowestCostPerUnit(g.tails, g.heads, weights, g.x, g.y)};
        if (geometric && g.tails.size() > 1) {
          EXPECT_GE(bound.cost_per_unit, 0.99) << "every arc costs at least its octile length";
        }
        // The same bound with landmarks (ALT) on top.
        const CchLandmarks marks = CchLandmarks::Compute(cch, g.tails, g.heads, weights, 4);
        CchBound with_marks = bound;
        with_marks.landmarks = &marks;
        // The tree and the split query on one set of labels, as walkd's search threads hold them.
        CchAncestorWalk labels(cch);
        CchQuery query(labels);
        CchSplitQuery split_query(labels);
        CostGuess guess;
        HelperThread helper;
        for (int q = 0; q < 600; ++q) {
          const auto sources = RandomEndpoints(g.node_count, rng);
          const auto targets = RandomEndpoints(g.node_count, rng);
          const double expected = ReferenceCost(g, weights, sources, targets);
          std::vector<std::uint32_t> path;
          const CchResult r = query.Run(
              metric,
              {.sources = sources, .targets = targets, .bound = q % 2 ? &with_marks : &bound},
              &path);
          ASSERT_EQ(r.found, expected < kInfCost) << q;
          if (!r.found) continue;
          ASSERT_TRUE(SameCost(r.cost, expected))
              << r.cost << " vs " << expected << ", query " << q;
          ASSERT_NO_FATAL_FAILURE(ExpectPathCosts(g, weights, sources, targets, r, path))
              << "query " << q;
          // The lower bound between the endpoints holds; a way is found below any upper bound above
          // its cost, and none at or under it.
          ASSERT_LE(BoundBetween(bound, cch, sources, targets), expected * (1 + 1e-9)) << q;
          const CchResult above = query.Run(metric,
                                            {.sources = sources,
                                             .targets = targets,
                                             .bound = &bound,
                                             .below = expected * 1.001 + 1e-9},
                                            &path);
          ASSERT_TRUE(above.found) << q;
          ASSERT_TRUE(SameCost(above.cost, expected))
              << above.cost << " vs " << expected << ", query " << q;
          ASSERT_NO_FATAL_FAILURE(ExpectPathCosts(g, weights, sources, targets, above, path))
              << "query " << q;
          const CchResult under = query.Run(
              metric,
              {.sources = sources, .targets = targets, .bound = &bound, .below = expected * 0.999},
              &path);
          ASSERT_FALSE(under.found) << q;
          ASSERT_EQ(under.cost, kInfCost) << q;
          ASSERT_TRUE(path.empty()) << q;
          // The same with each direction swept on its own: on one thread, on two (the helper),
          // with the geometric bound and without it.
          auto on_helper = [&](absl::FunctionRef<void()> here, absl::FunctionRef<void()> there) {
            helper.Both(here, there);
          };
          const CchBound* split_bound = q % 3 == 0 ? nullptr : &bound;
          for (const bool two_threads : {false, true}) {
            const CchRunBoth both =
                two_threads ? CchRunBoth(on_helper) : CchRunBoth(CchOneAfterTheOther);
            const CchResult split = split_query.Run(metric,
                                                    {.sources = sources,
                                                     .targets = targets,
                                                     .bound = split_bound,
                                                     .below = expected * 1.001 + 1e-9},
                                                    &path, both);
            ASSERT_TRUE(split.found) << q;
            ASSERT_TRUE(SameCost(split.cost, expected))
                << split.cost << " vs " << expected << ", query " << q;
            ASSERT_NO_FATAL_FAILURE(ExpectPathCosts(g, weights, sources, targets, split, path))
                << "query " << q;
            const CchResult split_under = split_query.Run(metric,
                                                          {.sources = sources,
                                                           .targets = targets,
                                                           .bound = split_bound,
                                                           .below = expected * 0.999},
                                                          &path, both);
            ASSERT_FALSE(split_under.found) << q;
            ASSERT_TRUE(path.empty()) << q;
            // walkd's guessed query: split under a learnt guess, asked again when it is too low.
            bool asked_twice = false;
            const CchResult guessed =
                RunGuessed(split_query, query,
                           {.metric = metric,
                            .bound = bound,
                            .guess = guess,
                            .lower = BoundBetween(bound, cch, sources, targets),
                            .sources = sources,
                            .targets = targets,
                            .both = both},
                           &path, &asked_twice);
            ASSERT_TRUE(guessed.found) << q;
            ASSERT_TRUE(SameCost(guessed.cost, expected))
                << guessed.cost << " vs " << expected << ", query " << q;
            ASSERT_NO_FATAL_FAILURE(ExpectPathCosts(g, weights, sources, targets, guessed, path))
                << "query " << q;
            asked_twice_count += asked_twice ? 1 : 0;
          }
        }
      }
    }
  }
  EXPECT_GT(asked_twice_count, 0) << "some guesses are too low";
}

TEST(CchTest, CostGuessSettlesWhereMostWalksFit) {
  // Walks costing 1.1 to 1.3 times their lower bound, evenly: 80 % fit under 1.26.
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> ratio(1.1, 1.3);
  CostGuess guess;
  for (int i = 0; i < 5000; ++i) guess.Learn(100.0, 100.0 * ratio(rng));
  int held = 0;
  for (int i = 0; i < 10000; ++i) {
    const double cost = 100.0 * ratio(rng);
    held += cost < guess.Upper(100.0) ? 1 : 0;
    guess.Learn(100.0, cost);
  }
  EXPECT_NEAR(held / 10000.0, CostGuess::kHolds, 0.05);
  EXPECT_NEAR(guess.factor(), 1.26, 0.03);
  // Nonsense is ignored.
  const double before = guess.factor();
  guess.Learn(0.0, 5.0);
  guess.Learn(10.0, 5.0);
  guess.Learn(10.0, kInfCost);
  EXPECT_EQ(guess.factor(), before);
}

TEST(CchTest, AnyOrderGivesTheSameCosts) {
  // The hierarchy is exact for any order; nested dissection only makes it small.
  std::mt19937_64 rng(6);
  const Graph g = SparseGraph(300, 900, rng);
  std::vector<std::uint32_t> order(g.node_count);
  for (std::uint32_t v = 0; v < g.node_count; ++v) order[v] = v;
  std::shuffle(order.begin(), order.end(), rng);
  const Cch cch(g.node_count, order, g.tails, g.heads);
  const std::vector<double> weights = RandomWeights(g, rng);
  const CchMetric metric(cch, weights);
  Queries queries(cch);
  for (int q = 0; q < 300; ++q) {
    const auto sources = RandomEndpoints(g.node_count, rng);
    const auto targets = RandomEndpoints(g.node_count, rng);
    ASSERT_NO_FATAL_FAILURE(ExpectMatchesReference(g, weights, metric, queries, sources, targets));
  }
}

// Every slot of `a` and `b` (over the same Cch) weighs the same.
void ExpectSameWeights(const CchMetric& a, const CchMetric& b) {
  for (std::uint32_t slot = 0; slot < 2 * a.cch().arc_count(); ++slot) {
    ASSERT_EQ(a.weight(slot), b.weight(slot)) << "slot " << slot;
  }
}

TEST(CchTest, RecustomizesOnTheSameCch) {
  std::mt19937_64 rng(7);
  const Graph g = GridGraph(6, 5, 3, rng);
  const Cch cch(g.node_count, Order(g), g.tails, g.heads);
  const std::vector<double> first = RandomWeights(g, rng);
  const std::vector<double> second = RandomWeights(g, rng);
  const CchMetric a(cch, first);
  const CchMetric b(cch, second);
  CchMetric reused(cch, first);
  reused.Customize(second);
  ASSERT_NO_FATAL_FAILURE(ExpectSameWeights(reused, b));
  Queries queries(cch);
  for (int q = 0; q < 200; ++q) {
    const auto sources = RandomEndpoints(g.node_count, rng);
    const auto targets = RandomEndpoints(g.node_count, rng);
    ASSERT_NO_FATAL_FAILURE(ExpectMatchesReference(g, first, a, queries, sources, targets));
    ASSERT_NO_FATAL_FAILURE(ExpectMatchesReference(g, second, b, queries, sources, targets));
    ASSERT_NO_FATAL_FAILURE(ExpectMatchesReference(g, second, reused, queries, sources, targets));
  }
}

TEST(CchTest, ThreadsCustomizeAsOneThreadDoes) {
  // Large enough (over 2^16 hierarchy arcs) that customization runs on threads; every slot's
  // weight and unpacking step must equal the one-thread result, whatever the interleaving.
  std::mt19937_64 rng(11);
  const Graph g = GridGraph(40, 40, 4, rng);
  const Cch cch(g.node_count, Order(g), g.tails, g.heads);
  ASSERT_GE(cch.arc_count(), 1u << 16);
  const std::vector<double> weights = RandomWeights(g, rng);
  const CchMetric one(cch, weights, /*perfect=*/false, /*threads=*/1);
  for (const unsigned threads : {2u, 3u, 8u}) {
    const CchMetric many(cch, weights, /*perfect=*/false, threads);
    ASSERT_NO_FATAL_FAILURE(ExpectSameWeights(many, one)) << threads << " threads";
    for (std::uint32_t slot = 0; slot < 2 * cch.arc_count(); ++slot) {
      ASSERT_EQ(many.via(slot), one.via(slot)) << "slot " << slot << ", " << threads << " threads";
    }
  }
  Queries queries(cch);
  for (int q = 0; q < 50; ++q) {
    const auto sources = RandomEndpoints(g.node_count, rng);
    const auto targets = RandomEndpoints(g.node_count, rng);
    ASSERT_NO_FATAL_FAILURE(ExpectMatchesReference(g, weights, one, queries, sources, targets));
  }
}

// Threads that want a metric join its customization through a crew (a danger band's walks
// while another walk makes its metric): every slot's weight and step must be the one thread's,
// in doubles and in floats, wherever the joiner came in.
TEST(CchTest, ThreadsJoiningACustomizationCustomizeAsOneThreadDoes) {
  if (std::thread::hardware_concurrency() < 2) {
    GTEST_SKIP() << "one core: a customization on one thread leaves no room to join";
  }
  std::mt19937_64 rng(13);
  const Graph g = GridGraph(40, 40, 4, rng);
  const Cch cch(g.node_count, Order(g), g.tails, g.heads);
  for (const std::vector<double>& weights : {RandomWeights(g, rng), RandomTickWeights(g, rng)}) {
    const CchMetric one(cch, weights, /*perfect=*/false, /*threads=*/1);
    std::uint64_t joined = 0;
    // A joiner spins from before the customization starts, so it joins in nearly every round;
    // the rounds stop once one has.
    for (int round = 0; round < 20 && joined == 0; ++round) {
      CustomizeCrew crew;
      std::atomic<bool> made{false};
      std::thread joiner([&] {
        while (!made.load()) crew.Join();
      });
      const CchMetric helped(cch, weights, /*perfect=*/false, /*threads=*/1, &crew);
      made = true;
      joiner.join();
      ASSERT_EQ(helped.in_ticks(), one.in_ticks());
      ASSERT_NO_FATAL_FAILURE(ExpectSameWeights(helped, one)) << "round " << round;
      for (std::uint32_t slot = 0; slot < 2 * cch.arc_count(); ++slot) {
        ASSERT_EQ(helped.via(slot), one.via(slot)) << "slot " << slot << ", round " << round;
      }
      joined += crew.joined();
    }
    EXPECT_GT(joined, 0u) << "no thread joined in 20 customizations";
  }
}

// A crew takes joiners only while open, no more at once than its room, and none once one found
// no work left; Close returns only once those working are done (what they settled is then the
// caller's to read).
TEST(CchTest, ACrewTakesJoinersWhileOpenWithinItsRoom) {
  CustomizeCrew crew;
  EXPECT_FALSE(crew.Join()) << "not open yet";
  std::atomic<int> ran{0};
  std::latch inside(1), release(1);
  const auto work = [&] {
    ++ran;
    inside.count_down();
    release.wait();
    return true;
  };
  crew.Open(work, /*most=*/1);
  std::thread joiner([&] { EXPECT_TRUE(crew.Join()); });
  inside.wait();
  EXPECT_FALSE(crew.Join()) << "room for one";
  std::atomic<bool> closed{false};
  std::thread closer([&] {
    crew.Close();
    closed = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(closed.load()) << "Close returned while a joiner was working";
  release.count_down();
  joiner.join();
  closer.join();
  EXPECT_TRUE(closed.load());
  EXPECT_FALSE(crew.Join()) << "closed";
  EXPECT_EQ(ran.load(), 1);
  EXPECT_EQ(crew.joined(), 1u);
  // A joiner that finds nothing left to take is no join, and turns later ones away.
  int looked = 0;
  const auto nothing_left = [&] { return ++looked, false; };
  crew.Open(nothing_left, /*most=*/2);
  EXPECT_FALSE(crew.Join());
  EXPECT_FALSE(crew.Join());
  crew.Close();
  EXPECT_EQ(looked, 1);
  EXPECT_EQ(crew.joined(), 1u);
}

TEST(CchTest, VectorTrianglesCustomizeAsOneLaneDoes) {
  // The vector rows (AVX-512) must write the same weights and unpacking steps as the one-lane
  // loop, on a hierarchy whose upper rows are long runs of consecutive arcs.
  if (!UseVectorTriangles(true)) GTEST_SKIP() << "this processor has no AVX-512";
  std::mt19937_64 rng(12);
  const Graph g = GridGraph(40, 40, 4, rng);
  const Cch cch(g.node_count, Order(g), g.tails, g.heads);
  // Doubles, and floats (whole ticks: sixteen lanes).
  for (const std::vector<double>& weights : {RandomWeights(g, rng), RandomTickWeights(g, rng)}) {
    const CchMetric vector(cch, weights, /*perfect=*/false, /*threads=*/1);
    UseVectorTriangles(false);
    const CchMetric one_lane(cch, weights, /*perfect=*/false, /*threads=*/1);
    UseVectorTriangles(true);
    ASSERT_EQ(vector.in_ticks(), one_lane.in_ticks());
    ASSERT_NO_FATAL_FAILURE(ExpectSameWeights(vector, one_lane));
    for (std::uint32_t slot = 0; slot < 2 * cch.arc_count(); ++slot) {
      ASSERT_EQ(vector.via(slot), one_lane.via(slot)) << "slot " << slot;
    }
  }
}

TEST(CchTest, ReusedQueryAnswersAsAFreshOne) {
  std::mt19937_64 rng(8);
  const Graph g = GridGraph(7, 7, 2, rng);
  const Cch cch(g.node_count, Order(g), g.tails, g.heads);
  const CchMetric metric(cch, RandomWeights(g, rng));
  CchQuery reused(cch);
  for (int q = 0; q < 500; ++q) {
    const auto sources = RandomEndpoints(g.node_count, rng);
    const auto targets = RandomEndpoints(g.node_count, rng);
    std::vector<std::uint32_t> reused_path;
    std::vector<std::uint32_t> fresh_path;
    const CchResult r = reused.Run(metric, {.sources = sources, .targets = targets}, &reused_path);
    CchQuery fresh(cch);
    const CchResult f = fresh.Run(metric, {.sources = sources, .targets = targets}, &fresh_path);
    ASSERT_EQ(r.found, f.found);
    ASSERT_EQ(r.cost, f.cost);
    ASSERT_EQ(r.source, f.source);
    ASSERT_EQ(r.target, f.target);
    ASSERT_EQ(reused_path, fresh_path);
  }
}

// A patch lowering the arcs inside a box of the plane (as exempting a zone does) and a few
// arcs anywhere: every slot weighs what a full customization of the lowered weights gives, and
// queries through the patch (the tree query and the split one) cost what the reference costs on
// them, their paths real ones.
TEST(CchMetricPatchTest, LowersAsAFullCustomizationDoes) {
  std::mt19937_64 rng(12);
  const Graph g = GridGraph(9, 7, 3, rng);
  const Cch cch(g.node_count, Order(g), g.tails, g.heads);
  // Even rounds over a base in doubles, odd ones over a base in ticks (lowered to whole ticks).
  const std::vector<double> weights_in_doubles = RandomWeights(g, rng);
  const std::vector<double> tick_weights = RandomTickWeights(g, rng);
  const CchMetric double_base(cch, weights_in_doubles);
  const CchMetric tick_base(cch, tick_weights);
  ASSERT_TRUE(tick_base.in_ticks());
  Queries queries(cch);
  CchSplitQuery split(cch);
  std::vector<std::uint32_t> split_path;
  std::uniform_real_distribution<float> corner(0.0f, 7.0f);
  std::uniform_real_distribution<double> share(0.0, 1.0);
  std::bernoulli_distribution stray(0.01);
  for (int round = 0; round < 8; ++round) {
    const bool ticks = round % 2 == 1;
    const CchMetric& base = ticks ? tick_base : double_base;
    const std::vector<double>& weights = ticks ? tick_weights : weights_in_doubles;
    const float x0 = corner(rng), y0 = corner(rng);
    std::vector<double> lowered_weights = weights;
    std::vector<CchMetricPatch::Lowered> lowered;
    for (std::uint32_t a = 0; a < g.tails.size(); ++a) {
      const std::uint32_t t = g.tails[a];
      const bool inside = g.x[t] >= x0 && g.x[t] < x0 + 2.0f && g.y[t] >= y0 && g.y[t] < y0 + 2.0f;
      if (!(inside || stray(rng)) || !(weights[a] < kInfCost)) continue;
      lowered_weights[a] = weights[a] * share(rng);
      if (ticks) lowered_weights[a] = OnTicks(lowered_weights[a]);
      lowered.push_back({a, lowered_weights[a]});
    }
    const CchMetricPatch patch = CchMetricPatch::Lower(base, lowered);
    const CchMetric full(cch, lowered_weights);
    EXPECT_GT(patch.rank_count(), 0u);
    EXPECT_LT(patch.arc_count(), cch.arc_count()) << "the patch holds the ranks it changes";
    std::printf("%zu arcs lowered: a patch of %u ranks, %llu of %llu hierarchy arcs\n",
                lowered.size(), patch.rank_count(),
                static_cast<unsigned long long>(patch.arc_count()),
                static_cast<unsigned long long>(cch.arc_count()));
    for (std::uint32_t slot = 0; slot < 2 * cch.arc_count(); ++slot) {
      ASSERT_EQ(patch.weight(base, slot), full.weight(slot)) << "slot " << slot;
    }
    for (int q = 0; q < 60; ++q) {
      const auto sources = RandomEndpoints(g.node_count, rng);
      const auto targets = RandomEndpoints(g.node_count, rng);
      const double expected = ReferenceCost(g, lowered_weights, sources, targets);
      std::vector<std::uint32_t> path;
      const CchResult r =
          queries.tree.Run(base, {.sources = sources, .targets = targets, .patch = &patch}, &path);
      ASSERT_EQ(r.found, expected < kInfCost);
      if (!r.found) continue;
      EXPECT_TRUE(SameCost(r.cost, expected)) << r.cost << " vs " << expected;
      ASSERT_NO_FATAL_FAILURE(ExpectPathCosts(g, lowered_weights, sources, targets, r, path));
      // The split query reads the patch alike, each side on its own.
      const CchResult s =
          split.Run(base, {.sources = sources, .targets = targets, .patch = &patch}, &split_path);
      ASSERT_TRUE(s.found);
      EXPECT_TRUE(SameCost(s.cost, expected)) << s.cost << " vs " << expected;
      ASSERT_NO_FATAL_FAILURE(ExpectPathCosts(g, lowered_weights, sources, targets, s, split_path));
    }
  }
}

TEST(CchTest, EmptyGraph) {
  const Cch cch(0, {}, {}, {});
  EXPECT_EQ(cch.node_count(), 0u);
  EXPECT_EQ(cch.arc_count(), 0u);
  EXPECT_EQ(cch.elimination_tree_height(), 0u);
  const CchMetric metric(cch, {});
  CchQuery query(cch);
  std::vector<std::uint32_t> path;
  const CchResult r = query.Run(metric, {.sources = {}, .targets = {}}, &path);
  EXPECT_FALSE(r.found);
  EXPECT_EQ(r.cost, kInfCost);
  EXPECT_EQ(r.source, kInvalidId);
  EXPECT_TRUE(path.empty());
}

TEST(CchTest, SourceThatIsATarget) {
  std::mt19937_64 rng(9);
  const Graph g = GridGraph(3, 3, 2, rng);
  const Cch cch(g.node_count, Order(g), g.tails, g.heads);
  const std::vector<double> weights = RandomWeights(g, rng);
  const CchMetric metric(cch, weights);
  CchQuery query(cch);
  std::vector<std::uint32_t> path{7};
  const CchResult r = query.Run(
      metric, {.sources = {{5, 1.5}, {9, 100.0}}, .targets = {{20, 100.0}, {5, 2.0}}}, &path);
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.cost, 3.5);
  EXPECT_EQ(r.source, 0u);
  EXPECT_EQ(r.target, 1u);
  EXPECT_TRUE(path.empty());
}

TEST(CchTest, DisconnectedAndIgnoredEndpoints) {
  // Two islands: 0 <-> 1 and 2 -> 3; node 4 alone.
  Graph g;
  for (int i = 0; i < 5; ++i) g.AddNode(static_cast<float>(i), static_cast<float>(i % 2));
  g.AddArc(0, 1);
  g.AddArc(1, 0);
  g.AddArc(2, 3);
  g.AddArc(3, 3);  // a self loop
  const Cch cch(g.node_count, Order(g), g.tails, g.heads);
  const CchMetric metric(cch, {1.0, 2.0, 3.0, 0.5});
  CchQuery query(cch);
  std::vector<std::uint32_t> path;
  EXPECT_FALSE(query.Run(metric, {.sources = {{0, 0.0}}, .targets = {{2, 0.0}}}, &path).found);
  EXPECT_FALSE(query.Run(metric, {.sources = {{3, 0.0}}, .targets = {{2, 0.0}}}, &path)
                   .found);  // one way only
  EXPECT_FALSE(
      query.Run(metric, {.sources = {{4, 0.0}}, .targets = {{0, 0.0}, {3, 0.0}}}, &path).found);
  EXPECT_FALSE(query.Run(metric, {.sources = {{0, kInfCost}}, .targets = {{1, 0.0}}}, &path).found);
  EXPECT_FALSE(query.Run(metric, {.sources = {}, .targets = {{1, 0.0}}}, &path).found);
  EXPECT_TRUE(path.empty());
  const CchResult r =
      query.Run(metric, {.sources = {{4, 0.0}, {2, 1.0}}, .targets = {{0, 0.0}, {3, 0.0}}}, &path);
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.cost, 4.0);
  EXPECT_EQ(r.source, 1u);
  EXPECT_EQ(r.target, 1u);
  EXPECT_EQ(path, std::vector<std::uint32_t>{2});
  // An absent arc (+inf) is no arc.
  const CchMetric closed(cch, {1.0, 2.0, kInfCost, 0.5});
  EXPECT_FALSE(query.Run(closed, {.sources = {{2, 0.0}}, .targets = {{3, 0.0}}}).found);
}

// Slots summed many at once (CchSlotSum::OfEach, a level of their ways unpacked together) give
// the sums of the input arcs UnpackSlot unpacks them to, for steps in bytes (blocks searched
// included) and vias kept whole, with the memo filling across batches. The values are whole
// numbers, so that any order of adding gives the same sum.
TEST(CchSlotSumTest, SlotsSummedAtOnceAreTheirUnpackedInputArcs) {
  std::mt19937_64 rng(59);
  std::uint64_t searched = 0, shortcuts = 0;
  for (const auto& [nodes, arcs] :
       std::vector<std::pair<std::uint32_t, std::uint32_t>>{{300, 900}, {2500, 15000}}) {
    const Graph g = SparseGraph(nodes, arcs, rng);
    const Cch cch(g.node_count, Order(g), g.tails, g.heads);
    std::vector<float> values(g.tails.size());
    for (float& v : values) v = static_cast<float>(rng() % 100);
    for (const bool in_bytes : {true, false}) {
      CchMetric::KeepStepsInBytes(in_bytes);
      const CchMetric metric(cch, RandomTickWeights(g, rng));
      CchMetric::KeepStepsInBytes(true);
      searched += metric.searched_steps();
      CchSlotSum sum(metric, values);
      std::vector<CchSlotSum::SlotAt> batch;
      std::vector<double> expected;
      std::vector<CchPendingSlot> stack;
      std::vector<std::uint32_t> path;
      auto check = [&] {
        std::vector<double> got(batch.size());
        sum.OfEach(batch, got);
        for (std::size_t i = 0; i < batch.size(); ++i) {
          ASSERT_EQ(got[i], expected[i]) << nodes << " nodes, slot " << batch[i].slot;
        }
        batch.clear();
        expected.clear();
      };
      for (std::uint32_t slot = 0; slot < 2 * cch.arc_count(); ++slot) {
        if (!(metric.weight(slot) < kInfCost) || rng() % 8 != 0) continue;
        const std::uint32_t tail = cch.TailOf(slot >> 1);
        path.clear();
        UnpackSlot(metric, nullptr, {slot >> 1, slot & 1, tail}, &stack, &path);
        shortcuts += path.size() > 1;
        double total = 0.0;
        for (const std::uint32_t a : path) total += values[a];
        batch.push_back({slot, tail});
        expected.push_back(total);
        if (batch.size() == 37) check();
      }
      check();
      EXPECT_GT(sum.memo_size(), 0u);
    }
  }
  EXPECT_GT(searched, 0u) << "no step named a block: their search went untested";
  EXPECT_GT(shortcuts, 0u);
}

// Many to many: every cell of a table of random endpoint sets costs what the reference costs,
// and the way it names (both sides' labels, down to their endpoints) sums to that cost again
// when the input arcs' values are their weights.
TEST(CchManyToManyTest, EveryCellCostsTheReferenceAndItsWaySumsToIt) {
  std::mt19937_64 rng(41);
  for (const auto& [nodes, arcs] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{
           {10, 15}, {100, 150}, {400, 1200}, {800, 1000}}) {
    const Graph g = SparseGraph(nodes, arcs, rng);
    const Cch cch(g.node_count, Order(g), g.tails, g.heads);
    const std::vector<double> weights = RandomWeights(g, rng);
    const CchMetric metric(cch, weights);
    std::vector<float> values(weights.size());
    for (std::size_t a = 0; a < weights.size(); ++a) values[a] = static_cast<float>(weights[a]);
    CchSlotSum sum(metric, values);
    CchSplitQuery query(cch);
    CchSideSweep sweep;
    std::vector<std::vector<CchEndpoint>> sources(6), targets(7);
    for (auto& s : sources) s = RandomEndpoints(g.node_count, rng);
    for (auto& t : targets) t = RandomEndpoints(g.node_count, rng);
    std::vector<CchSide> target_sides(targets.size());
    std::vector<const CchSide*> filed;
    for (std::size_t j = 0; j < targets.size(); ++j) {
      sweep.Run(query, metric, Cch::kBackward, targets[j], &target_sides[j]);
      filed.push_back(&target_sides[j]);
    }
    const CchBuckets buckets(cch, filed);
    int found = 0;
    for (const auto& source : sources) {
      CchSide side;
      sweep.Run(query, metric, Cch::kForward, source, &side);
      std::vector<CchMeeting> row;
      buckets.Scan(side, &row);
      ASSERT_EQ(row.size(), targets.size());
      for (std::size_t j = 0; j < targets.size(); ++j) {
        const double expected = ReferenceCost(g, weights, source, targets[j]);
        ASSERT_EQ(row[j].found(), expected < kInfCost) << nodes << " nodes, target " << j;
        if (!row[j].found()) continue;
        ++found;
        EXPECT_TRUE(SameCost(row[j].cost, expected)) << row[j].cost << " vs " << expected;
        auto endpoint_cost = [](const std::vector<CchEndpoint>& ends, std::uint32_t node) {
          double best = kInfCost;
          for (const CchEndpoint& e : ends) {
            if (e.node == node) best = std::min(best, e.cost);
          }
          return best;
        };
        const double way =
            endpoint_cost(source, side.EndpointNode(cch, row[j].source_label)) +
            side.SumTo(row[j].source_label, sum) + target_sides[j].SumTo(row[j].target_label, sum) +
            endpoint_cost(targets[j], target_sides[j].EndpointNode(cch, row[j].target_label));
        EXPECT_NEAR(way, expected, 1e-4 * std::max(1.0, expected)) << nodes << " nodes";
      }
    }
    EXPECT_GT(found, 0) << nodes << " nodes: the table must have found ways";
  }
}

// Calls f(cch, metric, rng) on random hierarchies of 10, 400 and 2,000 nodes, each with random
// weights in doubles and in whole ticks (floats) and, with `ties`, mostly one second (many ways
// of equal cost).
template <typename F>
void ForRandomMetrics(std::uint64_t seed, bool ties, F f) {
  std::mt19937_64 rng(seed);
  for (const auto& [nodes, arcs] :
       std::vector<std::pair<std::uint32_t, std::uint32_t>>{{10, 15}, {400, 1200}, {2000, 6000}}) {
    const Graph g = SparseGraph(nodes, arcs, rng);
    const Cch cch(g.node_count, Order(g), g.tails, g.heads);
    std::vector<std::vector<double>> weights = {RandomWeights(g, rng), RandomTickWeights(g, rng)};
    if (ties) {
      std::vector<double>& seconds = weights.emplace_back(g.tails.size());
      for (double& w : seconds) w = 1.0 + static_cast<double>(rng() % 8 == 0);
    }
    for (const std::vector<double>& w : weights) {
      const CchMetric metric(cch, w);
      f(cch, metric, rng);
    }
  }
}

// The potential of every node on random hierarchies, weights in doubles, in floats (whole ticks)
// and mostly one second (ties), at each width of lanes the processor has: the same value as one
// lane's, whose sweep and memo take one arc at a time (DistancesToTargetsMatchDijkstra checks the
// widest against a plain Dijkstra).
TEST(CchPotentialTest, EveryLaneWidthPricesAsOneLaneDoes) {
  ForRandomMetrics(53, true, [](const Cch& cch, const CchMetric& metric, std::mt19937_64& rng) {
    CchPotential one(cch), wide(cch);
    for (int k = 0; k < 6; ++k) {
      const std::vector<CchEndpoint> targets = RandomEndpoints(cch.node_count(), rng);
      UseRankRelaxLanes(1);
      one.Reset(metric, targets);
      std::vector<double> expected(cch.node_count());
      for (std::uint32_t v = 0; v < cch.node_count(); ++v) expected[v] = one.ToTargets(v);
      for (const unsigned lanes : {8u, 4u}) {
        if (UseRankRelaxLanes(lanes) != lanes) continue;  // not on this processor
        wide.Reset(metric, targets);
        for (std::uint32_t v = cch.node_count(); v-- > 0;) {  // the memo entered from the top
          ASSERT_EQ(wide.ToTargets(v), expected[v]) << lanes << " lanes, node " << v;
        }
      }
    }
  });
  UseRankRelaxLanes(8);
}

// The split query's unpruned side against CchSideSweep on random hierarchies (below).
void ExpectSidesSweepTheSplitQuerysLabels() {
  ForRandomMetrics(43, false, [](const Cch& cch, const CchMetric& metric, std::mt19937_64& rng) {
    CchSplitQuery query(cch), reference(cch);
    CchSideSweep sweep;
    for (int k = 0; k < 20; ++k) {
      const std::vector<CchEndpoint> ends = RandomEndpoints(cch.node_count(), rng);
      for (const std::uint32_t d : {Cch::kForward, Cch::kBackward}) {
        CchSide side;
        sweep.Run(query, metric, d, ends, &side);
        reference.Begin(metric);
        reference.Side(d, metric, {.endpoints = ends});
        std::size_t label = 0;
        for (const std::uint32_t r : reference.visited(d)) {
          const CchAncestorWalk& expected = reference.walk();
          if (!(expected.cost(d, r) < kInfCost)) continue;
          ASSERT_LT(label, side.size());
          EXPECT_EQ(side.rank[label], r);
          EXPECT_EQ(side.cost[label], expected.cost(d, r));
          const std::uint32_t arc = expected.pred_arc(d, r);
          EXPECT_EQ(side.slot[label], arc == kInvalidId ? kInvalidId : 2 * arc + d);
          if (arc != kInvalidId) {
            EXPECT_EQ(cch.head()[arc], r);
          }
          ++label;
        }
        EXPECT_EQ(label, side.size());
      }
    }
  });
}

// Every query's answers, path included, on random hierarchies at the lanes in use: the tree
// query's and the split query's, over weights in doubles, in floats, and in whole seconds (ties).
struct LaneAnswer {
  CchResult result;
  std::vector<std::uint32_t> path;
};
std::vector<LaneAnswer> AnswersAtTheLanesInUse() {
  std::vector<LaneAnswer> answers;
  ForRandomMetrics(47, true, [&](const Cch& cch, const CchMetric& metric, std::mt19937_64& rng) {
    CchQuery tree(cch);
    CchSplitQuery split(cch);
    for (int k = 0; k < 30; ++k) {
      const std::vector<CchEndpoint> sources = RandomEndpoints(cch.node_count(), rng);
      const std::vector<CchEndpoint> targets = RandomEndpoints(cch.node_count(), rng);
      for (const bool by_tree : {true, false}) {
        LaneAnswer a;
        a.result = by_tree ? tree.Run(metric, {.sources = sources, .targets = targets}, &a.path)
                           : split.Run(metric, {.sources = sources, .targets = targets}, &a.path);
        answers.push_back(std::move(a));
      }
    }
  });
  return answers;
}

// The tree and split queries relax several arcs at a time where their heads are consecutive
// ranks (nav/cch/cch_rank_relax.h): every width of lanes the processor has finds the same
// cost, endpoints, meeting and path as one arc at a time.
TEST(CchQueryTest, QueriesMeetAsOneLaneDoes) {
  UseRankRelaxLanes(1);
  const std::vector<LaneAnswer> one_lane = AnswersAtTheLanesInUse();
  std::size_t found = 0;
  for (const LaneAnswer& a : one_lane) found += a.result.found;
  EXPECT_GT(found, one_lane.size() / 2);
  for (const unsigned lanes : {8u, 4u}) {
    if (UseRankRelaxLanes(lanes) != lanes) continue;  // not on this processor
    const std::vector<LaneAnswer> wide = AnswersAtTheLanesInUse();
    ASSERT_EQ(wide.size(), one_lane.size());
    for (std::size_t i = 0; i < wide.size(); ++i) {
      EXPECT_EQ(wide[i].result.found, one_lane[i].result.found) << lanes << " lanes, query " << i;
      EXPECT_EQ(wide[i].result.cost, one_lane[i].result.cost) << lanes << " lanes, query " << i;
      EXPECT_EQ(wide[i].result.source, one_lane[i].result.source) << lanes << " lanes, query " << i;
      EXPECT_EQ(wide[i].result.target, one_lane[i].result.target) << lanes << " lanes, query " << i;
      EXPECT_EQ(wide[i].path, one_lane[i].path) << lanes << " lanes, query " << i;
    }
  }
  UseRankRelaxLanes(8);
}

// Eight ways of equal cost through eight consecutive ranks: s (rank 0) and t (rank 1) below
// c0 .. c7 (ranks 2 .. 9), each c joined to s and to t both ways by arcs of 1 second. Every width
// of lanes meets at c0, the lowest rank among equals, as one arc at a time does (a block that
// kept the last of equal sums would meet at c3 or c7), in the tree query and the split query.
TEST(CchQueryTest, EqualWaysThroughOneBlockMeetAtItsLowestRank) {
  Graph g;
  for (int i = 0; i < 10; ++i) g.AddNode(static_cast<float>(i), 0.0f);
  for (std::uint32_t c = 2; c < 10; ++c) {
    g.AddArc(0, c);  // s -> c: arc 4 (c - 2)
    g.AddArc(c, 0);
    g.AddArc(c, 1);  // c -> t: arc 4 (c - 2) + 2
    g.AddArc(1, c);
  }
  const std::vector<double> weights(g.tails.size(), 1.0);
  std::vector<std::uint32_t> order(g.node_count);
  std::iota(order.begin(), order.end(), 0u);
  const Cch cch(g.node_count, order, g.tails, g.heads);
  const CchMetric metric(cch, weights);
  for (const unsigned lanes : {8u, 4u, 1u}) {
    if (UseRankRelaxLanes(lanes) != lanes) continue;  // not on this processor
    CchQuery tree(cch);
    CchSplitQuery split(cch);
    for (const bool by_tree : {true, false}) {
      std::vector<std::uint32_t> path;
      const CchResult r =
          by_tree ? tree.Run(metric, {.sources = {{0, 0.0}}, .targets = {{1, 0.0}}}, &path)
                  : split.Run(metric, {.sources = {{0, 0.0}}, .targets = {{1, 0.0}}}, &path);
      EXPECT_EQ(r.cost, 2.0) << lanes << " lanes, tree " << by_tree;
      EXPECT_EQ(path, (std::vector<std::uint32_t>{0, 2})) << lanes << " lanes, tree " << by_tree;
    }
  }
  UseRankRelaxLanes(8);
}

// A table's side holds the labels the split query's unpruned side reaches, exactly: each rank's
// cost, and the arc and lower label it was reached by, in both directions, over weights in
// doubles and in floats (whole ticks), on hierarchies whose tops are runs of consecutive ranks,
// on each width of lanes the processor has.
TEST(CchManyToManyTest, ASideSweepsTheLabelsOfTheSplitQuerysSide) {
  for (const unsigned lanes : {8u, 4u, 1u}) {
    if (UseRankRelaxLanes(lanes) != lanes) continue;  // not on this processor
    ExpectSidesSweepTheSplitQuerysLabels();
  }
  UseRankRelaxLanes(8);
}

}  // namespace
}  // namespace walk::nav
