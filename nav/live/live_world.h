// LiveWorld: the facade a game server talks to. It owns a world's layers, its composed grid and
// regions, a path cache and the units' kept routes, and answers path, nearest, reachability,
// formation and group-path questions while blocker updates arrive.
//
// Thread safety: every member is safe to call from any thread. Queries (FindPath, Nearest,
// ResolveTarget, Reachable, FormationTargets, PathGroup, ServeFallback, At, Describe, WorkCell,
// Draw) read the grid under a shared lock, each with the calling thread's own search buffers
// (thread_local, sized once to the largest grid it searched); UpdateBlockers and RebuildAll write
// it under the exclusive lock. A query therefore sees one revision from start to end, and every
// answer it caches is keyed by that revision, so nothing computed for an older revision is served
// for a newer one. Counters are atomics.
//
// Wide bodies (clearance.h, docs/live_grids.md "Wide bodies"): a path request may carry a body
// radius and a formation half-width, in cells. The radius is hard and is what every yes/no test
// uses (the direct line, kept routes, goal resolution, Reachable, formation slots, Nearest, group
// legs); the half-width only prices the search (the overlap price) and no yes/no test uses it.
// Both are part of the path cache's key. Radius and half-width outside [0, kMaxBodyRadius] or not
// finite are INVALID_ARGUMENT naming `radius` or `formation_half_width`.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nav/live/blocker_change.h"
#include "nav/live/cell.h"
#include "nav/live/clearance.h"
#include "nav/live/crossing_points.h"
#include "nav/live/cursor.h"
#include "nav/live/formation.h"
#include "nav/live/group_path.h"
#include "nav/live/layers.h"
#include "nav/live/live_grid.h"
#include "nav/live/path_cache.h"
#include "nav/live/unit_routes.h"

namespace walk::nav::live {

struct LiveWorldOptions {
  std::size_t path_cache_entries = PathCache::kDefaultCapacity;  // entries; 0 disables the cache
  std::int32_t nearest_max_radius = 32;  // cells: how far Nearest and goal resolution look
  std::int32_t group_local_radius = 8;   // cells: see GroupOptions
  double full_rebuild_fraction = 0.25;   // dirty area (of the map) above which a rebuild is full
  std::int32_t region_margin = 4;        // cells: the local window of region split checks
  // Cells (Chebyshev): a move at most this long whose straight line is clear (the corner-safe
  // segment test, crossing no portal) is answered with that line and no search. 0: never, so
  // every path is the search's cheapest; the line can cost a few turns more.
  std::int32_t direct_line_cells = 0;
  std::size_t unit_routes = 16384;  // units whose last route is kept (unit_routes.h); 0: none
  double keep_goal_shift = 1.5;     // cells: a re-asked goal that moved less keeps the route
  // Searches one PathGroup runs for members that cannot share, and the cells they may expand;
  // past either, the rest are deferred.
  std::uint32_t group_fallback_searches = 32;
  std::uint64_t group_fallback_cells = 50'000;
  // The world's revisions count on from this one (a reset world continues its old numbering).
  std::uint64_t revisions_after = 0;
  // Cells: how far a unit standing where it may not is carried to safe ground when its request
  // asks for recovery (PathRequest::recover_start; recovery.h).
  std::int32_t recover_max_radius = 8;
};

struct UpdateResult {
  std::uint64_t revision = 0;     // the world's revision after the update
  std::uint64_t dirty_cells = 0;  // cells recomposed (the merged dirty rectangles)
  std::uint32_t dirty_rects = 0;  // merged dirty rectangles
  bool full_rebuild = false;      // the dirty area was large enough to rebuild everything
};

enum class PathStatus : std::uint8_t {
  kFound,
  kUnreachable,   // start and goal lie in different regions (answered without a search)
  kStartBlocked,  // the start is not standable (and was not recovered: recover_start)
  kGoalBlocked,   // the goal is not standable and could not be resolved
};
const char* PathStatusName(PathStatus status);

struct PathRequest {
  Cell start;
  Cell goal;
  Passability passability = Passability::kLight;
  // A goal the unit cannot stand on is resolved toward the start's side (ResolveTarget) first.
  bool resolve_blocked_goal = true;
  // The unit asking (0: anonymous). With an id its route is kept (unit_routes.h).
  std::uint64_t unit = 0;
  // A start the unit may not stand on (other than a shut gate's cell, which it steps out of) is
  // recovered: the path runs from the start to the nearest standable cell on the goal's side,
  // then on to the goal (recovery.h; method kRecovered). Off: such a start is kStartBlocked.
  bool recover_start = false;
  // The body's radius in cells, [0, kMaxBodyRadius]: every cell of the path, and both flanks of
  // each diagonal step, lies at least this far from anything closed (touching allowed: 0.5 fits a
  // one-cell corridor, 1.5 needs three cells). The direct line, the kept route and the goal's
  // resolution are tested at this radius too. 0: any open cell.
  double radius = 0;
  // A formation's lateral half-extent in cells, [0, kMaxBodyRadius]: a cell whose clearance is
  // below it costs OverlapPrice more to enter, so a wide body prefers open ground and the middle of
  // a street. Refuses nothing. 0: no overlap price.
  double formation_half_width = 0;
};

// How a path was answered.
enum class PathMethod : std::uint8_t {
  kNone,       // not found: a blocked start or goal
  kRegions,    // unreachable, from the regions without a search
  kSearch,     // an A* search
  kCache,      // the path cache
  kDirect,     // a short clear straight line, no search
  kKept,       // the unit's kept route, its end slid onto the new goal
  kStepOut,    // out of a shut gate's cells (step_out.h), then the cache or a search
  kRecovered,  // from a start the unit may not stand on, escaped to a standable cell (recovery.h)
};
const char* PathMethodName(PathMethod method);

struct LivePath {
  PathStatus status = PathStatus::kUnreachable;
  Cell start;                   // the start searched from: the request's, or its recovery cell
  Cell goal;                    // the goal searched for (the resolved one)
  std::uint32_t cost = 0;       // of `cells`, in the search's units (10 per straight step)
  std::vector<Cell> cells;      // start .. goal, cell by cell
  std::vector<Cell> waypoints;  // `cells` pulled taut: what a unit follows
  // One point per waypoint, in cell units, where the unit walks: the cell's centre, or on a
  // bridge deck or hill entrance its centre line (crossing_points.h).
  std::vector<CellPoint> points;
  std::uint64_t revision = 0;  // the revision the answer was computed for
  bool from_cache = false;
  PathMethod method = PathMethod::kNone;
  // With kStartBlocked or kGoalBlocked: the cell is open, but the body's radius does not fit there.
  bool too_narrow = false;
};

// A formation ordered to a point: its facing and slots (formation.h).
struct GroupFormation {
  double facing_degrees = 0.0;
  std::vector<FormationSlot> slots;
};

// Cumulative counters since creation: what the server exports (as walk_live_*_total).
struct LiveCounters {
  std::uint64_t revision = 0;
  std::uint64_t paths = 0;           // FindPath calls answered (any status)
  std::uint64_t region_answers = 0;  // unreachable pairs answered from regions
  std::uint64_t cache_hits = 0;
  std::uint64_t cache_misses = 0;
  std::uint64_t cache_evictions = 0;  // current-revision entries pushed out (cache too small)
  std::uint64_t cache_expired = 0;    // older-revision entries pushed out
  std::uint64_t cache_entries = 0;    // now
  std::uint64_t searches = 0;         // A* searches run (misses, group corridors, fallbacks)
  std::uint64_t cells_expanded = 0;
  std::uint64_t heap_operations = 0;
  std::uint64_t updates = 0;  // UpdateBlockers calls applied
  std::uint64_t full_rebuilds = 0;
  std::uint64_t dirty_cells_rebuilt = 0;   // cells recomposed, full rebuilds included
  std::uint64_t region_cells_visited = 0;  // cells the region updates touched
  std::uint64_t nearest_searches = 0;      // ring searches (Nearest, goal resolution)
  std::uint64_t ring_cells_scanned = 0;
  std::uint64_t group_routes = 0;  // PathGroup calls
  std::uint64_t group_shared_members = 0;
  std::uint64_t group_individual_members = 0;
  std::uint64_t group_deferred_members = 0;  // members deferred over the fallback bound
  std::uint64_t fallbacks_served = 0;        // deferred searches run later (ServeFallback)
  std::uint64_t direct_lines = 0;            // paths answered by a short clear line
  std::uint64_t kept_routes = 0;             // paths answered by a unit's kept route
  std::uint64_t step_outs = 0;               // paths out of a shut gate
  std::uint64_t formations = 0;              // FormationTargets and formation PathGroups
  std::uint64_t slots_collapsed = 0;         // formation slots collapsed to the centre
  std::uint64_t unit_routes = 0;             // units with a kept route, now
  std::uint64_t recovered_starts = 0;        // paths from a recovered start (kRecovered)
};

class LiveWorld {
 public:
  // A world from a map file (MovingAI form; characters as Layers::FromMovingAi) and a layer file
  // (layer_file.h; empty path: none). Errors: NOT_FOUND for a missing file, INVALID_ARGUMENT
  // naming the bad line or option.
  static absl::StatusOr<std::unique_ptr<LiveWorld>> Create(const std::string& map_path,
                                                           const std::string& layer_path,
                                                           const LiveWorldOptions& options = {});
  // The same from the files' text.
  static absl::StatusOr<std::unique_ptr<LiveWorld>> FromText(absl::string_view map_text,
                                                             absl::string_view layer_text,
                                                             const LiveWorldOptions& options = {});
  // A world from layers built by the caller.
  static absl::StatusOr<std::unique_ptr<LiveWorld>> FromLayers(
      Layers layers, const LiveWorldOptions& options = {});

  LiveWorld(const LiveWorld&) = delete;
  LiveWorld& operator=(const LiveWorld&) = delete;

  // Applies `changes` in order, all or nothing, recomposes only their merged dirty rectangles and
  // brings the regions up to date; the revision increments once. Errors (nothing applied):
  // INVALID_ARGUMENT (bad rectangle, point off the map, not a resource), NOT_FOUND (unknown
  // building or gate, no resource to harvest), ALREADY_EXISTS (id in use); each names the index
  // of the change ("changes[2]: ...").
  absl::StatusOr<UpdateResult> UpdateBlockers(std::span<const BlockerChange> changes);
  // Recomposes every cell and relabels every region (explicit full invalidation).
  UpdateResult RebuildAll();

  // The path for `request`: resolved goal, cells, taut waypoints and cost, from the cache when an
  // answer for the same start, goal, revision, passability and body classes is there. Errors:
  // INVALID_ARGUMENT when start or goal lies off the map (naming which), or for a bad `radius` or
  // `formation_half_width`. "No path" is a status, not an error: with a radius, kUnreachable also
  // when the regions join the ends but no passage is wide enough (method kSearch or kCache).
  absl::StatusOr<LivePath> FindPath(const PathRequest& request);
  // The standable cell nearest `cell` (NearestStandable, up to nearest_max_radius) where a body of
  // `radius` cells fits. Errors: NOT_FOUND when none is that close; INVALID_ARGUMENT for a bad
  // radius.
  absl::StatusOr<Cell> Nearest(Cell cell, Passability passability, double radius = 0);
  // `target` resolved onto standable ground on `from`'s side (ResolveToward). Errors: NOT_FOUND
  // when nothing is standable within nearest_max_radius; INVALID_ARGUMENT for `from` off the map.
  // With `radius`: onto a cell where a body of that radius fits.
  absl::StatusOr<Cell> ResolveTarget(Cell target, Cell from, Passability passability,
                                     double radius = 0);
  // Whether a path joins a and b for a body of `radius` cells. Exact: at radius 0 from the regions
  // alone (no search); for a radius > 0 the regions first (apart at radius 0 is apart at any), then
  // both ends must fit the body, then a search at that radius answers (cached, so a FindPath for
  // the same pair and radius is then a hit). A closed cell reaches nothing. Errors:
  // INVALID_ARGUMENT for a cell off the map or a bad radius.
  absl::StatusOr<bool> Reachable(Cell a, Cell b, Passability passability, double radius = 0);
  // Formation slot targets around `center` (formation.h) for `passability`. The centre is resolved
  // toward `from` when given (ResolveTarget), else to the nearest standable cell. Errors:
  // INVALID_ARGUMENT for a cell off the map or a bad facing or slot (naming it); NOT_FOUND when
  // no standable cell is near the centre.
  // With `radius` (the one-body radius, never the formation's half-width) the centre and the
  // slots are cells the body fits on, joined by lines clear at that radius.
  absl::StatusOr<FormationPlan> FormationTargets(Cell center, const GroupFormation& formation,
                                                 Passability passability,
                                                 std::optional<Cell> from = std::nullopt,
                                                 double radius = 0);
  // Paths for many units to one goal through one shared corridor where sharing is safe
  // (group_path.h). The goal is resolved toward the first member's side for the heaviest member's
  // passability. With a formation (one slot per member) the resolved goal is its centre and each
  // member is sent to its slot target. At most group_fallback_searches members search on their
  // own; the plan lists the deferred ones' searches for the caller to queue (FallbackQueue). A
  // member whose search `waiting` says is queued already stays deferred without a search of its
  // own, so a group asked again before the queue reached it does not run it twice.
  // `radius` and `formation_half_width` are as in PathRequest, for every member: the goal, the
  // slots, starts and legs are tested at the radius; the corridor and the fallbacks are searched
  // with both (group_path.h).
  // Errors: INVALID_ARGUMENT for a cell off the map, no members, a formation with a slot count
  // other than the members', or a bad radius or half-width; NOT_FOUND when the goal cannot be
  // resolved.
  absl::StatusOr<GroupPlan> PathGroup(
      std::span<const GroupMember> members, Cell goal, const GroupFormation* formation = nullptr,
      const std::function<bool(const DeferredSearch&)>& waiting = nullptr, double radius = 0,
      double formation_half_width = 0);
  // Runs a deferred search now and caches its answer (FallbackQueue calls this); the cells it
  // expanded (0 when the cache held it). Cells off the map or closed: nothing.
  std::uint64_t ServeFallback(Cell start, Cell goal, Passability passability, BodyClass body = {});

  LiveCounters Counters() const;
  std::uint64_t revision() const;
  const LiveWorldOptions& options() const { return options_; }
  std::size_t footprint_count() const;
  // Bytes the world holds: layers, grid, regions, the path cache and kept routes (estimated;
  // the threads' search buffers are not the world's).
  std::size_t MemoryBytes() const;
  std::int32_t width() const { return width_; }
  std::int32_t height() const { return height_; }
  double cell_size() const { return cell_size_; }
  // Where the world lies in world units: cell size and origin.
  const WorldFrame& frame() const { return frame_; }
  // The cell holding a world point (may be off the map), and a cell's centre in world units.
  Cell CellAt(WorldPoint p) const { return frame_.CellHolding(p); }
  WorldPoint CellCenter(Cell c) const { return frame_.Centre(c); }
  // The composed value of a cell. Errors: INVALID_ARGUMENT off the map.
  absl::StatusOr<CellValue> At(Cell c) const;
  // Everything about one cell, for a cursor (cursor.h): composed value, terrain, forest and road,
  // crossing, resource, footprint and gate, who may stand there, the revision. Errors:
  // INVALID_ARGUMENT off the map.
  absl::StatusOr<CellReport> Describe(Cell c) const;
  // Where a worker at `unit` stands to work the resource or building on `target` (cursor.h): the
  // work cell beside it nearest the unit, by path cost when the unit can reach one, else by
  // distance; `fits` (empty: every standable cell) is the hook for a body radius, called under
  // the shared lock (it must not call back into this world). Errors: INVALID_ARGUMENT for a cell
  // off the map; FAILED_PRECONDITION when `target` holds no resource or building (naming what it
  // holds); NOT_FOUND when no standable cell that fits is beside it. With `radius` (cells, as
  // PathRequest's) a work cell must also fit a body of that radius, and paths are searched with
  // it; a bad radius is INVALID_ARGUMENT naming `radius`.
  absl::StatusOr<WorkCellAnswer> WorkCell(Cell target, Cell unit, Passability passability,
                                          const std::function<bool(Cell)>& fits = nullptr,
                                          double radius = 0);
  // The grid drawn one character per cell (CellValueGlyph), rows ending in '\n'.
  std::string Draw() const;
  // Runs `f` with the grid and layers under the shared lock (tests, tools, benchmarks).
  void Inspect(const std::function<void(const LiveGrid&, const Layers&)>& f) const;

 private:
  LiveWorld(Layers layers, const LiveWorldOptions& options);
  absl::Status CheckCell(Cell c, const char* field) const;
  // The cached answer for (start, goal) at the current revision, searching on a miss. Both cells
  // standable. Call under the shared lock.
  std::shared_ptr<const CachedPath> CachedSearch(Cell start, Cell goal, Passability p,
                                                 BodyClass body, bool* from_cache,
                                                 std::uint64_t* cells_expanded = nullptr);
  // FindPath's parts, under the shared lock: the goal resolved (false: kGoalBlocked set), the
  // kept route, the direct line, the path out of a shut gate, and remembering the unit's route.
  bool ResolveGoal(const PathRequest& request, LivePath* out);
  bool TryKeptRoute(const PathRequest& request, LivePath* out);
  bool TryDirectLine(const PathRequest& request, LivePath* out);
  void StepOutPath(const PathRequest& request, LivePath* out);
  void RememberRoute(const PathRequest& request, const LivePath& path);
  // FindPath under the shared lock, without recovery or points.
  LivePath AnswerPath(const PathRequest& request);
  // The path from a recovered start (recovery.h) into `out`; leaves `out` as it is when nothing
  // standable is near.
  void RecoverPath(const PathRequest& request, LivePath* out);
  // The points of `plan`'s members' waypoints and of its corridor.
  void AddGroupPoints(GroupPlan* plan) const;
  absl::Status CheckFormation(const GroupFormation& formation) const;
  void AddRebuild(const RebuildStats& stats);

  const LiveWorldOptions options_;
  const std::int32_t width_;
  const std::int32_t height_;
  const double cell_size_;
  const WorldFrame frame_;

  mutable std::shared_mutex mutex_;  // guards layers_ and grid_
  Layers layers_;
  LiveGrid grid_;
  PathCache cache_;              // internally synchronized
  UnitRoutes unit_routes_;       // internally synchronized
  const CrossingMap crossings_;  // from layers_' terrain, fixed at creation

  struct AtomicCounters {
    std::atomic<std::uint64_t> paths{0}, region_answers{0}, searches{0}, cells_expanded{0},
        heap_operations{0}, updates{0}, full_rebuilds{0}, dirty_cells_rebuilt{0},
        region_cells_visited{0}, nearest_searches{0}, ring_cells_scanned{0}, group_routes{0},
        group_shared_members{0}, group_individual_members{0}, group_deferred_members{0},
        fallbacks_served{0}, direct_lines{0}, kept_routes{0}, step_outs{0}, formations{0},
        slots_collapsed{0}, recovered_starts{0};
  };
  mutable AtomicCounters counters_;
};

}  // namespace walk::nav::live
