#include "nav/live/unit_routes.h"

#include <algorithm>
#include <cmath>

#include "nav/live/live_search.h"
#include "nav/live/taut_path.h"

namespace walk::nav::live {

std::vector<std::uint32_t> WaypointIndices(const std::vector<Cell>& cells,
                                           const std::vector<Cell>& waypoints) {
  std::vector<std::uint32_t> at;
  at.reserve(waypoints.size());
  std::uint32_t k = 0;
  for (const Cell& w : waypoints) {
    while (k < cells.size() && !(cells[k] == w)) ++k;
    if (k == cells.size()) break;
    at.push_back(k);
  }
  return at;
}

std::optional<UnitRoute> KeepRoute(const LiveGrid& grid, const UnitRoute& old, Cell start,
                                   Cell goal, Passability passability, double keep_goal_shift,
                                   BodyClass body) {
  if (old.passability != passability || !(old.body == body) || old.cells.size() < 2) {
    return std::nullopt;
  }
  const double shift = std::hypot(goal.x - old.goal.x, goal.y - old.goal.y);
  if (!(shift < keep_goal_shift) || !grid.Fits(goal, passability, body.need)) return std::nullopt;
  const auto here = std::find(old.cells.begin(), old.cells.end(), start);
  if (here == old.cells.end()) return std::nullopt;
  const std::uint32_t from = static_cast<std::uint32_t>(here - old.cells.begin());

  UnitRoute kept;
  kept.passability = passability;
  kept.body = body;
  kept.goal = goal;
  kept.cells.assign(here, old.cells.end());
  // Slide the end: cut back where the goal now lies on the route, else step on to it.
  const auto on_route = std::find(kept.cells.begin(), kept.cells.end(), goal);
  const bool cut = on_route != kept.cells.end();
  if (cut) {
    kept.cells.erase(on_route + 1, kept.cells.end());
  } else {
    kept.cells.push_back(goal);
  }
  kept.cost = PriceCells(grid, kept.cells, passability, body);
  if (kept.cost == kNoCost) return std::nullopt;

  const std::uint32_t last = static_cast<std::uint32_t>(kept.cells.size() - 1);
  kept.waypoint_at.push_back(0);
  if (last == 0) return kept;  // the unit stands on its goal
  for (std::uint32_t w : old.waypoint_at) {
    if (w > from && w - from < last) kept.waypoint_at.push_back(w - from);
  }
  // The final waypoint slides onto the goal when the line to it stays clear; else the goal
  // follows it.
  if (!cut && kept.waypoint_at.size() > 1 && kept.waypoint_at.back() == last - 1) {
    const Cell before = kept.cells[kept.waypoint_at[kept.waypoint_at.size() - 2]];
    if (SegmentClear(grid, before, goal, passability, /*reject_portals=*/true, nullptr,
                     body.need) &&
        !grid.Portal(grid.Index(kept.cells[last - 1]))) {
      kept.waypoint_at.pop_back();
    }
  }
  kept.waypoint_at.push_back(last);
  return kept;
}

namespace {

std::size_t BytesOf(const std::shared_ptr<const UnitRoute>& r) {
  if (r == nullptr) return 0;
  return sizeof(UnitRoute) + r->cells.capacity() * sizeof(Cell) +
         r->waypoint_at.capacity() * sizeof(std::uint32_t);
}

}  // namespace

UnitRoutes::UnitRoutes(std::size_t capacity) : capacity_(capacity) {}

std::shared_ptr<const UnitRoute> UnitRoutes::Get(std::uint64_t unit) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = index_.find(unit);
  if (it == index_.end()) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->second;
}

void UnitRoutes::Put(std::uint64_t unit, std::shared_ptr<const UnitRoute> route) {
  if (capacity_ == 0) return;
  std::shared_ptr<const UnitRoute> dropped;  // released after the lock
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = index_.find(unit);
  if (it != index_.end()) {
    dropped = std::move(it->second->second);
    value_bytes_ += BytesOf(route) - BytesOf(dropped);
    it->second->second = std::move(route);
    lru_.splice(lru_.begin(), lru_, it->second);
    return;
  }
  if (index_.size() >= capacity_) {
    dropped = std::move(lru_.back().second);
    value_bytes_ -= BytesOf(dropped);
    index_.erase(lru_.back().first);
    lru_.pop_back();
  }
  value_bytes_ += BytesOf(route);
  lru_.emplace_front(unit, std::move(route));
  index_.emplace(unit, lru_.begin());
}

std::size_t UnitRoutes::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return index_.size();
}

std::size_t UnitRoutes::MemoryBytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  constexpr std::size_t kPerEntry =
      2 * sizeof(void*) + sizeof(Entry) + 3 * sizeof(void*) + sizeof(std::uint64_t);
  return value_bytes_ + index_.size() * kPerEntry + index_.bucket_count() * sizeof(void*);
}

}  // namespace walk::nav::live
