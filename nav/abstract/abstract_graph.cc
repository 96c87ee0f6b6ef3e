#include "nav/abstract/abstract_graph.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "nav/abstract/cell_search.h"
#include "nav/cch/cch_order.h"
#include "nav/cost/cost_model.h"
#include "nav/grid/content_hash.h"

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
    if (HasLink(c.links[s][d]) && open(s) && open(c.LinkTarget(s, d)))
      out->push_back({s, c.LinkTarget(s, d)});
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
// and a place reached only through those would have no entrance.
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

// Picks the entrances of one run: its real ends (where the crossings stop: an obstacle, other
// ground, a one-way link) and the world's lattice points between them (below), or the middle of
// a run no longer than the spacing; each moved to the nearest plain crossing within a quarter
// of the spacing, when there is one. On a major border an end at a corner of the cell
// (`corner_start`, `corner_end`) is not a real end: the run goes on along the next cell's border,
// so it gets no entrance of its own, only one within half the spacing of the corner, and the
// entrances on either side of the corner are about `spacing` apart, as everywhere (rather than
// two entrances a column apart at every corner).
void PickEntrances(const Continent& c, const std::vector<Crossing>& run, std::uint32_t spacing,
                   std::uint32_t base_spacing, bool corner_start, bool corner_end,
                   std::vector<SurfaceId>* nodes) {
  const std::size_t length = run.size();
  // A north-south border's crossings step east (a is west of b), an east-west border's south.
  const bool north_south = c.column_x[run[0].a] != c.column_x[run[0].b];
  // The nearest crossing to `i` within reach that `good` accepts, or `i`.
  auto nearest = [&](std::size_t i, auto good) {
    const std::size_t reach = spacing / 4;
    for (std::size_t d = 0; d <= reach; ++d) {
      if (i >= d && good(run[i - d])) return i - d;
      if (i + d < length && good(run[i + d])) return i + d;
    }
    return length;
  };
  std::size_t taken = length;  // the last crossing taken: not again at once
  auto take = [&](std::size_t i) {
    std::size_t at = nearest(i, [&](const Crossing& x) { return RoadCrossing(c, x); });
    if (at == length) at = nearest(i, [&](const Crossing& x) { return PlainCrossing(c, x); });
    if (at == length) at = i;
    if (at == taken) return;
    taken = at;
    // The node: the west side of a north-south border, the south side of an east-west one (see
    // the lattice); a portal of both cells.
    nodes->push_back(north_south ? run[at].a : run[at].b);
  };
  // Entrances sit on one lattice for the whole world, so that a walk finds entrances in line on
  // both families of borders: on north-south borders where y is a multiple of the spacing, on
  // east-west borders where x + 1 is. A diagonal through a node (x, y) west of a north-south
  // border has x - y and x + y = -1 (mod the spacing), and so does one through a node south of
  // an east-west border: walks along both diagonals pass through nodes of both families
  // without a straight step to shift them (with the nodes on the west and north sides, one
  // diagonal would need two columns of shift at every crossing).
  auto along = [&](std::size_t i) {
    return north_south ? c.column_y[run[i].a] : c.column_x[run[i].a];
  };
  // Where the lattice `step` wide lies along this border: at this remainder modulo the step.
  auto lattice_offset = [&](std::uint32_t step) { return north_south ? 0 : step - 1; };
  if (length <= spacing) {
    // One entrance: at the middle, or at the base lattice's point nearest it (a corner is within
    // half the spacing either way).
    const std::uint32_t middle = (along(0) + along(length - 1)) / 2;
    std::size_t best = (length - 1) / 2;
    std::uint32_t best_distance = std::numeric_limits<std::uint32_t>::max();
    for (std::size_t i = 0; i < length; ++i) {
      const std::uint32_t distance = along(i) > middle ? along(i) - middle : middle - along(i);
      if (along(i) % base_spacing == lattice_offset(base_spacing) && distance < best_distance) {
        best = i;
        best_distance = distance;
      }
    }
    take(best);
    return;
  }
  // Between the ends, the lattice points of this border's spacing (a multiple of the base
  // spacing); one nearer than a quarter of the spacing to a real end is left to the end.
  const std::uint32_t first = along(0), last = along(length - 1), margin = spacing / 4;
  const std::uint32_t offset = lattice_offset(spacing);
  if (!corner_start) take(0);
  std::size_t i = 0;
  for (std::uint32_t at = first + (offset + spacing - first % spacing) % spacing; at <= last;
       at += spacing) {
    if ((!corner_start && at < first + margin) || (!corner_end && at + margin > last)) continue;
    while (i + 1 < length && along(i + 1) <= at) ++i;  // the member at or before the point
    const std::size_t nearest = (i + 1 < length && along(i + 1) - at < at - along(i)) ? i + 1 : i;
    take(nearest);
  }
  if (!corner_end) take(length - 1);
}

// The widest gap in a run, in border positions without a crossing (a tree, a rock), that a run
// on a major border bridges when the crossings on both sides of it reach each other around the
// obstacle.
constexpr std::uint32_t kMaxGap = 3;
// Major borders: every fourth tile border. The nested dissection cuts along them while its
// parts are at least twice as wide (they have the fewest crossing arcs of the lines it may
// choose), so they hold the top separators, whose size the CCH's customization and queries
// grow with (cubed and squared). Elsewhere entrances keep the base spacing.
constexpr std::uint32_t kMajorBorderColumns = 4 * kTileColumns;
// How deep into each side of the border a way around such an obstacle may go.
constexpr std::uint32_t kAroundDepth = 3;

// One cell border's geometry: position i of `count` is column (x, y) + i * along, and its
// crossings step in direction d, from the near side (depth 0, going back from the border) to
// the far side (depth 0 one column across).
struct Border {
  std::uint32_t x, y;
  int along, d;
  std::uint32_t count;
  std::uint32_t max_gap;  // kMaxGap where small obstacles are bridged, else 0
  std::uint32_t depth;    // how deep a way around may go: kAroundDepth, at most the cell's side
};

// True when surface `from` reaches surface `to` by steps that stay on one side of `border`,
// between positions lo and hi and within border.depth columns of it: a small search, only run
// where a run would otherwise break. Steps follow the walker's rules (links, diagonals only
// where both sides are open) onto ground every prepared profile may enter (`open`: a heavy
// unit may not enter forest, so a way around a tree through forest does not join a run).
template <typename Open>
bool ReachesAround(const Continent& c, const Border& border, bool far_side, std::uint32_t lo,
                   std::uint32_t hi, SurfaceId from, SurfaceId to, const Open& open,
                   std::vector<SurfaceId>* seen) {
  auto inside = [&](SurfaceId s) {
    const std::int64_t dx = std::int64_t{c.column_x[s]} - border.x,
                       dy = std::int64_t{c.column_y[s]} - border.y;
    const std::int64_t pos = dx * kDirectionDx[border.along] + dy * kDirectionDy[border.along];
    const std::int64_t across = dx * kDirectionDx[border.d] + dy * kDirectionDy[border.d];
    const std::int64_t depth = far_side ? across - 1 : -across;
    return pos >= lo && pos <= hi && depth >= 0 && depth < border.depth;
  };
  seen->assign(1, from);
  for (std::size_t next = 0; next < seen->size(); ++next) {
    const SurfaceId v = (*seen)[next];
    if (v == to) return true;
    const LinkSet& links = c.links[v];
    for (int d = 0; d < kDirectionCount; ++d) {
      if (!HasLink(links[d])) continue;
      if (IsDiagonal(d) && (!HasLink(links[d - 1]) || !HasLink(links[(d + 1) & 7]))) continue;
      const SurfaceId w = c.LinkTarget(v, d);
      if (!inside(w) || (c.flags[w] & kFlagBlocked) != 0 || !open(w)) continue;
      if (std::find(seen->begin(), seen->end(), w) == seen->end()) seen->push_back(w);
    }
  }
  return false;
}

// Scans one cell border for runs of crossings and picks their entrances. `open(s)`: every
// prepared profile may enter surface s.
template <typename Open>
void ScanBorder(const Continent& c, const Border& border, std::uint32_t spacing,
                std::uint32_t base_spacing, const Open& open_ground,
                std::vector<SurfaceId>* nodes) {
  struct Run {
    std::uint64_t key;
    std::vector<Crossing> members;
    std::uint32_t first, last;  // positions of the first and last members
  };
  std::vector<Run> open, kept;
  std::vector<Crossing> here;
  std::vector<SurfaceId> seen;
  std::vector<std::uint8_t> continued;
  auto close = [&](const Run& r) {
    // On a major border, a run that starts or ends at a corner of the cell goes on along the
    // next cell's border, as far as its entrances are concerned (PickEntrances); elsewhere
    // both ends keep their entrances.
    const bool bridged = border.max_gap > 0;
    PickEntrances(c, r.members, spacing, base_spacing, bridged && r.first == 0,
                  bridged && r.last + 1 == border.count, nodes);
  };
  for (std::uint32_t i = 0; i < border.count; ++i) {
    CrossingsAt(c, border.x + i * kDirectionDx[border.along],
                border.y + i * kDirectionDy[border.along], border.d, &here);
    continued.assign(open.size(), 0);
    for (const Crossing& x_here : here) {
      const std::uint64_t key = GroundKey(c, x_here.a) | (GroundKey(c, x_here.b) << 32);
      // The run this crossing goes on: one step along the border both ways on both sides, or,
      // over a small gap or a one-way step, around it on both sides both ways.
      // Direct links first, over every open run; only then ways around.
      std::size_t found = open.size();
      for (std::size_t k = 0; k < open.size() && found == open.size(); ++k) {
        const Run& r = open[k];
        if (continued[k] || r.key != key || r.last + 1 != i) continue;
        const Crossing& back = r.members.back();
        if (Linked(c, back.a, x_here.a, border.along) && Linked(c, back.b, x_here.b, border.along))
          found = k;
      }
      for (std::size_t k = 0; k < open.size() && found == open.size() && border.max_gap > 0; ++k) {
        const Run& r = open[k];
        if (continued[k] || r.key != key) continue;
        const Crossing& back = r.members.back();
        const std::uint32_t lo = r.last > 0 ? r.last - 1 : 0,
                            hi = std::min(i + 1, border.count - 1);
        if (ReachesAround(c, border, false, lo, hi, back.a, x_here.a, open_ground, &seen) &&
            ReachesAround(c, border, false, lo, hi, x_here.a, back.a, open_ground, &seen) &&
            ReachesAround(c, border, true, lo, hi, back.b, x_here.b, open_ground, &seen) &&
            ReachesAround(c, border, true, lo, hi, x_here.b, back.b, open_ground, &seen)) {
          found = k;
        }
      }
      if (found < open.size()) {
        continued[found] = 1;
        open[found].members.push_back(x_here);
        open[found].last = i;
      } else {
        open.push_back(Run{key, {x_here}, i, i});
        continued.push_back(1);
      }
    }
    // Runs a gap wider than kMaxGap has ended are closed.
    kept.clear();
    for (Run& r : open) {
      if (i - r.last > border.max_gap) {
        close(r);
      } else {
        kept.push_back(std::move(r));
      }
    }
    std::swap(open, kept);
  }
  for (const Run& r : open) close(r);
}

// One arc as the cells found it, priced per profile.
struct ArcRecord {
  std::uint32_t tail = 0;
  std::uint32_t head = 0;
  std::vector<PieceCost> costs;  // per profile; seconds +inf where it cannot be taken
};

}  // namespace

bool RideLeavesCell(const Continent& c, std::uint32_t cell_columns, const LiftRide& ride) {
  return c.column_x[ride.from] / cell_columns != c.column_x[ride.to] / cell_columns ||
         c.column_y[ride.from] / cell_columns != c.column_y[ride.to] / cell_columns;
}

std::uint32_t ContinentGraph::NodeOf(SurfaceId s) const {
  auto it = std::lower_bound(node_surface.begin(), node_surface.end(), s);
  return it != node_surface.end() && *it == s
             ? static_cast<std::uint32_t>(it - node_surface.begin())
             : kInvalidId;
}

std::span<const std::uint32_t> ContinentGraph::CellPortals(std::uint32_t cell_columns,
                                                           std::uint32_t x, std::uint32_t y) const {
  return CellPortals((y / cell_columns) * cells_x + x / cell_columns);
}

int ContinentGraph::PortalCells(std::uint32_t cell_columns, std::uint32_t x, std::uint32_t y,
                                std::uint32_t cells[3]) const {
  const std::uint32_t cx = x / cell_columns, cy = y / cell_columns;
  int count = 0;
  cells[count++] = cy * cells_x + cx;
  // Nodes stand west of north-south borders and south of east-west ones (PickEntrances).
  if (x % cell_columns == cell_columns - 1 && cx + 1 < cells_x)
    cells[count++] = cy * cells_x + cx + 1;
  if (y % cell_columns == 0 && cy > 0) cells[count++] = (cy - 1) * cells_x + cx;
  return count;
}

int ContinentGraph::SharedCells(const Continent& c, std::uint32_t cell_columns, SurfaceId a,
                                SurfaceId b, std::uint32_t cells[3]) const {
  std::uint32_t of_a[3], of_b[3];
  const int count_a = PortalCells(cell_columns, c.column_x[a], c.column_y[a], of_a);
  const int count_b = PortalCells(cell_columns, c.column_x[b], c.column_y[b], of_b);
  int count = 0;
  for (int i = 0; i < count_a; ++i) {
    if (std::find(of_b, of_b + count_b, of_a[i]) != of_b + count_b) cells[count++] = of_a[i];
  }
  return count;
}

std::vector<std::uint32_t> ContinentGraph::ArcTails() const {
  std::vector<std::uint32_t> tails(arc_count());
  for (std::uint32_t n = 0; n < node_count(); ++n) {
    std::fill(tails.begin() + first_arc[n], tails.begin() + first_arc[n + 1], n);
  }
  return tails;
}

std::uint32_t ContinentGraph::TailOf(std::uint32_t arc) const {
  const auto end = first_arc.begin() + node_count() + 1;
  return static_cast<std::uint32_t>(std::upper_bound(first_arc.begin(), end, arc) -
                                    first_arc.begin() - 1);
}

void ContinentGraph::IndexCells(const Continent& c, std::uint32_t cell_columns) {
  cells_x = (c.width_columns + cell_columns - 1) / cell_columns;
  cells_y = (c.height_columns + cell_columns - 1) / cell_columns;
  const std::size_t cells = std::size_t{cells_x} * cells_y;
  cell_first_node.assign(cells + 1, 0);
  std::uint32_t of[3];
  auto portal_cells = [&](std::uint32_t n) {
    const SurfaceId s = node_surface[n];
    return PortalCells(cell_columns, c.column_x[s], c.column_y[s], of);
  };
  for (std::uint32_t n = 0; n < node_count(); ++n) {
    for (int k = portal_cells(n); k-- > 0;) ++cell_first_node[of[k] + 1];
  }
  for (std::size_t i = 0; i < cells; ++i) cell_first_node[i + 1] += cell_first_node[i];
  cell_nodes.resize(cell_first_node.back());
  std::vector<std::uint32_t> fill(cell_first_node.begin(), cell_first_node.end() - 1);
  for (std::uint32_t n = 0; n < node_count(); ++n) {
    for (int k = portal_cells(n); k-- > 0;) cell_nodes[fill[of[k]]++] = n;
  }
}

absl::StatusOr<std::shared_ptr<const ArcPrices>> ContinentGraph::PricesOf(std::size_t p) const {
  if (p < prices.size())
    return std::shared_ptr<const ArcPrices>(std::shared_ptr<void>(), &prices[p]);
  if (price_reader == nullptr) {
    return absl::InternalError(absl::StrCat("continent ", continent, ": no prices of profile ", p));
  }
  absl::StatusOr<ArcPrices> read = price_reader->Read(p);
  if (!read.ok()) return read.status();
  return std::make_shared<const ArcPrices>(*std::move(read));
}

std::uint64_t ContinentGraph::MemoryBytes() const {
  std::uint64_t bytes = node_surface.size() * 4 + first_arc.size() * 4 + arc_head.size() * 4 +
                        order.size() * 4 + cell_first_node.size() * 4 + cell_nodes.size() * 4;
  for (const ArcPrices& p : prices) bytes += p.MemoryBytes();
  return bytes;
}

int AbstractGraph::ProfileIndex(const std::string& profile) const {
  for (std::size_t i = 0; i < profiles.size(); ++i) {
    if (profiles[i] == profile) return static_cast<int>(i);
  }
  return -1;
}

const ContinentGraph* AbstractGraph::Find(ContinentId id) const {
  for (const ContinentGraph& g : continents) {
    if (g.continent == id) return &g;
  }
  return nullptr;
}

bool AbstractGraph::SameSettings(const AbstractGraph& other) const {
  return cost_model_version == other.cost_model_version && graph_version == other.graph_version &&
         cell_columns == other.cell_columns && entrance_spacing == other.entrance_spacing &&
         major_entrance_spacing == other.major_entrance_spacing && profiles == other.profiles;
}

std::uint64_t AbstractGraph::Fingerprint(const ContinentGraph& g) const {
  ContentHasher h;
  h.AddString("walkd abstract graph of a continent");
  h.AddU64(graph_version);
  h.AddU64(g.content_id);
  h.AddU64(cost_model_version);
  h.AddU64(cell_columns);
  h.AddU64(entrance_spacing);
  h.AddU64(major_entrance_spacing);
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

absl::StatusOr<AbstractGraphOptions> ResolveGraphOptions(const World& world,
                                                         const AbstractGraphOptions& asked) {
  AbstractGraphOptions options = asked;
  if (options.entrance_spacing == 0) {
    std::uint32_t widest = 0;
    for (const Continent& c : world.continents)
      widest = std::max({widest, c.width_columns, c.height_columns});
    options.entrance_spacing = AutoEntranceSpacing(widest);
  }
  if (options.major_entrance_spacing == 0)
    options.major_entrance_spacing = 4 * options.entrance_spacing;
  if (options.cell_columns == 0 || kTileColumns % options.cell_columns != 0) {
    return absl::InvalidArgumentError(absl::StrCat("cell_columns: ", options.cell_columns,
                                                   " does not divide the tile's ", kTileColumns));
  }
  for (ContinentId id : options.continents) {
    if (world.FindContinent(id) == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("continents: the world has no continent ", id));
    }
  }
  return options;
}

AbstractGraph GraphSettings(const AbstractGraphOptions& options) {
  AbstractGraph graph;
  graph.cost_model_version = kCostModelVersion;
  graph.cell_columns = options.cell_columns;
  graph.entrance_spacing = options.entrance_spacing;
  graph.major_entrance_spacing = options.major_entrance_spacing;
  graph.profiles = options.profiles.empty() ? ProfileNames() : options.profiles;
  return graph;
}

namespace {

// True when `options` asks for continent `id` to be prepared.
bool Wanted(const AbstractGraphOptions& options, ContinentId id) {
  return options.continents.empty() ||
         std::find(options.continents.begin(), options.continents.end(), id) !=
             options.continents.end();
}

// Counts the cells priced, for the options' progress callback (one thread at a time).
class CellProgress {
 public:
  CellProgress(const World& world, const AbstractGraphOptions& options) : options_(options) {
    const std::uint32_t cc = options.cell_columns;
    for (const Continent& c : world.continents) {
      if (!Wanted(options, c.id)) continue;
      total_ += std::uint64_t{(c.width_columns + cc - 1) / cc} * ((c.height_columns + cc - 1) / cc);
    }
  }
  void CellDone() {
    if (options_.progress) {
      std::lock_guard<std::mutex> lock(mu_);  // counts arrive in order
      options_.progress(++done_, total_);
    } else {
      ++done_;
    }
  }

 private:
  const AbstractGraphOptions& options_;
  std::uint64_t total_ = 0;
  std::atomic<std::uint64_t> done_{0};
  std::mutex mu_;
};

// The entrances of continent `c`: the east and south border of every cell whose neighbour
// exists, scanned for runs. Their node surfaces, sorted, each once.
std::vector<SurfaceId> FindEntrances(const Continent& c, const AbstractGraphOptions& options,
                                     const std::vector<Metric>& base) {
  const std::uint32_t cc = options.cell_columns;
  auto open_ground = [&](SurfaceId s) {
    for (const Metric& m : base) {
      if (!(m.EnterMultiplier(c, s, 0, 0) < kInfCost)) return false;
    }
    return true;
  };
  auto spacing = [&](std::uint32_t border) {
    return border % kMajorBorderColumns == 0 ? options.major_entrance_spacing
                                             : options.entrance_spacing;
  };
  // Small obstacles are bridged on major borders, where the CCH's longest separators lie;
  // elsewhere their edges keep their entrances, which walks hugging them use.
  auto gap = [&](std::uint32_t border) { return border % kMajorBorderColumns == 0 ? kMaxGap : 0; };
  std::vector<SurfaceId> nodes;
  const std::uint32_t cells_x = (c.width_columns + cc - 1) / cc;
  const std::uint32_t cells_y = (c.height_columns + cc - 1) / cc;
  for (std::uint32_t cy = 0; cy < cells_y; ++cy) {
    if (options.stop.requested()) return {};  // the caller sees the stop
    for (std::uint32_t cx = 0; cx < cells_x; ++cx) {
      const std::uint32_t x0 = cx * cc, y0 = cy * cc;
      if (c.TileAt(x0, y0) == nullptr) continue;
      const std::uint32_t rows = std::min(cc, c.height_columns - y0);
      const std::uint32_t cols = std::min(cc, c.width_columns - x0);
      const std::uint32_t depth = std::min(kAroundDepth, cc);
      if (x0 + cc < c.width_columns && c.TileAt(x0 + cc, y0) != nullptr) {
        ScanBorder(c, Border{x0 + cc - 1, y0, /*along=*/2, /*d=*/0, rows, gap(x0 + cc), depth},
                   spacing(x0 + cc), options.entrance_spacing, open_ground, &nodes);
      }
      if (y0 + cc < c.height_columns && c.TileAt(x0, y0 + cc) != nullptr) {
        ScanBorder(c, Border{x0, y0 + cc - 1, /*along=*/0, /*d=*/2, cols, gap(y0 + cc), depth},
                   spacing(y0 + cc), options.entrance_spacing, open_ground, &nodes);
      }
    }
  }
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

// Adds to `nodes` (sorted, each once) the landings of every ride that leaves its cell.
void AddLiftLandings(const Continent& c, std::uint32_t cell_columns,
                     std::vector<SurfaceId>* nodes) {
  for (const LiftRide& ride : c.lifts) {
    if (!RideLeavesCell(c, cell_columns, ride)) continue;
    nodes->push_back(ride.from);
    nodes->push_back(ride.to);
  }
  std::sort(nodes->begin(), nodes->end());
  nodes->erase(std::unique(nodes->begin(), nodes->end()), nodes->end());
}

// The arcs of one cell: from each portal to every other it reaches, priced per profile by a
// search of the cell; only arcs some profile can take are kept. Returns early, the cell half
// priced, once `stop` says stop (the caller sees it and discards the build).
void PriceCell(const Continent& c, double column_yards, const ContinentGraph& g, std::uint32_t cell,
               std::uint32_t cell_columns, const std::vector<Metric>& base, const BuildStop& stop,
               CellSearch& search, std::vector<ArcRecord>* out) {
  const std::span<const std::uint32_t> portals = g.CellPortals(cell);
  const std::uint32_t x0 = cell % g.cells_x * cell_columns, y0 = cell / g.cells_x * cell_columns;
  if (portals.size() <= 1 || c.TileAt(x0, y0) == nullptr) return;
  const std::size_t profile_count = base.size();
  std::vector<SurfaceId> targets;
  for (std::uint32_t n : portals) targets.push_back(g.node_surface[n]);
  const Cell bounds = CellAt(c, cell_columns, x0, y0);
  std::vector<PathStep> steps;
  for (std::uint32_t tail : portals) {
    if (stop.requested()) return;
    const std::size_t first_record = out->size();
    for (std::uint32_t head : portals) {
      if (head != tail)
        out->push_back(ArcRecord{tail, head, std::vector<PieceCost>(profile_count)});
    }
    for (std::size_t p = 0; p < profile_count; ++p) {
      search.Run(c, bounds, base[p], {.origin = g.node_surface[tail], .targets = targets});
      for (std::size_t r = first_record; r < out->size(); ++r) {
        PieceCost& cost = (*out)[r].costs[p];
        const SurfaceId head_surface = g.node_surface[(*out)[r].head];
        if (!search.Settled(head_surface)) {
          cost.seconds = kInfCost;
          continue;
        }
        search.Steps(head_surface, &steps);
        cost = PriceSteps(c, column_yards, base[p], steps);
      }
    }
    // Keep only arcs some profile can take.
    out->erase(std::remove_if(out->begin() + first_record, out->end(),
                              [](const ArcRecord& r) {
                                return std::none_of(
                                    r.costs.begin(), r.costs.end(),
                                    [](const PieceCost& p) { return p.seconds < kInfCost; });
                              }),
               out->end());
  }
}

// The arcs inside every cell of `g`'s continent, one cell per task on the options' threads, in
// cell order; some missing once `options.stop` says stop (the caller sees it).
std::vector<ArcRecord> PriceCells(const Continent& c, double column_yards, const ContinentGraph& g,
                                  const AbstractGraphOptions& options,
                                  const std::vector<Metric>& base, CellProgress& progress) {
  const std::uint32_t cell_count = g.cells_x * g.cells_y;
  std::atomic<std::uint32_t> next_cell{0};
  std::vector<std::vector<ArcRecord>> found(cell_count);
  auto work = [&]() {
    CellSearch search;
    for (;;) {
      const std::uint32_t cell = next_cell.fetch_add(1);
      if (cell >= cell_count || options.stop.requested()) break;
      PriceCell(c, column_yards, g, cell, options.cell_columns, base, options.stop, search,
                &found[cell]);
      if (options.stop.requested()) break;  // a cell cut short is not done
      progress.CellDone();
    }
  };
  const unsigned threads =
      std::max(1u, options.threads != 0 ? options.threads : std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  std::vector<ArcRecord> records;
  for (auto& cell_records : found) {
    for (ArcRecord& r : cell_records) records.push_back(std::move(r));
    std::vector<ArcRecord>().swap(cell_records);
  }
  return records;
}

// The lift arcs: one per ride that leaves its cell, from landing to landing, priced per profile
// as the ride (PriceSteps prices a ride as the searches do); only arcs some profile can take.
void AddLiftArcs(const Continent& c, double column_yards, const ContinentGraph& g,
                 std::uint32_t cell_columns, const std::vector<Metric>& base,
                 std::vector<ArcRecord>* out) {
  for (const LiftRide& ride : c.lifts) {
    if (!RideLeavesCell(c, cell_columns, ride)) continue;
    const std::vector<PathStep> steps = {{ride.from, PathStep::kViaStart},
                                         {ride.to, PathStep::kViaLift}};
    ArcRecord record{g.NodeOf(ride.from), g.NodeOf(ride.to), {}};
    bool open = false;
    for (const Metric& metric : base) {
      record.costs.push_back(PriceSteps(c, column_yards, metric, steps));
      open = open || record.costs.back().seconds < kInfCost;
    }
    if (open) out->push_back(std::move(record));
  }
}

// Sorts `records` by tail, then head, and merges the arcs between the same two portals: two
// portals of one border line share both its cells, and each profile keeps the cheaper of the two
// ways (path unpacking searches both cells again).
void MergeParallelArcs(std::size_t profile_count, std::vector<ArcRecord>* records) {
  std::vector<ArcRecord>& r = *records;
  std::sort(r.begin(), r.end(), [](const ArcRecord& x, const ArcRecord& y) {
    return x.tail != y.tail ? x.tail < y.tail : x.head < y.head;
  });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    if (kept > 0 && r[kept - 1].tail == r[i].tail && r[kept - 1].head == r[i].head) {
      for (std::size_t p = 0; p < profile_count; ++p) {
        if (r[i].costs[p].seconds < r[kept - 1].costs[p].seconds) {
          r[kept - 1].costs[p] = std::move(r[i].costs[p]);
        }
      }
      continue;
    }
    if (kept != i) r[kept] = std::move(r[i]);
    ++kept;
  }
  r.resize(kept);
}

// Lays the sorted, merged `records` out as `g`'s arcs (CSR by tail) and their prices, per
// profile in `profiles`' order.
void LayOutArcs(const std::vector<ArcRecord>& records, const std::vector<std::string>& profiles,
                ContinentGraph* g) {
  g->first_arc.assign(g->node_count() + 1, 0);
  g->arc_head.reserve(records.size());
  for (const ArcRecord& r : records) {
    ++g->first_arc[r.tail + 1];
    g->arc_head.push_back(r.head);
  }
  for (std::uint32_t n = 0; n < g->node_count(); ++n) g->first_arc[n + 1] += g->first_arc[n];
  g->prices.resize(profiles.size());
  for (std::size_t p = 0; p < profiles.size(); ++p) {
    ArcPrices& prices = g->prices[p];
    prices.profile = profiles[p];
    prices.seconds.reserve(records.size());
    prices.yards.reserve(records.size());
    prices.mix_first.reserve(records.size() + 1);
    prices.mix_first.push_back(0);
    for (const ArcRecord& r : records) {
      const PieceCost& cost = r.costs[p];
      const bool open = cost.seconds < kInfCost;
      // Whole ticks, rounded up, which a float holds exactly below 18 hours an arc.
      prices.seconds.push_back(open ? static_cast<float>(OnTicks(cost.seconds))
                                    : std::numeric_limits<float>::infinity());
      prices.yards.push_back(open ? static_cast<float>(cost.yards) : 0.0f);
      if (open) prices.mix.insert(prices.mix.end(), cost.mix.begin(), cost.mix.end());
      prices.mix_first.push_back(static_cast<std::uint32_t>(prices.mix.size()));
    }
  }
}

// The CCH order of `g`'s nodes, from their columns.
std::vector<std::uint32_t> OrderOf(const Continent& c, const ContinentGraph& g) {
  std::vector<float> x(g.node_count()), y(g.node_count());
  for (std::uint32_t n = 0; n < g.node_count(); ++n) {
    x[n] = c.column_x[g.node_surface[n]];
    y[n] = c.column_y[g.node_surface[n]];
  }
  return NestedDissectionOrder(g.node_count(), g.ArcTails(), g.arc_head, x, y);
}

}  // namespace

absl::StatusOr<AbstractGraph> BuildAbstractGraph(const World& world,
                                                 const AbstractGraphOptions& asked) {
  absl::StatusOr<AbstractGraphOptions> resolved = ResolveGraphOptions(world, asked);
  if (!resolved.ok()) return resolved.status();
  const AbstractGraphOptions& options = *resolved;
  AbstractGraph graph = GraphSettings(options);
  std::vector<Metric> base;
  for (const std::string& name : graph.profiles) {
    const Profile* profile = FindProfile(name);
    if (profile == nullptr || name.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("profiles: no profile named \"", name, "\""));
    }
    base.emplace_back(world, *profile, 0);
  }
  CellProgress progress(world, options);
  constexpr char kWhat[] = "building the abstract graph";
  for (const Continent& c : world.continents) {
    if (!Wanted(options, c.id)) continue;
    ContinentGraph g;
    g.continent = c.id;
    g.content_id = c.content_id;
    g.node_surface = FindEntrances(c, options, base);
    if (absl::Status stop = options.stop.Check(kWhat); !stop.ok()) return stop;
    AddLiftLandings(c, options.cell_columns, &g.node_surface);
    g.IndexCells(c, options.cell_columns);
    std::vector<ArcRecord> records = PriceCells(c, world.column_yards, g, options, base, progress);
    if (absl::Status stop = options.stop.Check(kWhat); !stop.ok()) return stop;
    AddLiftArcs(c, world.column_yards, g, options.cell_columns, base, &records);
    MergeParallelArcs(base.size(), &records);
    LayOutArcs(records, graph.profiles, &g);
    records.clear();
    if (absl::Status stop = options.stop.Check(kWhat); !stop.ok()) return stop;
    g.order = OrderOf(c, g);
    graph.continents.push_back(std::move(g));
  }
  if (absl::Status stop = options.stop.Check(kWhat); !stop.ok()) return stop;
  return graph;
}

std::vector<ContinentId> KeepPrepared(const World& world, AbstractGraph earlier,
                                      AbstractGraph* built) {
  std::vector<ContinentId> kept;
  if (!built->SameSettings(earlier)) return kept;
  for (ContinentGraph& g : earlier.continents) {
    const Continent* c = world.FindContinent(g.continent);
    if (c == nullptr || c->content_id != g.content_id || built->Find(g.continent) != nullptr) {
      continue;
    }
    kept.push_back(g.continent);
    built->continents.push_back(std::move(g));
  }
  // The world's continent order (ids increase).
  std::sort(
      built->continents.begin(), built->continents.end(),
      [](const ContinentGraph& a, const ContinentGraph& b) { return a.continent < b.continent; });
  return kept;
}

}  // namespace walk::nav
