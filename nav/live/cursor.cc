#include "nav/live/cursor.h"

#include <algorithm>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "nav/live/live_search.h"
#include "nav/live/nearest.h"

namespace walk::nav::live {
namespace {

// The footprint that speaks for cell `c`: a shut gate's, else the lowest-id building; null when
// none covers it. `count` receives how many do.
const Footprint* FootprintOn(const Layers& layers, Cell c, std::uint32_t* count) {
  std::vector<const Footprint*> on;
  layers.FootprintsOverlapping(CellRect{c.x, c.y, c.x + 1, c.y + 1}, &on);
  *count = static_cast<std::uint32_t>(on.size());
  const Footprint* chosen = nullptr;
  for (const Footprint* fp : on) {  // in id order
    if (fp->value == CellValue::kGate) return fp;
    if (chosen == nullptr) chosen = fp;
  }
  return chosen;
}

void DescribeDoorways(const Layers& layers, Cell c, CellReport* out) {
  if (out->blocker == BlockerKind::kGate) {
    const Doorway* door = layers.FindGate(out->footprint_id);
    out->gate = out->footprint_id;
    out->gate_owner = door != nullptr ? door->owner : 0;
    out->gate_open = false;
  }
  std::vector<const Doorway*> doors;
  layers.OpenDoorwaysOverlapping(CellRect{c.x, c.y, c.x + 1, c.y + 1}, &doors);
  for (const Doorway* door : doors) {
    if (door->gate == 0) {
      out->gap = true;
    } else if (out->gate == 0) {
      out->gate = door->gate;
      out->gate_owner = door->owner;
      out->gate_open = true;
    }
  }
}

}  // namespace

const char* BlockerKindName(BlockerKind kind) {
  switch (kind) {
    case BlockerKind::kNone:
      return "none";
    case BlockerKind::kBuilding:
      return "building";
    case BlockerKind::kGate:
      return "gate";
  }
  return "unknown";
}

CellReport DescribeCell(const LiveGrid& grid, const Layers& layers, Cell c) {
  const CellIndex i = layers.Index(c);
  CellReport out;
  out.cell = c;
  out.value = grid.value(i);
  out.terrain = layers.TerrainAt(i);
  out.forest = layers.ForestAt(i);
  out.road = layers.RoadAt(i);
  if (layers.CrossingAt(i)) {
    out.crossing = layers.BridgeAt(i) ? CrossingKind::kBridge : CrossingKind::kHillEntrance;
  }
  out.resource = layers.ResourceAt(i);
  if (const Footprint* fp = FootprintOn(layers, c, &out.footprints); fp != nullptr) {
    out.blocker = fp->value == CellValue::kGate ? BlockerKind::kGate : BlockerKind::kBuilding;
    out.footprint_id = fp->id;
  }
  DescribeDoorways(layers, c, &out);
  out.light_standable = grid.Open(i, Passability::kLight);
  out.heavy_standable = grid.Open(i, Passability::kHeavy);
  out.revision = grid.revision();
  return out;
}

absl::StatusOr<WorkTarget> WorkTargetAt(const LiveGrid& grid, const Layers& layers, Cell target) {
  std::uint32_t count = 0;
  if (const Footprint* fp = FootprintOn(layers, target, &count); fp != nullptr) {
    return WorkTarget{fp->value, fp->id, fp->cells};
  }
  const CellValue value = grid.value(target);
  if (IsResource(value)) {
    return WorkTarget{value, 0, CellRect{target.x, target.y, target.x + 1, target.y + 1}};
  }
  return absl::FailedPreconditionError(absl::StrCat("target: cell (", target.x, ", ", target.y,
                                                    ") holds ", CellValueName(value),
                                                    ", no resource or building"));
}

std::vector<Cell> WorkCandidates(const LiveGrid& grid, const WorkTarget& target,
                                 Passability passability, const std::function<bool(Cell)>& fits) {
  std::vector<Cell> out;
  const CellRect ring = Expand(target.cells, 1);
  for (std::int32_t y = ring.y0; y < ring.y1; ++y) {
    for (std::int32_t x = ring.x0; x < ring.x1; ++x) {
      const Cell c{x, y};
      if (target.cells.Contains(c) || !grid.Open(c, passability)) continue;
      if (fits && !fits(c)) continue;
      out.push_back(c);
    }
  }
  return out;
}

WorkCellAnswer ChooseWorkCell(std::span<const Cell> candidates, Cell unit,
                              const std::function<bool(Cell)>& reachable,
                              const std::function<std::uint32_t(Cell)>& path_cost,
                              std::uint32_t max_searches) {
  std::vector<Cell> near;
  for (const Cell c : candidates) {
    if (reachable(c)) near.push_back(c);
  }
  std::stable_sort(near.begin(), near.end(),
                   [&](Cell a, Cell b) { return OctileCost(unit, a) < OctileCost(unit, b); });
  WorkCellAnswer out;
  std::uint32_t best = kNoCost, searches = 0;
  for (const Cell c : near) {
    if (OctileCost(unit, c) >= best || searches++ == max_searches) break;
    const std::uint32_t cost = path_cost(c);
    if (cost < best) best = cost, out.cell = c;
  }
  if (best != kNoCost) {
    out.reachable = true;
    out.cost = best;
    return out;
  }
  std::int64_t nearest = std::numeric_limits<std::int64_t>::max();
  for (const Cell c : candidates) {
    if (SquaredDistance(c, unit) < nearest) nearest = SquaredDistance(c, unit), out.cell = c;
  }
  return out;
}

}  // namespace walk::nav::live
