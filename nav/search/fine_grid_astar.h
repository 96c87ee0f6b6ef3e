// The exact walker: A* over the surface links of the fine grid.
//
// Steps are priced by a Metric (nav/cost/metric.h). Octile heuristic scaled by the metric's
// cheapest seconds per column (admissible and consistent, so no surface is expanded twice; lifts
// stay in their column, so they keep it so). A diagonal link is taken only when both orthogonal
// links of the same surface exist: a walk never cuts a blocked corner.
//
// A FineGridAStar owns its search buffers: they are sized once to the largest continent it has
// searched and generation-stamped, so nothing is cleared or allocated per search. They are
// LazyBuffers: resident memory follows the surfaces searches touch, and once the searches since
// the last release have stamped more than kResidentBudgetBytes' worth, the buffers are handed
// back before the next search (a walk on a 66-million-surface continent keeps a few hundred MB,
// not 3 GB), as they are when walkd's memory governor recalls them (buffer_recall.h). One
// FineGridAStar per thread; a FineGridAStar is not thread-safe, the Continent it reads is shared.
#pragma once

#include <cstdint>
#include <vector>

#include "nav/cost/metric.h"
#include "nav/grid/grid.h"
#include "nav/grid/path_step.h"
#include "nav/search/buffer_recall.h"
#include "nav/search/lazy_buffer.h"
#include "nav/search/search_stats.h"
#include "nav/search/search_stop.h"

namespace walk::nav {

struct SearchResult {
  bool found = false;
  double seconds = kInfCost;  // the walk's cost
  double yards = 0.0;         // its length along the searched path (before smoothing)
  SearchStats stats;
  bool gave_up = false;  // stopped at `max_expanded` before finding the walk or running out
  absl::Status stopped;  // not OK: `stop` stopped it (SearchStop::Check), nothing found
};

class FineGridAStar {
 public:
  // What the buffers may keep between searches, as an estimate: every surface stamped since the
  // last release counts kBytesPerStamp (its 21 bytes of state, times a spread for the pages it
  // shares with surfaces the searches never touched).
  static constexpr std::uint64_t kResidentBudgetBytes = std::uint64_t{256} << 20;
  static constexpr std::uint64_t kBytesPerStamp = 128;

  FineGridAStar() = default;
  FineGridAStar(const FineGridAStar&) = delete;
  FineGridAStar& operator=(const FineGridAStar&) = delete;

  // The cheapest walk from surface `from` to surface `to` of `continent`, whose columns are
  // `column_yards` wide, priced by `metric` (the zones of `from` and `to` exempt from danger).
  // When `path` is non-null and a walk is found it receives the steps from `from` to `to`.
  // After `max_expanded` surfaces taken off the heap without reaching `to`, it gives up. It
  // polls `stop` (may be null) as it goes, and stops when told to.
  SearchResult FindWalk(const Continent& continent, double column_yards, const Metric& metric,
                        SurfaceId from, SurfaceId to, std::vector<PathStep>* path = nullptr,
                        std::uint64_t max_expanded = UINT64_MAX, const SearchStop* stop = nullptr);

  // Times the buffers were handed back (past the budget, or recalled) before a search.
  std::uint64_t releases() const { return releases_; }

 private:
  // A heap entry carries its keys, so sifting compares without touching per-surface arrays.
  struct HeapEntry {
    double f;  // g + heuristic, seconds
    double g;  // cost from `from`, seconds (ties: the larger g, further along, goes first)
    SurfaceId surface;
  };
  static bool Before(const HeapEntry& a, const HeapEntry& b) {
    return a.f < b.f || (a.f == b.f && a.g > b.g);
  }

  void Prepare(std::uint32_t surface_count);
  // Indexed 4-ary min-heap (decrease-key through heap_pos_).
  void SiftUp(std::uint32_t pos, HeapEntry entry);
  void SiftDown(std::uint32_t pos, HeapEntry entry);
  SurfaceId PopMin();

  std::uint32_t generation_ = 0;
  LazyBuffer<std::uint32_t> stamp_;  // == generation_ when the entries below are valid
  LazyBuffer<double> g_;             // cost from `from`, seconds
  LazyBuffer<SurfaceId> parent_;
  LazyBuffer<std::uint8_t> via_;        // how parent_ reached the surface (PathStep::via)
  LazyBuffer<std::uint32_t> heap_pos_;  // position in heap_, or kClosed
  LazyBuffer<HeapEntry> heap_;          // sized once to the surface count
  std::uint32_t heap_size_ = 0;
  std::uint64_t stamped_since_release_ = 0;  // surfaces stamped since the buffers were handed back
  std::uint64_t recalls_seen_ = 0;           // SearchBufferRecalls() when they were handed back
  std::uint64_t releases_ = 0;
};

}  // namespace walk::nav
