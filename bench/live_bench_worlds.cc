#include "bench/live_bench_worlds.h"

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "nav/live/world_set.h"

namespace walk::bench {
namespace {

using Clock = std::chrono::steady_clock;
namespace live = nav::live;

double MillisSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// A match's map: 12 % rock, a river across the middle with three bridges, and its layers: a
// building every 24 cells in both directions, each with a gate.
live::LiveWorldSource MatchMap(int side, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> percent(0, 99);
  live::LiveWorldSource source;
  source.map_text = absl::StrCat("type octile\nheight ", side, "\nwidth ", side, "\nmap\n");
  for (int y = 0; y < side; ++y) {
    for (int x = 0; x < side; ++x) {
      char c = percent(rng) < 12 ? '@' : '.';
      if (y == side / 2 || y == side / 2 + 1) c = (x % (side / 3) == side / 6) ? '+' : 'W';
      if (x < 4 && y < 4) c = '.';
      source.map_text.push_back(c);
    }
    source.map_text.push_back('\n');
  }
  live::EntityId id = 1;
  for (int y = 8; y + 4 < side; y += 24) {
    for (int x = 8; x + 4 < side; x += 24) {
      if (y >= side / 2 - 4 && y <= side / 2 + 4) continue;
      absl::StrAppend(&source.layer_text, "building ", id, " ", x, " ", y, " ", x + 4, " ", y + 3,
                      "\ngate ", id + 1, " ", id, " ", x + 1, " ", y + 2, " ", x + 2, " ", y + 3,
                      " shut\n");
      id += 2;
    }
  }
  return source;
}

std::uint64_t ResidentMb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) / 1024;
  }
  return 0;
}

// One size: create, first path, reset and drop, `repeat` times; medians and means.
bool TimeLifecycle(int side, unsigned seed, int repeat) {
  std::vector<double> create, rebuild, first, cached, reset, drop;
  for (int r = 0; r < repeat; ++r) {
    live::LiveWorldSet set({}, {});
    const live::LiveWorldSource source = MatchMap(side, seed + r);
    Clock::time_point t = Clock::now();
    auto entry = set.Add("match", source, live::WorldKind::kCreated);
    create.push_back(MillisSince(t));
    if (!entry.ok()) {
      std::fprintf(stderr, "live_bench: %s\n", std::string(entry.status().message()).c_str());
      return false;
    }
    const live::PathRequest across{live::Cell{0, 0}, live::Cell{side - 1, side - 1}};
    t = Clock::now();
    auto path = entry->world->FindPath(across);
    first.push_back(MillisSince(t));
    t = Clock::now();
    (void)entry->world->FindPath(across);
    cached.push_back(MillisSince(t));
    t = Clock::now();
    entry->world->RebuildAll();
    rebuild.push_back(MillisSince(t));
    t = Clock::now();
    (void)set.Reset("match");
    reset.push_back(MillisSince(t));
    entry->world.reset();
    t = Clock::now();
    (void)set.Drop("match");
    malloc_trim(0);
    drop.push_back(MillisSince(t));
    if (r == 0 && (!path.ok() || path->status != live::PathStatus::kFound)) {
      std::printf("  (%d²: the corner-to-corner path was not found)\n", side);
    }
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  auto mean = [](const std::vector<double>& v) {
    double sum = 0;
    for (double x : v) sum += x;
    return sum / static_cast<double>(v.size());
  };
  std::printf(
      "%5d² %8.1f %8.1f %8.1f %8.2f %8.1f %8.1f   (create / full recompose: %.2f; means %.1f "
      "%.1f %.1f %.2f %.1f %.1f)\n",
      side, median(create), median(rebuild), median(first), median(cached), median(reset),
      median(drop), median(create) / median(rebuild), mean(create), mean(rebuild), mean(first),
      mean(cached), mean(reset), mean(drop));
  return true;
}

}  // namespace

int RunWorldsBench(int rounds, unsigned seed) {
  std::printf("worlds that come and go (ms; medians of 5, LiveWorldSet in this process)\n");
  std::printf("  side   create  recompose first path  cached    reset     drop\n");
  for (int side : {256, 512, 1024}) {
    if (!TimeLifecycle(side, seed, 5)) return 1;
  }
  const std::uint64_t before = ResidentMb();
  std::uint64_t during = before;
  live::LiveWorldSet set({}, {});
  for (int r = 0; r < rounds; ++r) {
    auto entry =
        set.Add(absl::StrCat("match-", r), MatchMap(512, seed + r), live::WorldKind::kCreated);
    if (!entry.ok()) return 1;
    (void)entry->world->FindPath({live::Cell{0, 0}, live::Cell{511, 511}});
    during = std::max(during, ResidentMb());
  }
  for (int r = 0; r < rounds; ++r) (void)set.Drop(absl::StrCat("match-", r));
  malloc_trim(0);
  const std::uint64_t after = ResidentMb();
  std::printf(
      "resident: %llu MB before, %llu MB with %d 512² worlds held, %llu MB after they were "
      "dropped (%.2f of before)\n",
      static_cast<unsigned long long>(before), static_cast<unsigned long long>(during), rounds,
      static_cast<unsigned long long>(after), static_cast<double>(after) / before);
  return 0;
}

}  // namespace walk::bench
