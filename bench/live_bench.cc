// live_bench: what live grids cost on an 800 x 800 RTS-like map, printed in one run.
//
//   full rebuild (ms)                 every cell recomposed, both passabilities relabelled
//   regional rebuild (us)             a 10 x 10 building placed / removed through UpdateBlockers
//   full / regional                   their ratio, measured in the same run
//   A* median (us)                    uncached (a fresh pair: search + taut + cache insert) and
//                                     cached (the same pair again), for pairs across the map and
//                                     pairs within 64 cells
//   paths per second                  1,000 units re-asking every tick, a blocker change every
//                                     20 ticks (a new revision: every answer searched again);
//                                     marching and chasing, before (every move searched) and
//                                     after (short clear moves direct, units' routes kept)
//   group orders                      1,000 units in 50 formations, 5 ordered each tick: the
//                                     per-tick cost with every fallback inline vs bounded and
//                                     queued (a fixed number served per tick)
//
// With --wide SECONDS only wide bodies are measured (on a 512 x 512 map unless --size says):
// paths per second for a one-cell body (radius 0), a 1.5-cell body, and a formation (radius 0.5,
// half-width 3), the same pairs for each, while an updater thread applies 100 blocker updates a
// second; each body runs SECONDS seconds.
// The map is generated (deterministic for a seed): mountains, three rivers with bridges, forests
// with roads, hills with entrances, scattered trees, boulders and ore, towns of buildings inside
// walls with gates. Usage: live_bench [--size N] [--seed N] [--units N] [--ticks N] [--wide S]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench/live_bench_worlds.h"
#include "nav/live/fallback_queue.h"
#include "nav/live/layers.h"
#include "nav/live/live_grid.h"
#include "nav/live/live_search.h"
#include "nav/live/live_world.h"

namespace walk::nav::live {
namespace {

using Clock = std::chrono::steady_clock;

double MicrosSince(Clock::time_point t) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t).count();
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double Percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))];
}

struct Options {
  std::int32_t size = 800;
  std::uint32_t seed = 1;
  int units = 1000;
  int ticks = 200;
  int wide_seconds = 0;  // > 0: run only the wide-body measurement, this long per body
  bool size_given = false;
};

// An RTS-like map. Building ids from 1, wall segments from 100000, gates from 200000.
Layers MakeMap(const Options& o, std::vector<EntityId>* gates) {
  const std::int32_t n = o.size;
  Layers layers(n, n, 1.0);
  std::mt19937 rng(o.seed);
  auto uniform = [&](std::int32_t lo, std::int32_t hi) {
    return std::uniform_int_distribution<std::int32_t>(lo, hi)(rng);
  };
  auto disc = [&](std::int32_t cx, std::int32_t cy, std::int32_t r, auto&& apply) {
    for (std::int32_t y = std::max(0, cy - r); y <= std::min(n - 1, cy + r); ++y) {
      for (std::int32_t x = std::max(0, cx - r); x <= std::min(n - 1, cx + r); ++x) {
        if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r) apply(CellRect{x, y, x + 1, y + 1});
      }
    }
  };
  const std::int32_t scale = n / 100;    // blobs per 100 cells of side
  for (int k = 0; k < 8 * scale; ++k) {  // mountains
    disc(uniform(0, n - 1), uniform(0, n - 1), uniform(4, 20),
         [&](CellRect c) { layers.SetTerrain(c, CellValue::kMountain); });
  }
  for (int k = 0; k < 10 * scale; ++k) {  // forests
    disc(uniform(0, n - 1), uniform(0, n - 1), uniform(8, 28),
         [&](CellRect c) { layers.AddForest(c); });
  }
  for (int k = 0; k < 3; ++k) {  // roads through the woods
    const std::int32_t at = uniform(n / 8, n - n / 8);
    layers.AddRoad(k % 2 ? CellRect{0, at, n, at + 2} : CellRect{at, 0, at + 2, n});
  }
  for (int r = 0; r < 3; ++r) {  // meandering rivers, each with bridges
    const bool across = r != 1;
    const std::int32_t base = (r + 1) * n / 4, width = uniform(4, 8);
    const double phase = uniform(0, 1000) / 100.0;
    for (std::int32_t t = 0; t < n; ++t) {
      const std::int32_t c = base + static_cast<std::int32_t>(25.0 * std::sin(t / 60.0 + phase));
      layers.SetTerrain(
          across ? CellRect{t, c, t + 1, c + width} : CellRect{c, t, c + width, t + 1},
          CellValue::kRiver);
    }
    for (int b = 0; b < 5; ++b) {
      const std::int32_t t = (2 * b + 1) * n / 10;
      const std::int32_t c = base + static_cast<std::int32_t>(25.0 * std::sin(t / 60.0 + phase));
      layers.AddCrossing(across ? CellRect{t, c - 2, t + 3, c + width + 2}
                                : CellRect{c - 2, t, c + width + 2, t + 3},
                         CrossingKind::kBridge);
    }
  }
  for (int h = 0; h < 2 * scale; ++h) {  // hills: a blocked rim with one entrance
    const std::int32_t x = uniform(10, n - 40), y = uniform(10, n - 40), s = uniform(12, 28);
    for (std::int32_t i = 0; i < s; ++i) {
      for (CellRect c :
           {CellRect{x + i, y, x + i + 1, y + 2}, CellRect{x + i, y + s - 2, x + i + 1, y + s},
            CellRect{x, y + i, x + 2, y + i + 1}, CellRect{x + s - 2, y + i, x + s, y + i + 1}}) {
        layers.SetTerrain(c, CellValue::kBlocked);
      }
    }
    layers.AddCrossing(CellRect{x + s / 2 - 1, y + s - 2, x + s / 2 + 2, y + s},
                       CrossingKind::kHillEntrance);
  }
  std::uniform_int_distribution<int> pct(0, 999);
  for (CellIndex i = 0; i < layers.cell_count(); ++i) {  // resources
    const int r = pct(rng);
    if (r < 30)
      layers.SetResource(i, CellValue::kTree);
    else if (r < 34)
      layers.SetResource(i, CellValue::kBoulder);
    else if (r < 36)
      layers.SetResource(i, CellValue::kIronOre);
  }
  EntityId building = 1, segment = 100000, gate = 200000;
  for (int t = 0; t < scale * scale / 2 + 4;
       ++t) {  // towns: walls with two gates, buildings inside
    const double x0 = uniform(20, n - 120), y0 = uniform(20, n - 120), side = uniform(50, 90);
    const double x1 = x0 + side, y1 = y0 + side;
    const EntityId north = segment++, south = segment++, west = segment++, east = segment++;
    (void)layers.AddBuilding(north, {x0, y0, x1, y0 + 1}, nullptr);
    (void)layers.AddBuilding(south, {x0, y1 - 1, x1, y1}, nullptr);
    (void)layers.AddBuilding(west, {x0, y0 + 1, x0 + 1, y1 - 1}, nullptr);
    (void)layers.AddBuilding(east, {x1 - 1, y0 + 1, x1, y1 - 1}, nullptr);
    const double mid = x0 + side / 2;
    if (layers.AddGate(gate, north, {mid - 1, y0, mid + 2, y0 + 1}, true, nullptr).ok())
      gates->push_back(gate);
    ++gate;
    if (layers.AddGate(gate, south, {mid - 1, y1 - 1, mid + 2, y1}, false, nullptr).ok())
      gates->push_back(gate);
    ++gate;
    for (int b = 0; b < 40; ++b) {
      const double bx = x0 + 3 + uniform(0, static_cast<std::int32_t>(side) - 12);
      const double by = y0 + 3 + uniform(0, static_cast<std::int32_t>(side) - 12);
      const double w = uniform(3, 6), h = uniform(3, 6);
      if (bx + w < x1 - 2 && by + h < y1 - 2)
        (void)layers.AddBuilding(building++, {bx, by, bx + w, by + h}, nullptr);
    }
  }
  for (int b = 0; b < 300 * scale; ++b) {  // farms and outposts in the open
    const double bx = uniform(0, n - 8), by = uniform(0, n - 8);
    (void)layers.AddBuilding(building++, {bx, by, bx + uniform(2, 6), by + uniform(2, 6)}, nullptr);
  }
  return layers;
}

// An open cell within `reach` cells (Chebyshev) of `near` (open) and in its region.
Cell NearbyOpenCell(const LiveGrid& grid, Cell near, std::int32_t reach, std::mt19937& rng) {
  std::uniform_int_distribution<std::int32_t> d(-reach, reach);
  for (int tries = 0; tries < 100000; ++tries) {
    const Cell c{near.x + d(rng), near.y + d(rng)};
    if (grid.Open(c, Passability::kLight) && grid.Reachable(c, near, Passability::kLight)) return c;
  }
  return near;  // a pocket: nowhere else to go
}

Cell RandomOpenCell(const LiveGrid& grid, std::mt19937& rng) {
  std::uniform_int_distribution<std::int32_t> x(0, grid.width() - 1), y(0, grid.height() - 1);
  for (;;) {
    const Cell c{x(rng), y(rng)};
    if (grid.Open(c, Passability::kLight)) return c;
  }
}

struct Unit {
  Cell at, goal, origin;  // on arrival a unit marches back to its origin
  int phase;              // which tick of `step_every` it steps on
};

struct TickPlan {
  int ticks = 200;
  int step_every = 0;   // a unit steps to its path's next cell every step_every-th tick (0: holds)
  int chase_every = 0;  // a unit's goal moves to a neighbouring open cell every chase_every-th tick
  int threads = 1;
  bool unit_ids = false;  // ask with the unit's id, so its route can be kept
};

// The goal moved to an open 8-neighbour (a chased target's step), or left where it is.
Cell Chased(const LiveWorld& world, Cell goal, std::uint32_t seed) {
  Cell moved = goal;
  world.Inspect([&](const LiveGrid& grid, const Layers&) {
    for (int k = 0; k < 8; ++k) {
      const int d = static_cast<int>((seed + static_cast<std::uint32_t>(k)) % 8);
      const Cell c{goal.x + kDirX[d], goal.y + kDirY[d]};
      if (grid.Open(c, Passability::kLight) && grid.Reachable(c, goal, Passability::kLight)) {
        moved = c;
        return;
      }
    }
  });
  return moved;
}

// Every unit asks FindPath(at, goal) every tick; it steps and its goal moves as `plan` says.
// Units are split evenly over `plan.threads` threads, which meet at the end of each tick; a gate
// toggles before every 20th tick.
void RunTicks(LiveWorld& world, std::vector<Unit> units, const std::vector<EntityId>& gates,
              const TickPlan& plan, const char* label) {
  const int ticks = plan.ticks, step_every = plan.step_every, threads = plan.threads;
  world.RebuildAll();  // a cold cache: nothing cached for the new revision
  const LiveCounters before = world.Counters();
  std::vector<double> tick_us;
  std::atomic<std::uint64_t> answers{0};
  const Clock::time_point start = Clock::now();
  for (int tick = 0; tick < ticks; ++tick) {
    const Clock::time_point tick_start = Clock::now();
    if (tick % 20 == 19 && !gates.empty()) {
      const EntityId g = gates[static_cast<std::size_t>(tick / 20) % gates.size()];
      const BlockerChange c =
          (tick / 20) % 2 ? BlockerChange::OpenGate(g) : BlockerChange::ShutGate(g);
      (void)world.UpdateBlockers({&c, 1});
    }
    auto work = [&](std::size_t begin, std::size_t end) {
      for (std::size_t k = begin; k < end; ++k) {
        Unit& u = units[k];
        if (plan.chase_every > 0 && (tick + u.phase) % plan.chase_every == 0) {
          u.goal = Chased(world, u.goal, static_cast<std::uint32_t>(tick * 7 + k));
        }
        PathRequest request{u.at, u.goal, Passability::kLight};
        request.unit = plan.unit_ids ? k + 1 : 0;
        absl::StatusOr<LivePath> p = world.FindPath(request);
        answers.fetch_add(1, std::memory_order_relaxed);
        if (step_every > 0 && p.ok() && p->status == PathStatus::kFound && p->cells.size() > 1 &&
            (tick + u.phase) % step_every == 0) {
          u.at = p->cells[1];
        }
        if (u.at == u.goal) std::swap(u.goal, u.origin);
      }
    };
    if (threads <= 1) {
      work(0, units.size());
    } else {
      std::vector<std::thread> pool;
      for (int t = 0; t < threads; ++t) {
        pool.emplace_back(work, units.size() * t / threads, units.size() * (t + 1) / threads);
      }
      for (std::thread& t : pool) t.join();
    }
    tick_us.push_back(MicrosSince(tick_start));
  }
  const double seconds = MicrosSince(start) / 1e6;
  const LiveCounters after = world.Counters();
  const double hits = static_cast<double>(after.cache_hits - before.cache_hits);
  const double misses = static_cast<double>(after.cache_misses - before.cache_misses);
  std::printf("  %-20s %9.0f paths/s   tick median %7.2f ms, max %7.2f ms\n", label,
              static_cast<double>(answers.load()) / seconds, Median(tick_us) / 1000.0,
              *std::max_element(tick_us.begin(), tick_us.end()) / 1000.0);
  std::printf(
      "  %-20s hit rate %.1f%% (%.0f hits, %.0f misses), %llu evictions, %llu expired, "
      "%.3f searches and %.1f cells expanded per unit per tick\n",
      "", 100.0 * hits / std::max(1.0, hits + misses), hits, misses,
      static_cast<unsigned long long>(after.cache_evictions - before.cache_evictions),
      static_cast<unsigned long long>(after.cache_expired - before.cache_expired),
      static_cast<double>(after.searches - before.searches) /
          (static_cast<double>(units.size()) * ticks),
      static_cast<double>(after.cells_expanded - before.cells_expanded) /
          (static_cast<double>(units.size()) * ticks));
  std::printf("  %-20s searches saved: %llu direct lines, %llu kept routes\n", "",
              static_cast<unsigned long long>(after.direct_lines - before.direct_lines),
              static_cast<unsigned long long>(after.kept_routes - before.kept_routes));
}

// 1,000 units in 50 formations of 20, clumped, 5 formations ordered to a new goal every tick (a
// formation of 5 x 4 slots facing the way it goes). Members beyond the corridor's reach search on
// their own: all of them inline, or within a bound per order (searches, cells expanded) with the
// rest queued and served at the end of each tick within a budget of its own; a deferred
// formation asks again the next tick.
struct FallbackBudget {
  std::uint32_t order_searches = 1000000;  // per order
  std::uint64_t order_cells = std::numeric_limits<std::uint64_t>::max();
  std::size_t tick_searches = 0;  // served from the queue per tick
  std::uint64_t tick_cells = std::numeric_limits<std::uint64_t>::max();
};

void RunGroupOrders(const Layers& layers, const FallbackBudget& budget, int ticks,
                    std::uint32_t seed, const char* label) {
  LiveWorldOptions options;
  options.group_fallback_searches = budget.order_searches;
  options.group_fallback_cells = budget.order_cells;
  std::unique_ptr<LiveWorld> world = *LiveWorld::FromLayers(layers, options);
  FallbackQueue queue;
  std::mt19937 rng(seed);
  struct Formation {
    std::vector<GroupMember> members;
    Cell goal;
    bool waiting = false;  // deferred members: ask again next tick
    int ordered_at = 0;    // the tick of the order now being answered
  };
  std::vector<Formation> formations(50);
  GroupFormation shape;
  for (int rank = 0; rank < 4; ++rank) {
    for (int file = -2; file <= 2; ++file) shape.slots.push_back({-1.0 * rank, 1.0 * file});
  }
  world->Inspect([&](const LiveGrid& grid, const Layers&) {
    for (Formation& f : formations) {
      const Cell centre = RandomOpenCell(grid, rng);
      std::uniform_int_distribution<std::int32_t> d(-12, 12);
      while (f.members.size() < 20) {
        const Cell c{centre.x + d(rng), centre.y + d(rng)};
        if (grid.Open(c, Passability::kLight)) f.members.push_back({c, Passability::kLight});
      }
      f.goal = NearbyOpenCell(grid, centre, 96, rng);
    }
  });
  const LiveCounters before = world->Counters();
  std::vector<double> tick_us;
  std::uint64_t orders = 0, deferred = 0, most_searches = 0, complete = 0, waited = 0;
  for (int tick = 0; tick < ticks; ++tick) {
    const Clock::time_point t0 = Clock::now();
    const std::uint64_t searches_before = world->Counters().searches;
    for (std::size_t k = 0; k < formations.size(); ++k) {
      Formation& f = formations[k];
      if (!f.waiting && (static_cast<int>(k) + tick) % 10 != 0) continue;
      if (!f.waiting) f.ordered_at = tick;
      const Cell at = f.members[0].start;
      shape.facing_degrees = std::atan2(f.goal.y - at.y, f.goal.x - at.x) * 180.0 / 3.14159265;
      absl::StatusOr<GroupPlan> plan = world->PathGroup(
          f.members, f.goal, &shape,
          [&](const DeferredSearch& d) { return queue.IsWaiting(world.get(), d); });
      ++orders;
      if (!plan.ok()) continue;
      deferred += plan->deferred;
      for (const DeferredSearch& d : plan->deferred_requests) queue.Push(world.get(), d);
      f.waiting = plan->deferred > 0;
      if (!f.waiting) {  // ordered: the formation will be somewhere else next time
        ++complete;
        waited += static_cast<std::uint64_t>(tick - f.ordered_at);
        world->Inspect([&](const LiveGrid& grid, const Layers&) {
          f.goal = NearbyOpenCell(grid, f.members[0].start, 96, rng);
        });
      }
    }
    queue.Serve(budget.tick_searches, budget.tick_cells);
    tick_us.push_back(MicrosSince(t0));
    most_searches = std::max(most_searches, world->Counters().searches - searches_before);
  }
  const LiveCounters after = world->Counters();
  std::printf("  %-28s tick median %6.2f ms, p99 %6.2f ms, max %6.2f ms\n", label,
              Median(tick_us) / 1000.0, Percentile(tick_us, 0.99) / 1000.0,
              *std::max_element(tick_us.begin(), tick_us.end()) / 1000.0);
  std::printf(
      "  %-28s %.3f searches per unit per tick, at most %llu in a tick; %llu orders answered "
      "whole after %.2f ticks on average; %llu asks, %llu members deferred, %llu served from "
      "the queue\n",
      "", static_cast<double>(after.searches - before.searches) / (1000.0 * ticks),
      static_cast<unsigned long long>(most_searches), static_cast<unsigned long long>(complete),
      static_cast<double>(waited) / std::max<double>(1.0, static_cast<double>(complete)),
      static_cast<unsigned long long>(orders), static_cast<unsigned long long>(deferred),
      static_cast<unsigned long long>(after.fallbacks_served - before.fallbacks_served));
}

struct WideRun {
  double paths_per_second = 0;
  std::uint64_t paths = 0, found = 0, searches = 0, cells_expanded = 0, updates = 0;
};

// Asks FindPath for `pairs` in turn, with `radius` and `half_width`, for `seconds` while a thread
// applies 100 blocker updates a second (a 3 x 3 building placed, the previous one removed).
WideRun MeasureWide(LiveWorld& world, const std::vector<std::pair<Cell, Cell>>& pairs,
                    double radius, double half_width, int seconds, std::uint32_t seed) {
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> updates{0};
  std::thread updater([&] {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> at(0, world.width() - 4);
    EntityId id = 900000000;
    bool placed = false;
    Clock::time_point next = Clock::now();
    while (!stop.load()) {
      next += std::chrono::milliseconds(10);
      std::this_thread::sleep_until(next);
      const double x = at(rng), y = at(rng);
      std::vector<BlockerChange> changes;
      if (placed) changes.push_back(BlockerChange::RemoveBuilding(id++));
      changes.push_back(BlockerChange::AddBuilding(id, {x, y, x + 3, y + 3}));
      placed = world.UpdateBlockers(changes).ok();  // a fresh id on the map: always applies
      updates.fetch_add(1);
    }
    if (placed) (void)world.UpdateBlockers(std::vector{BlockerChange::RemoveBuilding(id)});
  });
  const LiveCounters before = world.Counters();
  WideRun run;
  const Clock::time_point start = Clock::now();
  const auto end = start + std::chrono::seconds(seconds);
  for (std::size_t k = 0; Clock::now() < end; k = (k + 1) % pairs.size()) {
    PathRequest request{pairs[k].first, pairs[k].second, Passability::kLight};
    request.radius = radius;
    request.formation_half_width = half_width;
    const absl::StatusOr<LivePath> p = world.FindPath(request);
    ++run.paths;
    run.found += p.ok() && p->status == PathStatus::kFound;
  }
  const double elapsed = MicrosSince(start) / 1e6;
  stop = true;
  updater.join();
  const LiveCounters after = world.Counters();
  run.paths_per_second = static_cast<double>(run.paths) / elapsed;
  run.searches = after.searches - before.searches;
  run.cells_expanded = after.cells_expanded - before.cells_expanded;
  run.updates = updates.load();
  return run;
}

int RunWide(Options o) {
  if (!o.size_given) o.size = 512;
  std::vector<EntityId> gates;
  auto world = LiveWorld::FromLayers(MakeMap(o, &gates));
  if (!world.ok()) {
    std::fprintf(stderr, "%s\n", world.status().ToString().c_str());
    return 1;
  }
  // Pairs within 96 cells whose ends a 1.5-cell body fits on, joined at radius 0.
  std::vector<std::pair<Cell, Cell>> pairs;
  std::mt19937 rng(o.seed);
  const std::uint16_t need = ClassifyBody(1.5).need;
  (*world)->Inspect([&](const LiveGrid& grid, const Layers&) {
    while (pairs.size() < 4000) {
      const Cell a = RandomOpenCell(grid, rng);
      const Cell b = NearbyOpenCell(grid, a, 96, rng);
      if (grid.Fits(a, Passability::kLight, need) && grid.Fits(b, Passability::kLight, need)) {
        pairs.emplace_back(a, b);
      }
    }
  });
  std::printf(
      "live_bench --wide: %d x %d map, seed %u; %zu pairs within 96 cells, %d s a body, "
      "100 blocker updates a second from an updater thread\n",
      o.size, o.size, o.seed, pairs.size(), o.wide_seconds);
  struct Body {
    const char* label;
    double radius, half_width;
  };
  double base = 0;
  for (const Body& b : {Body{"radius 0", 0.0, 0.0}, Body{"radius 1.5", 1.5, 0.0},
                        Body{"radius 0.5, half-width 3", 0.5, 3.0}}) {
    const WideRun r = MeasureWide(**world, pairs, b.radius, b.half_width, o.wide_seconds, o.seed);
    if (base == 0) base = r.paths_per_second;
    std::printf(
        "  %-26s %8.0f paths/s  (%.2f of radius 0; %.1f%% found, %.0f cells expanded a "
        "search, %llu updates applied)\n",
        b.label, r.paths_per_second, r.paths_per_second / base,
        100.0 * static_cast<double>(r.found) / static_cast<double>(r.paths),
        r.searches ? static_cast<double>(r.cells_expanded) / r.searches : 0.0,
        static_cast<unsigned long long>(r.updates));
  }
  return 0;
}

int Run(const Options& o) {
  std::printf("live_bench: %d x %d map, seed %u\n", o.size, o.size, o.seed);
  std::vector<EntityId> gates;
  Clock::time_point t0 = Clock::now();
  Layers layers = MakeMap(o, &gates);
  std::printf("map generated in %.0f ms: %zu footprints, %zu gates\n", MicrosSince(t0) / 1000.0,
              layers.footprint_count(), gates.size());
  LiveWorldOptions world_options;
  absl::StatusOr<std::unique_ptr<LiveWorld>> made =
      LiveWorld::FromLayers(std::move(layers), world_options);
  if (!made.ok()) {
    std::fprintf(stderr, "%s\n", made.status().ToString().c_str());
    return 1;
  }
  LiveWorld& world = **made;
  std::size_t open = 0;
  world.Inspect([&](const LiveGrid& grid, const Layers&) {
    for (CellIndex i = 0; i < grid.cell_count(); ++i) open += grid.Open(i, Passability::kLight);
  });
  std::printf("cells %u, light-open %.1f%%\n\n", world.width() * world.height(),
              100.0 * static_cast<double>(open) / (world.width() * world.height()));

  // 1. Full rebuild.
  std::vector<double> full_us;
  for (int k = 0; k < 15; ++k) {
    t0 = Clock::now();
    world.RebuildAll();
    full_us.push_back(MicrosSince(t0));
  }
  // 2. Regional rebuild of a 10 x 10 footprint, placed then removed, anywhere on the map.
  std::mt19937 rng(o.seed + 17);
  std::vector<double> add_us, remove_us;
  const std::uint64_t region_cells_before = world.Counters().region_cells_visited;
  for (int k = 0; k < 400; ++k) {
    const double x = std::uniform_int_distribution<int>(0, world.width() - 10)(rng);
    const double y = std::uniform_int_distribution<int>(0, world.height() - 10)(rng);
    const BlockerChange add = BlockerChange::AddBuilding(900000, {x, y, x + 10, y + 10});
    t0 = Clock::now();
    absl::StatusOr<UpdateResult> r = world.UpdateBlockers({&add, 1});
    add_us.push_back(MicrosSince(t0));
    const BlockerChange remove = BlockerChange::RemoveBuilding(900000);
    t0 = Clock::now();
    r = world.UpdateBlockers({&remove, 1});
    remove_us.push_back(MicrosSince(t0));
    if (!r.ok() || r->full_rebuild) {
      std::fprintf(stderr, "unexpected: %s\n", r.status().ToString().c_str());
      return 1;
    }
  }
  const double region_cells_per_update =
      static_cast<double>(world.Counters().region_cells_visited - region_cells_before) / 800.0;
  std::vector<double> both = add_us;
  both.insert(both.end(), remove_us.begin(), remove_us.end());
  const double full_ms = Median(full_us) / 1000.0;
  const double regional_us = Median(both);
  std::printf("full rebuild                 median %8.2f ms   min %.2f ms   (goal <= 20 ms: %s)\n",
              full_ms, *std::min_element(full_us.begin(), full_us.end()) / 1000.0,
              full_ms <= 20.0 ? "met" : "NOT met");
  std::printf(
      "regional rebuild 10x10       median %8.2f us   (place %.2f, remove %.2f; p99 %.1f us)"
      "   (goal <= 50 us: %s)\n",
      regional_us, Median(add_us), Median(remove_us), Percentile(both, 0.99),
      regional_us <= 50.0 ? "met" : "NOT met");
  std::printf("  region cells touched per update: %.0f (of %d)\n", region_cells_per_update,
              world.width() * world.height());
  std::printf("full / regional              %8.0fx\n\n", full_ms * 1000.0 / regional_us);

  // 3. A*: uncached and cached, across the map and within 64 cells.
  for (const std::int32_t reach : {0, 64}) {
    std::vector<std::pair<Cell, Cell>> pairs;
    world.Inspect([&](const LiveGrid& grid, const Layers&) {
      while (pairs.size() < (reach == 0 ? 300u : 2000u)) {
        const Cell a = RandomOpenCell(grid, rng);
        Cell b = a;
        if (reach == 0) {
          b = RandomOpenCell(grid, rng);
        } else {
          std::uniform_int_distribution<std::int32_t> d(-reach, reach);
          b = Cell{a.x + d(rng), a.y + d(rng)};
        }
        if (!(a == b) && grid.Open(b, Passability::kLight) &&
            grid.Reachable(a, b, Passability::kLight)) {
          pairs.push_back({a, b});
        }
      }
    });
    std::vector<double> uncached, cached, search_only;
    std::vector<double> expanded;
    double cells = 0, waypoints = 0;
    const LiveCounters before = world.Counters();
    LiveSearch search;
    for (const auto& [a, b] : pairs) {
      // The same pair three ways, back to back so machine noise hits all three alike.
      t0 = Clock::now();
      absl::StatusOr<LivePath> p = world.FindPath({a, b, Passability::kLight});
      uncached.push_back(MicrosSince(t0));
      if (!p.ok() || p->status != PathStatus::kFound || p->from_cache) {
        std::fprintf(stderr, "unexpected answer\n");
        return 1;
      }
      cells += static_cast<double>(p->cells.size());
      waypoints += static_cast<double>(p->waypoints.size());
      t0 = Clock::now();
      p = world.FindPath({a, b, Passability::kLight});
      cached.push_back(MicrosSince(t0));
      if (!p.ok() || !p->from_cache) {
        std::fprintf(stderr, "expected a cache hit\n");
        return 1;
      }
      world.Inspect([&](const LiveGrid& grid, const Layers&) {
        t0 = Clock::now();
        const SearchResult r = search.FindPath(grid, a, b, Passability::kLight);
        search_only.push_back(MicrosSince(t0));
        expanded.push_back(static_cast<double>(r.stats.cells_expanded));
      });
    }
    const LiveCounters after = world.Counters();
    const double count = static_cast<double>(pairs.size());
    std::printf("A* %s (%zu pairs, %.0f cells and %.1f waypoints a path, %.0f cells expanded)\n",
                reach == 0 ? "across the map" : "within 64 cells", pairs.size(), cells / count,
                waypoints / count, Median(expanded));
    std::printf("  uncached FindPath          median %10.1f us   (A* alone %.1f us; p90 %.1f us)\n",
                Median(uncached), Median(search_only), Percentile(uncached, 0.9));
    std::printf("  cached FindPath            median %10.2f us   uncached / cached %.0fx\n",
                Median(cached), Median(uncached) / Median(cached));
    std::printf("  heap operations per search %.0f\n",
                static_cast<double>(after.heap_operations - before.heap_operations) / count);
  }

  // 4. 1,000 units re-asking every tick, with a blocker change (a gate toggles) every 20 ticks:
  // a new revision, after which every unit's question is searched again. Holding units ask the
  // same question every tick (chasing a target that stands, waiting at a gate); marching units
  // step to their path's next cell every 4th tick (walking pace at 20 ticks a second), so a
  // quarter of them ask a new question each tick. The cache starts cold for each run.
  std::vector<Unit> units;
  world.Inspect([&](const LiveGrid& grid, const Layers&) {
    while (units.size() < static_cast<std::size_t>(o.units)) {
      const Cell a = RandomOpenCell(grid, rng);
      std::uniform_int_distribution<std::int32_t> d(-48, 48);
      const Cell b{a.x + d(rng), a.y + d(rng)};
      if (grid.Open(b, Passability::kLight) && grid.Reachable(a, b, Passability::kLight)) {
        units.push_back({a, b, a, static_cast<int>(units.size() % 4)});
      }
    }
  });
  std::printf("\n%d units re-asking every tick for %d ticks, a gate toggled every 20 ticks:\n",
              o.units, o.ticks);
  TickPlan plan;
  plan.ticks = o.ticks;
  RunTicks(world, units, gates, plan, "holding, 1 thread");
  plan.step_every = 4;
  RunTicks(world, units, gates, plan, "marching, 1 thread");
  plan.threads = 2;
  RunTicks(world, units, gates, plan, "marching, 2 threads");
  plan.threads = 1;
  plan.chase_every = 8;
  RunTicks(world, units, gates, plan, "chasing, 1 thread");

  // The same questions with the seed's two savings: short clear moves take the direct line, and
  // each unit asks with its id so a route whose goal moved less than 1.5 cells is kept.
  LiveWorldOptions savings;
  savings.direct_line_cells = 16;
  std::vector<EntityId> same_gates;
  std::unique_ptr<LiveWorld> saving = *LiveWorld::FromLayers(MakeMap(o, &same_gates), savings);
  std::printf("\nthe same, with direct lines (16 cells) and kept routes (unit ids):\n");
  plan = TickPlan{};
  plan.ticks = o.ticks;
  plan.unit_ids = true;
  plan.step_every = 4;
  RunTicks(*saving, units, same_gates, plan, "marching, 1 thread");
  plan.chase_every = 8;
  RunTicks(*saving, units, same_gates, plan, "chasing, 1 thread");

  std::printf("\n1000 units in 50 formations of 20, 5 ordered every tick, %d ticks:\n", o.ticks);
  const Layers group_layers = MakeMap(o, &same_gates);
  RunGroupOrders(group_layers, FallbackBudget{}, o.ticks, o.seed, "every fallback inline");
  RunGroupOrders(group_layers, FallbackBudget{4, std::numeric_limits<std::uint64_t>::max(), 32},
                 o.ticks, o.seed, "4 an order, 32 a tick");
  RunGroupOrders(group_layers, FallbackBudget{4, 20000, 32, 100000}, o.ticks, o.seed,
                 "and 20k / 100k cells");
  RunGroupOrders(group_layers, FallbackBudget{4, 50000, 64, 400000}, o.ticks, o.seed,
                 "4 / 50k cells, 64 / 400k");
  return 0;
}

}  // namespace
}  // namespace walk::nav::live

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "--worlds") == 0) {
    return walk::bench::RunWorldsBench(argc >= 3 ? std::atoi(argv[2]) : 50, 1);
  }
  walk::nav::live::Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const long v = std::strtol(argv[i + 1], nullptr, 10);
    if (std::strcmp(argv[i], "--size") == 0 && v >= 100) {
      o.size = static_cast<std::int32_t>(v);
      o.size_given = true;
    } else if (std::strcmp(argv[i], "--wide") == 0 && v > 0) {
      o.wide_seconds = static_cast<int>(v);
    } else if (std::strcmp(argv[i], "--seed") == 0) {
      o.seed = static_cast<std::uint32_t>(v);
    } else if (std::strcmp(argv[i], "--units") == 0 && v > 0) {
      o.units = static_cast<int>(v);
    } else if (std::strcmp(argv[i], "--ticks") == 0 && v > 0) {
      o.ticks = static_cast<int>(v);
    } else {
      std::fprintf(stderr,
                   "usage: live_bench [--size N>=100] [--seed N] [--units N] [--ticks N]\n"
                   "       live_bench --worlds [N]   worlds created, timed and dropped\n"
                   "       live_bench --wide SECONDS [--size N] [--seed N]   wide bodies\n");
      return 2;
    }
  }
  return o.wide_seconds > 0 ? walk::nav::live::RunWide(o) : walk::nav::live::Run(o);
}
