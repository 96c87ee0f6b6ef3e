#include "nav/live/group_path.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "nav/live/live_search.h"
#include "nav/live/taut_path.h"

namespace walk::nav::live {

const char* GroupRouteName(GroupRoute route) {
  switch (route) {
    case GroupRoute::kShared:
      return "shared";
    case GroupRoute::kIndividual:
      return "individual";
    case GroupRoute::kUnreachable:
      return "unreachable";
    case GroupRoute::kStartBlocked:
      return "start_blocked";
    case GroupRoute::kDeferred:
      return "deferred";
  }
  return "unknown";
}

namespace {

// The anchor: the member that may share nearest the centroid of all starts (ties: first);
// members.size() when none may.
template <typename MayShare>
std::size_t PickAnchor(std::span<const GroupMember> members, MayShare&& may_share) {
  double cx = 0.0, cy = 0.0;
  for (const GroupMember& m : members) {
    cx += m.start.x;
    cy += m.start.y;
  }
  if (!members.empty()) {
    cx /= static_cast<double>(members.size());
    cy /= static_cast<double>(members.size());
  }
  std::size_t anchor = members.size();
  double anchor_distance = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < members.size(); ++k) {
    if (!may_share(members[k])) continue;
    const double dx = members[k].start.x - cx, dy = members[k].start.y - cy;
    if (dx * dx + dy * dy < anchor_distance) {
      anchor_distance = dx * dx + dy * dy;
      anchor = k;
    }
  }
  return anchor;
}

// Routes `m` along the corridor when a clear straight leg joins it (see the header), then on to
// `target` along the clear line from the corridor's end. False when no leg joins.
bool JoinCorridor(const LiveGrid& grid, const GroupMember& m, Cell target,
                  const std::vector<Cell>& corridor, Passability corridor_pass, std::int32_t radius,
                  BodyClass body, MemberPath* out) {
  std::vector<Cell> leg, tail;
  if (!(target == corridor.back()) && !SegmentClear(grid, corridor.back(), target, corridor_pass,
                                                    /*reject_portals=*/true, &tail, body.need)) {
    return false;
  }
  const std::size_t limit = std::min(corridor.size() - 1, static_cast<std::size_t>(2 * radius));
  for (std::size_t j = limit + 1; j-- > 0;) {
    const Cell c = corridor[j];
    if (std::max(std::abs(c.x - m.start.x), std::abs(c.y - m.start.y)) > radius) continue;
    if (!SegmentClear(grid, m.start, c, corridor_pass, /*reject_portals=*/true, &leg, body.need)) {
      continue;
    }
    out->cells = leg;
    out->cells.insert(out->cells.end(), corridor.begin() + static_cast<std::ptrdiff_t>(j) + 1,
                      corridor.end());
    if (tail.size() > 1) out->cells.insert(out->cells.end(), tail.begin() + 1, tail.end());
    out->cost = PriceCells(grid, out->cells, corridor_pass, body);
    out->waypoints = PullTaut(grid, out->cells, corridor_pass, body.need);
    out->route = GroupRoute::kShared;
    return true;
  }
  return false;
}

}  // namespace

void PlanGroup(const LiveGrid& grid, std::span<const GroupMember> members, Cell goal,
               std::span<const Cell> targets, const GroupOptions& options,
               const GroupPathFn& find_path, GroupPlan* plan, BodyClass body) {
  *plan = GroupPlan{};
  plan->goal = goal;
  plan->members.resize(members.size());
  const bool any_heavy = std::any_of(members.begin(), members.end(), [](const GroupMember& m) {
    return m.passability == Passability::kHeavy;
  });
  const Passability corridor_pass = any_heavy ? Passability::kHeavy : Passability::kLight;
  plan->corridor_passability = corridor_pass;
  const bool goal_open = grid.Fits(goal, corridor_pass, body.need);
  auto may_share = [&](const GroupMember& m) {
    return goal_open && grid.Fits(m.start, corridor_pass, body.need) &&
           grid.Reachable(m.start, goal, corridor_pass);
  };
  const std::size_t anchor = PickAnchor(members, may_share);
  if (anchor < members.size()) {
    GroupSearch corridor = find_path(members[anchor].start, goal, corridor_pass, true);
    if (corridor.path->found) plan->corridor = corridor.path->cells;
  }

  const std::vector<Cell>& corridor = plan->corridor;
  const std::int32_t radius = std::max(options.local_radius, 0);
  for (std::size_t k = 0; k < members.size(); ++k) {
    const GroupMember& m = members[k];
    MemberPath& out = plan->members[k];
    out.target = targets.empty() ? goal : targets[k];
    if (!grid.Fits(m.start, m.passability, body.need)) {
      out.route = GroupRoute::kStartBlocked;
      continue;
    }
    const Cell anchor_start = anchor < members.size() ? members[anchor].start : m.start;
    const bool local = std::max(std::abs(m.start.x - anchor_start.x),
                                std::abs(m.start.y - anchor_start.y)) <= radius;
    if (!corridor.empty() && local && may_share(m) &&
        JoinCorridor(grid, m, out.target, corridor, corridor_pass, radius, body, &out)) {
      ++plan->shared;
      continue;
    }
    if (!grid.Fits(out.target, m.passability, body.need) ||
        !grid.Reachable(m.start, out.target, m.passability)) {
      out.route = GroupRoute::kUnreachable;
      continue;
    }
    const bool may_search = plan->fallback_searches < options.max_fallback_searches &&
                            plan->fallback_cells < options.max_fallback_cells;
    GroupSearch own = find_path(m.start, out.target, m.passability, may_search);
    plan->fallback_searches += own.searched ? 1 : 0;
    plan->fallback_cells += own.cells_expanded;
    if (own.path == nullptr) {
      out.route = GroupRoute::kDeferred;
      plan->deferred_requests.push_back(DeferredSearch{m.start, out.target, m.passability, body});
      ++plan->deferred;
      continue;
    }
    if (!own.path->found) {
      out.route = GroupRoute::kUnreachable;
      continue;
    }
    out.route = GroupRoute::kIndividual;
    out.cost = own.path->cost;
    out.cells = own.path->cells;
    out.waypoints = own.path->waypoints;
    ++plan->individual;
  }
}

}  // namespace walk::nav::live
