// Group paths: many units, one goal, one shared corridor where sharing is safe.
//
// The corridor is searched once, from the anchor (the member nearest the group's centroid) to the
// goal, for the heaviest member's passability: a corridor must be walkable by everyone who follows
// it. A member shares it when
//   - its start lies within `local_radius` cells (Chebyshev) of the anchor's start,
//   - its start is standable for the corridor's passability and in the goal's region for it, and
//   - a clear straight leg (the corner-safe segment test, crossing no portal) joins its start to
//     a corridor cell within `local_radius` cells (Chebyshev) of it; it joins at the furthest such
//     cell among the corridor's first 2 · local_radius + 1 cells.
// A shared member's path is its leg followed by the corridor from the joining cell: a valid path,
// not necessarily that member's own cheapest one. When members have targets of their own
// (formation slots, formation.h) the corridor still ends at the goal, the formation's centre, and
// each shared member's target is appended at its exit along the slot's clear straight line.
//
// Every other member falls back to a search of its own, with its own passability (a light unit
// that falls back still gets Light), to its own target. Fallbacks are the expensive part, so one
// plan runs at most `max_fallback_searches` of them, and starts none once they have expanded
// `max_fallback_cells` cells (a count bounds how many, the cells what they cost: one detour round
// a river can expand as much as a hundred short searches); a fallback the path cache already
// answers costs nothing and is not counted. The members beyond the bound are deferred: their
// searches are handed to the caller (GroupPlan::deferred_requests) to run later, and a later plan
// finds them cached.
//
// Wide bodies: a plan may carry a BodyClass (clearance.h). Its radius is every hard test's (a
// start, the goal or a target the body does not fit on, the legs and the slot lines at that
// radius); the corridor and the fallbacks are searched with the radius and the formation
// half-width (the caller's GroupPathFn applies them); shared paths are priced with both.
//
// PlanGroup reads the grid only: call it under the world's shared lock.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "nav/live/cell.h"
#include "nav/live/clearance.h"
#include "nav/live/live_grid.h"
#include "nav/live/path_cache.h"

namespace walk::nav::live {

struct GroupMember {
  Cell start;
  Passability passability = Passability::kLight;
};

// How a member was routed.
enum class GroupRoute : std::uint8_t {
  kShared,        // leg + the shared corridor
  kIndividual,    // its own search (sharing was unsafe for it)
  kUnreachable,   // no path: its start and the goal lie in different regions
  kStartBlocked,  // its start is not standable for its passability
  kDeferred,      // its own search was over the plan's bound: ask again later
};
const char* GroupRouteName(GroupRoute route);

struct MemberPath {
  GroupRoute route = GroupRoute::kUnreachable;
  Cell target;                  // where it was sent: the goal, or its formation slot
  std::uint32_t cost = 0;       // of `cells`, priced for the passability it was routed with
  std::vector<Cell> cells;      // start .. goal, each an 8-neighbour of the one before
  std::vector<Cell> waypoints;  // `cells` pulled taut
  // One point per waypoint, in cell units: where the unit walks (crossing_points.h; LiveWorld
  // fills them).
  std::vector<CellPoint> points;
};

// A search the plan did not run (a deferred member's).
struct DeferredSearch {
  Cell start;
  Cell goal;
  Passability passability = Passability::kLight;
  BodyClass body = {};  // the radius and half-width classes it searches with
};

struct GroupPlan {
  Cell goal;  // the goal (the formation's centre): the corridor ends here
  Passability corridor_passability = Passability::kLight;
  std::vector<Cell> corridor;              // anchor .. goal; empty when nobody shares
  std::vector<CellPoint> corridor_points;  // one per corridor cell (crossing_points.h)
  std::vector<MemberPath> members;         // in the order of the request
  std::uint32_t shared = 0;
  std::uint32_t individual = 0;
  std::uint32_t deferred = 0;
  std::uint32_t fallback_searches = 0;  // searches run for individual members
  std::uint64_t fallback_cells = 0;     // cells those searches expanded
  std::uint64_t revision = 0;           // the grid's, set by LiveWorld
  std::vector<DeferredSearch> deferred_requests;
};

struct GroupOptions {
  // Cells: how far a member may start from the anchor, and from where it joins the corridor.
  std::int32_t local_radius = 8;
  // Searches one plan may run for members that cannot share.
  std::uint32_t max_fallback_searches = 32;
  // Cells the plan's fallback searches may expand before it defers the rest.
  std::uint64_t max_fallback_cells = 50'000;
};

// What a search with caching answered: the path (null when it was not cached and searching was
// not allowed) and whether a search ran.
struct GroupSearch {
  std::shared_ptr<const CachedPath> path;
  bool searched = false;
  std::uint64_t cells_expanded = 0;  // by the search, when one ran
};

// A search with caching, supplied by the caller: the answer for (start, goal, passability), both
// cells standable; with `may_search` false only a cached answer.
using GroupPathFn = std::function<GroupSearch(Cell start, Cell goal, Passability, bool may_search)>;

// Plans paths for `members` to `goal` (standable for the corridor passability: resolve it first).
// `targets` is empty (everyone to `goal`) or holds one cell per member, each `goal` or a cell a
// clear straight line from `goal` joins (PlanFormationAt's slots).
void PlanGroup(const LiveGrid& grid, std::span<const GroupMember> members, Cell goal,
               std::span<const Cell> targets, const GroupOptions& options,
               const GroupPathFn& find_path, GroupPlan* plan, BodyClass body = {});

}  // namespace walk::nav::live
