#include "nav/search/fine_grid_astar.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "nav/search/four_ary_heap.h"

namespace walk::nav {
namespace {

constexpr std::uint32_t kClosed = kInvalidId - 1;

double StepColumns(int direction) { return IsDiagonal(direction) ? kSqrt2 : 1.0; }

}  // namespace

void FineGridAStar::Prepare(std::uint32_t surface_count) {
  const std::uint64_t recalls = SearchBufferRecalls();
  if (stamp_.size() < surface_count) {
    stamp_.Reset(surface_count);
    g_.Reset(surface_count);
    parent_.Reset(surface_count);
    via_.Reset(surface_count);
    heap_pos_.Reset(surface_count);
    heap_.Reset(surface_count);
    generation_ = 0;
    stamped_since_release_ = 0;
    recalls_seen_ = recalls;  // fresh buffers hold nothing to hand back
  }
  // Past the budget, recalled, or the generation about to wrap: hand every page back (stamps
  // read 0).
  if (stamped_since_release_ * kBytesPerStamp > kResidentBudgetBytes || generation_ == UINT32_MAX ||
      recalls != recalls_seen_) {
    recalls_seen_ = recalls;
    ++releases_;
    stamp_.Release();
    g_.Release();
    parent_.Release();
    via_.Release();
    heap_pos_.Release();
    heap_.Release();
    generation_ = 0;
    stamped_since_release_ = 0;
  }
  ++generation_;
  heap_size_ = 0;
}

void FineGridAStar::SiftUp(std::uint32_t pos, HeapEntry entry) {
  SiftUp4(heap_, pos, entry, Before, [this](std::uint32_t at, HeapEntry e) {
    heap_[at] = e;
    heap_pos_[e.surface] = at;
  });
}

void FineGridAStar::SiftDown(std::uint32_t pos, HeapEntry entry) {
  SiftDown4(heap_, heap_size_, pos, entry, Before, [this](std::uint32_t at, HeapEntry e) {
    heap_[at] = e;
    heap_pos_[e.surface] = at;
  });
}

SurfaceId FineGridAStar::PopMin() {
  const SurfaceId top = heap_[0].surface;
  heap_pos_[top] = kClosed;
  if (--heap_size_ > 0) SiftDown(0, heap_[heap_size_]);
  return top;
}

SearchResult FineGridAStar::FindWalk(const Continent& c, double column_yards, const Metric& metric,
                                     SurfaceId from, SurfaceId to, std::vector<PathStep>* path,
                                     std::uint64_t max_expanded, const SearchStop* stop) {
  assert(from < c.surface_count() && to < c.surface_count());
  SearchResult result;
  Prepare(c.surface_count());
  const double h_scale = metric.min_seconds_per_column();
  const std::uint16_t exempt_a = c.zone[from], exempt_b = c.zone[to];
  const double goal_x = c.column_x[to];
  const double goal_y = c.column_y[to];
  auto heuristic = [&](SurfaceId v) {
    return h_scale *
           OctileColumns(std::abs(c.column_x[v] - goal_x), std::abs(c.column_y[v] - goal_y));
  };
  // Relaxes the step v -> w costing `step` seconds, reached `via`.
  auto relax = [&](SurfaceId v, SurfaceId w, double g_w, std::uint8_t via) {
    if (stamp_[w] != generation_) {
      stamp_[w] = generation_;
      ++stamped_since_release_;
      g_[w] = g_w;
      parent_[w] = v;
      via_[w] = via;
      SiftUp(heap_size_++, HeapEntry{g_w + heuristic(w), g_w, w});
      ++result.stats.heap_operations;
    } else if (heap_pos_[w] != kClosed && g_w < g_[w]) {
      const std::uint32_t pos = heap_pos_[w];
      const double h = heap_[pos].f - heap_[pos].g;
      g_[w] = g_w;
      parent_[w] = v;
      via_[w] = via;
      SiftUp(pos, HeapEntry{g_w + h, g_w, w});
      ++result.stats.heap_operations;
    }
  };

  stamp_[from] = generation_;
  g_[from] = 0.0;
  parent_[from] = kInvalidId;
  via_[from] = PathStep::kViaStart;
  heap_size_ = 1;
  SiftUp(0, HeapEntry{heuristic(from), 0.0, from});
  ++result.stats.heap_operations;

  while (heap_size_ > 0) {
    const SurfaceId v = PopMin();
    ++result.stats.heap_operations;
    ++result.stats.nodes_expanded;
    if (v == to) {
      result.found = true;
      result.seconds = g_[v];
      break;
    }
    if (result.stats.nodes_expanded >= max_expanded) {
      result.gave_up = true;
      break;
    }
    if (stop != nullptr) {
      result.stopped = stop->Poll(result.stats.nodes_expanded);
      if (!result.stopped.ok()) break;
    }
    const LinkSet& links = c.links[v];
    const double g_v = g_[v];
    for (int d = 0; d < kDirectionCount; ++d) {
      const Link link = links[d];
      if (!HasLink(link)) continue;
      if (IsDiagonal(d) && (!HasLink(links[d - 1]) || !HasLink(links[(d + 1) & 7]))) continue;
      const SurfaceId w = c.LinkTarget(v, d);
      const double step =
          metric.StepSeconds(c, w, LinkKindOf(link), StepColumns(d), exempt_a, exempt_b);
      if (!(step < kInfCost)) continue;
      relax(v, w, g_v + step, static_cast<std::uint8_t>(d));
    }
    if (c.marks[v] & kMarkLift) {
      const LiftRide *ride, *rides_end;
      c.LiftsFrom(v, &ride, &rides_end);
      for (; ride != rides_end; ++ride) {
        const double step = metric.LiftSeconds(c, *ride, exempt_a, exempt_b);
        if (step < kInfCost) relax(v, ride->to, g_v + step, PathStep::kViaLift);
      }
    }
  }
  if (!result.found) return result;

  // Yards along the path, summed from the start (the order a path-length check sums in). A lift
  // ride is not walked: no yards.
  std::vector<PathStep> local;
  std::vector<PathStep>& steps = path != nullptr ? *path : local;
  steps.clear();
  for (SurfaceId v = to; v != kInvalidId; v = parent_[v]) steps.push_back({v, via_[v]});
  std::reverse(steps.begin(), steps.end());
  result.yards = WalkedColumns(steps) * column_yards;
  return result;
}

}  // namespace walk::nav
