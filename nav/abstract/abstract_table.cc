#include "nav/abstract/abstract_table.h"

#include <atomic>

#include "nav/cost/zone_mix.h"

namespace walk::nav {
namespace {

// Label l's slot (l must have come from a lower label) as a slot to unpack.
CchPendingSlot PendingOf(const CchSide& side, std::uint32_t l) {
  const std::uint32_t slot = side.slot[l];
  return {slot >> 1, slot & 1, side.rank[side.from[l]]};
}

// A leg's entrances as CCH endpoints: their seconds, priced by `band` when it is given (no zone
// exempt: the table knows only walks whose ends' zones the band does not price).
void EndpointsOf(const Leg& leg, const Metric* band, std::vector<CchEndpoint>* endpoints) {
  endpoints->clear();
  endpoints->reserve(leg.entries.size());
  for (const Leg::Entry& e : leg.entries) {
    endpoints->push_back({e.node, band == nullptr
                                      ? e.seconds
                                      : DangerSeconds(e.seconds, leg.MixOf(e), *band, 0, 0)});
  }
}

// The index of the cheapest endpoint at `node` (the first of equals: the one whose cost the CCH
// took), or endpoints.size().
std::uint32_t EntryAt(const std::vector<CchEndpoint>& endpoints, std::uint32_t node) {
  std::uint32_t best = static_cast<std::uint32_t>(endpoints.size());
  for (std::uint32_t i = 0; i < endpoints.size(); ++i) {
    if (endpoints[i].node == node &&
        (best == endpoints.size() || endpoints[i].cost < endpoints[best].cost)) {
      best = i;
    }
  }
  return best;
}

// The yards of `leg`'s entry the CCH took at `node`.
double LegYards(const Leg& leg, const std::vector<CchEndpoint>& endpoints, std::uint32_t node) {
  const std::uint32_t entry = EntryAt(endpoints, node);
  return entry != endpoints.size() ? leg.entries[entry].yards : 0.0;
}

}  // namespace

absl::StatusOr<std::unique_ptr<AbstractTable>> AbstractTable::Build(
    const AbstractRouter& router, const Continent& c, const Metric& band,
    const std::vector<SurfaceId>& targets, CellSearch& search, const SearchStop* stop,
    std::uint32_t walks) {
  std::unique_ptr<AbstractTable> table(new AbstractTable(router, c, band));
  absl::StatusOr<std::optional<AbstractRouter::Hierarchy>> found =
      router.HierarchyOf(c, band, walks);
  if (!found.ok()) return found.status();
  const std::optional<AbstractRouter::Hierarchy>& hierarchy = *found;
  if (!hierarchy) return table;
  table->hierarchy_ = *hierarchy;
  if (hierarchy->yard_sums == nullptr) {
    table->band_yard_sums_ = std::make_unique<LeasePool<CchSlotSum>>();
    table->hierarchy_.yard_sums = table->band_yard_sums_.get();
  }
  if (absl::Status built = table->BuildSides(targets, search, stop); !built.ok()) return built;
  std::vector<const CchSide*> sides(targets.size(), nullptr);
  for (std::uint32_t j = 0; j < targets.size(); ++j) {
    if (targets[j] == kInvalidId || table->PricesZoneOf(targets[j])) continue;
    sides[j] = &table->target_sides_[j];
    table->target_of_.try_emplace(targets[j], j);
  }
  table->buckets_ = std::make_unique<CchBuckets>(*hierarchy->cch, sides);
  return table;
}

bool AbstractTable::PricesZoneOf(SurfaceId s) const {
  return hierarchy_.priced != nullptr &&
         hierarchy_.priced->ZoneMultiplier(continent_.zone[s]) != 1.0;
}

bool AbstractTable::Knows(SurfaceId s) const {
  return active() && s != kInvalidId && !PricesZoneOf(s);
}

void AbstractTable::SideOf(SurfaceId s, bool backward, CellSearch& search, CchQueries& queries,
                           std::shared_ptr<const Leg>* leg, std::vector<CchEndpoint>* endpoints,
                           CchSide* side) const {
  SearchStats stats;
  *leg = router_.LegFor(continent_, hierarchy_.profile, s, backward, search, &stats);
  EndpointsOf(**leg, hierarchy_.priced, endpoints);
  queries.sides.Run(queries.split, *hierarchy_.metric, backward ? Cch::kBackward : Cch::kForward,
                    *endpoints, side);
}

absl::Status AbstractTable::BuildSides(const std::vector<SurfaceId>& targets, CellSearch& search,
                                       const SearchStop* stop) {
  target_legs_.resize(targets.size());
  target_endpoints_.resize(targets.size());
  target_sides_.resize(targets.size());
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stopped{false};
  absl::Status why;  // written by this thread only
  const Cch& cch = *hierarchy_.cch;
  auto work = [&](CellSearch& cells, bool here) {
    LeasePool<CchQueries>::Lease queries =
        hierarchy_.queries->Take([&cch] { return std::make_unique<CchQueries>(cch); });
    for (std::size_t j; !stopped && (j = next.fetch_add(1)) < targets.size();) {
      if (here && stop != nullptr) {
        if (absl::Status s = stop->Check(j); !s.ok()) {
          why = s;
          stopped = true;
          break;
        }
      }
      if (targets[j] == kInvalidId || PricesZoneOf(targets[j])) continue;
      SideOf(targets[j], /*backward=*/true, cells, *queries, &target_legs_[j],
             &target_endpoints_[j], &target_sides_[j]);
    }
  };
  const std::uint64_t ticket =
      router_.helper().TryRun([&](CellSearch& cells) { work(cells, false); });
  work(search, true);
  if (ticket != 0) router_.helper().Wait(ticket);
  return why;
}

std::unique_ptr<AbstractTable::Row> AbstractTable::RowOf(SurfaceId from, CellSearch& search,
                                                         RowWalks walks) const {
  if (!Knows(from)) return nullptr;
  const CchMetric& metric = *hierarchy_.metric;
  const std::vector<float>& yards = hierarchy_.prices->yards;
  std::unique_ptr<Row> row(new Row(this, from, hierarchy_.yard_sums->Take([&] {
    return std::make_unique<CchSlotSum>(metric, std::span<const float>(yards));
  })));
  row->walks_ = walks;
  const Cch& cch = *hierarchy_.cch;
  LeasePool<CchQueries>::Lease queries =
      hierarchy_.queries->Take([&cch] { return std::make_unique<CchQueries>(cch); });
  SideOf(from, /*backward=*/false, search, *queries, &row->leg_, &row->endpoints_, &row->side_);
  buckets_->Scan(row->side_, &row->meetings_);
  return row;
}

std::uint64_t AbstractTable::MemoryBytes() const {
  std::uint64_t bytes = sizeof(AbstractTable) + (buckets_ ? buckets_->MemoryBytes() : 0);
  for (const CchSide& side : target_sides_) bytes += side.MemoryBytes();
  return bytes;
}

const CchMeeting* AbstractTable::Row::MeetingOf(const Continent& c, const Metric& band,
                                                SurfaceId from, SurfaceId to,
                                                std::uint32_t* target) const {
  const AbstractTable& t = *table_;
  // The table's profile in its band, or in any band pricing no danger when the table's prices
  // none (the CCH prices them alike).
  const bool same_band = t.band_.prices_danger()
                             ? band.prices_danger() && band.band() == t.band_.band()
                             : !band.prices_danger();
  if (&c != &t.continent_ || from != from_ || !same_band ||
      band.profile().name != t.band_.profile().name) {
    return nullptr;
  }
  const auto found = t.target_of_.find(to);
  if (found == t.target_of_.end()) return nullptr;  // a priced zone's target has none
  *target = found->second;
  return &meetings_[found->second];
}

bool AbstractTable::Row::Find(const Continent& c, const Metric& band, SurfaceId from, SurfaceId to,
                              double* seconds, double* yards) const {
  std::uint32_t target;
  const CchMeeting* const m = MeetingOf(c, band, from, to, &target);
  if (m == nullptr) return false;
  const AbstractTable& t = *table_;
  *seconds = m->cost;
  *yards = 0.0;
  if (!m->found() || walks_ == RowWalks::kSecondsOnly) return true;
  const Cch& cch = *t.hierarchy_.cch;
  const CchSide& goal_side = t.target_sides_[target];
  CchSlotSum& sum = *sum_;
  *yards = LegYards(*leg_, endpoints_, side_.EndpointNode(cch, m->source_label)) +
           side_.SumTo(m->source_label, sum) + goal_side.SumTo(m->target_label, sum) +
           LegYards(*t.target_legs_[target], t.target_endpoints_[target],
                    goal_side.EndpointNode(cch, m->target_label));
  return true;
}

bool AbstractTable::Row::FindWay(const Continent& c, const Metric& band, SurfaceId from,
                                 SurfaceId to, KnownWay* way) const {
  std::uint32_t target;
  const CchMeeting* const m = MeetingOf(c, band, from, to, &target);
  if (m == nullptr) return false;
  way->seconds = m->cost;
  if (!m->found()) return true;
  const AbstractTable& t = *table_;
  const Cch& cch = *t.hierarchy_.cch;
  const CchSide& goal_side = t.target_sides_[target];
  way->start = leg_;
  way->goal = t.target_legs_[target];
  way->source = EntryAt(endpoints_, side_.EndpointNode(cch, m->source_label));
  way->target = EntryAt(t.target_endpoints_[target], goal_side.EndpointNode(cch, m->target_label));
  // Up the start's side from its entrance to the meeting (its labels followed down, then taken
  // bottom up), then down the goal's side to its entrance.
  up_.clear();
  for (std::uint32_t l = m->source_label; side_.from[l] != kInvalidId; l = side_.from[l]) {
    up_.push_back(PendingOf(side_, l));
  }
  way->arcs.clear();
  const CchMetric& metric = *t.hierarchy_.metric;
  for (auto slot = up_.rbegin(); slot != up_.rend(); ++slot) {
    UnpackSlot(metric, nullptr, *slot, &stack_, &way->arcs);
  }
  for (std::uint32_t l = m->target_label; goal_side.from[l] != kInvalidId; l = goal_side.from[l]) {
    UnpackSlot(metric, nullptr, PendingOf(goal_side, l), &stack_, &way->arcs);
  }
  return true;
}

}  // namespace walk::nav
