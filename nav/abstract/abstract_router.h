// Walks over the abstract graph: legs into the graph, a search across it, legs out.
//
// An AbstractRouter belongs to one world: it holds the prepared graph, each continent's CCH
// (built once from the saved order) with one metric per prepared profile, customized on the
// profile's first walk (or at load when asked), the band-0 metrics legs are priced with, the leg
// cache and the band metrics (nav/abstract/band_metrics.h). Everything but the caches and the
// profiles' metrics, each made once, is immutable after construction; Route may be called from
// any thread with that thread's AbstractSearcher.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/abstract/abstract_graph.h"
#include "nav/abstract/band_metrics.h"
#include "nav/abstract/cell_search.h"
#include "nav/abstract/danger_dijkstra.h"
#include "nav/abstract/helper_thread.h"
#include "nav/abstract/legs.h"
#include "nav/abstract/zone_bound.h"
#include "nav/abstract/zone_reach.h"
#include "nav/cch/cch.h"
#include "nav/cch/cch_bound.h"
#include "nav/cch/cch_many_to_many.h"
#include "nav/cch/cch_metric.h"
#include "nav/cch/cch_potential.h"
#include "nav/cch/cch_query.h"
#include "nav/cch/cch_slot_sum.h"
#include "nav/cch/cch_split_query.h"
#include "nav/cch/cost_guess.h"
#include "nav/cost/zone_cells.h"
#include "nav/grid/lease_pool.h"
#include "nav/search/method.h"
#include "nav/search/search_stats.h"

namespace walk::nav {

// One thread's queries of one CCH: the tree query, and the split query a guessed or a cold
// walk's query starts with, on one set of labels (a split query that finds nothing is asked
// again as a tree query, over the ranks it has just read).
struct CchQueries {
  explicit CchQueries(const Cch& cch)
      : labels(cch), tree(labels), split(labels), potential(cch), zone_bound(cch) {}
  CchAncestorWalk labels;
  CchQuery tree;
  CchSplitQuery split;
  CchPotential potential;  // guides the danger search (an A*) on this hierarchy
  ZoneBound zone_bound;    // guides it instead where the band's metric is at hand
  ZoneReachSearch reach;   // a table's priced places (nav/abstract/zone_reach.h)
  CchSideSweep sides;      // a table's sides (nav/abstract/abstract_table.h)
};

// A known walk whole: what Route tallies a searched walk's yards and zone cells from.
struct KnownWay {
  double seconds = kInfCost;  // kInfCost: the CCH finds none (the rest unset)
  std::shared_ptr<const Leg> start, goal;
  // The entrances it takes, by index in the start and goal legs, and its arcs over the graph.
  std::uint32_t source = kInvalidId, target = kInvalidId;
  std::vector<std::uint32_t> arcs;
};

// Walks over the graph already known (a table's rows: nav/abstract/abstract_table.h). Route asks
// them first for a walk wanted without its steps.
class KnownWalks {
 public:
  virtual ~KnownWalks() = default;
  // True when the walk from `from` to `to` on `c` priced by `band` is known: *seconds its cost
  // as the CCH finds it (kInfCost: the CCH finds none), *yards its searched yards.
  virtual bool Find(const Continent& c, const Metric& band, SurfaceId from, SurfaceId to,
                    double* seconds, double* yards) const = 0;
  // Whether the walks come whole (FindWay, not Find): tallied then as searched walks are, with
  // their zone cells, so that they may be stored.
  virtual bool Whole() const { return false; }
  // The same as Find, whole, into *way.
  virtual bool FindWay(const Continent& c, const Metric& band, SurfaceId from, SurfaceId to,
                       KnownWay* way) const {
    return false;
  }
};

// One thread's search buffers for abstract walks, sized by the largest graph searched and bound
// to none (the CCH queries sized to one hierarchy are the router's, leased per walk: they go
// with the router's world).
struct AbstractSearcher {
  CellSearch cell;
  DangerDijkstra dijkstra;
  // When the walk must stop (polled by the danger Dijkstra); set by the caller per walk, may be
  // null. The legs and the CCH are bounded by the graph's cells and size.
  const SearchStop* stop = nullptr;
  // Walks known before they are asked (a table's row), set by the caller; may be null.
  const KnownWalks* known = nullptr;
  // A walk dearer than this is not wanted (WalkOptions::max_seconds), set by the caller per
  // walk: the danger search of ends in two tiles stops once it has shown that
  // (AbstractWalk::dearer).
  double max_seconds = kInfCost;
};

// The octile columns between two surfaces times `seconds_per_column`: what walkd's guessed
// upper bound on a CCH query is a multiple of (CostGuess).
double StraightLineFloor(const Continent& c, SurfaceId from, SurfaceId to,
                         double seconds_per_column);

// The columns of the cell of side `cell_columns` holding `s` and one around it, as a CCH
// endpoint area (a leg's portals lie in its cell or one step outside), least cost 0.
CchEndpointArea CellArea(const Continent& c, std::uint32_t cell_columns, SurfaceId s);

// An abstract walk between two surfaces.
struct AbstractWalk {
  bool found = false;
  Method method = Method::kDijkstra;
  double seconds = 0.0;
  double yards = 0.0;                // searched yards, before smoothing
  std::vector<ZoneCell> zone_cells;  // walked yards (after smoothing), by cell and zone
  std::vector<PathStep> steps;       // when asked for: the whole way, column by column
  // A known walk (KnownWalks): its seconds and yards alone, no zone cells.
  bool zone_cells_left_out = false;
  // The danger search showed every walk costs more than AbstractSearcher::max_seconds and
  // stopped there: not found, and no answer.
  bool dearer = false;
  SearchStats stats;
};

// How long the router took to build (for Info, logs and benchmarks).
struct RouterTimings {
  double cch_build_seconds = 0.0;
  // Wall time customizing the profiles' metrics so far (at load and on first use), every
  // continent.
  double customize_seconds = 0.0;
  std::uint64_t cch_arcs = 0;
  std::uint64_t memory_bytes = 0;     // graph + CCHs + the metrics customized so far
  std::uint64_t profile_metrics = 0;  // (continent, profile) metrics customized so far
};

class AbstractRouter {
 public:
  // `band_metric_bytes`: what the band metrics may hold (0: none; danger bands are searched by
  // the A* alone, see Route). Patches exempting walks' ends' zones share these bytes. Every
  // profile's metric is customized here.
  AbstractRouter(const World& world, AbstractGraph graph, std::uint64_t leg_cache_bytes,
                 std::uint64_t band_metric_bytes = 0);
  // The same, with only the metrics of `profiles_at_load` customized here (names of prepared
  // profiles; the others on their first walk), abandoned with CANCELLED once `stop` says stop:
  // asked before each continent's CCH and while each metric is customized (walkd stopping while
  // a world loads).
  static absl::StatusOr<std::unique_ptr<AbstractRouter>> Build(
      const World& world, AbstractGraph graph, std::uint64_t leg_cache_bytes, const BuildStop& stop,
      std::uint64_t band_metric_bytes = 0, const std::vector<std::string>& profiles_at_load = {});

  const AbstractGraph& graph() const { return graph_; }
  RouterTimings timings() const;
  LegCache& leg_cache() const { return legs_; }
  // Tables' reaches across priced zones (nav/abstract/zone_reach.h), by place and band (keyed by
  // the continent's id), within kReachCacheBytes: a table asked again, or sharing places with
  // another, reaches once.
  static constexpr std::uint64_t kReachCacheBytes = std::uint64_t{64} << 20;
  PlaceCache<ZoneReach>& reach_cache() const { return reaches_; }
  // Tables' sides (nav/cch/cch_many_to_many.h: the labels swept up from a place's endpoints on
  // the table's metric), by place and band as the reaches they may be swept from, within
  // kSideCacheBytes: a table asked again, or sharing places with another, sweeps each once.
  static constexpr std::uint64_t kSideCacheBytes = std::uint64_t{32} << 20;
  PlaceCache<CchSide>& side_cache() const { return sides_; }
  // A reach stops short once it has settled this many nodes with at most kReachFarLeft border
  // nodes left, which it keeps as far endpoints (ZoneReachSearch::Request): a reach settles
  // about 10,000 nodes (median), and a zone's last exits can lie past 190,000. Set before any
  // table is built (reaches are cached without it).
  static constexpr std::uint64_t kReachFarAfter = 20'000;
  static constexpr std::size_t kReachFarLeft = 8;
  void SetReachFarAfter(std::uint64_t settled) const { reach_far_after_ = settled; }
  std::uint64_t reach_far_after() const { return reach_far_after_; }
  // The danger bands' CCH metrics, customized on demand (SetCapacity may turn them on or off).
  BandMetricCache& band_metrics() const { return band_metrics_; }
  // Walks of one (band, pair of priced zones) after which their patch is made: that walk makes
  // it (seconds on a large world), and the later ones read it. 0: never (the A* answers them).
  static constexpr std::uint32_t kExemptPatchAfterWalks = 256;
  void SetExemptPatchAfter(std::uint32_t walks) const { exempt_patch_after_ = walks; }
  // Nodes a walk with a priced end settles guided by band-0 seconds before it goes on guided
  // by the zone bound (when the band's metric is at hand; ZoneBound). 0: at once.
  static constexpr std::uint64_t kZoneBoundAfterSettled = 256;
  void SetZoneBoundAfter(std::uint64_t nodes) const { zone_bound_after_ = nodes; }
  // Walks of one (continent, profile, band) its metric would answer after which the metric is
  // customized: that walk customizes it (about a second on a large world), the later ones read
  // it, and the ones before take the A* (a few ms each). 0 or 1: the first walk. A Table's
  // many-to-many customizes it at once; a batch block's rows count none (HierarchyOf).
  static constexpr std::uint32_t kBandMetricAfterWalks = 256;
  void SetBandMetricAfter(std::uint32_t walks) const { band_metric_after_ = walks; }
  // A walk with a priced end that no band metric guided counts one more toward the metric for
  // each this many nodes it settled: such a walk costs tens of milliseconds where the count's
  // walks cost a few (CountUnguided).
  static constexpr std::uint64_t kSettledPerCountedWalk = 4096;
  void SetSettledPerCountedWalk(std::uint64_t nodes) const { settled_per_counted_walk_ = nodes; }
  // Both counts are of walks within this long of a key's first counted walk: older ones are
  // forgotten (a band walked a few times an hour never pays for its metric, which the room
  // evicts long before its next walks). A walk after the window starts the count again.
  static constexpr std::chrono::seconds kWantedWithin{60};
  void SetWantedWithin(std::chrono::steady_clock::duration window) const {
    wanted_within_nanos_ = std::chrono::nanoseconds(window).count();
  }
  // Ends at most this many columns apart (octile) are walked on the fine grid under kAuto.
  double near_columns() const { return 2.0 * graph_.cell_columns; }
  // True when `profile` was prepared.
  bool HasProfile(const std::string& profile) const { return graph_.ProfileIndex(profile) >= 0; }
  // True when continent `c` of the world has a graph (prepared, not stale).
  bool HasContinent(const Continent& c) const { return IndexOf(c) != nullptr; }

  // The walk from `from` to `to` (same continent, same region, different surfaces) priced by
  // `band` (built for this world). `mode` is kAuto, kDijkstra or kCch. Under kAuto a band with
  // danger is a CCH query on the band's metric (customized here on first use) when the band
  // metrics are on and fit, else the danger A*; where the band prices an end's zone, through a
  // patch exempting the ends' zones (made here on first use of that pair of zones). Errors:
  // FAILED_PRECONDITION naming `search` when the profile was not prepared or the CCH is asked
  // for a band with danger; what `searcher.stop` says when it stops the search.
  absl::StatusOr<AbstractWalk> Route(const Continent& c, const Metric& band, SurfaceId from,
                                     SurfaceId to, SearchMode mode, bool want_steps,
                                     AbstractSearcher& searcher) const;

  // What a table's many-to-many reads of one continent's hierarchy for one profile
  // (nav/abstract/abstract_table.h).
  struct Hierarchy {
    const Cch* cch = nullptr;
    const CchMetric* metric = nullptr;  // band 0's, or the band's metric (band_metric)
    const ContinentGraph* graph = nullptr;
    const ArcPrices* prices = nullptr;  // the profile's
    int profile = -1;                   // its index in the graph
    LeasePool<CchQueries>* queries = nullptr;
    // Yards summed along band 0's shortcuts, one a thread, kept from table to table: tables
    // share the hierarchy's upper shortcuts, which are the longest to sum. Null for a band's
    // metric (its shortcuts are its own).
    LeasePool<CchSlotSum>* yard_sums = nullptr;
    // A band pricing danger: its metric (held while the hierarchy is), and the band, which
    // prices the legs' entrances. Its metric answers the walks whose ends' zones it does not
    // price (PricesZone); the others need their zones exempt (Route).
    std::shared_ptr<const BandMetric> band_metric;
    const Metric* priced = nullptr;
  };
  // Continent `c`'s hierarchy for `band`'s profile (its metric customized here on first use),
  // with the band's metric for a band pricing danger (cached, or customized here once `walks`,
  // the walks the caller would answer by it, bring its band's count to kBandMetricAfterWalks;
  // kAtOnce: now; 0: only once made), or nullopt when the continent or profile is not prepared, the
  // band metrics are off or too small for it, or its band is not yet walked often enough. Errors:
  // what reading the profile's prices says.
  static constexpr std::uint32_t kAtOnce = UINT32_MAX;
  absl::StatusOr<std::optional<Hierarchy>> HierarchyOf(const Continent& c, const Metric& band,
                                                       std::uint32_t walks = kAtOnce) const;
  // The start leg (`backward` false) or goal leg of surface `s` for profile index `profile`:
  // cached, or searched with `search` (its settled surfaces added to *stats) and cached.
  std::shared_ptr<const Leg> LegFor(const Continent& c, int profile, SurfaceId s, bool backward,
                                    CellSearch& search, SearchStats* stats) const;
  // The helper thread, for work split in two beside the asking thread.
  HelperThread& helper() const { return helper_; }
  // Where ways enter and leave `zone`'s arcs on continent `c` for profile index `p` (every
  // zone's made at the first asked, and kept), or null when the continent or profile is not
  // prepared. Errors: what reading the profile's prices says.
  absl::StatusOr<std::shared_ptr<const ZoneBorder>> ZoneBorderOf(const Continent& c, int p,
                                                                 std::uint16_t zone) const;
  // Continent `c`'s arcs by head (made once, kept), or null when it is not prepared.
  const ReverseArcs* ReverseArcsOf(const Continent& c) const;
  // Continent `c`'s giant strongly connected part and node zones for profile index `p` (made
  // once, kept), or null when the continent or profile is not prepared or its prices cannot be
  // read.
  const ReachMaps* ReachMapsOf(const Continent& c, int p) const;

 private:
  // The graph and the leg cache, no continent indexed yet (IndexContinent each).
  struct Unindexed {};
  AbstractRouter(const World& world, AbstractGraph graph, std::uint64_t leg_cache_bytes,
                 std::uint64_t band_metric_bytes, Unindexed);
  // Builds continent i's CCH and customizes the metrics of the profiles `at_load` marks (by
  // index). CANCELLED once `stop` says stop.
  absl::Status IndexContinent(std::size_t i, const std::vector<bool>& at_load,
                              const BuildStop& stop);

  // One profile's part of a continent's index: its prices, its metric customized onto the
  // continent's CCH, the fewest seconds any of its arcs spends per octile column (the geometric
  // bound's), and its arcs by zone (which a patch exempting a zone lowers).
  struct ProfileMetric {
    std::shared_ptr<const ArcPrices> prices;
    std::unique_ptr<CchMetric> metric;
    double seconds_per_column = 0.0;
    ZoneArcs zone_arcs;
  };
  // A profile's part, made once: on its first walk, or at load.
  struct LazyProfile {
    std::atomic<const ProfileMetric*> ready{nullptr};  // `made`, once made
    std::mutex mu;                                     // held while it is made
    std::unique_ptr<const ProfileMetric> made;         // guarded by mu
    absl::Status failed;  // guarded by mu: why it cannot be made (never a stop)
  };

  struct ContinentIndex {
    const Continent* continent = nullptr;
    const ContinentGraph* graph = nullptr;
    std::unique_ptr<Cch> cch;
    std::vector<std::unique_ptr<LazyProfile>> profiles;  // per profile
    // Node columns by rank: the geometric bound that prunes CCH queries.
    std::vector<float> rank_x, rank_y;
    // Per profile, how far above a lower bound walks cost (a likely upper bound to prune CCH
    // queries against): over the endpoints' bound (BoundBetween) for walks whose legs are known
    // first, and over the straight line between the ends (StraightLineFloor) for cold walks,
    // whose query starts before the other leg is known.
    std::vector<std::unique_ptr<CostGuess>> guesses, straight_guesses;
    // The queries of this hierarchy, one leased to each walk searching it.
    std::unique_ptr<LeasePool<CchQueries>> queries = std::make_unique<LeasePool<CchQueries>>();
    // Per profile: the yards of shortcuts, for tables (Hierarchy::yard_sums).
    std::vector<std::unique_ptr<LeasePool<CchSlotSum>>> yard_sums;
  };
  // Profile `p`'s part of `index`: made, or made now on every core (others asking meanwhile
  // wait for it). Errors: CANCELLED when `stop` says stop (then it is made on the next ask), what
  // reading the prices says.
  absl::StatusOr<const ProfileMetric*> ProfileOf(const ContinentIndex& index, int p,
                                                 const BuildStop& stop = BuildStop()) const;
  absl::StatusOr<std::unique_ptr<const ProfileMetric>> MakeProfile(const ContinentIndex& index,
                                                                   int p,
                                                                   const BuildStop& stop) const;
  // One walk being routed: its ends, its legs, and what the search across the graph found
  // (abstract_router.cc).
  struct RouteState;
  // The walk's start leg (forward from its start) or goal leg (backward into its goal): cached,
  // or searched with `search`, its settled surfaces counted in *stats, and cached.
  std::shared_ptr<const Leg> LegOf(const RouteState& route, bool backward, CellSearch& search,
                                   SearchStats* stats) const;
  // The same for surface `s` of the continent `index` indexes, profile `p`.
  std::shared_ptr<const Leg> LegAt(const ContinentIndex& index, int p, SurfaceId s, bool backward,
                                   CellSearch& search, SearchStats* stats) const;
  // Both legs; a cold walk's goal leg on the helper thread when it is idle.
  void FindLegs(RouteState& route) const;
  // The walk `route.searcher.known` knows whole, set in `route` as a search would (then true).
  bool KnownWayOf(RouteState& route) const;
  // When the walk may be a CCH query on its band's metric (kAuto, a band with danger pricing
  // neither end's zone, band metrics on and a metric fitting them): that metric, cached or
  // customized here, set for the CCH search to read (which the caller holds while it searches).
  // Else null, and `route` unchanged.
  std::shared_ptr<const BandMetric> UseBandMetric(RouteState& route) const;
  // `band`'s metric on continent `index` for profile `p` (whose part is `profile`): cached, or
  // customized here on `threads` threads (this one and more; 0: one per core). Null when the
  // band metrics are off or the metric would not fit them.
  std::shared_ptr<const BandMetric> BandMetricOf(const ContinentIndex& index, int p,
                                                 const ProfileMetric& profile, const Metric& band,
                                                 unsigned threads = 1) const;
  // The key of the patch exempting the ends' zones of `route` (Key::exempt_a and exempt_b 0
  // when the band prices neither).
  BandMetricCache::Key ExemptKey(const RouteState& route) const;
  // Whether a walk reads the metric or patch of `key`: cached, or its key has now been asked
  // for `after` walks or more within the window (SetWantedWithin), these `walks` counted here
  // (0: never).
  bool WantsMade(const BandMetricCache::Key& key, std::uint32_t after,
                 std::uint32_t walks = 1) const;
  // When an end's zone is priced by the band whose metric `route` reads: the patch exempting the
  // ends' zones over it, cached or made here, set for the CCH search to read (held by `route`).
  void UseExemptPatch(RouteState& route, const BandMetricCache::Key& key) const;
  // The search across the graph by the CCH (band 0, or a band's metric, through a patch
  // exempting the ends' zones where it has one), and by the Dijkstra pricing danger.
  void SearchCch(RouteState& route) const;
  void SearchDijkstra(RouteState& route) const;
  // The A*'s zone bound for `route`, reset on `queries` and the band's metric held in *held:
  // where an end's zone is priced and the band's metric is made or due (the walk counts toward
  // it, as WantsMade counts); else null.
  ZoneBound* ZoneBoundFor(const RouteState& route, CchQueries& queries,
                          std::shared_ptr<const BandMetric>* held) const;
  // Counts a walk with a priced end that settled `settled` nodes unguided by the band's metric
  // toward that metric (kSettledPerCountedWalk), and makes the metric here when that brings the
  // count to it, so that the walks after are guided.
  void CountUnguided(const RouteState& route, std::uint64_t settled) const;
  // The band's metric once `walks` more counted toward it bring it to kBandMetricAfterWalks
  // (WantsMade; made here then), or at once where it is held; null while the count is short or
  // the cache has no room for it.
  std::shared_ptr<const BandMetric> CountedBandMetric(const RouteState& route,
                                                      std::uint64_t walks) const;
  // The key of the band's metric `route` walks in.
  BandMetricCache::Key BandKey(const RouteState& route) const;
  // Where ways enter and leave `zone`'s arcs, for profile `p` (whose part is `profile`) of the
  // continent `index` indexes: made once, kept.
  std::shared_ptr<const ZoneBorder> ZoneBorderAt(const ContinentIndex& index, int p,
                                                 const ProfileMetric& profile,
                                                 std::uint16_t zone) const;
  // A cold walk's CCH search, pipelined with its legs on the helper thread; false (nothing
  // done) when the helper is busy.
  bool SearchColdCch(RouteState& route, const CchBound& bound, CchQueries& queries,
                     bool guessed) const;

  // When both ends share a tile: its own way (an A* that stays in the tile), which becomes the
  // walk when it is cheaper than the graph's (then true).
  bool WalkInTile(RouteState& route, bool want_steps) const;
  // The found way's yards and zone cells, piece by piece.
  void TallyPieces(RouteState& route) const;
  // The found way's steps: each piece searched again inside its cell.
  void UnpackSteps(RouteState& route) const;
  const ContinentIndex* IndexOf(const Continent& c) const;

  const World& world_;
  AbstractGraph graph_;
  std::vector<Metric> base_;  // band 0, per prepared profile
  std::vector<ContinentIndex> continents_;
  RouterTimings timings_;  // what the build measured; the atomics below what customizing adds
  mutable std::atomic<std::uint64_t> customize_nanos_{0};
  mutable std::atomic<std::uint64_t> metric_bytes_{0};
  mutable std::atomic<std::uint64_t> profile_metrics_{0};
  mutable LegCache legs_;
  mutable PlaceCache<ZoneReach> reaches_{kReachCacheBytes};
  mutable PlaceCache<CchSide> sides_{kSideCacheBytes};
  mutable BandMetricCache band_metrics_;
  mutable std::atomic<std::uint32_t> exempt_patch_after_{kExemptPatchAfterWalks};
  mutable std::atomic<std::uint64_t> reach_far_after_{kReachFarAfter};
  mutable std::atomic<std::uint64_t> zone_bound_after_{kZoneBoundAfterSettled};
  mutable std::atomic<std::uint32_t> band_metric_after_{kBandMetricAfterWalks};
  mutable std::atomic<std::uint64_t> settled_per_counted_walk_{kSettledPerCountedWalk};
  mutable std::atomic<std::int64_t> wanted_within_nanos_{
      std::chrono::nanoseconds(kWantedWithin).count()};
  // Walks asked per metric or patch key not yet made, since the count's start (cleared when it
  // grows past a few thousand keys).
  struct WantedWalks {
    std::uint32_t asked = 0;
    std::chrono::steady_clock::time_point since;
  };
  mutable std::mutex wanted_walks_mu_;
  mutable std::mutex zone_borders_mu_;
  mutable std::mutex zone_borders_making_mu_;  // held by the thread making the borders
  // By (continent index, profile, zone), every zone of a (continent, profile) made at once
  // (guarded by zone_borders_mu_), and the (continent index, profile) whose borders are made,
  // as the key of their zone 0 (a zone with no arcs, asked later, has an empty border).
  mutable std::unordered_map<std::uint64_t, std::shared_ptr<const ZoneBorder>> zone_borders_;
  mutable std::unordered_set<std::uint64_t> zone_borders_made_;
  mutable std::mutex reverse_arcs_mu_;
  // By continent index, made on first use (guarded by reverse_arcs_mu_; never dropped).
  mutable std::vector<std::unique_ptr<const ReverseArcs>> reverse_arcs_;
  mutable std::mutex reach_maps_mu_;
  // By (continent index, profile), made on first use (guarded by reach_maps_mu_; never dropped).
  mutable std::unordered_map<std::uint64_t, std::unique_ptr<const ReachMaps>> reach_maps_;
  mutable std::unordered_map<BandMetricCache::Key, WantedWalks, BandMetricCache::KeyHash>
      wanted_walks_;  // guarded by wanted_walks_mu_
  // Takes half of a walk beside the asking thread, when idle: one leg of a cold walk, and one
  // direction of the CCH query.
  mutable HelperThread helper_;
  // Runs two pieces of a CCH query side by side on helper_ (a CchRunBoth).
  struct OnHelper {
    HelperThread* helper;
    void operator()(absl::FunctionRef<void()> here, absl::FunctionRef<void()> there) const {
      helper->Both(here, there);
    }
  };
  const OnHelper on_helper_{&helper_};
};

}  // namespace walk::nav
