// Kept routes: what each unit was last told, so a chasing unit's small goal shifts do not re-path.
//
// A unit chasing a moving target re-asks its move every few ticks. A fresh route from a slightly
// different start can take the other side of the same tree, and the unit's heading flips each
// time. So a unit's last route is kept when it asks again for a goal that moved less than
// `keep_goal_shift` cells (Euclidean; 1.5 by default, so the goal's own cell or a neighbour) and
// is standable, the unit stands on the route, and what is left of it is still walkable at the
// world's current revision (priced afresh: a blocker placed on it since sends it to a search).
// The route is then cut at the unit's cell and its end slides onto the new goal: cut back when
// the goal moved onto the route, one step added otherwise.
//
// A route is kept only for the body it was answered for (radius and half-width classes): its
// cells are re-checked and re-priced for that body.
//
// UnitRoutes remembers routes by unit id, least recently used first out. KeepRoute reads the grid
// only: call it under the world's shared lock.
//
// Thread safety: UnitRoutes is internally synchronized; routes are shared immutable objects.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "nav/live/cell.h"
#include "nav/live/clearance.h"
#include "nav/live/live_grid.h"

namespace walk::nav::live {

// A unit's route as it was answered.
struct UnitRoute {
  Passability passability = Passability::kLight;
  BodyClass body = {};  // the body it was answered for
  Cell goal;
  std::uint32_t cost = 0;
  std::vector<Cell> cells;                 // start .. goal
  std::vector<std::uint32_t> waypoint_at;  // the waypoints, as indices into `cells`
};

// The route `old` kept for a unit now at `start` asking for `goal` (see above), or nullopt when
// it cannot be kept.
std::optional<UnitRoute> KeepRoute(const LiveGrid& grid, const UnitRoute& old, Cell start,
                                   Cell goal, Passability passability, double keep_goal_shift,
                                   BodyClass body = {});

// `waypoints` (a subsequence of `cells`, in order) as indices into `cells`.
std::vector<std::uint32_t> WaypointIndices(const std::vector<Cell>& cells,
                                           const std::vector<Cell>& waypoints);

class UnitRoutes {
 public:
  // Remembers at most `capacity` units (0: none).
  explicit UnitRoutes(std::size_t capacity);

  std::shared_ptr<const UnitRoute> Get(std::uint64_t unit);
  void Put(std::uint64_t unit, std::shared_ptr<const UnitRoute> route);
  std::size_t size() const;
  // Bytes the kept routes hold, estimated.
  std::size_t MemoryBytes() const;
  std::size_t capacity() const { return capacity_; }

 private:
  using Entry = std::pair<std::uint64_t, std::shared_ptr<const UnitRoute>>;
  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::list<Entry> lru_;  // front: most recently used
  std::unordered_map<std::uint64_t, std::list<Entry>::iterator> index_;
  std::size_t value_bytes_ = 0;  // the routes' bytes
};

}  // namespace walk::nav::live
