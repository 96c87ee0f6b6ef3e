#include "nav/abstract/abstract_table.h"

#include <algorithm>
#include <atomic>

#include "nav/cost/zone_mix.h"

namespace walk::nav {
namespace {

// Label l's slot (l must have come from a lower label) as a slot to unpack.
CchPendingSlot PendingOf(const CchSide& side, std::uint32_t l) {
  const std::uint32_t slot = side.slot[l];
  return {slot >> 1, slot & 1, side.rank[side.from[l]]};
}

// A leg's entrances as CCH endpoints and their yards: their seconds, priced by `band` when it
// is given (no zone exempt: a place whose zone the band prices reaches across it instead).
void EndpointsOf(const Leg& leg, const Metric* band, std::vector<CchEndpoint>* endpoints,
                 std::vector<float>* yards) {
  endpoints->clear();
  yards->clear();
  endpoints->reserve(leg.entries.size());
  for (const Leg::Entry& e : leg.entries) {
    endpoints->push_back({e.node, band == nullptr
                                      ? e.seconds
                                      : DangerSeconds(e.seconds, leg.MixOf(e), *band, 0, 0)});
    yards->push_back(e.yards);
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

// Settled nodes past which a reach stops, the border nodes it has not settled then far.
constexpr std::uint64_t kReachMaxSettled = 1 << 20;

}  // namespace

absl::StatusOr<std::unique_ptr<AbstractTable>> AbstractTable::Build(
    const AbstractRouter& router, const Continent& c, const Metric& band,
    const std::vector<SurfaceId>& targets, CellSearch& search, const SearchStop* stop,
    std::uint32_t walks, bool reaches) {
  std::unique_ptr<AbstractTable> table(new AbstractTable(router, c, band));
  absl::StatusOr<std::optional<AbstractRouter::Hierarchy>> found =
      router.HierarchyOf(c, band, walks);
  if (!found.ok()) return found.status();
  const std::optional<AbstractRouter::Hierarchy>& hierarchy = *found;
  if (!hierarchy) return table;
  table->hierarchy_ = *hierarchy;
  if (reaches && hierarchy->priced != nullptr) {
    table->reverse_ = router.ReverseArcsOf(c);
    table->maps_ = router.ReachMapsOf(c, hierarchy->profile);
    if (table->maps_ == nullptr) table->reverse_ = nullptr;  // a reach needs them
  }
  if (hierarchy->yard_sums == nullptr) {
    table->band_yard_sums_ = std::make_unique<LeasePool<CchSlotSum>>();
    table->hierarchy_.yard_sums = table->band_yard_sums_.get();
  }
  if (absl::Status built = table->BuildSides(targets, search, stop); !built.ok()) return built;
  std::vector<const CchSide*> sides(targets.size(), nullptr);
  for (std::uint32_t j = 0; j < targets.size(); ++j) {
    if (!table->Knows(targets[j])) continue;
    sides[j] = table->targets_[j].side.get();
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
  return s != kInvalidId && hierarchy_.cch != nullptr && (reverse_ != nullptr || !PricesZoneOf(s));
}

void AbstractTable::SideOf(SurfaceId s, bool backward, CellSearch& search, CchQueries& queries,
                           Side* side) const {
  SearchStats stats;
  side->leg = router_.LegFor(continent_, hierarchy_.profile, s, backward, search, &stats);
  const Leg& leg = *side->leg;
  side->zone = continent_.zone[s];
  side->leg_zones.clear();
  for (const ZoneShare& share : leg.mix) side->leg_zones.push_back(share.zone);
  std::sort(side->leg_zones.begin(), side->leg_zones.end());
  side->leg_zones.erase(std::unique(side->leg_zones.begin(), side->leg_zones.end()),
                        side->leg_zones.end());
  side->reached = reverse_ != nullptr && PricesZoneOf(s);
  side->border = nullptr;
  side->inner = {};
  side->reach = nullptr;
  const PlaceKey key{.continent_index = static_cast<std::uint32_t>(continent_.id),
                     .surface = s,
                     .profile_index = static_cast<std::uint16_t>(hierarchy_.profile),
                     .backward = backward,
                     .band = band_.band()};
  if (!side->reached) {
    EndpointsOf(leg, hierarchy_.priced, &side->endpoints, &side->yards);
  } else {
    const absl::StatusOr<std::shared_ptr<const ZoneBorder>> border =
        router_.ZoneBorderOf(continent_, hierarchy_.profile, side->zone);
    if (border.ok() && *border != nullptr) {
      side->border = *border;
      side->inner = backward ? side->border->inner_tails : side->border->inner_heads;
    }
    std::shared_ptr<const ZoneReach> cached = router_.reach_cache().Find(key);
    if (cached == nullptr) {
      cached = ReachOf(s, backward, leg, side->border.get(), queries);
      if (cached->searched) router_.reach_cache().Insert(key, cached);
    }
    side->endpoints = cached->endpoints;
    side->yards = cached->yards;
    side->reach = std::move(cached);
  }
  // The leg's entrances at their endpoints' seconds.
  side->entrances.clear();
  side->entrance_yards.clear();
  std::vector<std::uint32_t> nodes;
  for (const Leg::Entry& e : leg.entries) nodes.push_back(e.node);
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  for (const std::uint32_t node : nodes) {
    const std::uint32_t i = side->EndpointAt(node);
    if (i == side->endpoints.size()) continue;  // an entrance the band cannot take
    side->entrances.push_back(side->endpoints[i]);
    side->entrance_yards.push_back(side->yards[i]);
  }
  // The side, swept once per place and band: its endpoints are its leg's or its cached reach's.
  std::shared_ptr<const CchSide> swept = router_.side_cache().Find(key);
  if (swept == nullptr) {
    auto fresh = std::make_shared<CchSide>();
    queries.sides.Run(queries.split, *hierarchy_.metric, backward ? Cch::kBackward : Cch::kForward,
                      side->endpoints, fresh.get());
    // A reach not searched (its zone's border unknown) may be searched later.
    if (!side->reached || side->reach->searched) router_.side_cache().Insert(key, fresh);
    swept = std::move(fresh);
  }
  side->side = std::move(swept);
}

std::shared_ptr<const ZoneReach> AbstractTable::ReachOf(SurfaceId s, bool backward, const Leg& leg,
                                                        const ZoneBorder* border,
                                                        CchQueries& queries) const {
  const std::uint16_t zone = continent_.zone[s];
  std::vector<ReachStart> starts;
  for (const Leg::Entry& e : leg.entries) {
    starts.push_back({e.node, DangerSeconds(e.seconds, leg.MixOf(e), band_, zone, 0), e.yards});
  }
  auto reach = std::make_shared<ZoneReach>();
  if (border != nullptr) {
    // Only nodes of the place's region can be reached, and from the giant part only those it
    // reaches (backward: that reach it): the reach stops once it has them.
    const ContinentGraph& graph = *hierarchy_.graph;
    const RegionId region = continent_.region[s];
    const GiantPart& giant = maps_->giant;
    bool in_part = true;
    for (const ReachStart& start : starts) in_part = in_part && giant.in_part[start.node];
    const std::vector<bool>* reached =
        in_part ? (backward ? &giant.backward : &giant.forward) : nullptr;
    std::vector<std::uint32_t> nodes;
    for (const std::uint32_t v : backward ? border->entries : border->exits) {
      if (continent_.region[graph.node_surface[v]] == region &&
          (reached == nullptr || (*reached)[v])) {
        nodes.push_back(v);
      }
    }
    queries.reach.Run({.graph = *hierarchy_.graph,
                       .prices = *hierarchy_.prices,
                       .band = band_,
                       .zones = maps_->zones,
                       .zone = zone,
                       .reverse = backward ? reverse_ : nullptr,
                       .border = nodes,
                       .inner = backward ? border->inner_tails : border->inner_heads,
                       .starts = starts,
                       .max_settled = kReachMaxSettled,
                       .far_after = router_.reach_far_after(),
                       .far_left = AbstractRouter::kReachFarLeft},
                      reach.get());
  }
  return reach;
}

std::uint32_t AbstractTable::Side::EndpointAt(std::uint32_t node) const {
  if (reached) {  // one endpoint a node, by node
    const auto it =
        std::lower_bound(endpoints.begin(), endpoints.end(), node,
                         [](const CchEndpoint& e, std::uint32_t n) { return e.node < n; });
    return it != endpoints.end() && it->node == node
               ? static_cast<std::uint32_t>(it - endpoints.begin())
               : static_cast<std::uint32_t>(endpoints.size());
  }
  return EntryAt(endpoints, node);
}

double AbstractTable::Side::YardsAt(std::uint32_t node) const {
  const std::uint32_t i = EndpointAt(node);
  return i != endpoints.size() ? yards[i] : 0.0;
}

std::uint64_t AbstractTable::Side::MemoryBytes() const {
  return (side != nullptr ? side->MemoryBytes() : 0) +
         endpoints.size() * (sizeof(CchEndpoint) + sizeof(float)) + 2 * leg_zones.size() +
         entrances.size() * (sizeof(CchEndpoint) + 4);
}

absl::Status AbstractTable::BuildSides(const std::vector<SurfaceId>& targets, CellSearch& search,
                                       const SearchStop* stop) {
  targets_.resize(targets.size());
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
      if (!Knows(targets[j])) continue;
      SideOf(targets[j], /*backward=*/true, cells, *queries, &targets_[j]);
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
  SideOf(from, /*backward=*/false, search, *queries, &row->from_side_);
  buckets_->Scan(*row->from_side_.side, &row->meetings_);
  row->answers_.assign(row->meetings_.size(), std::nullopt);
  return row;
}

std::uint64_t AbstractTable::MemoryBytes() const {
  std::uint64_t bytes = sizeof(AbstractTable) + (buckets_ ? buckets_->MemoryBytes() : 0);
  for (const Side& side : targets_) bytes += side.MemoryBytes();
  return bytes;
}

SidesAnswer AbstractTable::Row::AnswerOf(const Continent& c, const Metric& band, SurfaceId from,
                                         SurfaceId to, std::uint32_t* target) const {
  const AbstractTable& t = *table_;
  // The table's profile in its band, or in any band pricing no danger when the table's prices
  // none (the CCH prices them alike).
  const bool same_band = t.band_.prices_danger()
                             ? band.prices_danger() && band.band() == t.band_.band()
                             : !band.prices_danger();
  if (&c != &t.continent_ || from != from_ || !same_band ||
      band.profile().name != t.band_.profile().name) {
    return {};
  }
  const auto found = t.target_of_.find(to);
  if (found == t.target_of_.end()) return {};  // a priced zone's target has none
  *target = found->second;
  std::optional<SidesAnswer>& answer = answers_[found->second];
  if (!answer.has_value()) answer = MeetSidesOf(found->second);
  return *answer;
}

SidesAnswer AbstractTable::Row::MeetSidesOf(std::uint32_t target) const {
  const AbstractTable& t = *table_;
  const CchMeeting& m = meetings_[target];
  const Side& goal = t.targets_[target];
  const Cch& cch = *t.hierarchy_.cch;
  // The endpoints met through, where a far one could be among them.
  auto has_far = [](const Side& side) { return side.reached && !side.reach->far.empty(); };
  const std::uint32_t from_node = has_far(from_side_) && m.found()
                                      ? from_side_.side->EndpointNode(cch, m.source_label)
                                      : kInvalidId;
  const std::uint32_t to_node =
      has_far(goal) && m.found() ? goal.side->EndpointNode(cch, m.target_label) : kInvalidId;
  return MeetSides(from_side_, goal, m.cost, from_node, to_node);
}

bool AbstractTable::Row::Knows(SurfaceId to) const {
  std::uint32_t target;
  return AnswerOf(table_->continent_, table_->band_, from_, to, &target).known;
}

bool AbstractTable::Row::Find(const Continent& c, const Metric& band, SurfaceId from, SurfaceId to,
                              double* seconds, double* yards) const {
  std::uint32_t target;
  const SidesAnswer answer = AnswerOf(c, band, from, to, &target);
  if (!answer.known) return false;
  const AbstractTable& t = *table_;
  const CchMeeting* const m = &meetings_[target];
  *seconds = answer.seconds;
  *yards = 0.0;
  if (walks_ == RowWalks::kSecondsOnly) return true;
  if (answer.inner) {
    *yards = answer.yards;
    return true;
  }
  if (!m->found()) return true;
  const Cch& cch = *t.hierarchy_.cch;
  const Side& goal = t.targets_[target];
  const CchSide& side = *from_side_.side;
  CchSlotSum& sum = *sum_;
  *yards = from_side_.YardsAt(side.EndpointNode(cch, m->source_label)) +
           side.SumTo(m->source_label, sum) + goal.side->SumTo(m->target_label, sum) +
           goal.YardsAt(goal.side->EndpointNode(cch, m->target_label));
  return true;
}

bool AbstractTable::Row::FindWay(const Continent& c, const Metric& band, SurfaceId from,
                                 SurfaceId to, KnownWay* way) const {
  std::uint32_t target;
  if (!AnswerOf(c, band, from, to, &target).known) return false;
  const AbstractTable& t = *table_;
  const CchMeeting* const m = &meetings_[target];
  const Side& goal = t.targets_[target];
  if (from_side_.reached || goal.reached) return false;  // a reach keeps no ways
  way->seconds = m->cost;
  if (!m->found()) return true;
  const Cch& cch = *t.hierarchy_.cch;
  const CchSide& side = *from_side_.side;
  const CchSide& goal_side = *goal.side;
  way->start = from_side_.leg;
  way->goal = goal.leg;
  way->source = EntryAt(from_side_.endpoints, side.EndpointNode(cch, m->source_label));
  way->target = EntryAt(goal.endpoints, goal_side.EndpointNode(cch, m->target_label));
  // Up the start's side from its entrance to the meeting (its labels followed down, then taken
  // bottom up), then down the goal's side to its entrance.
  up_.clear();
  for (std::uint32_t l = m->source_label; side.from[l] != kInvalidId; l = side.from[l]) {
    up_.push_back(PendingOf(side, l));
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
