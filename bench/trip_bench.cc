// trip_bench: trip queries through a running walkd, one at a time, timed at the client: cold
// (an empty store and node-walk cache), with the node walks cached (new ends after the cold
// pass), and stored (the cold pass again); and the baseline, a cold Walk between other ends of
// the same spread, in the same run (docs/benchmarks.md, "Trips"; driven by bench/trip_bench.py).
//
// Usage: trip_bench --addr HOST:PORT --world NAME [--profile faction-a] [--band 0] [--trips 200]
//                   [--seed 1] [--min-yards 300] [--max-yards 5000] [--cold-only 1]
//                   [--slowest N]
// (--cold-only 1: the baseline walks and the cold trips only; --slowest N: the N slowest cold
// trips' ends and times, to ask again with `walkctl trip`).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "client/walk_client.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Args {
  std::string addr, world, profile = "faction-a";
  std::uint32_t band = 0;
  int trips = 200;
  unsigned seed = 1;
  double min_yards = 300, max_yards = 5000;
  bool cold_only = false;
  int slowest = 0;
};

Args Parse(int argc, char** argv) {
  Args args;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--addr")
      args.addr = value;
    else if (flag == "--world")
      args.world = value;
    else if (flag == "--profile")
      args.profile = value;
    else if (flag == "--band")
      args.band = static_cast<std::uint32_t>(std::stoul(value));
    else if (flag == "--trips")
      args.trips = std::stoi(value);
    else if (flag == "--seed")
      args.seed = static_cast<unsigned>(std::stoul(value));
    else if (flag == "--min-yards")
      args.min_yards = std::stod(value);
    else if (flag == "--max-yards")
      args.max_yards = std::stod(value);
    else if (flag == "--cold-only")
      args.cold_only = value == "1";
    else if (flag == "--slowest")
      args.slowest = std::stoi(value);
    else {
      std::fprintf(stderr, "trip_bench: unknown flag %s\n", flag.c_str());
      std::exit(2);
    }
  }
  if (args.addr.empty() || args.world.empty()) {
    std::fprintf(stderr, "usage: trip_bench --addr HOST:PORT --world NAME [...]\n");
    std::exit(2);
  }
  return args;
}

struct Pair {
  walk::v1::Place from, to;
};

// `count` pairs on the extent, each `min_yards` .. `max_yards` apart (straight line).
std::vector<Pair> MakePairs(int count, const walk::v1::ContinentInfo& c, const Args& args,
                            std::mt19937& rng) {
  std::uniform_real_distribution<double> x(c.min_x_yards(), c.max_x_yards());
  std::uniform_real_distribution<double> y(c.min_y_yards(), c.max_y_yards());
  std::uniform_real_distribution<double> apart(args.min_yards, args.max_yards);
  std::uniform_real_distribution<double> angle(0.0, 2.0 * 3.14159265358979);
  std::vector<Pair> pairs;
  while (static_cast<int>(pairs.size()) < count) {
    Pair p;
    p.from.set_continent(c.id());
    p.from.set_x_yards(x(rng));
    p.from.set_y_yards(y(rng));
    const double d = apart(rng), a = angle(rng);
    const double tx = p.from.x_yards() + d * std::cos(a), ty = p.from.y_yards() + d * std::sin(a);
    if (tx < c.min_x_yards() || ty < c.min_y_yards() || tx >= c.max_x_yards() ||
        ty >= c.max_y_yards()) {
      continue;
    }
    p.to = p.from;
    p.to.set_x_yards(tx);
    p.to.set_y_yards(ty);
    pairs.push_back(p);
  }
  return pairs;
}

struct Pass {
  std::vector<double> ms;
  double walks_priced = 0, walks_stored = 0;
  int rode = 0, found = 0;
  int exhausted = 0;  // trips that spent walkd's search budget (RESOURCE_EXHAUSTED)
};

double Quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
}

void Print(const char* name, const Pass& pass) {
  const double n = static_cast<double>(pass.ms.size());
  double sum = 0;
  for (double ms : pass.ms) sum += ms;
  std::printf("%-28s %6zu %9.2f %9.2f %9.2f %9.1f %9.1f %6.0f%% %6.0f%%\n", name, pass.ms.size(),
              Quantile(pass.ms, 0.5), Quantile(pass.ms, 0.9), sum / n, pass.walks_priced / n,
              pass.walks_stored / n, 100.0 * pass.found / n, 100.0 * pass.rode / n);
}

Pass Trips(walk::client::WalkClient& client, const Args& args, const std::vector<Pair>& pairs) {
  Pass pass;
  for (const Pair& p : pairs) {
    walk::v1::TripRequest request;
    request.set_world(args.world);
    request.set_profile(args.profile);
    request.set_band(args.band);
    *request.mutable_from() = p.from;
    *request.mutable_to() = p.to;
    walk::v1::TripResponse response;
    const auto start = Clock::now();
    const grpc::Status status = client.Trip(request, &response);
    pass.ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    if (status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
      ++pass.exhausted;
      continue;
    }
    if (!status.ok()) {
      std::fprintf(stderr, "trip_bench: %s\n", status.error_message().c_str());
      std::exit(1);
    }
    pass.walks_priced += response.walks_priced();
    pass.walks_stored += response.walks_stored();
    pass.rode += response.rode();
    pass.found += response.status() == walk::v1::TRIP_STATUS_OK;
  }
  return pass;
}

Pass Walks(walk::client::WalkClient& client, const Args& args, const std::vector<Pair>& pairs) {
  Pass pass;
  for (const Pair& p : pairs) {
    walk::v1::WalkRequest request;
    request.set_world(args.world);
    request.set_profile(args.profile);
    request.set_band(args.band);
    request.set_backend(walk::v1::BACKEND_GRID);
    *request.mutable_from() = p.from;
    *request.mutable_to() = p.to;
    walk::v1::WalkResponse response;
    const auto start = Clock::now();
    const grpc::Status status = client.Walk(request, &response);
    pass.ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    if (!status.ok()) {
      std::fprintf(stderr, "trip_bench: %s\n", status.error_message().c_str());
      std::exit(1);
    }
    pass.walks_priced += 1;
    pass.found += response.status() == walk::v1::WALK_STATUS_OK;
  }
  return pass;
}

// The `count` slowest of `pass`'s trips, asked between `pairs`, as walkctl's --from and --to.
void PrintSlowest(const Pass& pass, const std::vector<Pair>& pairs, int count) {
  std::vector<std::size_t> order(pass.ms.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return pass.ms[a] > pass.ms[b]; });
  order.resize(std::min(order.size(), static_cast<std::size_t>(std::max(count, 0))));
  for (std::size_t i : order) {
    std::printf("  slow trip %.2f ms: --from %.1f,%.1f --to %.1f,%.1f\n", pass.ms[i],
                pairs[i].from.x_yards(), pairs[i].from.y_yards(), pairs[i].to.x_yards(),
                pairs[i].to.y_yards());
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = Parse(argc, argv);
  walk::client::WalkClient client(args.addr, 600.0);
  walk::v1::InfoResponse info;
  if (!client.Info(&info).ok()) {
    std::fprintf(stderr, "trip_bench: Info failed\n");
    return 1;
  }
  const walk::v1::WorldInfo* world = nullptr;
  for (const auto& w : info.worlds()) {
    if (w.name() == args.world) world = &w;
  }
  if (world == nullptr || world->continents_size() == 0) {
    std::fprintf(stderr, "trip_bench: no world %s with a continent\n", args.world.c_str());
    return 1;
  }
  std::mt19937 rng(args.seed);
  const walk::v1::ContinentInfo& c = world->continents(0);
  const std::vector<Pair> cold = MakePairs(args.trips, c, args, rng);
  const std::vector<Pair> fresh = MakePairs(args.trips, c, args, rng);
  const std::vector<Pair> baseline = MakePairs(args.trips, c, args, rng);
  std::printf("world %s (%u nodes, %u rides), profile %s, band %u, ends %.0f-%.0f yards apart\n",
              args.world.c_str(), world->travel().nodes(), world->travel().rides(),
              args.profile.c_str(), args.band, args.min_yards, args.max_yards);
  std::printf("%-28s %6s %9s %9s %9s %9s %9s %7s %7s\n", "pass", "asked", "median ms", "p90 ms",
              "mean ms", "walks", "stored", "found", "rode");
  // The baseline first, on its own ends, so every trip pass starts from the same leg caches.
  const Pass walks = Walks(client, args, baseline);
  Print("walk, cold (baseline)", walks);
  const Pass first = Trips(client, args, cold);
  Print("trip, cold", first);
  if (first.exhausted > 0) {
    std::printf("%d cold trips spent walkd's --max-search-expansions (RESOURCE_EXHAUSTED)\n",
                first.exhausted);
  }
  PrintSlowest(first, cold, args.slowest);
  if (args.cold_only) {
    std::printf("trip / walk, median: cold %.2f\n",
                Quantile(first.ms, 0.5) / Quantile(walks.ms, 0.5));
    return 0;
  }
  const Pass cached = Trips(client, args, fresh);
  Print("trip, node walks cached", cached);
  const Pass stored = Trips(client, args, cold);
  Print("trip, stored", stored);
  std::printf("trip / walk, median: cold %.2f, node walks cached %.2f, stored %.2f\n",
              Quantile(first.ms, 0.5) / Quantile(walks.ms, 0.5),
              Quantile(cached.ms, 0.5) / Quantile(walks.ms, 0.5),
              Quantile(stored.ms, 0.5) / Quantile(walks.ms, 0.5));
  return 0;
}
