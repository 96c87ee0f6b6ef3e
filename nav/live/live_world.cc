#include "nav/live/live_world.h"

#include <cmath>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "nav/grid/number_text.h"
#include "nav/import/movingai.h"
#include "nav/live/layer_file.h"
#include "nav/live/live_search.h"
#include "nav/live/nearest.h"
#include "nav/live/recovery.h"
#include "nav/live/step_out.h"
#include "nav/live/taut_path.h"

namespace walk::nav::live {
namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;

// The calling thread's search buffers, shared by every world the thread searches.
LiveSearch& ThreadSearch() {
  thread_local LiveSearch search;
  return search;
}

BodyClass BodyOf(const PathRequest& r) { return ClassifyBody(r.radius, r.formation_half_width); }

absl::Status ValidateOptions(const LiveWorldOptions& o) {
  if (o.nearest_max_radius < 0) return absl::InvalidArgumentError("nearest_max_radius < 0");
  if (o.group_local_radius < 0) return absl::InvalidArgumentError("group_local_radius < 0");
  if (o.region_margin < 1) return absl::InvalidArgumentError("region_margin < 1");
  if (!(o.full_rebuild_fraction >= 0.0)) {
    return absl::InvalidArgumentError("full_rebuild_fraction must be >= 0");
  }
  if (o.direct_line_cells < 0) return absl::InvalidArgumentError("direct_line_cells < 0");
  if (!(o.keep_goal_shift >= 0.0)) return absl::InvalidArgumentError("keep_goal_shift < 0");
  if (o.recover_max_radius < 0) return absl::InvalidArgumentError("recover_max_radius < 0");
  return absl::OkStatus();
}

}  // namespace

const char* PathMethodName(PathMethod method) {
  switch (method) {
    case PathMethod::kNone:
      return "none";
    case PathMethod::kRegions:
      return "regions";
    case PathMethod::kSearch:
      return "search";
    case PathMethod::kCache:
      return "cache";
    case PathMethod::kDirect:
      return "direct";
    case PathMethod::kKept:
      return "kept";
    case PathMethod::kStepOut:
      return "step_out";
    case PathMethod::kRecovered:
      return "recovered";
  }
  return "unknown";
}

const char* PathStatusName(PathStatus status) {
  switch (status) {
    case PathStatus::kFound:
      return "found";
    case PathStatus::kUnreachable:
      return "unreachable";
    case PathStatus::kStartBlocked:
      return "start_blocked";
    case PathStatus::kGoalBlocked:
      return "goal_blocked";
  }
  return "unknown";
}

LiveWorld::LiveWorld(Layers layers, const LiveWorldOptions& options)
    : options_(options),
      width_(layers.width()),
      height_(layers.height()),
      cell_size_(layers.cell_size()),
      frame_(layers.frame()),
      layers_(std::move(layers)),
      grid_(layers_),
      cache_(options.path_cache_entries),
      unit_routes_(options.unit_routes),
      crossings_(layers_) {
  counters_.full_rebuilds = 1;
  counters_.dirty_cells_rebuilt = grid_.cell_count();
  grid_.ContinueAfter(options.revisions_after);
}

std::size_t LiveWorld::MemoryBytes() const {
  std::size_t bytes = sizeof(LiveWorld) + cache_.MemoryBytes() + unit_routes_.MemoryBytes() +
                      crossings_.MemoryBytes();
  std::shared_lock<std::shared_mutex> lock(mutex_);
  return bytes + layers_.MemoryBytes() + grid_.MemoryBytes();
}

absl::StatusOr<std::unique_ptr<LiveWorld>> LiveWorld::FromLayers(Layers layers,
                                                                 const LiveWorldOptions& options) {
  if (absl::Status s = ValidateOptions(options); !s.ok()) return s;
  if (layers.width() <= 0 || layers.height() <= 0) {
    return absl::InvalidArgumentError("layers: the map has no cells");
  }
  return std::unique_ptr<LiveWorld>(new LiveWorld(std::move(layers), options));
}

absl::StatusOr<std::unique_ptr<LiveWorld>> LiveWorld::FromText(absl::string_view map_text,
                                                               absl::string_view layer_text,
                                                               const LiveWorldOptions& options) {
  absl::StatusOr<MovingAiMap> map = ParseMovingAiMap(map_text);
  if (!map.ok()) return map.status();
  absl::StatusOr<Layers> layers = Layers::FromMovingAi(*map);
  if (!layers.ok()) return layers.status();
  if (absl::Status s = ApplyLayerText(layer_text, &*layers); !s.ok()) return s;
  return FromLayers(*std::move(layers), options);
}

absl::StatusOr<std::unique_ptr<LiveWorld>> LiveWorld::Create(const std::string& map_path,
                                                             const std::string& layer_path,
                                                             const LiveWorldOptions& options) {
  absl::StatusOr<MovingAiMap> map = ReadMovingAiMap(map_path);
  if (!map.ok()) return map.status();
  absl::StatusOr<Layers> layers = Layers::FromMovingAi(*map);
  if (!layers.ok()) {
    return absl::Status(layers.status().code(),
                        absl::StrCat(map_path, ": ", layers.status().message()));
  }
  if (!layer_path.empty()) {
    if (absl::Status s = ApplyLayerFile(layer_path, &*layers); !s.ok()) return s;
  }
  return FromLayers(*std::move(layers), options);
}

absl::Status LiveWorld::CheckCell(Cell c, const char* field) const {
  if (c.x >= 0 && c.y >= 0 && c.x < width_ && c.y < height_) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(field, ": ", CellText(c), " is off the ", width_, " x ", height_, " map"));
}

void LiveWorld::AddRebuild(const RebuildStats& stats) {
  counters_.updates.fetch_add(1, kRelaxed);
  if (stats.full) counters_.full_rebuilds.fetch_add(1, kRelaxed);
  counters_.dirty_cells_rebuilt.fetch_add(stats.cells_rebuilt, kRelaxed);
  counters_.region_cells_visited.fetch_add(stats.region_cells, kRelaxed);
}

absl::StatusOr<UpdateResult> LiveWorld::UpdateBlockers(std::span<const BlockerChange> changes) {
  std::unique_lock lock(mutex_);
  if (absl::Status s = ValidateBlockerChanges(layers_, changes); !s.ok()) return s;
  std::vector<CellRect> dirty;
  for (const BlockerChange& c : changes) {
    // Validation ran against the same state: a failure here is a bug, not bad input.
    if (absl::Status s = ApplyBlockerChange(c, &layers_, &dirty); !s.ok()) {
      return absl::InternalError(absl::StrCat("validated change failed: ", s.message()));
    }
  }
  const RebuildStats stats =
      grid_.RebuildDirty(layers_, std::move(dirty), options_.full_rebuild_fraction);
  AddRebuild(stats);
  return UpdateResult{grid_.revision(), stats.cells_rebuilt, stats.rects, stats.full};
}

UpdateResult LiveWorld::RebuildAll() {
  std::unique_lock lock(mutex_);
  const RebuildStats stats = grid_.RebuildAll(layers_);
  AddRebuild(stats);
  return UpdateResult{grid_.revision(), stats.cells_rebuilt, stats.rects, stats.full};
}

std::shared_ptr<const CachedPath> LiveWorld::CachedSearch(Cell start, Cell goal, Passability p,
                                                          BodyClass body, bool* from_cache,
                                                          std::uint64_t* cells_expanded) {
  const PathCacheKey key{grid_.Index(start), grid_.Index(goal), grid_.revision(), p, body};
  if (std::shared_ptr<const CachedPath> hit = cache_.Get(key)) {
    if (from_cache != nullptr) *from_cache = true;
    return hit;
  }
  if (from_cache != nullptr) *from_cache = false;
  auto path = std::make_shared<CachedPath>();
  const SearchResult r = ThreadSearch().FindPath(grid_, start, goal, p, &path->cells, body);
  counters_.searches.fetch_add(1, kRelaxed);
  counters_.cells_expanded.fetch_add(r.stats.cells_expanded, kRelaxed);
  counters_.heap_operations.fetch_add(r.stats.heap_operations, kRelaxed);
  if (cells_expanded != nullptr) *cells_expanded = r.stats.cells_expanded;
  path->found = r.found;
  if (r.found) {
    path->cost = r.cost;
    path->waypoints = PullTaut(grid_, path->cells, p, body.need);
  } else {
    path->cells.clear();
  }
  cache_.Put(key, path);
  return path;
}

bool LiveWorld::ResolveGoal(const PathRequest& request, LivePath* out) {
  const Passability p = request.passability;
  const std::uint16_t need = BodyOf(request).need;
  if (grid_.Fits(request.goal, p, need)) return true;
  std::optional<Cell> resolved;
  if (request.resolve_blocked_goal) {
    RingStats ring;
    resolved = ResolveToward(grid_, request.goal, request.start, p, options_.nearest_max_radius,
                             &ring, need);
    counters_.nearest_searches.fetch_add(1, kRelaxed);
    counters_.ring_cells_scanned.fetch_add(ring.cells_scanned, kRelaxed);
  }
  if (!resolved) {
    out->status = PathStatus::kGoalBlocked;
    out->too_narrow = grid_.Open(request.goal, p);
    return false;
  }
  out->goal = *resolved;
  return true;
}

bool LiveWorld::TryKeptRoute(const PathRequest& request, LivePath* out) {
  if (request.unit == 0 || !(out->goal == request.goal)) return false;
  std::shared_ptr<const UnitRoute> old = unit_routes_.Get(request.unit);
  if (old == nullptr) return false;
  std::optional<UnitRoute> kept =
      KeepRoute(grid_, *old, request.start, request.goal, request.passability,
                options_.keep_goal_shift, BodyOf(request));
  if (!kept) return false;
  out->status = PathStatus::kFound;
  out->method = PathMethod::kKept;
  out->cost = kept->cost;
  out->cells = kept->cells;
  out->waypoints.clear();
  for (std::uint32_t at : kept->waypoint_at) out->waypoints.push_back(kept->cells[at]);
  counters_.kept_routes.fetch_add(1, kRelaxed);
  unit_routes_.Put(request.unit, std::make_shared<const UnitRoute>(*std::move(kept)));
  return true;
}

bool LiveWorld::TryDirectLine(const PathRequest& request, LivePath* out) {
  const Cell a = request.start, b = out->goal;
  if (options_.direct_line_cells <= 0 ||
      std::max(std::abs(a.x - b.x), std::abs(a.y - b.y)) > options_.direct_line_cells ||
      !SegmentClear(grid_, a, b, request.passability, /*reject_portals=*/true, &out->cells,
                    BodyOf(request).need)) {
    return false;
  }
  out->status = PathStatus::kFound;
  out->method = PathMethod::kDirect;
  out->cost = PriceCells(grid_, out->cells, request.passability, BodyOf(request));
  out->waypoints = a == b ? std::vector<Cell>{a} : std::vector<Cell>{a, b};
  counters_.direct_lines.fetch_add(1, kRelaxed);
  return true;
}

void LiveWorld::StepOutPath(const PathRequest& request, LivePath* out) {
  const Passability p = request.passability;
  const BodyClass body = BodyOf(request);
  const std::vector<StepOut> outs = StepOuts(grid_, request.start, p);
  out->status = outs.empty() ? PathStatus::kStartBlocked : PathStatus::kUnreachable;
  if (outs.empty() || !ResolveGoal(request, out)) return;
  // Ways out in order of a lower bound on the whole path; stop once none can beat the best.
  std::vector<std::size_t> order(outs.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  auto bound = [&](std::size_t k) {
    return outs[k].cost + OctileCost(outs[k].cells.back(), out->goal);
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return bound(x) < bound(y); });
  std::uint64_t best = kNoCost;
  for (std::size_t k : order) {
    if (bound(k) >= best) break;
    const Cell exit = outs[k].cells.back();
    if (!grid_.Fits(exit, p, body.need) || !grid_.Reachable(exit, out->goal, p)) continue;
    std::shared_ptr<const CachedPath> rest = CachedSearch(exit, out->goal, p, body, nullptr);
    if (!rest->found || outs[k].cost + std::uint64_t{rest->cost} >= best) continue;
    best = outs[k].cost + std::uint64_t{rest->cost};
    out->cells = outs[k].cells;
    out->cells.insert(out->cells.end(), rest->cells.begin() + 1, rest->cells.end());
    out->waypoints.assign(outs[k].cells.begin(), outs[k].cells.end() - 1);
    out->waypoints.insert(out->waypoints.end(), rest->waypoints.begin(), rest->waypoints.end());
  }
  if (best == kNoCost) return;
  out->status = PathStatus::kFound;
  out->method = PathMethod::kStepOut;
  out->cost = static_cast<std::uint32_t>(best);
  counters_.step_outs.fetch_add(1, kRelaxed);
}

void LiveWorld::RememberRoute(const PathRequest& request, const LivePath& path) {
  if (request.unit == 0 || path.status != PathStatus::kFound || unit_routes_.capacity() == 0) {
    return;
  }
  auto route = std::make_shared<UnitRoute>();
  route->passability = request.passability;
  route->body = BodyOf(request);
  route->goal = path.goal;
  route->cost = path.cost;
  route->cells = path.cells;
  route->waypoint_at = WaypointIndices(path.cells, path.waypoints);
  unit_routes_.Put(request.unit, std::move(route));
}

absl::StatusOr<LivePath> LiveWorld::FindPath(const PathRequest& request) {
  if (absl::Status s = CheckCell(request.start, "start"); !s.ok()) return s;
  if (absl::Status s = CheckCell(request.goal, "goal"); !s.ok()) return s;
  if (absl::Status s = ValidateBody(request.radius, request.formation_half_width); !s.ok()) {
    return s;
  }
  std::shared_lock lock(mutex_);
  counters_.paths.fetch_add(1, kRelaxed);
  LivePath out = AnswerPath(request);
  // A start that is open but too narrow for the body is not recovered: the unit stands on ground.
  if (out.status == PathStatus::kStartBlocked && !out.too_narrow && request.recover_start) {
    RecoverPath(request, &out);
  }
  out.points = crossings_.Points(out.waypoints);
  return out;
}

void LiveWorld::RecoverPath(const PathRequest& request, LivePath* out) {
  const Passability p = request.passability;
  // The goal's side: its region, or that of the standable cell nearest it.
  RingStats ring;
  std::optional<Cell> goal = request.goal;
  if (!grid_.Open(request.goal, p)) {
    goal = NearestStandable(grid_, request.goal, p, options_.nearest_max_radius, &ring);
  }
  std::optional<RegionId> side;
  if (goal) side = grid_.RegionOf(*goal, p);
  const std::optional<Recovery> escape =
      FindRecovery(grid_, request.start, request.goal, side, p, options_.recover_max_radius, &ring);
  counters_.nearest_searches.fetch_add(1, kRelaxed);
  counters_.ring_cells_scanned.fetch_add(ring.cells_scanned, kRelaxed);
  if (!escape) return;
  PathRequest from = request;
  from.start = escape->cell;
  *out = AnswerPath(from);
  out->method = PathMethod::kRecovered;
  if (out->status == PathStatus::kFound) {
    // Splice: the escape leg, then the path from the recovery cell on.
    out->cells.insert(out->cells.begin(), escape->cells.begin(), escape->cells.end() - 1);
    out->waypoints.insert(out->waypoints.begin(), request.start);
    out->cost += escape->cost;
  } else {
    // The goal is out of reach from safe ground: the escape alone, so the unit leaves the cell.
    out->cells = escape->cells;
    out->waypoints = {request.start, escape->cell};
    out->cost = escape->cost;
  }
  counters_.recovered_starts.fetch_add(1, kRelaxed);
}

void LiveWorld::AddGroupPoints(GroupPlan* plan) const {
  for (MemberPath& m : plan->members) m.points = crossings_.Points(m.waypoints);
  plan->corridor_points = crossings_.Points(plan->corridor);
}

LivePath LiveWorld::AnswerPath(const PathRequest& request) {
  const Passability p = request.passability;
  const BodyClass body = BodyOf(request);
  LivePath out;
  out.revision = grid_.revision();
  out.start = request.start;
  out.goal = request.goal;
  if (!grid_.Open(request.start, p)) {
    out.status = PathStatus::kStartBlocked;
    if (grid_.value(request.start) == CellValue::kGate) StepOutPath(request, &out);
    return out;
  }
  if (!grid_.Fits(request.start, p, body.need)) {
    out.status = PathStatus::kStartBlocked;
    out.too_narrow = true;
    return out;
  }
  if (!ResolveGoal(request, &out)) return out;
  if (TryKeptRoute(request, &out)) return out;
  if (!grid_.Reachable(request.start, out.goal, p)) {
    counters_.region_answers.fetch_add(1, kRelaxed);
    out.status = PathStatus::kUnreachable;
    out.method = PathMethod::kRegions;
    return out;
  }
  if (!TryDirectLine(request, &out)) {
    std::shared_ptr<const CachedPath> path =
        CachedSearch(request.start, out.goal, p, body, &out.from_cache);
    if (!path->found) {  // at radius 0 the regions said reachable: only a radius gets here
      out.status = PathStatus::kUnreachable;
      out.method = out.from_cache ? PathMethod::kCache : PathMethod::kSearch;
      return out;
    }
    out.status = PathStatus::kFound;
    out.method = out.from_cache ? PathMethod::kCache : PathMethod::kSearch;
    out.cost = path->cost;
    out.cells = path->cells;
    out.waypoints = path->waypoints;
  }
  RememberRoute(request, out);
  return out;
}

absl::StatusOr<Cell> LiveWorld::Nearest(Cell cell, Passability passability, double radius) {
  if (absl::Status s = ValidateBody(radius, 0.0); !s.ok()) return s;
  std::shared_lock lock(mutex_);
  RingStats ring;
  std::optional<Cell> found = NearestStandable(
      grid_, cell, passability, options_.nearest_max_radius, &ring, ClassifyBody(radius).need);
  counters_.nearest_searches.fetch_add(1, kRelaxed);
  counters_.ring_cells_scanned.fetch_add(ring.cells_scanned, kRelaxed);
  if (!found) {
    return absl::NotFoundError(absl::StrCat("no ", PassabilityName(passability),
                                            "-standable cell within ", options_.nearest_max_radius,
                                            " cells of ", CellText(cell)));
  }
  return *found;
}

absl::StatusOr<Cell> LiveWorld::ResolveTarget(Cell target, Cell from, Passability passability,
                                              double radius) {
  if (absl::Status s = CheckCell(from, "from"); !s.ok()) return s;
  if (absl::Status s = ValidateBody(radius, 0.0); !s.ok()) return s;
  std::shared_lock lock(mutex_);
  RingStats ring;
  std::optional<Cell> found =
      ResolveToward(grid_, target, from, passability, options_.nearest_max_radius, &ring,
                    ClassifyBody(radius).need);
  counters_.nearest_searches.fetch_add(1, kRelaxed);
  counters_.ring_cells_scanned.fetch_add(ring.cells_scanned, kRelaxed);
  if (!found) {
    return absl::NotFoundError(absl::StrCat(
        "no standable cell within ", options_.nearest_max_radius, " cells of ", CellText(target)));
  }
  return *found;
}

absl::StatusOr<bool> LiveWorld::Reachable(Cell a, Cell b, Passability passability, double radius) {
  if (absl::Status s = CheckCell(a, "a"); !s.ok()) return s;
  if (absl::Status s = CheckCell(b, "b"); !s.ok()) return s;
  if (absl::Status s = ValidateBody(radius, 0.0); !s.ok()) return s;
  const BodyClass body = ClassifyBody(radius);
  std::shared_lock lock(mutex_);
  if (!grid_.Reachable(a, b, passability)) return false;
  if (!body.wide()) return true;
  if (!grid_.Fits(a, passability, body.need) || !grid_.Fits(b, passability, body.need)) {
    return false;
  }
  return CachedSearch(a, b, passability, body, nullptr)->found;
}

absl::Status LiveWorld::CheckFormation(const GroupFormation& formation) const {
  if (!std::isfinite(formation.facing_degrees)) {
    return absl::InvalidArgumentError("formation.facing_degrees: must be finite");
  }
  // Slots reach no further than the map is wide or high.
  const double reach = std::max(width_, height_);
  for (std::size_t k = 0; k < formation.slots.size(); ++k) {
    const FormationSlot& slot = formation.slots[k];
    if (!std::isfinite(slot.forward) || !std::isfinite(slot.right) ||
        std::abs(slot.forward) > reach || std::abs(slot.right) > reach) {
      return absl::InvalidArgumentError(
          absl::StrCat("formation.slots[", k, "]: forward and right must be finite and within ",
                       reach, " cells"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<FormationPlan> LiveWorld::FormationTargets(Cell center,
                                                          const GroupFormation& formation,
                                                          Passability passability,
                                                          std::optional<Cell> from, double radius) {
  if (absl::Status s = CheckCell(center, "center"); !s.ok()) return s;
  if (from) {
    if (absl::Status s = CheckCell(*from, "from"); !s.ok()) return s;
  }
  if (absl::Status s = CheckFormation(formation); !s.ok()) return s;
  if (absl::Status s = ValidateBody(radius, 0.0); !s.ok()) return s;
  const std::uint16_t need = ClassifyBody(radius).need;
  std::shared_lock lock(mutex_);
  RingStats ring;
  std::optional<Cell> snapped =
      from ? ResolveToward(grid_, center, *from, passability, options_.nearest_max_radius, &ring,
                           need)
           : NearestStandable(grid_, center, passability, options_.nearest_max_radius, &ring, need);
  counters_.nearest_searches.fetch_add(1, kRelaxed);
  counters_.ring_cells_scanned.fetch_add(ring.cells_scanned, kRelaxed);
  if (!snapped) {
    return absl::NotFoundError(absl::StrCat("center: no ", PassabilityName(passability),
                                            "-standable cell within ", options_.nearest_max_radius,
                                            " cells of ", CellText(center)));
  }
  FormationPlan plan;
  PlanFormationAt(grid_, *snapped, formation.slots, formation.facing_degrees, passability, &plan,
                  need);
  plan.revision = grid_.revision();
  counters_.formations.fetch_add(1, kRelaxed);
  counters_.slots_collapsed.fetch_add(plan.collapsed, kRelaxed);
  return plan;
}

absl::StatusOr<GroupPlan> LiveWorld::PathGroup(
    std::span<const GroupMember> members, Cell goal, const GroupFormation* formation,
    const std::function<bool(const DeferredSearch&)>& waiting, double radius,
    double formation_half_width) {
  if (members.empty()) return absl::InvalidArgumentError("members: none");
  if (absl::Status s = ValidateBody(radius, formation_half_width); !s.ok()) return s;
  const BodyClass body = ClassifyBody(radius, formation_half_width);
  for (std::size_t k = 0; k < members.size(); ++k) {
    const std::string field = absl::StrCat("members[", k, "].start");
    if (absl::Status s = CheckCell(members[k].start, field.c_str()); !s.ok()) return s;
  }
  if (absl::Status s = CheckCell(goal, "goal"); !s.ok()) return s;
  if (formation != nullptr) {
    if (formation->slots.size() != members.size()) {
      return absl::InvalidArgumentError(absl::StrCat("formation.slots: ", formation->slots.size(),
                                                     " slots for ", members.size(), " members"));
    }
    if (absl::Status s = CheckFormation(*formation); !s.ok()) return s;
  }
  std::shared_lock lock(mutex_);
  counters_.group_routes.fetch_add(1, kRelaxed);
  bool any_heavy = false;
  for (const GroupMember& m : members) any_heavy |= m.passability == Passability::kHeavy;
  const Passability corridor = any_heavy ? Passability::kHeavy : Passability::kLight;
  RingStats ring;
  std::optional<Cell> resolved = ResolveToward(grid_, goal, members[0].start, corridor,
                                               options_.nearest_max_radius, &ring, body.need);
  if (!grid_.Fits(goal, corridor, body.need)) {
    counters_.nearest_searches.fetch_add(1, kRelaxed);
    counters_.ring_cells_scanned.fetch_add(ring.cells_scanned, kRelaxed);
  }
  if (!resolved) {
    return absl::NotFoundError(absl::StrCat("goal: no standable cell within ",
                                            options_.nearest_max_radius, " cells of ",
                                            CellText(goal)));
  }
  std::vector<Cell> targets;
  if (formation != nullptr) {
    FormationPlan slots;
    PlanFormationAt(grid_, *resolved, formation->slots, formation->facing_degrees, corridor, &slots,
                    body.need);
    for (const SlotTarget& t : slots.slots) targets.push_back(t.cell);
    counters_.formations.fetch_add(1, kRelaxed);
    counters_.slots_collapsed.fetch_add(slots.collapsed, kRelaxed);
  }
  GroupPlan plan;
  GroupOptions group_options;
  group_options.local_radius = options_.group_local_radius;
  group_options.max_fallback_searches = options_.group_fallback_searches;
  group_options.max_fallback_cells = options_.group_fallback_cells;
  PlanGroup(
      grid_, members, *resolved, targets, group_options,
      [&](Cell s, Cell g, Passability p, bool may_search) {
        if (!may_search || (waiting && waiting(DeferredSearch{s, g, p, body}))) {
          return GroupSearch{
              cache_.Get(PathCacheKey{grid_.Index(s), grid_.Index(g), grid_.revision(), p, body}),
              false};
        }
        bool from_cache = false;
        std::uint64_t cells = 0;
        std::shared_ptr<const CachedPath> path = CachedSearch(s, g, p, body, &from_cache, &cells);
        return GroupSearch{std::move(path), !from_cache, cells};
      },
      &plan, body);
  counters_.group_shared_members.fetch_add(plan.shared, kRelaxed);
  counters_.group_individual_members.fetch_add(plan.individual, kRelaxed);
  counters_.group_deferred_members.fetch_add(plan.deferred, kRelaxed);
  plan.revision = grid_.revision();
  AddGroupPoints(&plan);
  return plan;
}

std::uint64_t LiveWorld::ServeFallback(Cell start, Cell goal, Passability passability,
                                       BodyClass body) {
  if (!grid_.InBounds(start) || !grid_.InBounds(goal)) return 0;
  std::shared_lock lock(mutex_);
  if (!grid_.Fits(start, passability, body.need) || !grid_.Fits(goal, passability, body.need) ||
      !grid_.Reachable(start, goal, passability)) {
    return 0;
  }
  std::uint64_t cells = 0;
  CachedSearch(start, goal, passability, body, nullptr, &cells);
  counters_.fallbacks_served.fetch_add(1, kRelaxed);
  return cells;
}

LiveCounters LiveWorld::Counters() const {
  LiveCounters c;
  c.revision = revision();
  c.paths = counters_.paths.load(kRelaxed);
  c.region_answers = counters_.region_answers.load(kRelaxed);
  const PathCacheCounters cache = cache_.counters();
  c.cache_hits = cache.hits;
  c.cache_misses = cache.misses;
  c.cache_evictions = cache.evictions;
  c.cache_expired = cache.expired;
  c.cache_entries = cache.entries;
  c.searches = counters_.searches.load(kRelaxed);
  c.cells_expanded = counters_.cells_expanded.load(kRelaxed);
  c.heap_operations = counters_.heap_operations.load(kRelaxed);
  c.updates = counters_.updates.load(kRelaxed);
  c.full_rebuilds = counters_.full_rebuilds.load(kRelaxed);
  c.dirty_cells_rebuilt = counters_.dirty_cells_rebuilt.load(kRelaxed);
  c.region_cells_visited = counters_.region_cells_visited.load(kRelaxed);
  c.nearest_searches = counters_.nearest_searches.load(kRelaxed);
  c.ring_cells_scanned = counters_.ring_cells_scanned.load(kRelaxed);
  c.group_routes = counters_.group_routes.load(kRelaxed);
  c.group_shared_members = counters_.group_shared_members.load(kRelaxed);
  c.group_individual_members = counters_.group_individual_members.load(kRelaxed);
  c.group_deferred_members = counters_.group_deferred_members.load(kRelaxed);
  c.fallbacks_served = counters_.fallbacks_served.load(kRelaxed);
  c.direct_lines = counters_.direct_lines.load(kRelaxed);
  c.kept_routes = counters_.kept_routes.load(kRelaxed);
  c.step_outs = counters_.step_outs.load(kRelaxed);
  c.formations = counters_.formations.load(kRelaxed);
  c.slots_collapsed = counters_.slots_collapsed.load(kRelaxed);
  c.unit_routes = unit_routes_.size();
  c.recovered_starts = counters_.recovered_starts.load(kRelaxed);
  return c;
}

std::size_t LiveWorld::footprint_count() const {
  std::shared_lock lock(mutex_);
  return layers_.footprint_count();
}

std::uint64_t LiveWorld::revision() const {
  std::shared_lock lock(mutex_);
  return grid_.revision();
}

absl::StatusOr<CellValue> LiveWorld::At(Cell c) const {
  if (absl::Status s = CheckCell(c, "cell"); !s.ok()) return s;
  std::shared_lock lock(mutex_);
  return grid_.value(c);
}

absl::StatusOr<CellReport> LiveWorld::Describe(Cell c) const {
  if (absl::Status s = CheckCell(c, "cell"); !s.ok()) return s;
  std::shared_lock lock(mutex_);
  return DescribeCell(grid_, layers_, c);
}

absl::StatusOr<WorkCellAnswer> LiveWorld::WorkCell(Cell target, Cell unit, Passability passability,
                                                   const std::function<bool(Cell)>& fits,
                                                   double radius) {
  if (absl::Status s = CheckCell(target, "target"); !s.ok()) return s;
  if (absl::Status s = CheckCell(unit, "unit"); !s.ok()) return s;
  if (absl::Status s = ValidateBody(radius, 0.0); !s.ok()) return s;
  const BodyClass body = ClassifyBody(radius);
  std::shared_lock lock(mutex_);
  absl::StatusOr<WorkTarget> what = WorkTargetAt(grid_, layers_, target);
  if (!what.ok()) return what.status();
  const std::vector<Cell> candidates = WorkCandidates(grid_, *what, passability, [&](Cell c) {
    return grid_.Fits(c, passability, body.need) && (!fits || fits(c));
  });
  if (candidates.empty()) {
    return absl::NotFoundError(absl::StrCat("target: no ", PassabilityName(passability),
                                            "-standable work cell beside the ",
                                            CellValueName(what->value), " at ", CellText(target)));
  }
  const bool unit_open = grid_.Fits(unit, passability, body.need);
  WorkCellAnswer answer = ChooseWorkCell(
      candidates, unit, [&](Cell c) { return unit_open && grid_.Reachable(unit, c, passability); },
      [&](Cell c) {
        std::shared_ptr<const CachedPath> path = CachedSearch(unit, c, passability, body, nullptr);
        return path->found ? path->cost : kNoCost;
      });
  answer.target = *what;
  answer.revision = grid_.revision();
  return answer;
}

std::string LiveWorld::Draw() const {
  std::shared_lock lock(mutex_);
  std::string out;
  out.reserve(static_cast<std::size_t>(width_ + 1) * height_);
  for (std::int32_t y = 0; y < height_; ++y) {
    for (std::int32_t x = 0; x < width_; ++x) {
      out.push_back(CellValueGlyph(grid_.value(Cell{x, y})));
    }
    out.push_back('\n');
  }
  return out;
}

void LiveWorld::Inspect(const std::function<void(const LiveGrid&, const Layers&)>& f) const {
  std::shared_lock lock(mutex_);
  f(grid_, layers_);
}

}  // namespace walk::nav::live
