#include "nav/abstract/abstract_table.h"

#include <atomic>

namespace walk::nav {
namespace {

// A leg's entrances as CCH endpoints, its seconds their costs.
std::vector<CchEndpoint> EndpointsOf(const Leg& leg) {
  std::vector<CchEndpoint> endpoints;
  endpoints.reserve(leg.entries.size());
  for (const Leg::Entry& e : leg.entries) endpoints.push_back({e.node, e.seconds});
  return endpoints;
}

// The yards of `leg`'s cheapest entry at `node` (the one whose seconds the CCH took).
double LegYards(const Leg& leg, std::uint32_t node) {
  const Leg::Entry* best = nullptr;
  for (const Leg::Entry& e : leg.entries) {
    if (e.node == node && (best == nullptr || e.seconds < best->seconds)) best = &e;
  }
  return best != nullptr ? best->yards : 0.0;
}

}  // namespace

absl::StatusOr<std::unique_ptr<AbstractTable>> AbstractTable::Build(
    const AbstractRouter& router, const Continent& c, const Metric& band,
    const std::vector<SurfaceId>& targets, CellSearch& search, const SearchStop* stop) {
  std::unique_ptr<AbstractTable> table(new AbstractTable(router, c, band));
  if (band.prices_danger()) return table;
  absl::StatusOr<std::optional<AbstractRouter::Hierarchy>> found = router.HierarchyOf(c, band);
  if (!found.ok()) return found.status();
  const std::optional<AbstractRouter::Hierarchy>& hierarchy = *found;
  if (!hierarchy) return table;
  table->hierarchy_ = *hierarchy;
  if (absl::Status built = table->BuildSides(targets, search, stop); !built.ok()) return built;
  std::vector<const CchSide*> sides(targets.size(), nullptr);
  for (std::uint32_t j = 0; j < targets.size(); ++j) {
    if (targets[j] == kInvalidId) continue;
    sides[j] = &table->target_sides_[j];
    table->target_of_.try_emplace(targets[j], j);
  }
  table->buckets_ = std::make_unique<CchBuckets>(*hierarchy->cch, sides);
  return table;
}

void AbstractTable::SideOf(SurfaceId s, bool backward, CellSearch& search, CchSplitQuery& query,
                           std::shared_ptr<const Leg>* leg, CchSide* side) const {
  SearchStats stats;
  *leg = router_.LegFor(continent_, hierarchy_.profile, s, backward, search, &stats);
  SweepSide(query, *hierarchy_.metric, backward ? Cch::kBackward : Cch::kForward,
            EndpointsOf(**leg), side);
}

absl::Status AbstractTable::BuildSides(const std::vector<SurfaceId>& targets, CellSearch& search,
                                       const SearchStop* stop) {
  target_legs_.resize(targets.size());
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
      if (targets[j] == kInvalidId) continue;
      SideOf(targets[j], /*backward=*/true, cells, queries->split, &target_legs_[j],
             &target_sides_[j]);
    }
  };
  const std::uint64_t ticket =
      router_.helper().TryRun([&](CellSearch& cells) { work(cells, false); });
  work(search, true);
  if (ticket != 0) router_.helper().Wait(ticket);
  return why;
}

std::unique_ptr<AbstractTable::Row> AbstractTable::RowOf(SurfaceId from, CellSearch& search,
                                                         bool want_yards) const {
  if (!active()) return nullptr;
  const CchMetric& metric = *hierarchy_.metric;
  const std::vector<float>& yards = hierarchy_.prices->yards;
  std::unique_ptr<Row> row(new Row(this, from, hierarchy_.yard_sums->Take([&] {
    return std::make_unique<CchSlotSum>(metric, std::span<const float>(yards));
  })));
  row->want_yards_ = want_yards;
  const Cch& cch = *hierarchy_.cch;
  LeasePool<CchQueries>::Lease queries =
      hierarchy_.queries->Take([&cch] { return std::make_unique<CchQueries>(cch); });
  SideOf(from, /*backward=*/false, search, queries->split, &row->leg_, &row->side_);
  buckets_->Scan(row->side_, &row->meetings_);
  return row;
}

std::uint64_t AbstractTable::MemoryBytes() const {
  std::uint64_t bytes = sizeof(AbstractTable) + (buckets_ ? buckets_->MemoryBytes() : 0);
  for (const CchSide& side : target_sides_) bytes += side.MemoryBytes();
  return bytes;
}

bool AbstractTable::Row::Find(const Continent& c, const Metric& band, SurfaceId from, SurfaceId to,
                              double* seconds, double* yards) const {
  const AbstractTable& t = *table_;
  // Band 0 of the table's profile (or any band pricing no danger: the CCH prices them alike).
  if (&c != &t.continent_ || from != from_ || band.prices_danger() ||
      band.profile().name != t.band_.profile().name) {
    return false;
  }
  const auto target = t.target_of_.find(to);
  if (target == t.target_of_.end()) return false;
  const CchMeeting& m = meetings_[target->second];
  *seconds = m.cost;
  *yards = 0.0;
  if (!m.found() || !want_yards_) return true;
  const Cch& cch = *t.hierarchy_.cch;
  const CchSide& goal_side = t.target_sides_[target->second];
  CchSlotSum& sum = *sum_;
  *yards = LegYards(*leg_, side_.EndpointNode(cch, m.source_label)) +
           side_.SumTo(m.source_label, sum) + goal_side.SumTo(m.target_label, sum) +
           LegYards(*t.target_legs_[target->second], goal_side.EndpointNode(cch, m.target_label));
  return true;
}

}  // namespace walk::nav
