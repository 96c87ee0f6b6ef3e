// The abstract graph of a continent: entrances on cell borders and the edges between them.
//
// A cell is a square of `cell_columns` columns (a divisor of the 256-column tile, so a cell never
// straddles tiles). Where a surface on one side of a cell border links to a surface on the other
// side, the two columns form a crossing. Crossings next to each other along the border whose
// surfaces link along the border and whose ground is alike (flags, towns, zone, on both sides)
// form a run. A run gets entrances at both of its ends (on major borders, not at a corner of the
// cell) and, in between, on one lattice `entrance_spacing` wide for the whole world (a run no
// longer than the spacing gets one, at its middle). Each entrance is one node, the surface west
// of a north-south border or south of an east-west one: a **portal** of both cells, its own and
// the one across. Major borders (every fourth tile border,
// 1,024 columns apart) bridge small obstacles and take a wider spacing
// (`major_entrance_spacing`): the CCH's top separators lie along them, and its customization
// and queries grow with the cube and the square of their size (docs/abstract_graph.md).
//
// Edges (arcs, directed): in each cell, from each portal to each other portal it reaches through
// the cell (a portal outside the cell steps in and out, straight or diagonally), priced by a
// Dijkstra in the cell (nav/abstract/cell_search.h); where two portals share two cells, the cheaper
// way. Each arc keeps, per profile, its band-0 seconds, its yards and its zone mix, so danger bands
// are priced later without searching cells again.
//
// Lifts: a ride whose landings lie in different cells (a car between two columns far apart) is
// no cell's to search, so both its landings are nodes too (a portal of the cells their columns
// lie in, like any node) and the ride is an arc of its own, priced as the ride.
//
// Layout (RoutingKit style): nodes sorted by surface id; arcs sorted by tail (first_arc, CSR).
// Immutable once built or loaded; safe to share across threads.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/cch/cch_weights.h"
#include "nav/cost/zone_mix.h"
#include "nav/grid/build_stop.h"
#include "nav/grid/grid.h"

namespace walk::nav {

// Bump when the way entrances or edges are chosen or priced changes (it decides answers).
// 7: arcs' seconds in whole ticks.
inline constexpr std::uint32_t kAbstractGraphVersion = 7;

// True when lift ride `ride` joins landings in two different cells of side `cell_columns`: the
// graph joins them by a lift arc (a cell search does not take it).
bool RideLeavesCell(const Continent& c, std::uint32_t cell_columns, const LiftRide& ride);

struct AbstractGraphOptions {
  std::uint32_t cell_columns = 64;
  // 0: by the world's size (AutoEntranceSpacing). Denser entrances walk closer to the exact
  // walk; the CCH's customization and queries grow with them, so large worlds take them wider.
  std::uint32_t entrance_spacing = 0;
  std::uint32_t major_entrance_spacing = 0;  // on major borders; 0: four times the spacing
  std::vector<std::string> profiles;         // empty: every profile
  std::vector<ContinentId> continents;       // the continents to prepare; empty: every one
  unsigned threads = 0;                      // 0: one per core
  // Called now and then with cells done and cells in all (from one thread at a time).
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
  // Asked before each cell, between each portal's searches and between the build's steps: once
  // it says stop, the build returns CANCELLED within about one portal's searches per thread.
  BuildStop stop;
};

// One profile's prices of every arc. Seconds are whole ticks (OnTicks, nav/cch/cch_weights.h),
// band 0's and every band's alike (DangerSecondsOf), so the CCH metrics keep them in 4 bytes.
struct ArcPrices {
  std::string profile;
  std::vector<float> seconds;  // band-0 seconds; +inf where this profile cannot take the arc
  std::vector<float> yards;    // searched yards
  std::vector<std::uint32_t> mix_first;  // arc_count + 1: the arc's shares in `mix`
  std::vector<ZoneShare> mix;

  std::uint64_t MemoryBytes() const {
    return seconds.size() * 4 + yards.size() * 4 + mix_first.size() * 4 +
           mix.size() * sizeof(ZoneShare);
  }
  std::span<const ZoneShare> MixOf(std::uint32_t arc) const {
    return {mix.data() + mix_first[arc], mix.data() + mix_first[arc + 1]};
  }
  // The seconds of arc `arc` under danger band `band`, the zones `exempt_a` and `exempt_b` (the
  // walk's ends') not priced: the one pricing of an arc that the band metrics, their patches and
  // the danger Dijkstra share, in whole ticks.
  double DangerSecondsOf(std::uint32_t arc, const Metric& band, std::uint16_t exempt_a,
                         std::uint16_t exempt_b) const {
    const double base = seconds[arc];
    return base < kInfCost ? OnTicks(DangerSeconds(base, MixOf(arc), band, exempt_a, exempt_b))
                           : base;
  }
};

// Where a loaded graph's prices are read from when they were left in the file at load
// (GraphLoadOptions::prices_on_first_use, nav/abstract/abstract_graph_format.h).
class PriceReader {
 public:
  virtual ~PriceReader() = default;
  // Profile `profile`'s prices (its index in the graph's profiles), read and checked now.
  virtual absl::StatusOr<ArcPrices> Read(std::size_t profile) const = 0;
};

struct ContinentGraph {
  ContinentId continent = 0;
  // The continent's content id it was prepared for: a graph of another is stale (it is left out
  // at load, and that continent walks the fine grid until prepared again).
  std::uint64_t content_id = 0;
  std::uint32_t cells_x = 0;  // cells along x and y
  std::uint32_t cells_y = 0;
  std::vector<SurfaceId> node_surface;   // sorted
  std::vector<std::uint32_t> first_arc;  // node_count + 1
  std::vector<std::uint32_t> arc_head;
  std::vector<std::uint32_t> order;  // the CCH's nested-dissection order: order[rank] = node
  // One per prepared profile, in the graph's profile order; empty when `price_reader` reads them.
  std::vector<ArcPrices> prices;
  std::shared_ptr<const PriceReader> price_reader;
  // Derived at build and load (IndexCells): each cell's portals, CSR by cell y * cells_x + x.
  std::vector<std::uint32_t> cell_first_node;
  std::vector<std::uint32_t> cell_nodes;

  std::uint32_t node_count() const { return static_cast<std::uint32_t>(node_surface.size()); }
  std::uint32_t arc_count() const { return static_cast<std::uint32_t>(arc_head.size()); }
  // The node standing on surface `s`, or kInvalidId.
  std::uint32_t NodeOf(SurfaceId s) const;
  // The portals of the cell holding column (x, y): the nodes in it and those one step outside
  // it, west of its west border and south of its south border.
  std::span<const std::uint32_t> CellPortals(std::uint32_t cell_columns, std::uint32_t x,
                                             std::uint32_t y) const;
  std::span<const std::uint32_t> CellPortals(std::uint32_t cell) const {
    return {cell_nodes.data() + cell_first_node[cell],
            cell_nodes.data() + cell_first_node[cell + 1]};
  }
  // The cells (y * cells_x + x) a node on column (x, y) is a portal of: its own, the one east
  // of it when it stands on its cell's east edge, and the one north of it when on the north
  // edge (where nodes stand). Returns how many (1 to 3).
  int PortalCells(std::uint32_t cell_columns, std::uint32_t x, std::uint32_t y,
                  std::uint32_t cells[3]) const;
  // The cells both nodes on surfaces `a` and `b` are portals of (where an arc between them was
  // priced). Returns how many (0 to 2).
  int SharedCells(const Continent& c, std::uint32_t cell_columns, SurfaceId a, SurfaceId b,
                  std::uint32_t cells[3]) const;
  // Profile `p`'s prices: those held, or read now by `price_reader` (its errors).
  absl::StatusOr<std::shared_ptr<const ArcPrices>> PricesOf(std::size_t p) const;
  // Every arc's tail (arcs are stored by tail; this expands first_arc).
  std::vector<std::uint32_t> ArcTails() const;
  // One arc's tail: the node whose arc range holds it (a binary search of first_arc).
  std::uint32_t TailOf(std::uint32_t arc) const;
  void IndexCells(const Continent& c, std::uint32_t cell_columns);
  std::uint64_t MemoryBytes() const;
};

struct AbstractGraph {
  std::uint32_t cost_model_version = 0;
  std::uint32_t graph_version = kAbstractGraphVersion;
  std::uint32_t cell_columns = 0;
  std::uint32_t entrance_spacing = 0;
  std::uint32_t major_entrance_spacing = 0;
  std::vector<std::string> profiles;  // prepared profiles
  // The prepared continents, in the world's continent order (a continent may be missing: it was
  // never prepared, or its graph is stale).
  std::vector<ContinentGraph> continents;
  // Set at load: each continent of the world without a graph here, and why ("continent 1: stale,
  // prepared for continent content 0123...; run walkgrid prepare --continents 1").
  std::vector<std::string> unprepared;

  // The index of `profile` in `profiles`, or -1.
  int ProfileIndex(const std::string& profile) const;
  // The graph of continent `id`, or nullptr.
  const ContinentGraph* Find(ContinentId id) const;
  // True when `other` was prepared with the same settings (versions, cell side, spacings,
  // profiles): its continents' graphs may join this one's.
  bool SameSettings(const AbstractGraph& other) const;
  // A hash of everything that decides the answers of walks over continent graph `g`: the
  // versions, cell side, spacings and the continent's content id.
  std::uint64_t Fingerprint(const ContinentGraph& g) const;
  std::uint64_t MemoryBytes() const;
};

// The entrance spacing `walkgrid prepare` takes by default for a world whose widest continent
// spans `columns` columns: 4 up to 1,024 columns (meshes, MovingAI maps, 4 x 4 tiles), 8 up to
// 4,096, 16 beyond (the 32 x 32-tile demo world); major borders take four times that.
std::uint32_t AutoEntranceSpacing(std::uint32_t columns);

// Builds the abstract graph of every continent of `world` (content ids set) and its CCH order,
// or of the continents `options.continents` names.
// INVALID_ARGUMENT naming the option for a cell side that does not divide 256, a spacing of 0 or
// an unknown profile; CANCELLED when `options.stop` says stop.
absl::StatusOr<AbstractGraph> BuildAbstractGraph(const World& world,
                                                 const AbstractGraphOptions& options);

// `asked` with its automatic settings decided for `world` (the spacing by its widest continent).
// INVALID_ARGUMENT as BuildAbstractGraph.
absl::StatusOr<AbstractGraphOptions> ResolveGraphOptions(const World& world,
                                                         const AbstractGraphOptions& asked);
// A graph with no continents, prepared with `options` (resolved): what SameSettings compares.
AbstractGraph GraphSettings(const AbstractGraphOptions& options);

// Adds to `built` the continents of `earlier` (a graph of the same world prepared before) that it
// lacks, when both were prepared with the same settings and those continents are unchanged in
// `world`: `walkgrid prepare --continents` rebuilds some and keeps the rest. Returns the ids kept.
std::vector<ContinentId> KeepPrepared(const World& world, AbstractGraph earlier,
                                      AbstractGraph* built);

}  // namespace walk::nav
