#include "nav/search/reach_check.h"

#include <vector>

#include "absl/container/flat_hash_set.h"

namespace walk::nav {
namespace {

// One end's set: what it has taken in and what is still to be grown from.
struct Side {
  absl::flat_hash_set<SurfaceId> seen;
  std::vector<SurfaceId> open;
};

}  // namespace

bool ForEachStepFrom(const Continent& c, const Metric& metric, SurfaceId v, std::uint16_t exempt_a,
                     std::uint16_t exempt_b, absl::FunctionRef<bool(SurfaceId)> visit) {
  const LinkSet& links = c.links[v];
  for (int d = 0; d < kDirectionCount; ++d) {
    const Link link = links[d];
    if (!HasLink(link)) continue;
    if (IsDiagonal(d) && (!HasLink(links[d - 1]) || !HasLink(links[(d + 1) & 7]))) continue;
    const SurfaceId w = c.LinkTarget(v, d);
    const double step = metric.StepSeconds(c, w, LinkKindOf(link), IsDiagonal(d) ? kSqrt2 : 1.0,
                                           exempt_a, exempt_b);
    if (step < kInfCost && visit(w)) return true;
  }
  if (c.marks[v] & kMarkLift) {
    const LiftRide *ride, *end;
    c.LiftsFrom(v, &ride, &end);
    for (; ride != end; ++ride) {
      if (metric.LiftSeconds(c, *ride, exempt_a, exempt_b) < kInfCost && visit(ride->to)) {
        return true;
      }
    }
  }
  return false;
}

bool ForEachStepInto(const Continent& c, const Metric& metric, SurfaceId v, std::uint16_t exempt_a,
                     std::uint16_t exempt_b, absl::FunctionRef<bool(SurfaceId)> visit) {
  const std::uint32_t vx = c.column_x[v], vy = c.column_y[v];
  for (int d = 0; d < kDirectionCount; ++d) {
    const std::int64_t ux = static_cast<std::int64_t>(vx) - kDirectionDx[d];
    const std::int64_t uy = static_cast<std::int64_t>(vy) - kDirectionDy[d];
    if (!c.OnMap(ux, uy)) continue;
    SurfaceId first, end;
    c.ColumnSurfaces(static_cast<std::uint32_t>(ux), static_cast<std::uint32_t>(uy), &first, &end);
    for (SurfaceId u = first; u < end; ++u) {
      const LinkSet& links = c.links[u];
      const Link link = links[d];
      if (!HasLink(link) || c.LinkTarget(u, d) != v) continue;
      if (IsDiagonal(d) && (!HasLink(links[d - 1]) || !HasLink(links[(d + 1) & 7]))) continue;
      const double step = metric.StepSeconds(c, v, LinkKindOf(link), IsDiagonal(d) ? kSqrt2 : 1.0,
                                             exempt_a, exempt_b);
      if (step < kInfCost && visit(u)) return true;
    }
  }
  // Lift rides arriving at v, from landings anywhere on the continent.
  if (c.marks[v] & kMarkLift) {
    const std::uint32_t *ride, *rides_end;
    c.LiftsInto(v, &ride, &rides_end);
    for (; ride != rides_end; ++ride) {
      const LiftRide& r = c.lifts[*ride];
      if (metric.LiftSeconds(c, r, exempt_a, exempt_b) < kInfCost && visit(r.from)) return true;
    }
  }
  return false;
}

ReachResult CheckReach(const Continent& c, const Metric& metric, SurfaceId from, SurfaceId to,
                       std::uint64_t budget) {
  ReachResult result;
  if (from == to) {
    result.reach = Reach::kYes;
    return result;
  }
  const std::uint16_t exempt_a = c.zone[from], exempt_b = c.zone[to];
  Side forward, backward;
  forward.seen.insert(from);
  forward.open.push_back(from);
  backward.seen.insert(to);
  backward.open.push_back(to);
  result.visited = 2;

  // Takes `w` into `side`; true when the other side has it already (the sets meet).
  auto take = [&](Side& side, const Side& other, SurfaceId w) {
    if (!side.seen.insert(w).second) return false;
    ++result.visited;
    side.open.push_back(w);
    return other.seen.contains(w);
  };
  for (;;) {
    if (forward.open.empty() || backward.open.empty()) {
      result.reach = Reach::kNo;
      return result;
    }
    const bool forward_turn = forward.seen.size() <= backward.seen.size();
    Side& side = forward_turn ? forward : backward;
    if (side.seen.size() > budget) return result;  // the smaller side too: both outgrew it
    const SurfaceId v = side.open.back();
    side.open.pop_back();
    const bool met = forward_turn
                         ? ForEachStepFrom(c, metric, v, exempt_a, exempt_b,
                                           [&](SurfaceId w) { return take(forward, backward, w); })
                         : ForEachStepInto(c, metric, v, exempt_a, exempt_b,
                                           [&](SurfaceId u) { return take(backward, forward, u); });
    if (met) {
      result.reach = Reach::kYes;
      return result;
    }
  }
}

}  // namespace walk::nav
