#include "nav/abstract/cell_search.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace walk::nav {
namespace {

// Reads one byte of every cache line of `count` elements from `first` on. Real loads, not
// prefetch instructions: a cell's few thousand lines asked for at once outrun the prefetches the
// core keeps in flight and most are dropped, where independent loads wait their turn in the
// out-of-order window and are all served (docs/benchmarks.md, "cold cells read by loads").
template <typename T>
[[gnu::always_inline]] inline void TouchRange(const T* first, std::size_t count) {
  constexpr std::size_t kLine = 64;
  const char* begin = reinterpret_cast<const char*>(first);
  const char* end = begin + count * sizeof(T);
  for (const char* p = begin; p < end; p += kLine) {
    (void)*reinterpret_cast<const volatile char*>(p);
  }
}

// Calls fn(columns, first, end) for each row of `cell`, in order, until it returns false:
// `columns` points at the row's first entry in its tile's column table, [first, end) are the
// row's surfaces (the cell lies in one tile: its rows are runs of the tile's surfaces). Returns
// whether every row was visited.
template <typename Fn>
bool ForEachRow(const Continent& c, const Cell& cell, Fn fn) {
  const Tile& tile = *c.TileAt(cell.x0, cell.y0);
  const std::uint32_t tile_x0 = tile.tile_x * kTileColumns, tile_y0 = tile.tile_y * kTileColumns;
  for (std::uint32_t y = cell.y0; y < cell.y1; ++y) {
    const SurfaceId* columns =
        tile.first_surface.data() + (y - tile_y0) * kTileColumns + (cell.x0 - tile_x0);
    if (!fn(columns, columns[0], columns[cell.x1 - cell.x0])) return false;
  }
  return true;
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

void CellSearch::Run(const Continent& c, const Cell& cell, const Metric& metric,
                     const Request& request) {
  // Dial's buckets where every step costs at least the cheapest column there is: a plain
  // search (an A*'s keys are not costs, and a bound needs its keys in order) of a cell without
  // lifts (a ride may cost less).
  const bool guided = !request.backward && request.targets.empty() && request.stop_at != kInvalidId;
  const bool bounded = request.bound < kInfCost;
  used_buckets_ =
      !guided && !bounded && metric.min_seconds_per_column() > 0.0 && !HasLifts(c, cell);
  if (used_buckets_) {
    // A hair narrower than the cheapest step, so rounding never puts a step inside its bucket.
    buckets_.Reset(metric.min_seconds_per_column() * (1.0 - 1e-9));
    RunWith<BucketQueue, true>(buckets_, c, cell, metric, request);
  } else if (!guided && !bounded) {
    heap_.Clear();
    RunWith<RadixHeap, true>(heap_, c, cell, metric, request);
  } else {
    heap_.Clear();
    RunWith<RadixHeap, false>(heap_, c, cell, metric, request);
  }
}

bool CellSearch::HasLifts(const Continent& c, const Cell& cell) {
  return !ForEachRow(c, cell, [&](const SurfaceId*, SurfaceId first, SurfaceId end) {
    for (SurfaceId s = first; s < end; ++s) {
      if (c.marks[s] & kMarkLift) return false;
    }
    return true;
  });
}

std::size_t CellSearch::Begin(const Continent& c, const Cell& cell, const Request& request) {
  const std::uint32_t size = cell.tile_end - cell.tile_first;
  // The origin and targets outside the cell take slots after the tile's.
  auto outside_cell = [&](SurfaceId s) { return !cell.Contains(c.column_x[s], c.column_y[s]); };
  outside_.clear();
  if (outside_cell(request.origin)) outside_.push_back(request.origin);
  for (SurfaceId t : request.targets) {
    if (outside_cell(t)) outside_.push_back(t);
  }
  if (request.stop_at != kInvalidId && outside_cell(request.stop_at))
    outside_.push_back(request.stop_at);
  std::sort(outside_.begin(), outside_.end());
  outside_.erase(std::unique(outside_.begin(), outside_.end()), outside_.end());
  assert(!request.backward || !outside_cell(request.origin));
  const std::size_t slots = size + outside_.size();
  if (state_.size() < slots) {
    state_.assign(slots, State{});
    generation_ = 0;
  }
  if (++generation_ == 0) {
    for (State& state : state_) state.stamp = state.target_stamp = 0;
    generation_ = 1;
  }
  backward_ = request.backward;
  tile_first_ = cell.tile_first;
  tile_size_ = size;
  settled_count_ = 0;
  std::size_t targets = 0;
  for (SurfaceId t : request.targets) {
    const std::uint32_t local = LocalOf(t);
    if (state_[local].target_stamp != generation_) {
      state_[local].target_stamp = generation_;
      ++targets;
    }
  }
  return targets;
}

namespace {

// Reads every cache line of `cell`'s rows that a search reads or writes, its states from
// `states` on (the slots of the tile's surfaces) and the tile's column table: the search visits
// the rows in waves the hardware prefetcher cannot follow, so on a cold cell (a place not walked
// from lately, as a fresh table's) it would wait on memory one line at a time.
template <typename State>
void TouchCell(const Continent& c, const Cell& cell, const State* states) {
  ForEachRow(c, cell, [&](const SurfaceId* columns, SurfaceId row_first, SurfaceId row_end) {
    const std::size_t count = row_end - row_first;
    TouchRange(columns, cell.x1 - cell.x0 + 1);
    TouchRange(c.links.data() + row_first, count);
    TouchRange(c.column_x.data() + row_first, count);
    TouchRange(c.column_y.data() + row_first, count);
    TouchRange(c.marks.data() + row_first, count);
    TouchRange(c.flags.data() + row_first, count);
    TouchRange(c.zone.data() + row_first, count);
    TouchRange(c.level.data() + row_first, count);
    TouchRange(states + (row_first - cell.tile_first), count);
    return true;
  });
}

// Stamps every state of `cell` (slots from `states` on) and of the slots outside it for a new
// search: not reached, each surface's enter multiplier read once, in row order, where a lazy
// search reads it when the surface is first reached. A search that settles most of its cell (a
// leg, an edge of the graph) then relaxes a step with one test, its cost against the head's,
// where it tested first whether the head was stamped (a branch the wavefront makes unpredictable).
// Target stamps are kept.
template <typename State>
void PrepareCell(const Continent& c, const Cell& cell, const Metric& metric,
                 const CellSearch::Request& request, std::span<const SurfaceId> outside,
                 std::uint32_t generation, State* states) {
  auto prepare = [&](State& state, SurfaceId s) {
    state.g = kInfCost;
    state.enter = metric.EnterMultiplier(c, s, request.exempt_a, request.exempt_b);
    state.parent = kInvalidId;
    state.stamp = generation;
    state.settled = 0;
  };
  ForEachRow(c, cell, [&](const SurfaceId*, SurfaceId row_first, SurfaceId row_end) {
    const std::size_t count = row_end - row_first;
    TouchRange(c.links.data() + row_first, count);
    TouchRange(c.column_x.data() + row_first, count);
    TouchRange(c.column_y.data() + row_first, count);
    TouchRange(c.level.data() + row_first, count);
    State* row_states = states + (row_first - cell.tile_first);
    for (SurfaceId s = row_first; s < row_end; ++s) prepare(row_states[s - row_first], s);
    return true;
  });
  State* outside_states = states + (cell.tile_end - cell.tile_first);
  for (std::size_t k = 0; k < outside.size(); ++k) prepare(outside_states[k], outside[k]);
}

}  // namespace

// The constants of one search of a cell, and what it does with each settled surface: reach its
// neighbours across its steps (forward) or the surfaces whose steps enter it (backward). The
// cell lies in one tile, so a column's surfaces are read straight from the tile's table.
// kPrepared: the cell's states were stamped by PrepareCell, so a step's head needs no stamp test.
template <typename Queue, bool kPrepared>
class CellSearch::Sweep {
 public:
  Sweep(CellSearch& search, Queue& queue, const Continent& c, const Cell& cell,
        const Metric& metric, const Request& request)
      : search_(search),
        queue_(queue),
        c_(c),
        cell_(cell),
        metric_(metric),
        exempt_a_(request.exempt_a),
        exempt_b_(request.exempt_b),
        outside_(search.outside_),
        state_(search.state_.data()),
        size_(search.tile_size_),
        tile_first_(search.tile_first_),
        generation_(search.generation_),
        seconds_per_column_(metric.seconds_per_column()),
        // Toward a single target the search is an A*: octile distance at the cheapest ground
        // there is (admissible and consistent, so keys still rise monotonically for the radix
        // heap).
        guided_(!request.backward && request.targets.empty() && request.stop_at != kInvalidId),
        h_scale_(metric.min_seconds_per_column()),
        goal_x_(guided_ ? c.column_x[request.stop_at] : 0.0),
        goal_y_(guided_ ? c.column_y[request.stop_at] : 0.0) {
    const Tile& tile = *c.TileAt(cell.x0, cell.y0);
    column_first_ = tile.first_surface.data();
    tile_x0_ = tile.tile_x * kTileColumns;
    tile_y0_ = tile.tile_y * kTileColumns;
  }

  // The heap key last taken: keys pushed never go below it.
  void set_last_key(double key) { last_key_ = key; }

  // Reaches slot `local` at cost g from slot `parent` by step `via`, where that is cheaper.
  void Reach(std::uint32_t local, double g, std::uint32_t parent, std::uint8_t via) {
    Reacher{state_, generation_, *this}(local, g, parent, via);
  }

  // Forward: every step out of settled surface v (slot `local`, cost g) within the cell, or
  // onto a target outside it, and every lift ride from it.
  [[gnu::always_inline]] void RelaxForward(std::uint32_t local, SurfaceId v, double g) {
    // The search's constants in locals: Push takes this object's address, so its members would
    // be read again after every store.
    const Continent& c = c_;
    const Cell& cell = cell_;
    const Metric& metric = metric_;
    State* const state = state_;
    const std::uint32_t generation = generation_;
    const std::uint16_t exempt_a = exempt_a_, exempt_b = exempt_b_;
    const double seconds_per_column = seconds_per_column_;
    const SurfaceId* const column_first = column_first_;
    const SurfaceId tile_first = tile_first_;
    const std::uint32_t tile_x0 = tile_x0_, tile_y0 = tile_y0_;
    const bool none_outside = outside_.empty();
    const Reacher reach{state, generation, *this};
    const std::uint32_t vx = c.column_x[v], vy = c.column_y[v];
    const LinkSet& links = c.links[v];
    for (int d = 0; d < kDirectionCount; ++d) {
      const Link link = links[d];
      if (!HasLink(link)) continue;
      if (IsDiagonal(d) && (!HasLink(links[d - 1]) || !HasLink(links[(d + 1) & 7]))) continue;
      const std::uint32_t nx = vx + kDirectionDx[d], ny = vy + kDirectionDy[d];
      SurfaceId w;
      std::uint32_t lw;
      if (cell.Contains(nx, ny)) {
        w = column_first[(ny - tile_y0) * kTileColumns + (nx - tile_x0)] + LinkLevel(link);
        lw = w - tile_first;
      } else {  // out of the cell: only onto a target there
        if (none_outside) continue;
        w = c.LinkTarget(v, d);
        lw = search_.OutsideSlot(w);
        if (lw == kInvalidId) continue;
      }
      if constexpr (kPrepared) {
        // A closed surface's multiplier is infinite: so is the step, which never lowers it.
        const double step = (IsDiagonal(d) ? kSqrt2 : 1.0) * seconds_per_column * state[lw].enter +
                            metric.FixedSeconds(LinkKindOf(link));
        reach(lw, g + step, local, static_cast<std::uint8_t>(d));
        continue;
      }
      // A surface's multiplier is read once, when it is first reached (up to 8 steps enter it);
      // one nobody may enter is closed at once.
      double multiplier;
      if (state[lw].stamp != generation) {
        multiplier = metric.EnterMultiplier(c, w, exempt_a, exempt_b);
        if (!(multiplier < kInfCost)) {
          state[lw].stamp = generation;
          state[lw].settled = 1;
          state[lw].g = kInfCost;  // closed, never reached: Settled() says no
          continue;
        }
        state[lw].enter = multiplier;
      } else {
        if (state[lw].settled) continue;
        multiplier = state[lw].enter;
      }
      const double step = (IsDiagonal(d) ? kSqrt2 : 1.0) * seconds_per_column * multiplier +
                          metric.FixedSeconds(LinkKindOf(link));
      reach(lw, g + step, local, static_cast<std::uint8_t>(d));
    }
    if (local < size_ && (c.marks[v] & kMarkLift)) {
      const LiftRide *ride, *end;
      c.LiftsFrom(v, &ride, &end);
      for (; ride != end; ++ride) {
        // A ride out of the cell is not this search's to take: the graph joins its landings
        // by an arc of their own (abstract_graph.h).
        if (!cell.Contains(c.column_x[ride->to], c.column_y[ride->to])) continue;
        const std::uint32_t lt = ride->to - tile_first;
        if constexpr (kPrepared) {
          if (!(state[lt].enter < kInfCost)) continue;
        } else if (state[lt].stamp != generation) {
          const double multiplier = metric.EnterMultiplier(c, ride->to, exempt_a, exempt_b);
          if (!(multiplier < kInfCost)) {
            state[lt].stamp = generation;
            state[lt].settled = 1;
            state[lt].g = kInfCost;
            continue;
          }
          state[lt].enter = multiplier;
        } else if (state[lt].settled) {
          continue;
        }
        const double step = metric.LiftSeconds(c, *ride, exempt_a, exempt_b);
        if (step < kInfCost) reach(lt, g + step, local, PathStep::kViaLift);
      }
    }
  }

  // Backward: every surface u with a step u -> settled surface v (slot `local`, cost g), priced
  // as entering v, within the cell or from a target outside it, and every lift ride onto v.
  [[gnu::always_inline]] void RelaxBackward(std::uint32_t local, SurfaceId v, double g) {
    // The search's constants in locals, as in RelaxForward.
    const Continent& c = c_;
    const Cell& cell = cell_;
    const Metric& metric = metric_;
    const std::uint16_t exempt_a = exempt_a_, exempt_b = exempt_b_;
    const double seconds_per_column = seconds_per_column_;
    const SurfaceId* const column_first = column_first_;
    const SurfaceId tile_first = tile_first_;
    const std::uint32_t tile_x0 = tile_x0_, tile_y0 = tile_y0_;
    const std::uint32_t size = size_;
    const std::vector<SurfaceId>& outside = outside_;
    const Reacher reach{state_, generation_, *this};
    const double v_multiplier =
        kPrepared ? state_[local].enter : metric.EnterMultiplier(c, v, exempt_a, exempt_b);
    if (!(v_multiplier < kInfCost)) return;
    const std::uint32_t vx = c.column_x[v], vy = c.column_y[v];
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
    auto column_index = [&](std::uint32_t x, std::uint32_t y) {
      return (y - tile_y0) * kTileColumns + (x - tile_x0);
    };
    for (int d = 0; d < kDirectionCount; ++d) {
      const std::uint32_t ux = vx - kDirectionDx[d], uy = vy - kDirectionDy[d];
      if (!cell.Contains(ux, uy)) {  // out of the cell: only from a target there
        for (std::size_t k = 0; k < outside.size(); ++k) {
          const SurfaceId u = outside[k];
          if (c.column_x[u] == ux && c.column_y[u] == uy)
            from(u, size + static_cast<std::uint32_t>(k), d);
        }
        continue;
      }
      const std::uint32_t column = column_index(ux, uy);
      for (SurfaceId u = column_first[column]; u < column_first[column + 1]; ++u)
        from(u, u - tile_first, d);
    }
    if (c.marks[v] & kMarkLift) {
      // Rides arriving at v from a landing in the cell (one from outside it is the graph's).
      const std::uint32_t *ride, *rides_end;
      c.LiftsInto(v, &ride, &rides_end);
      for (; ride != rides_end; ++ride) {
        const LiftRide& r = c.lifts[*ride];
        if (!cell.Contains(c.column_x[r.from], c.column_y[r.from])) continue;
        const double step = metric.LiftSeconds(c, r, exempt_a, exempt_b);
        if (step < kInfCost) reach(r.from - tile_first, g + step, local, PathStep::kViaLift);
      }
    }
  }

 private:
  // Reaches a slot at a cost from a parent by a step, where that is cheaper (then pushes it).
  struct Reacher {
    State* state;
    std::uint32_t generation;
    Sweep& sweep;
    [[gnu::always_inline]] void operator()(std::uint32_t local, double g, std::uint32_t parent,
                                           std::uint8_t via) const {
      State& s = state[local];
      if constexpr (kPrepared) {
        // A settled surface is never lowered: its cost is final (in Dial's buckets a step costs
        // more than a bucket spans), so no stamp or settled mark is tested.
        if (g < s.g) {
          s.g = g;
          s.parent = parent;
          s.via = via;
          sweep.Push(local, g);
        }
        return;
      }
      if (s.stamp != generation) {
        s.stamp = generation;
        s.settled = 0;
        s.g = g;
        s.parent = parent;
        s.via = via;
        sweep.Push(local, g);
      } else if (!s.settled && g < s.g) {
        s.g = g;
        s.parent = parent;
        s.via = via;
        sweep.Push(local, g);  // the old entry goes stale
      }
    }
  };

  double Heuristic(std::uint32_t local) const {
    if (!guided_) return 0.0;
    const SurfaceId v = search_.SurfaceOf(local);
    return h_scale_ *
           OctileColumns(std::abs(c_.column_x[v] - goal_x_), std::abs(c_.column_y[v] - goal_y_));
  }
  // A heap key never goes below the last one taken: with the A*'s heuristic, rounding can make
  // g + step + h(next) an ulp smaller than g + h, and the radix heap needs monotone keys.
  void Push(std::uint32_t local, double g) {
    queue_.Push(local, std::max(g + Heuristic(local), last_key_));
  }

  const CellSearch& search_;
  Queue& queue_;
  const Continent& c_;
  const Cell& cell_;
  const Metric& metric_;
  const std::uint16_t exempt_a_, exempt_b_;
  const std::vector<SurfaceId>& outside_;
  State* const state_;
  const std::uint32_t size_;
  const SurfaceId tile_first_;
  const std::uint32_t generation_;
  const double seconds_per_column_;
  const bool guided_;
  const double h_scale_;
  const double goal_x_, goal_y_;
  const SurfaceId* column_first_ = nullptr;
  std::uint32_t tile_x0_ = 0, tile_y0_ = 0;
  double last_key_ = 0.0;
};

template <typename Queue, bool kPrepared>
void CellSearch::RunWith(Queue& queue, const Continent& c, const Cell& cell, const Metric& metric,
                         const Request& request) {
  std::size_t targets_left = Begin(c, cell, request);
  const bool stop_when_targets_done = !request.targets.empty();
  Sweep<Queue, kPrepared> sweep(*this, queue, c, cell, metric, request);
  if constexpr (kPrepared) {
    PrepareCell(c, cell, metric, request, outside_, generation_, state_.data());
  } else {
    TouchCell(c, cell, state_.data());
  }
  const SurfaceId origin = request.origin, stop_at = request.stop_at;
  const bool backward = request.backward;
  const double bound = request.bound;
  const std::uint32_t size = tile_size_;
  const std::uint32_t generation = generation_;
  sweep.Reach(LocalOf(origin), 0.0, kInvalidId, PathStep::kViaStart);
  while (!queue.empty()) {
    double key;
    const std::uint32_t local = queue.PopMin(&key);
    // A surface reached again more cheaply was pushed again with a lower key; whichever of its
    // entries comes first settles it at its latest cost (within one of Dial's buckets, entries
    // come in any order, all as good), and the others find it settled.
    if (state_[local].settled) continue;
    sweep.set_last_key(key);
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
    if (backward) {
      sweep.RelaxBackward(local, v, g);
    } else {
      sweep.RelaxForward(local, v, g);
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
