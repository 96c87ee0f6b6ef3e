// A table's walks over the abstract graph, many to many (nav/cch/cch_many_to_many.h): the
// targets' goal legs and backward sides are computed once and filed in buckets; a row per source
// (its start leg, its forward side, one scan) then knows the CCH walk of each of its cells, its
// cost and yards, as Route's own query would find it. The walk pipeline asks the row first
// (KnownWalks), so every other rule of a walk (the straight line, near ends, two ends in one
// tile, settling, the fine grid's last word) still decides as it does for a single walk.
//
// A band pricing danger is swept on its band metric (nav/abstract/band_metrics.h), the legs'
// entrances priced by the band: that answers exactly the cells whose two ends stand in zones
// the band does not price, as Route's query on that metric does. A place in a priced zone
// (whose zone a walk from or to it exempts) takes its side from its reach across its zone
// (nav/abstract/zone_reach.h) when the table is built with reaches: a cell is then known where
// the reaches' conditions hold for its pair, as its seconds and yards (not its way); the other
// cells are walked alone by the pipeline.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "nav/abstract/abstract_router.h"
#include "nav/cch/cch_many_to_many.h"
#include "nav/cch/cch_slot_sum.h"
#include "nav/grid/lease_pool.h"
#include "nav/search/search_stop.h"

namespace walk::nav {

// Immutable once built; rows may be taken on several threads at once. Borrows the router, the
// continent and the metric, which must outlive it and its rows.
class AbstractTable {
 public:
  class Row;

  // The targets' sides on continent `c` for `band` (targets[j] is target j's snapped surface,
  // kInvalidId when it did not snap), computed on this thread with `search` and on the router's
  // helper when it is idle. Without a hierarchy for the continent and profile (or a metric for
  // a band pricing danger: band metrics off, or too small), nothing is built and rows know no
  // walks.
  // `walks`, the walks its rows would answer, count toward a danger band's metric
  // (AbstractRouter::HierarchyOf: kAtOnce customizes it now).
  // Errors: what `stop` (may be null) says when the table must stop.
  // `reaches`: places in priced zones take their sides from their reaches (rows then know
  // those cells' seconds and yards, never their ways: RowWalks::kWhole rows walk them alone).
  static absl::StatusOr<std::unique_ptr<AbstractTable>> Build(
      const AbstractRouter& router, const Continent& c, const Metric& band,
      const std::vector<SurfaceId>& targets, CellSearch& search, const SearchStop* stop,
      std::uint32_t walks = AbstractRouter::kAtOnce, bool reaches = true);

  const Continent& continent() const { return continent_; }
  const Metric& band() const { return band_; }
  // Whether rows know walks (the table was built over a hierarchy).
  bool active() const { return buckets_ != nullptr; }
  // Whether rows may know walks from or to surface `s`: the table was built over a hierarchy,
  // and the band does not price `s`'s zone or the table reaches across priced zones.
  bool Knows(SurfaceId s) const;
  // How a row gives its walks: their seconds and yards summed over shortcuts (a matrix's
  // cells: zone cells left out, never stored), their seconds alone (yards 0), or whole (their
  // paths unpacked, so that the walk pipeline tallies them as searched walks, which are stored).
  enum class RowWalks { kSecondsAndYards, kSecondsOnly, kWhole };
  // Source `from`'s row on the table's continent: its start leg (cached, or searched with
  // `search`), its forward side, and the buckets scanned; null when it knows no walk (the table
  // inactive, or `from`'s zone priced by the table's band and reaches off).
  std::unique_ptr<Row> RowOf(SurfaceId from, CellSearch& search,
                             RowWalks walks = RowWalks::kSecondsAndYards) const;
  // Bytes held: the targets' sides and the buckets.
  std::uint64_t MemoryBytes() const;

 private:
  AbstractTable(const AbstractRouter& router, const Continent& c, const Metric& band)
      : router_(router), continent_(c), band_(band) {}
  // One place's side: its leg, the CCH endpoints its side was swept from (the leg's entrances,
  // or its reach's endpoints) and their yards, and what decides the cells a reach knows.
  struct Side : PlaceSide {
    std::shared_ptr<const Leg> leg;
    std::shared_ptr<const ZoneBorder> border;  // the zone's, where reached: `inner` is in it
    std::vector<CchEndpoint> endpoints;
    std::vector<float> yards;             // by endpoint
    std::shared_ptr<const CchSide> side;  // shared with the router's side cache
    // The index of the endpoint at `node` the CCH took (endpoints.size() where none is).
    std::uint32_t EndpointAt(std::uint32_t node) const;
    // The yards of the way to (or from) the endpoint at `node` the CCH took.
    double YardsAt(std::uint32_t node) const;
    std::uint64_t MemoryBytes() const;
  };
  // The targets' legs and sides, on this thread and the helper.
  absl::Status BuildSides(const std::vector<SurfaceId>& targets, CellSearch& search,
                          const SearchStop* stop);
  // One target's (or source's) side.
  void SideOf(SurfaceId s, bool backward, CellSearch& search, CchQueries& queries,
              Side* side) const;
  // Place `s`'s reach across its zone, whose border is `border` (forward from its start leg
  // `leg`, or backward into its goal leg), searched with `queries`; not searched (knowing
  // nothing) where the zone's border is not known (null).
  std::shared_ptr<const ZoneReach> ReachOf(SurfaceId s, bool backward, const Leg& leg,
                                           const ZoneBorder* border, CchQueries& queries) const;
  // Whether the table's band prices surface `s`'s zone.
  bool PricesZoneOf(SurfaceId s) const;

  const AbstractRouter& router_;
  const Continent& continent_;
  const Metric& band_;
  AbstractRouter::Hierarchy hierarchy_;
  // Places in priced zones reach across them (null: their cells are walked alone).
  const ReverseArcs* reverse_ = nullptr;
  const ReachMaps* maps_ = nullptr;  // with reverse_, where they could be made
  // For a band's metric: the yards along its shortcuts, one a thread.
  std::unique_ptr<LeasePool<CchSlotSum>> band_yard_sums_;
  std::vector<Side> targets_;  // by target
  std::unique_ptr<CchBuckets> buckets_;
  absl::flat_hash_map<SurfaceId, std::uint32_t> target_of_;  // a surface's first target
};

// One source's cells. Used by one thread at a time.
class AbstractTable::Row final : public KnownWalks {
 public:
  // Whether the row knows its walk to `to` (in the table's band and continent).
  bool Knows(SurfaceId to) const;
  bool Find(const Continent& c, const Metric& band, SurfaceId from, SurfaceId to, double* seconds,
            double* yards) const override;
  bool Whole() const override { return walks_ == RowWalks::kWhole; }
  bool FindWay(const Continent& c, const Metric& band, SurfaceId from, SurfaceId to,
               KnownWay* way) const override;

 private:
  friend class AbstractTable;
  Row(const AbstractTable* table, SurfaceId from, LeasePool<CchSlotSum>::Lease sum)
      : table_(table), from_(from), sum_(std::move(sum)) {}
  // The walk from `from` to `to` priced by `band` as the sides answer it (MeetSides, once a
  // target: a cell is asked whether it is known, then for its walk), with its target's index;
  // not known when the row does not know it exactly.
  SidesAnswer AnswerOf(const Continent& c, const Metric& band, SurfaceId from, SurfaceId to,
                       std::uint32_t* target) const;
  // The sides' answer for target `target` (MeetSides).
  SidesAnswer MeetSidesOf(std::uint32_t target) const;
  const AbstractTable* table_;
  SurfaceId from_;
  RowWalks walks_ = RowWalks::kSecondsAndYards;
  LeasePool<CchSlotSum>::Lease sum_;
  Side from_side_;
  std::vector<CchMeeting> meetings_;                         // by target
  mutable std::vector<std::optional<SidesAnswer>> answers_;  // by target, once asked
  // FindWay's scratch, kept from walk to walk: the way up's slots, and the slots to unpack.
  mutable std::vector<CchPendingSlot> up_, stack_;
};

}  // namespace walk::nav
