#include "nav/abstract_graph.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "nav/cch_order.h"
#include "nav/cell_search.h"
#include "nav/content_hash.h"
#include "nav/cost_model.h"

namespace walk::nav {
namespace {

struct Crossing {
  SurfaceId a = 0;  // on the border's near side (west or north)
  SurfaceId b = 0;  // on its far side
};

// The crossings between column (ax, ay) and its neighbour in direction `d` (0 east, 2 south).
void CrossingsAt(const Continent& c, std::uint32_t ax, std::uint32_t ay, int d,
                 std::vector<Crossing>* out) {
  out->clear();
  const int back = (d + 4) & 7;
  SurfaceId first, end;
  c.ColumnSurfaces(ax, ay, &first, &end);
  // Blocked ground is a surface nobody may enter: no crossing starts or ends there.
  auto open = [&](SurfaceId s) { return (c.flags[s] & kFlagBlocked) == 0; };
  for (SurfaceId s = first; s < end; ++s) {
    if (HasLink(c.links[s][d]) && open(s) && open(c.LinkTarget(s, d))) out->push_back({s, c.LinkTarget(s, d)});
  }
  c.ColumnSurfaces(ax + kDirectionDx[d], ay + kDirectionDy[d], &first, &end);
  for (SurfaceId t = first; t < end; ++t) {
    if (!HasLink(c.links[t][back]) || !open(t)) continue;
    const SurfaceId s = c.LinkTarget(t, back);
    if (!open(s)) continue;
    const bool known = std::any_of(out->begin(), out->end(),
                                   [&](const Crossing& x) { return x.a == s && x.b == t; });
    if (!known) out->push_back({s, t});
  }
}

// True when surfaces a and b of neighbouring columns (b in direction `along` of a) link both
// ways. A run's crossings must reach each other along the border: with a one-way link (a slope
// one may only go down) an entrance on its low side could not reach the crossings above it,
// and a place reached only through those would have no entrance (version 3).
bool Linked(const Continent& c, SurfaceId a, SurfaceId b, int along) {
  const int back = (along + 4) & 7;
  return (HasLink(c.links[a][along]) && c.LinkTarget(a, along) == b) &&
         (HasLink(c.links[b][back]) && c.LinkTarget(b, back) == a);
}

// What splits a run: the kinds of ground that change what crossing there costs by much (roads,
// water, towns) and zones (danger). Small patches of steep or forest ground do not split runs;
// entrances step off them instead (PickEntrances), so they do not multiply entrances.
std::uint64_t GroundKey(const Continent& c, SurfaceId s) {
  return (c.flags[s] & kFlagWater) |
         (static_cast<std::uint64_t>(c.marks[s] & (kMarkRoad | kMarkHubA | kMarkHubB)) << 8) |
         (std::uint64_t{c.zone[s]} << 16);
}

// True when crossing at `x` enters no ground some profile avoids or pays heavily for.
bool PlainCrossing(const Continent& c, const Crossing& x) {
  constexpr std::uint8_t kAvoided = kFlagSteep | kFlagClimb | kFlagBlocked | kFlagForest;
  return ((c.flags[x.a] | c.flags[x.b]) & kAvoided) == 0;
}

// True when crossing at `x` goes from road to road.
bool RoadCrossing(const Continent& c, const Crossing& x) {
  return (c.marks[x.a] & c.marks[x.b] & kMarkRoad) != 0 && PlainCrossing(c, x);
}

// Picks the entrances of one run: both ends and evenly spread ones at most `spacing` apart, or
// the middle of a run no longer than the spacing; each moved to the nearest plain crossing within
// a quarter of the spacing, when there is one.
void PickEntrances(const Continent& c, const std::vector<Crossing>& run, std::uint32_t spacing,
                   std::vector<SurfaceId>* nodes) {
  const std::size_t length = run.size();
  // The nearest crossing to `i` within reach that `good` accepts, or `i`.
  auto nearest = [&](std::size_t i, auto good) {
    const std::size_t reach = spacing / 4;
    for (std::size_t d = 0; d <= reach; ++d) {
      if (i >= d && good(run[i - d])) return i - d;
      if (i + d < length && good(run[i + d])) return i + d;
    }
    return length;
  };
  auto take = [&](std::size_t i) {
    std::size_t at = nearest(i, [&](const Crossing& x) { return RoadCrossing(c, x); });
    if (at == length) at = nearest(i, [&](const Crossing& x) { return PlainCrossing(c, x); });
    if (at == length) at = i;
    nodes->push_back(run[at].a);
    nodes->push_back(run[at].b);
  };
  if (length <= spacing) {
    take((length - 1) / 2);
    return;
  }
  const std::size_t last = length - 1;
  const std::size_t pieces = (last + spacing - 1) / spacing;
  for (std::size_t j = 0; j <= pieces; ++j) take((j * last + pieces / 2) / pieces);
}

// Scans one cell border: `count` positions from column (x, y), stepping `along`, crossing in
// direction `d`.
void ScanBorder(const Continent& c, std::uint32_t x, std::uint32_t y, int along, int d,
                std::uint32_t count, std::uint32_t spacing, std::vector<SurfaceId>* nodes) {
  struct Run {
    std::uint64_t key;
    std::vector<Crossing> members;
  };
  std::vector<Run> open, next;
  std::vector<Crossing> here;
  for (std::uint32_t i = 0; i < count; ++i) {
    CrossingsAt(c, x + i * kDirectionDx[along], y + i * kDirectionDy[along], d, &here);
    next.clear();
    for (const Crossing& x_here : here) {
      const std::uint64_t key = GroundKey(c, x_here.a) | (GroundKey(c, x_here.b) << 32);
      auto it = std::find_if(open.begin(), open.end(), [&](const Run& r) {
        return !r.members.empty() && r.key == key && Linked(c, r.members.back().a, x_here.a, along) &&
               Linked(c, r.members.back().b, x_here.b, along);
      });
      if (it != open.end()) {
        next.push_back(std::move(*it));
        it->members.clear();  // taken
        next.back().members.push_back(x_here);
      } else {
        next.push_back(Run{key, {x_here}});
      }
    }
    for (const Run& r : open) {
      if (!r.members.empty()) PickEntrances(c, r.members, spacing, nodes);
    }
    std::swap(open, next);
  }
  for (const Run& r : open) {
    if (!r.members.empty()) PickEntrances(c, r.members, spacing, nodes);
  }
}

// One arc as the cells found it, priced per profile.
struct ArcRecord {
  std::uint32_t tail = 0;
  std::uint32_t head = 0;
  std::vector<PieceCost> costs;  // per profile; seconds +inf where it cannot be taken
};

}  // namespace

std::uint32_t ContinentGraph::NodeOf(SurfaceId s) const {
  auto it = std::lower_bound(node_surface.begin(), node_surface.end(), s);
  return it != node_surface.end() && *it == s ? static_cast<std::uint32_t>(it - node_surface.begin())
                                              : kInvalidId;
}

std::span<const std::uint32_t> ContinentGraph::CellNodes(std::uint32_t cell_columns,
                                                         std::uint32_t x, std::uint32_t y) const {
  const std::uint32_t cell = (y / cell_columns) * cells_x + x / cell_columns;
  return {cell_nodes.data() + cell_first_node[cell], cell_nodes.data() + cell_first_node[cell + 1]};
}

std::vector<std::uint32_t> ContinentGraph::ArcTails() const {
  std::vector<std::uint32_t> tails(arc_count());
  for (std::uint32_t n = 0; n < node_count(); ++n) {
    std::fill(tails.begin() + first_arc[n], tails.begin() + first_arc[n + 1], n);
  }
  return tails;
}

void ContinentGraph::IndexCells(const Continent& c, std::uint32_t cell_columns) {
  cells_x = (c.width_columns + cell_columns - 1) / cell_columns;
  cells_y = (c.height_columns + cell_columns - 1) / cell_columns;
  const std::size_t cells = std::size_t{cells_x} * cells_y;
  cell_first_node.assign(cells + 1, 0);
  auto cell_of = [&](std::uint32_t n) {
    const SurfaceId s = node_surface[n];
    return (c.column_y[s] / cell_columns) * cells_x + c.column_x[s] / cell_columns;
  };
  for (std::uint32_t n = 0; n < node_count(); ++n) ++cell_first_node[cell_of(n) + 1];
  for (std::size_t i = 0; i < cells; ++i) cell_first_node[i + 1] += cell_first_node[i];
  cell_nodes.resize(node_count());
  std::vector<std::uint32_t> fill(cell_first_node.begin(), cell_first_node.end() - 1);
  for (std::uint32_t n = 0; n < node_count(); ++n) cell_nodes[fill[cell_of(n)]++] = n;
}

std::uint64_t ContinentGraph::MemoryBytes() const {
  std::uint64_t bytes = node_surface.size() * 4 + first_arc.size() * 4 + arc_head.size() * 4 +
                        order.size() * 4 + cell_first_node.size() * 4 + cell_nodes.size() * 4;
  for (const ArcPrices& p : prices) {
    bytes += p.seconds.size() * 4 + p.yards.size() * 4 + p.mix_first.size() * 4 +
             p.mix.size() * sizeof(ZoneShare);
  }
  return bytes;
}

int AbstractGraph::ProfileIndex(const std::string& profile) const {
  for (std::size_t i = 0; i < profiles.size(); ++i) {
    if (profiles[i] == profile) return static_cast<int>(i);
  }
  return -1;
}

std::uint64_t AbstractGraph::Fingerprint() const {
  ContentHasher h;
  h.AddString("walkd abstract graph");
  h.AddU64(graph_version);
  h.AddU64(content_id);
  h.AddU64(cost_model_version);
  h.AddU64(cell_columns);
  h.AddU64(entrance_spacing);
  h.AddU64(tile_entrance_spacing);
  return h.Finish();
}

std::uint64_t AbstractGraph::MemoryBytes() const {
  std::uint64_t bytes = 0;
  for (const ContinentGraph& g : continents) bytes += g.MemoryBytes();
  return bytes;
}

std::uint32_t AutoEntranceSpacing(std::uint32_t columns) {
  if (columns <= 1024) return 4;
  if (columns <= 4096) return 8;
  return 16;
}

absl::StatusOr<AbstractGraph> BuildAbstractGraph(const World& world,
                                                 const AbstractGraphOptions& asked) {
  AbstractGraphOptions options = asked;
  if (options.entrance_spacing == 0) {
    std::uint32_t widest = 0;
    for (const Continent& c : world.continents) widest = std::max({widest, c.width_columns, c.height_columns});
    options.entrance_spacing = AutoEntranceSpacing(widest);
  }
  if (options.tile_entrance_spacing == 0) options.tile_entrance_spacing = 2 * options.entrance_spacing;
  if (options.cell_columns == 0 || kTileColumns % options.cell_columns != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("cell_columns: ", options.cell_columns, " does not divide the tile's ", kTileColumns));
  }
  AbstractGraph graph;
  graph.content_id = world.content_id;
  graph.cost_model_version = kCostModelVersion;
  graph.cell_columns = options.cell_columns;
  graph.entrance_spacing = options.entrance_spacing;
  graph.tile_entrance_spacing = options.tile_entrance_spacing;
  graph.profiles = options.profiles.empty() ? ProfileNames() : options.profiles;
  std::vector<Metric> base;
  for (const std::string& name : graph.profiles) {
    const Profile* profile = FindProfile(name);
    if (profile == nullptr || name.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("profiles: no profile named \"", name, "\""));
    }
    base.emplace_back(world, *profile, 0);
  }
  const std::size_t profile_count = base.size();
  const std::uint32_t cc = options.cell_columns;

  // Cells in all, for progress.
  std::uint64_t total_cells = 0;
  for (const Continent& c : world.continents) {
    total_cells += std::uint64_t{(c.width_columns + cc - 1) / cc} * ((c.height_columns + cc - 1) / cc);
  }
  std::atomic<std::uint64_t> cells_done{0};
  std::mutex progress_mu;

  for (const Continent& c : world.continents) {
    ContinentGraph g;
    g.continent = c.id;

    // Entrances: scan the east and south border of every cell whose neighbour exists.
    std::vector<SurfaceId> nodes;
    const std::uint32_t cells_x = (c.width_columns + cc - 1) / cc;
    const std::uint32_t cells_y = (c.height_columns + cc - 1) / cc;
    for (std::uint32_t cy = 0; cy < cells_y; ++cy) {
      for (std::uint32_t cx = 0; cx < cells_x; ++cx) {
        const std::uint32_t x0 = cx * cc, y0 = cy * cc;
        if (c.TileAt(x0, y0) == nullptr) continue;
        const std::uint32_t rows = std::min(cc, c.height_columns - y0);
        const std::uint32_t cols = std::min(cc, c.width_columns - x0);
        auto spacing = [&](std::uint32_t border) {
          return border % kTileColumns == 0 ? options.tile_entrance_spacing : options.entrance_spacing;
        };
        if (x0 + cc < c.width_columns && c.TileAt(x0 + cc, y0) != nullptr) {
          ScanBorder(c, x0 + cc - 1, y0, /*along=*/2, /*d=*/0, rows, spacing(x0 + cc), &nodes);
        }
        if (y0 + cc < c.height_columns && c.TileAt(x0, y0 + cc) != nullptr) {
          ScanBorder(c, x0, y0 + cc - 1, /*along=*/0, /*d=*/2, cols, spacing(y0 + cc), &nodes);
        }
      }
    }
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    g.node_surface = std::move(nodes);
    g.IndexCells(c, cc);

    // Arcs inside cells, one cell per task, on `threads` threads.
    const std::uint32_t cell_count = cells_x * cells_y;
    std::atomic<std::uint32_t> next_cell{0};
    std::vector<std::vector<ArcRecord>> found(cell_count);
    auto work = [&]() {
      CellSearch search;
      std::vector<PathStep> steps;
      std::vector<SurfaceId> targets;
      for (;;) {
        const std::uint32_t cell = next_cell.fetch_add(1);
        if (cell >= cell_count) break;
        const std::span<const std::uint32_t> cell_nodes{
            g.cell_nodes.data() + g.cell_first_node[cell], g.cell_nodes.data() + g.cell_first_node[cell + 1]};
        if (cell_nodes.size() > 1) {
          targets.clear();
          for (std::uint32_t n : cell_nodes) targets.push_back(g.node_surface[n]);
          const Cell bounds = CellOf(c, cc, targets.front());
          std::vector<ArcRecord>& out = found[cell];
          for (std::uint32_t tail : cell_nodes) {
            const std::size_t first_record = out.size();
            for (std::uint32_t head : cell_nodes) {
              if (head != tail) out.push_back(ArcRecord{tail, head, std::vector<PieceCost>(profile_count)});
            }
            for (std::size_t p = 0; p < profile_count; ++p) {
              search.Run(c, bounds, base[p], g.node_surface[tail], /*backward=*/false, 0, 0, targets);
              for (std::size_t r = first_record; r < out.size(); ++r) {
                PieceCost& cost = out[r].costs[p];
                const SurfaceId head_surface = g.node_surface[out[r].head];
                if (!search.Settled(head_surface)) {
                  cost.seconds = kInfCost;
                  continue;
                }
                search.Steps(head_surface, &steps);
                cost = PriceSteps(c, world.column_yards, base[p], steps);
              }
            }
            // Keep only arcs some profile can take.
            out.erase(std::remove_if(out.begin() + first_record, out.end(),
                                     [](const ArcRecord& r) {
                                       return std::none_of(r.costs.begin(), r.costs.end(),
                                                           [](const PieceCost& p) { return p.seconds < kInfCost; });
                                     }),
                      out.end());
          }
        }
        if (options.progress) {
          std::lock_guard<std::mutex> lock(progress_mu);  // counts arrive in order
          options.progress(++cells_done, total_cells);
        } else {
          ++cells_done;
        }
      }
    };
    const unsigned threads =
        std::max(1u, options.threads != 0 ? options.threads : std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();

    // Crossing arcs: one step between nodes of neighbouring cells.
    std::vector<ArcRecord> records;
    for (auto& cell_records : found) {
      for (ArcRecord& r : cell_records) records.push_back(std::move(r));
      std::vector<ArcRecord>().swap(cell_records);
    }
    for (std::uint32_t n = 0; n < g.node_count(); ++n) {
      const SurfaceId s = g.node_surface[n];
      const LinkSet& links = c.links[s];
      for (int d = 0; d < kDirectionCount; ++d) {
        if (!HasLink(links[d])) continue;
        if (IsDiagonal(d) && (!HasLink(links[d - 1]) || !HasLink(links[(d + 1) & 7]))) continue;
        const std::uint32_t nx = c.column_x[s] + kDirectionDx[d], ny = c.column_y[s] + kDirectionDy[d];
        if (nx / cc == c.column_x[s] / cc && ny / cc == c.column_y[s] / cc) continue;
        const std::uint32_t head = g.NodeOf(c.LinkTarget(s, d));
        if (head == kInvalidId) continue;
        ArcRecord r{n, head, std::vector<PieceCost>(profile_count)};
        const std::vector<PathStep> step = {{s, PathStep::kViaStart},
                                            {g.node_surface[head], static_cast<std::uint8_t>(d)}};
        bool any = false;
        for (std::size_t p = 0; p < profile_count; ++p) {
          r.costs[p] = PriceSteps(c, world.column_yards, base[p], step);
          any = any || r.costs[p].seconds < kInfCost;
        }
        if (any) records.push_back(std::move(r));
      }
    }

    // Assemble: arcs sorted by tail, then head (a crossing and an inside arc never share both).
    std::sort(records.begin(), records.end(), [](const ArcRecord& x, const ArcRecord& y) {
      return x.tail != y.tail ? x.tail < y.tail : x.head < y.head;
    });
    g.first_arc.assign(g.node_count() + 1, 0);
    g.arc_head.reserve(records.size());
    for (const ArcRecord& r : records) {
      ++g.first_arc[r.tail + 1];
      g.arc_head.push_back(r.head);
    }
    for (std::uint32_t n = 0; n < g.node_count(); ++n) g.first_arc[n + 1] += g.first_arc[n];
    g.prices.resize(profile_count);
    for (std::size_t p = 0; p < profile_count; ++p) {
      ArcPrices& prices = g.prices[p];
      prices.profile = graph.profiles[p];
      prices.seconds.reserve(records.size());
      prices.yards.reserve(records.size());
      prices.mix_first.reserve(records.size() + 1);
      prices.mix_first.push_back(0);
      for (const ArcRecord& r : records) {
        const PieceCost& cost = r.costs[p];
        const bool open = cost.seconds < kInfCost;
        prices.seconds.push_back(open ? static_cast<float>(cost.seconds) : std::numeric_limits<float>::infinity());
        prices.yards.push_back(open ? static_cast<float>(cost.yards) : 0.0f);
        if (open) prices.mix.insert(prices.mix.end(), cost.mix.begin(), cost.mix.end());
        prices.mix_first.push_back(static_cast<std::uint32_t>(prices.mix.size()));
      }
    }
    records.clear();

    // The CCH order, from the node's columns.
    std::vector<float> x(g.node_count()), y(g.node_count());
    for (std::uint32_t n = 0; n < g.node_count(); ++n) {
      x[n] = c.column_x[g.node_surface[n]];
      y[n] = c.column_y[g.node_surface[n]];
    }
    g.order = NestedDissectionOrder(g.node_count(), g.ArcTails(), g.arc_head, x, y);
    graph.continents.push_back(std::move(g));
  }
  return graph;
}

}  // namespace walk::nav
