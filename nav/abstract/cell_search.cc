#include "nav/abstract/cell_search.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace walk::nav {
namespace {

constexpr double kSqrt2 = 1.41421356237309504880;

// Asks for the cache lines of `count` elements from `first` on (for writing when `write`).
template <typename T>
void PrefetchRange(const T* first, std::size_t count, bool write = false) {
  constexpr std::size_t kLine = 64;
  const char* begin = reinterpret_cast<const char*>(first);
  const char* end = begin + count * sizeof(T);
  for (const char* p = begin; p < end; p += kLine) {
    if (write) {
      __builtin_prefetch(p, 1);
    } else {
      __builtin_prefetch(p, 0);
    }
  }
}

}  // namespace

Cell CellOf(const Continent& c, std::uint32_t cell_columns, SurfaceId s) {
  return CellAt(c, cell_columns, c.column_x[s], c.column_y[s]);
}

Cell CellAt(const Continent& c, std::uint32_t cell_columns, std::uint32_t x, std::uint32_t y) {
  Cell cell;
  cell.x0 = x / cell_columns * cell_columns;
  cell.y0 = y / cell_columns * cell_columns;
  cell.x1 = cell.x0 + cell_columns;
  cell.y1 = cell.y0 + cell_columns;
  const Tile* tile = c.TileAt(x, y);
  cell.tile_first = tile->first_surface.front();
  cell.tile_end = tile->first_surface.back();
  return cell;
}

void CellSearch::Run(const Continent& c, const Cell& cell, const Metric& metric, SurfaceId origin,
                     bool backward, std::uint16_t exempt_a, std::uint16_t exempt_b,
                     std::span<const SurfaceId> targets, SurfaceId stop_at, double bound) {
  // Dial's buckets where every step costs at least the cheapest column there is: a plain
  // search (an A*'s keys are not costs, and a bound needs its keys in order) of a cell without
  // lifts (a ride may cost less). A leg on the 32 x 32 world: 4,456 entries pushed, and the
  // radix heap moved them 16,147 times between its buckets.
  const bool guided = !backward && targets.empty() && stop_at != kInvalidId;
  used_buckets_ =
      !guided && !(bound < kInfCost) && metric.min_seconds_per_column() > 0.0 && !HasLifts(c, cell);
  if (used_buckets_) {
    // A hair narrower than the cheapest step, so rounding never puts a step inside its bucket.
    buckets_.Reset(metric.min_seconds_per_column() * (1.0 - 1e-9));
    RunWith(buckets_, c, cell, metric, origin, backward, exempt_a, exempt_b, targets, stop_at,
            bound);
  } else {
    heap_.Clear();
    RunWith(heap_, c, cell, metric, origin, backward, exempt_a, exempt_b, targets, stop_at, bound);
  }
}

bool CellSearch::HasLifts(const Continent& c, const Cell& cell) {
  const Tile& tile = *c.TileAt(cell.x0, cell.y0);
  const std::uint32_t tile_x0 = tile.tile_x * kTileColumns, tile_y0 = tile.tile_y * kTileColumns;
  for (std::uint32_t y = cell.y0; y < cell.y1; ++y) {
    const std::uint32_t row = (y - tile_y0) * kTileColumns;
    const SurfaceId first = tile.first_surface[row + (cell.x0 - tile_x0)];
    const SurfaceId end = tile.first_surface[row + (cell.x1 - 1 - tile_x0) + 1];
    for (SurfaceId s = first; s < end; ++s) {
      if (c.marks[s] & kMarkLift) return true;
    }
  }
  return false;
}

template <typename Queue>
void CellSearch::RunWith(Queue& queue, const Continent& c, const Cell& cell, const Metric& metric,
                         SurfaceId origin, bool backward, std::uint16_t exempt_a,
                         std::uint16_t exempt_b, std::span<const SurfaceId> targets,
                         SurfaceId stop_at, double bound) {
  const std::uint32_t size = cell.tile_end - cell.tile_first;
  // The origin and targets outside the cell take slots after the tile's.
  auto outside_cell = [&](SurfaceId s) { return !cell.Contains(c.column_x[s], c.column_y[s]); };
  outside_.clear();
  if (outside_cell(origin)) outside_.push_back(origin);
  for (SurfaceId t : targets) {
    if (outside_cell(t)) outside_.push_back(t);
  }
  if (stop_at != kInvalidId && outside_cell(stop_at)) outside_.push_back(stop_at);
  std::sort(outside_.begin(), outside_.end());
  outside_.erase(std::unique(outside_.begin(), outside_.end()), outside_.end());
  assert(!backward || !outside_cell(origin));
  const std::size_t slots = size + outside_.size();
  if (state_.size() < slots) {
    state_.assign(slots, State{});
    generation_ = 0;
  }
  if (++generation_ == 0) {
    for (State& state : state_) state.stamp = state.target_stamp = 0;
    generation_ = 1;
  }
  backward_ = backward;
  tile_first_ = cell.tile_first;
  tile_size_ = size;
  settled_count_ = 0;
  std::size_t targets_left = 0;
  for (SurfaceId t : targets) {
    const std::uint32_t local = LocalOf(t);
    if (state_[local].target_stamp != generation_) {
      state_[local].target_stamp = generation_;
      ++targets_left;
    }
  }
  const bool stop_when_targets_done = !targets.empty();

  // The cell lies in one tile: a column's surfaces are read straight from the tile's table.
  const Tile& tile = *c.TileAt(cell.x0, cell.y0);
  const SurfaceId* column_first = tile.first_surface.data();
  const std::uint32_t tile_x0 = tile.tile_x * kTileColumns, tile_y0 = tile.tile_y * kTileColumns;
  auto column_index = [&](std::uint32_t x, std::uint32_t y) {
    return (y - tile_y0) * kTileColumns + (x - tile_x0);
  };
  const std::uint32_t generation = generation_;
  const double seconds_per_column = metric.seconds_per_column();
  // Toward a single target the search is an A*: octile distance at the cheapest ground there
  // is (admissible and consistent, so keys still rise monotonically for the radix heap).
  const bool guided = !backward && targets.empty() && stop_at != kInvalidId;
  const double h_scale = metric.min_seconds_per_column();
  const double goal_x = guided ? c.column_x[stop_at] : 0.0,
               goal_y = guided ? c.column_y[stop_at] : 0.0;
  auto heuristic = [&](std::uint32_t local) {
    if (!guided) return 0.0;
    const SurfaceId v = SurfaceOf(local);
    return h_scale *
           OctileColumns(std::abs(c.column_x[v] - goal_x), std::abs(c.column_y[v] - goal_y));
  };
  // A heap key never goes below the last one taken: with the A*'s heuristic, rounding can make
  // g + step + h(next) an ulp smaller than g + h, and the radix heap needs monotone keys. The
  // key pushed is kept, so a stale entry is one whose key is not the node's latest.
  double last_key = 0.0;
  auto push = [&](std::uint32_t local, double g) {
    const double key = std::max(g + heuristic(local), last_key);
    state_[local].key = key;
    queue.Push(local, key);
  };
  auto reach = [&](std::uint32_t local, double g, std::uint32_t parent, std::uint8_t via) {
    if (state_[local].stamp != generation) {
      state_[local].stamp = generation;
      state_[local].settled = 0;
      state_[local].g = g;
      state_[local].parent = parent;
      state_[local].via = via;
      push(local, g);
    } else if (!state_[local].settled && g < state_[local].g) {
      state_[local].g = g;
      state_[local].parent = parent;
      state_[local].via = via;
      push(local, g);  // the old entry goes stale
    }
  };

  // A cell's surfaces are 64 runs (its rows) of a tile's arrays, and the search visits them
  // in waves the hardware prefetcher cannot follow: on a cold cell (a place not walked from
  // lately) a leg waited on memory for most of its time. Asking for every line up front lets
  // the misses overlap.
  for (std::uint32_t y = cell.y0; y < cell.y1; ++y) {
    const SurfaceId row_first = column_first[column_index(cell.x0, y)];
    const SurfaceId row_end = column_first[column_index(cell.x1 - 1, y) + 1];
    const std::size_t count = row_end - row_first;
    PrefetchRange(c.links.data() + row_first, count);
    PrefetchRange(c.column_x.data() + row_first, count);
    PrefetchRange(c.column_y.data() + row_first, count);
    PrefetchRange(c.marks.data() + row_first, count);
    PrefetchRange(c.flags.data() + row_first, count);
    PrefetchRange(c.zone.data() + row_first, count);
    PrefetchRange(c.level.data() + row_first, count);
    PrefetchRange(state_.data() + (row_first - tile_first_), count, /*write=*/true);
  }

  reach(LocalOf(origin), 0.0, kInvalidId, PathStep::kViaStart);
  while (!queue.empty()) {
    double key;
    const std::uint32_t local = queue.PopMin(&key);
    if (state_[local].settled || key != state_[local].key) continue;  // stale
    last_key = key;
    if (!(key < bound)) break;  // nothing left can beat the bound
    const double g = state_[local].g;
    state_[local].settled = 1;
    ++settled_count_;
    const SurfaceId v = SurfaceOf(local);
    if (state_[local].target_stamp == generation && --targets_left == 0 && stop_when_targets_done)
      break;
    if (v == stop_at) break;
    if (local >= size && v != origin)
      continue;  // a target outside the cell: reached, not walked on
    const std::uint32_t vx = c.column_x[v], vy = c.column_y[v];
    if (!backward) {
      const LinkSet& links = c.links[v];
      for (int d = 0; d < kDirectionCount; ++d) {
        const Link link = links[d];
        if (!HasLink(link)) continue;
        if (IsDiagonal(d) && (!HasLink(links[d - 1]) || !HasLink(links[(d + 1) & 7]))) continue;
        const std::uint32_t nx = vx + kDirectionDx[d], ny = vy + kDirectionDy[d];
        SurfaceId w;
        std::uint32_t lw;
        if (cell.Contains(nx, ny)) {
          w = column_first[column_index(nx, ny)] + LinkLevel(link);
          lw = w - tile_first_;
        } else {  // out of the cell: only onto a target there
          if (outside_.empty()) continue;
          w = c.LinkTarget(v, d);
          lw = OutsideSlot(w);
          if (lw == kInvalidId) continue;
        }
        // A surface's multiplier is read once, when it is first reached (up to 8 steps enter it);
        // one nobody may enter is closed at once.
        double multiplier;
        if (state_[lw].stamp != generation) {
          multiplier = metric.EnterMultiplier(c, w, exempt_a, exempt_b);
          if (!(multiplier < kInfCost)) {
            state_[lw].stamp = generation;
            state_[lw].settled = 1;
            state_[lw].g = kInfCost;  // closed, never reached: Settled() says no
            continue;
          }
          state_[lw].enter = multiplier;
        } else {
          if (state_[lw].settled) continue;
          multiplier = state_[lw].enter;
        }
        const double step = (IsDiagonal(d) ? kSqrt2 : 1.0) * seconds_per_column * multiplier +
                            metric.FixedSeconds(LinkKindOf(link));
        reach(lw, g + step, local, static_cast<std::uint8_t>(d));
      }
      if (local < size && (c.marks[v] & kMarkLift)) {
        const LiftRide *ride, *end;
        c.LiftsFrom(v, &ride, &end);
        for (; ride != end; ++ride) {
          const std::uint32_t lt = ride->to - tile_first_;
          if (state_[lt].stamp != generation) {
            const double multiplier = metric.EnterMultiplier(c, ride->to, exempt_a, exempt_b);
            if (!(multiplier < kInfCost)) {
              state_[lt].stamp = generation;
              state_[lt].settled = 1;
              state_[lt].g = kInfCost;
              continue;
            }
            state_[lt].enter = multiplier;
          } else if (state_[lt].settled) {
            continue;
          }
          const double step =
              metric.LiftSeconds(c, ride->to, ride->shaft_yards, exempt_a, exempt_b);
          if (step < kInfCost) reach(lt, g + step, local, PathStep::kViaLift);
        }
      }
      continue;
    }
    // Backward: every surface u with a step u -> v, priced as entering v.
    const double v_multiplier = metric.EnterMultiplier(c, v, exempt_a, exempt_b);
    if (!(v_multiplier < kInfCost)) continue;
    const std::uint8_t v_level = c.level[v];
    // Surface u (slot lu) one step in direction d before v.
    auto from = [&](SurfaceId u, std::uint32_t lu, int d) {
      const LinkSet& links = c.links[u];
      const Link link = links[d];
      if (!HasLink(link) || LinkLevel(link) != v_level) return;
      if (IsDiagonal(d) && (!HasLink(links[d - 1]) || !HasLink(links[(d + 1) & 7]))) return;
      const double step = (IsDiagonal(d) ? kSqrt2 : 1.0) * seconds_per_column * v_multiplier +
                          metric.FixedSeconds(LinkKindOf(link));
      reach(lu, g + step, local, static_cast<std::uint8_t>(d));
    };
    for (int d = 0; d < kDirectionCount; ++d) {
      const std::uint32_t ux = vx - kDirectionDx[d], uy = vy - kDirectionDy[d];
      if (!cell.Contains(ux, uy)) {  // out of the cell: only from a target there
        for (std::size_t k = 0; k < outside_.size(); ++k) {
          const SurfaceId u = outside_[k];
          if (c.column_x[u] == ux && c.column_y[u] == uy)
            from(u, size + static_cast<std::uint32_t>(k), d);
        }
        continue;
      }
      const std::uint32_t column = column_index(ux, uy);
      for (SurfaceId u = column_first[column]; u < column_first[column + 1]; ++u)
        from(u, u - tile_first_, d);
    }
    const std::uint32_t column = column_index(vx, vy);
    for (SurfaceId u = column_first[column]; u < column_first[column + 1]; ++u) {
      if (!(c.marks[u] & kMarkLift)) continue;
      const LiftRide *ride, *rides_end;
      c.LiftsFrom(u, &ride, &rides_end);
      for (; ride != rides_end; ++ride) {
        if (ride->to != v) continue;
        const double step = metric.LiftSeconds(c, v, ride->shaft_yards, exempt_a, exempt_b);
        if (step < kInfCost) reach(u - tile_first_, g + step, local, PathStep::kViaLift);
      }
    }
  }
}

std::uint32_t CellSearch::OutsideSlot(SurfaceId s) const {
  const auto it = std::lower_bound(outside_.begin(), outside_.end(), s);
  return it != outside_.end() && *it == s
             ? tile_size_ + static_cast<std::uint32_t>(it - outside_.begin())
             : kInvalidId;
}

std::uint32_t CellSearch::LocalOf(SurfaceId s) const {
  const std::uint32_t slot = OutsideSlot(s);
  if (slot != kInvalidId) return slot;
  return s >= tile_first_ && s - tile_first_ < tile_size_ ? s - tile_first_ : kInvalidId;
}

void CellSearch::Steps(SurfaceId s, std::vector<PathStep>* steps) const {
  steps->clear();
  if (!Settled(s)) return;
  std::uint32_t local = LocalOf(s);
  if (!backward_) {
    for (std::uint32_t v = local; v != kInvalidId; v = state_[v].parent) {
      steps->push_back({SurfaceOf(v), state_[v].via});
    }
    std::reverse(steps->begin(), steps->end());
    return;
  }
  // Backward: parent_ is the next surface, via_ the step from this surface to it.
  steps->push_back({s, PathStep::kViaStart});
  for (std::uint32_t v = local; state_[v].parent != kInvalidId; v = state_[v].parent) {
    steps->push_back({SurfaceOf(state_[v].parent), state_[v].via});
  }
}

}  // namespace walk::nav
