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
// Every other member falls back to a search of its own, with its own passability (a light unit
// that falls back still gets Light). A shared member's path is its leg followed by the corridor
// from the joining cell: a valid path, not necessarily that member's own cheapest one.
//
// PlanGroup reads the grid only: call it under the world's shared lock.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "nav/live/cell.h"
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
};
const char* GroupRouteName(GroupRoute route);

struct MemberPath {
  GroupRoute route = GroupRoute::kUnreachable;
  std::uint32_t cost = 0;       // of `cells`, priced for the passability it was routed with
  std::vector<Cell> cells;      // start .. goal, each an 8-neighbour of the one before
  std::vector<Cell> waypoints;  // `cells` pulled taut
};

struct GroupPlan {
  Cell goal;  // the goal every found path ends at
  Passability corridor_passability = Passability::kLight;
  std::vector<Cell> corridor;       // anchor .. goal; empty when nobody shares
  std::vector<MemberPath> members;  // in the order of the request
  std::uint32_t shared = 0;
  std::uint32_t individual = 0;
};

struct GroupOptions {
  // Cells: how far a member may start from the anchor, and from where it joins the corridor.
  std::int32_t local_radius = 8;
};

// A search with caching, supplied by the caller: the answer for (start, goal, passability), both
// cells standable; never null.
using GroupPathFn =
    std::function<std::shared_ptr<const CachedPath>(Cell start, Cell goal, Passability)>;

// Plans paths for `members` to `goal` (standable for the corridor passability: resolve it first).
void PlanGroup(const LiveGrid& grid, std::span<const GroupMember> members, Cell goal,
               const GroupOptions& options, const GroupPathFn& find_path, GroupPlan* plan);

}  // namespace walk::nav::live
