#include "nav/query/path_description.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "nav/search/straight_line.h"

namespace walk::nav {
namespace {

PathPoint PointOf(const Continent& c, const WorldFrame& frame, SurfaceId s) {
  return {frame.CentreX(c.column_x[s]), frame.CentreY(c.column_y[s]),
          static_cast<double>(c.height_yards[s])};
}

// The kind a step's seconds are counted under.
const char* KindOf(const Continent& c, const PathStep& step, LinkKind link) {
  if (step.via == PathStep::kViaLift) return "lift";
  switch (link) {
    case LinkKind::kSwim:
      return "swim";
    case LinkKind::kSteep:
      return "steep";
    case LinkKind::kClimb:
      return "climb";
    case LinkKind::kJump:
      return "jump";
    case LinkKind::kFall:
      return "fall";
    case LinkKind::kLift:
      return "lift";
    case LinkKind::kIndoor:
      return "indoor";
    case LinkKind::kWalk:
      break;
  }
  return (c.marks[step.surface] & kMarkRoad) ? "road" : "walk";
}

}  // namespace

PathDetail DescribePath(const Continent& c, const WorldFrame& frame, const Metric& metric,
                        const std::vector<PathStep>& steps) {
  PathDetail detail;
  detail.steps = steps.empty() ? 0 : steps.size() - 1;
  if (steps.empty()) return detail;
  const std::uint16_t exempt_a = c.zone[steps.front().surface];
  const std::uint16_t exempt_b = c.zone[steps.back().surface];

  std::map<std::string, double> seconds;
  for (std::size_t i = 1; i < steps.size(); ++i) {
    const SurfaceId from = steps[i - 1].surface, to = steps[i].surface;
    if (steps[i].via == PathStep::kViaLift) {
      const LiftRide* ride = c.FindRide(from, to);
      seconds["lift"] +=
          ride != nullptr ? metric.LiftSeconds(c, *ride, exempt_a, exempt_b) : kInfCost;
      continue;
    }
    const LinkKind link = LinkKindOf(c.links[from][steps[i].via]);
    const double columns = IsDiagonal(steps[i].via) ? kSqrt2 : 1.0;
    seconds[KindOf(c, steps[i], link)] +=
        metric.StepSeconds(c, to, link, columns, exempt_a, exempt_b);
    if (link == LinkKind::kFall) {
      detail.falls.push_back({PointOf(c, frame, from), c.height_yards[from] - c.height_yards[to]});
    }
  }
  for (const auto& [kind, value] : seconds) detail.seconds_by_kind.emplace_back(kind, value);

  // Pull taut: from each kept point, go as far as a walkable segment reaches. A step that is a
  // lift ride or a fall ends a run: its ends are kept.
  auto breaks_run = [&](std::size_t i) {
    if (steps[i].via == PathStep::kViaLift) return true;
    return LinkKindOf(c.links[steps[i - 1].surface][steps[i].via]) == LinkKind::kFall;
  };
  std::size_t anchor = 0;
  detail.points.push_back(PointOf(c, frame, steps[0].surface));
  std::size_t i = 1;
  while (i < steps.size()) {
    if (breaks_run(i)) {
      if (i - 1 != anchor) detail.points.push_back(PointOf(c, frame, steps[i - 1].surface));
      detail.points.push_back(PointOf(c, frame, steps[i].surface));
      anchor = i++;
      continue;
    }
    // Extend while the segment from the anchor to the next step stays walkable.
    std::size_t j = i;
    while (j + 1 < steps.size() && !breaks_run(j + 1) &&
           SegmentWalkable(c, steps[anchor].surface, steps[j + 1].surface)) {
      ++j;
    }
    detail.points.push_back(PointOf(c, frame, steps[j].surface));
    anchor = j;
    i = j + 1;
  }
  return detail;
}

}  // namespace walk::nav
