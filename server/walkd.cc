#include "server/walkd.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "grpc/grpc.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/support/server_interceptor.h"
#include "nav/grid/grid_image.h"
#include "nav/navmesh/tile_cache.h"
#include "nav/search/lazy_buffer.h"
#include "prometheus/registry.h"
#include "server/admin_service.h"
#include "server/call_auth.h"
#include "server/calls_in_flight.h"
#include "server/health_service.h"
#include "server/live_service.h"
#include "server/memory_governor.h"
#include "server/metrics_exposer.h"
#include "server/metrics_gauges.h"
#include "server/search_pool.h"
#include "server/store_first_answerer.h"
#include "server/store_health.h"
#include "server/tls_files.h"
#include "server/trip_planner.h"
#include "server/walk_metrics.h"
#include "server/walk_service.h"
#include "server/world_registry.h"
#include "store/staged_dir.h"
#include "store/walk_store.h"

namespace walk::server {

// Everything walkd runs, and the steps of Walkd::Start that build it, in the order Start takes
// them. Members are destroyed in reverse order: the metrics endpoint, which reads the gauges'
// sources at scrape time, goes first.
struct Walkd::Parts {
  explicit Parts(const WalkdOptions& walkd_options) : options(walkd_options) {}

  // Process, walk and leg-cache metrics.
  void RegisterMetrics();
  // The token (--auth-token-file) and the TLS files, checked before anything listens.
  absl::Status LoadSecurity();
  // The worlds under --worlds (or the default world), declared, not loaded yet.
  absl::Status DeclareWorlds();
  // The walk store (--store, --ingest), the answer cache and its warmer, and their gauges.
  absl::Status OpenStore();
  // Holds resident memory near --memory-mb (after the store: its caches give way to band metrics).
  void StartMemoryGovernor();
  // The store-first answerer, the search pool and WalkService.
  void CreateWalkService();
  // LiveService with the worlds under --live-worlds.
  absl::Status CreateLiveService();
  // The gRPC server on --listen, with WalkService, health, LiveService and reflection.
  absl::Status StartGrpc();
  // /metrics, /healthz and /readyz on --metrics-listen (none when it is empty).
  absl::Status StartMetricsEndpoint();
  // Loads the worlds in the background; health turns SERVING once every one is ready.
  void StartLoadingWorlds();
  // Reloads `world` (empty: every world) whose files changed (WorldRegistry::Reload): logs what
  // each did (`why` names who asked), counts it, updates the world gauges and health, then
  // calls `then` (may be null).
  void ReloadWorlds(const std::string& world, const char* why, WorldRegistry::ReloadDone then);

  WalkdOptions options;
  CallAuth auth;  // open unless --auth-token-file
  TlsFiles tls;
  // Shared with the metrics endpoint, which collects them while it runs.
  std::shared_ptr<prometheus::Registry> registry = std::make_shared<prometheus::Registry>();
  std::shared_ptr<CallbackGauges> gauges = std::make_shared<CallbackGauges>();
  std::unique_ptr<WalkMetrics> metrics;
  WorldRegistry worlds;
  // True once walkd stops for good (its grace over): every search stops (server/call_stop.h).
  std::atomic<bool> stopping{false};
  std::unique_ptr<SearchPool> pool;
  std::unique_ptr<store::WalkStore> store;
  std::unique_ptr<store::AnswerCache> answer_cache;
  // The store's health: degraded while it takes no writes (declared after the store: gone first).
  std::unique_ptr<StoreHealth> store_health;
  // Fills the answer cache from the store at start (declared after both: stopped first).
  std::jthread cache_warmer;
  // Hands mapped grid pages back past --grid-resident-mb (declared after the worlds).
  std::jthread grid_trimmer;
  // Holds resident memory near --memory-mb (declared after the worlds and its counts).
  MemoryGovernorCounts governed;
  std::jthread memory_governor;
  std::unique_ptr<StoreFirstAnswerer> answerer;
  HealthService health;
  std::unique_ptr<TripPlanner> trips;
  std::unique_ptr<WalkServiceImpl> service;
  std::unique_ptr<LiveServiceImpl> live;
  std::unique_ptr<AdminServiceImpl> admin;
  CallsInFlight calls;  // counted by the server (declared before it: outlives its calls)
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<MetricsExposer> metrics_exposer;
  std::string grpc_address;
  std::string metrics_address;
  std::once_flag shutdown_once;
};

namespace {

// How often a stop looks for calls still in flight.
constexpr auto kShutdownLookEvery = std::chrono::milliseconds(10);

// What the world's travel network holds, for the log.
std::string TravelNote(const ServedWorld& served) {
  if (!served.travel_error.empty()) return "refused (trips are refused)";
  if (served.travel == nullptr) return "none (trips walk)";
  std::size_t placed = 0;
  for (const nav::TravelNode& node : served.travel->nodes) placed += node.placed ? 1 : 0;
  return absl::StrCat(served.travel->nodes.size(), " nodes (", placed, " on the grid), ",
                      served.travel->rides.size(), " rides, ", served.travel->hearthstones.size(),
                      " hearthstones (", served.travel_source, ")");
}

// What each of the world's navmeshes is, for the log.
std::string NavMeshNotes(const ServedWorld& served) {
  std::string notes;
  for (const auto& navmesh : served.navmeshes)
    absl::StrAppend(&notes, "; navmesh: ", navmesh->note);
  return notes;
}

// "host:port" → host and the port bound, as walkd prints them.
std::string HostOf(const std::string& address) {
  const std::size_t colon = address.rfind(':');
  return colon == std::string::npos ? address : address.substr(0, colon);
}

// The worlds' leg caches, summed over every ready world (read at scrape time).
void AddLegCacheGauges(CallbackGauges& gauges, const WorldRegistry& worlds) {
  const WorldRegistry* world_registry = &worlds;
  auto leg_caches = [world_registry](auto read) {
    double total = 0.0;
    for (const WorldStatus& w : world_registry->Snapshot()) {
      if (w.served && w.served->router) total += read(w.served->router->leg_cache());
    }
    return total;
  };
  gauges.Add("walk_grid_mapped_resident_bytes",
             "Bytes of the worlds' mapped grid images resident in walkd (--grid-resident-mb).",
             [world_registry] {
               double total = 0.0;
               for (const WorldStatus& w : world_registry->Snapshot()) {
                 if (w.served) total += nav::MappedResidence(w.served->world).resident;
               }
               return total;
             });
  gauges.Add("walk_search_buffer_resident_bytes",
             "Bytes the search threads' fine-grid search buffers hold resident (about 256 MB "
             "each at most).",
             [] { return static_cast<double>(nav::LazyBuffersResidentBytes()); });
  gauges.Add("walk_leg_cache_bytes", "Bytes held by the worlds' leg caches.", [leg_caches] {
    return leg_caches(
        [](const nav::LegCache& cache) { return static_cast<double>(cache.bytes()); });
  });
  gauges.Add("walk_leg_cache_hit_ratio",
             "Share of leg lookups the leg caches answered since start.", [leg_caches] {
               const double hits = leg_caches(
                   [](const nav::LegCache& cache) { return static_cast<double>(cache.hits()); });
               const double misses = leg_caches(
                   [](const nav::LegCache& cache) { return static_cast<double>(cache.misses()); });
               return hits + misses > 0 ? hits / (hits + misses) : 0.0;
             });
  gauges.Add("walk_snap_cache_hit_ratio",
             "Share of places the worlds' snap caches snapped without reading the grid, since "
             "each world's load.",
             [world_registry] {
               double hits = 0.0, misses = 0.0;
               for (const WorldStatus& w : world_registry->Snapshot()) {
                 if (!w.served) continue;
                 hits += static_cast<double>(w.served->snaps->hits());
                 misses += static_cast<double>(w.served->snaps->misses());
               }
               return hits + misses > 0 ? hits / (hits + misses) : 0.0;
             });
}

// How a world's exact fine-grid walks go: its jump grids, and its subgoal hierarchies.
std::string FineGridNote(const ServedWorld& served) {
  const std::string& subgoals = served.subgoal_hierarchies.note();
  return subgoals.empty() ? served.jump_grids.note()
                          : absl::StrCat(served.jump_grids.note(), "; ", subgoals);
}

// The worlds' band metrics (--band-metrics-mb), summed over every ready world.
void AddBandMetricGauges(CallbackGauges& gauges, const WorldRegistry& worlds) {
  const WorldRegistry* world_registry = &worlds;
  auto caches = [world_registry](auto read) {
    double total = 0.0;
    for (const WorldStatus& w : world_registry->Snapshot()) {
      if (w.served && w.served->router) total += read(w.served->router->band_metrics());
    }
    return total;
  };
  using Cache = nav::BandMetricCache;
  gauges.Add("walk_band_metric_bytes", "Bytes held by the worlds' danger-band CCH metrics.",
             [caches] { return caches([](const Cache& c) { return double(c.bytes()); }); });
  gauges.AddCounter(
      "walk_band_metric_customizations_total",
      "Danger-band CCH metrics customized on first use (or again after eviction).",
      [caches] { return caches([](const Cache& c) { return double(c.customizations()); }); });
  gauges.AddCounter(
      "walk_band_metric_joins_total",
      "Walks (and tables) that helped customize a danger-band CCH metric another one was making, "
      "on a core its customization left free, rather than wait for it or go on without it.",
      [caches] { return caches([](const Cache& c) { return double(c.joins()); }); });
  gauges.AddCounter(
      "walk_band_metric_evictions_total",
      "Danger-band CCH metrics evicted, least recently used, to stay within "
      "--band-metrics-mb.",
      [caches] { return caches([](const Cache& c) { return double(c.evictions()); }); });
  gauges.AddCounter(
      "walk_band_metric_refusals_total",
      "Asks for a danger band's CCH metric turned away for lack of room (a walk asks where it "
      "could use one: for its whole way, for its priced ends' bound).",
      [caches] { return caches([](const Cache& c) { return double(c.refusals()); }); });
}

// What the memory governor aims at and did (zeros without --memory-mb).
void AddMemoryGovernorMetrics(CallbackGauges& gauges, const MemoryGovernorCounts& counts,
                              std::uint64_t target_bytes) {
  const MemoryGovernorCounts* c = &counts;
  gauges.Add("walk_memory_target_bytes", "walkd's resident memory target (--memory-mb; 0: none).",
             [target_bytes] { return double(target_bytes); });
  gauges.Add("walk_memory_band_metric_room_bytes",
             "What the worlds' band metrics may hold, as the memory governor last set it.",
             [c] { return double(c->band_metric_room.load(std::memory_order_relaxed)); });
  gauges.AddCounter("walk_memory_grid_releases_total",
                    "Times the memory governor handed every mapped grid page back.",
                    [c] { return double(c->grid_releases.load(std::memory_order_relaxed)); });
  gauges.AddCounter("walk_memory_buffer_recalls_total",
                    "Times the memory governor asked the search threads' buffers back.",
                    [c] { return double(c->buffer_recalls.load(std::memory_order_relaxed)); });
  gauges.AddCounter("walk_memory_heap_trims_total",
                    "Times the memory governor handed the allocator's free pages back.",
                    [c] { return double(c->heap_trims.load(std::memory_order_relaxed)); });
  gauges.AddCounter("walk_memory_heap_trimmed_bytes_total",
                    "Anonymous bytes the memory governor's heap trims gave back to the kernel.",
                    [c] { return double(c->heap_trimmed_bytes.load(std::memory_order_relaxed)); });
  gauges.Add("walk_memory_caches_yielding",
             "1 while the answer cache and the store's block cache give way to band metrics.",
             [c] { return c->caches_yielding.load(std::memory_order_relaxed) ? 1.0 : 0.0; });
  gauges.AddCounter("walk_memory_cache_yields_total",
                    "Times the answer cache and the store's block cache gave way to band metrics.",
                    [c] { return double(c->cache_yields.load(std::memory_order_relaxed)); });
}

// The worlds' profile metrics (--customize-at-load, else on first use), summed over every ready
// world.
void AddProfileMetricGauges(CallbackGauges& gauges, const WorldRegistry& worlds) {
  const WorldRegistry* world_registry = &worlds;
  gauges.AddCounter("walk_profile_metric_customizations_total",
                    "Profiles' CCH metrics customized (per continent), at load or on the "
                    "profile's first walk.",
                    [world_registry] {
                      double total = 0.0;
                      for (const WorldStatus& w : world_registry->Snapshot()) {
                        if (w.served && w.served->router) {
                          total += double(w.served->router->timings().profile_metrics);
                        }
                      }
                      return total;
                    });
}

// The worlds' navmesh tile caches (--navmesh-cache-mb), summed over every ready world.
void AddNavMeshCacheMetrics(CallbackGauges& gauges, const WorldRegistry& worlds) {
  const WorldRegistry* world_registry = &worlds;
  auto caches = [world_registry](auto read) {
    double total = 0.0;
    for (const WorldStatus& w : world_registry->Snapshot()) {
      if (!w.served) continue;
      for (const auto& navmesh : w.served->navmeshes) {
        const nav::NavMeshTileCache* cache =
            navmesh->navmesh ? navmesh->navmesh->tile_cache() : nullptr;
        if (cache != nullptr) total += static_cast<double>(read(*cache));
      }
    }
    return total;
  };
  gauges.AddCounter("walk_navmesh_tiles_decoded_total",
                    "Navmesh tiles read again from their files and added to Detour on first use "
                    "(--navmesh-cache-mb).",
                    [caches] { return caches([](const auto& c) { return c.tiles_decoded(); }); });
  gauges.AddCounter("walk_navmesh_tiles_evicted_total",
                    "Navmesh tiles removed from Detour, least recently used, to stay within "
                    "--navmesh-cache-mb.",
                    [caches] { return caches([](const auto& c) { return c.tiles_evicted(); }); });
  gauges.Add("walk_navmesh_resident_tile_bytes",
             "Bytes of navmesh tiles resident in the worlds' tile caches.",
             [caches] { return caches([](const auto& c) { return c.resident_bytes(); }); });
}

// Keeps each mapped grid's resident pages under `budget_bytes`: every 5 s, a world whose mapped
// image holds more hands its pages back (what walks read next comes back from the page cache).
std::jthread TrimMappedGrids(const WorldRegistry* worlds, std::uint64_t budget_bytes) {
  return std::jthread([worlds, budget_bytes](std::stop_token stop) {
    std::mutex mu;
    std::condition_variable_any wake;
    while (!stop.stop_requested()) {
      {
        std::unique_lock<std::mutex> lock(mu);
        wake.wait_for(lock, stop, std::chrono::seconds(5), [] { return false; });
      }
      if (stop.stop_requested()) break;
      for (const WorldStatus& w : worlds->Snapshot()) {
        if (w.served && nav::MappedResidence(w.served->world).resident > budget_bytes) {
          nav::ReleaseMappedPages(w.served->world);
        }
      }
    }
  });
}

// A restarted walkd answers yesterday's batch from memory too: the stored answers, in key order,
// as many as the cache's young maps hold, read in the background while it serves.
std::jthread WarmAnswerCache(const store::WalkStore* store, store::AnswerCache* cache) {
  return std::jthread([store, cache](std::stop_token stop) {
    const std::size_t room = cache->YoungCapacity() / 10 * 9;
    std::size_t loaded = 0;
    const auto started = std::chrono::steady_clock::now();
    const absl::Status read =
        store->ForEachOutcome([&](const store::WalkKey& key, const store::WalkOutcome& outcome) {
          if (stop.stop_requested() || loaded >= room) return false;
          cache->Insert(key, outcome);
          ++loaded;
          return true;
        });
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (!read.ok()) {
      // One write (std::cerr writes each << at once), as other threads print too.
      std::cerr << absl::StrCat("walkd: the answer cache was not warmed: ", read.message(), "\n");
    } else {
      std::cout << "walkd: answer cache warmed with " << loaded << " stored answers in "
                << std::fixed << std::setprecision(1) << seconds << " s" << std::endl;
    }
  });
}

}  // namespace

void Walkd::Parts::RegisterMetrics() {
  AddProcessGauges(*gauges);
  metrics = std::make_unique<WalkMetrics>(*registry);
  AddLegCacheGauges(*gauges, worlds);
  AddBandMetricGauges(*gauges, worlds);
  AddMemoryGovernorMetrics(*gauges, governed, options.memory_mb << 20);
  AddProfileMetricGauges(*gauges, worlds);
  AddNavMeshCacheMetrics(*gauges, worlds);
}

absl::Status Walkd::Parts::LoadSecurity() {
  if (!options.auth_token_file.empty()) {
    absl::StatusOr<CallAuth> loaded =
        CallAuth::FromFile(options.auth_token_file, options.auth_reads);
    if (!loaded.ok()) return loaded.status();
    auth = *std::move(loaded);
  } else if (options.auth_reads) {
    return absl::InvalidArgumentError("--auth-reads: needs --auth-token-file");
  }
  tls = {options.tls_cert, options.tls_key, options.tls_client_ca};
  return GrpcServerCredentials(tls).status();
}

absl::Status Walkd::Parts::DeclareWorlds() {
  worlds.SetLegCacheBytes(options.leg_cache_mb << 20);
  worlds.SetBandMetricBytes(options.band_metrics_mb << 20);
  worlds.SetProfilesAtLoad(options.customize_at_load);
  worlds.SetNavMeshCacheBytes(static_cast<std::uint64_t>(options.navmesh_cache_mb * (1 << 20)));
  worlds.SetMapGrids(options.map_grids);
  worlds.SetSubgoalHierarchies(options.subgoal_hierarchies);
  if (options.map_grids && options.grid_resident_mb > 0) {
    grid_trimmer = TrimMappedGrids(&worlds, options.grid_resident_mb << 20);
  }
  return worlds.Discover(options.worlds_dir, options.data_dir).status();
}

void Walkd::Parts::StartMemoryGovernor() {
  if (options.memory_mb == 0) return;
  MemoryGovernorOptions governing;
  governing.target_bytes = options.memory_mb << 20;
  governing.grid_room_bytes = options.grid_resident_mb << 20;
  governing.band_metric_bytes = options.band_metrics_mb << 20;
  // The answer cache and the store's block cache give way to band metrics (their answers are
  // still in the store); both live until the governor stops (declared before it).
  if (store != nullptr || answer_cache != nullptr) {
    governing.yield_caches = [this](bool yield) {
      auto bound = [yield](std::uint64_t mb) {
        return yield ? GivingWayBytes(mb << 20) : mb << 20;
      };
      if (store != nullptr) store->SetBlockCacheBytes(bound(options.store_block_cache_mb));
      if (answer_cache != nullptr) answer_cache->SetCapacity(bound(options.answer_cache_mb));
    };
  }
  memory_governor = GovernMemory(&worlds, std::move(governing), &governed);
}

absl::Status Walkd::Parts::OpenStore() {
  store::WalkStoreOptions store_options;
  store_options.dir = options.store_dir.empty()
                          ? (std::filesystem::path(options.data_dir) / "store").string()
                          : options.store_dir;
  store_options.row_cache_bytes = options.store_row_cache_mb << 20;
  store_options.block_cache_bytes = options.store_block_cache_mb << 20;
  store_options.max_bytes = options.store_max_bytes;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(store_options.dir).parent_path(), ec);
  // With --ingest, a new store is built beside and renamed into place once every pack is in.
  store::IngestDone ingested;
  absl::StatusOr<std::unique_ptr<store::WalkStore>> opened =
      options.ingest_dir.empty()
          ? store::WalkStore::Open(store_options)
          : store::WalkStore::OpenAndIngest(store_options, options.ingest_dir, &ingested);
  if (!opened.ok()) {
    return absl::Status(opened.status().code(),
                        absl::StrCat(ingested.packs_failed ? "--ingest: " : "--store: ",
                                     opened.status().message()));
  }
  store = *std::move(opened);
  store_health = std::make_unique<StoreHealth>(
      *store, *metrics, [this](bool degraded, const std::string& why) {
        health.SetStoreDegraded(degraded);
        metrics->SetStoreDegraded(degraded);
        // One write (std::cerr writes each << at once), as other threads print too.
        std::cerr << (degraded ? absl::StrCat("walkd: the walk store is degraded (answers are "
                                              "returned, not kept, until it resumes): ",
                                              why, "\n")
                               : std::string("walkd: the walk store takes writes again\n"));
      });
  if (ingested.cleared_leftover) {
    std::cout << "walkd: cleared "
              << store::StagingPathOf(store_options.dir, store::kIngestStagingSuffix)
              << ", the half store an interrupted ingest left" << std::endl;
  }
  for (const store::IngestStats& pack : ingested.packs) {
    std::cout << "walkd: ingested " << pack.answers << " answers of model "
              << nav::FormatId(pack.model) << " from " << options.ingest_dir << std::endl;
  }
  if (options.answer_cache_mb > 0) {
    answer_cache = std::make_unique<store::AnswerCache>(options.answer_cache_mb << 20);
    store::AnswerCache* cache = answer_cache.get();
    gauges->Add("walk_answer_cache_answers", "Stored answers held in memory for batch lookups.",
                [cache] { return static_cast<double>(cache->Size()); });
    gauges->Add("walk_answer_cache_bytes",
                "Bytes the answer cache's tables hold (--answer-cache-mb).",
                [cache] { return static_cast<double>(cache->Bytes()); });
    cache_warmer = WarmAnswerCache(store.get(), cache);
  }
  const store::WalkStore* raw_store = store.get();
  gauges->Add("walk_store_answers", "Answers in the walk store (RocksDB's estimate).", [raw_store] {
    auto answers = raw_store->EstimateAnswers();
    return answers.ok() ? static_cast<double>(*answers) : 0.0;
  });
  // The store's memory: its block cache (with index and filter blocks), memtables, and what its
  // tables hold outside the cache.
  using MemoryUse = store::WalkStore::MemoryUse;
  for (const auto& [name, help, part] :
       {std::tuple{"walk_store_block_cache_bytes",
                   "Bytes in the store's block cache, index and filter blocks included "
                   "(--store-block-cache-mb).",
                   &MemoryUse::block_cache},
        std::tuple{"walk_store_memtable_bytes", "Bytes in the store's memtables.",
                   &MemoryUse::memtables},
        std::tuple{"walk_store_table_reader_bytes",
                   "Bytes the store's open tables hold outside the block cache.",
                   &MemoryUse::table_readers}}) {
    gauges->Add(name, help, [raw_store, part = part] {
      auto memory = raw_store->Memory();
      return memory.ok() ? static_cast<double>((*memory).*part) : 0.0;
    });
  }
  return absl::OkStatus();
}

void Walkd::Parts::CreateWalkService() {
  answerer = std::make_unique<StoreFirstAnswerer>(worlds, store.get(), *metrics, answer_cache.get(),
                                                  options.hybrid_slack, store_health.get());
  const int threads = options.search_threads > 0
                          ? options.search_threads
                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  pool = std::make_unique<SearchPool>(threads);
  trips = std::make_unique<TripPlanner>(worlds, *answerer);
  WalkServiceImpl::Limits limits;
  limits.max_table_cells = options.max_table_cells;
  limits.max_table_stream_cells = options.max_table_stream_cells;
  limits.max_search_expansions = options.max_search_expansions;
  limits.max_floor_columns = options.max_floor_columns;
  limits.max_reply_bytes = options.max_reply_bytes;
  limits.batch.max_pairs_per_message = options.max_pairs_per_message;
  limits.batch.max_block_pairs = options.max_block_pairs;
  limits.batch.max_inflight_pairs = options.max_inflight_pairs;
  limits.max_group_starts = options.max_group_starts;
  limits.max_blocker_changes = options.max_blocker_changes;
  limits.live = options.live_limits;
  limits.max_message_bytes = options.max_message_bytes;
  limits.max_concurrent_streams = options.max_concurrent_streams;
  service = std::make_unique<WalkServiceImpl>(worlds, *answerer, *trips, *pool, *metrics, stopping,
                                              limits, auth);
}

absl::Status Walkd::Parts::CreateLiveService() {
  LiveServiceOptions live_options;
  live_options.dir = options.live_worlds_dir;
  live_options.created_dir = (std::filesystem::path(options.data_dir) / "live").string();
  live_options.limits = options.live_limits;
  live_options.on_worlds_changed = [this](const std::vector<std::string>& names) {
    health.SetLiveWorlds(names);
  };
  live_options.max_group_starts = options.max_group_starts;
  live_options.max_blocker_changes = options.max_blocker_changes;
  live_options.world.direct_line_cells = options.live_direct_cells;
  live_options.world.unit_routes = options.live_unit_routes;
  live_options.world.path_cache_entries = options.live_path_cache;
  live_options.world.group_fallback_searches = options.live_group_fallbacks;
  live_options.world.group_fallback_cells = options.live_group_fallback_cells;
  live_options.world.nearest_max_radius = options.live_nearest_radius;
  live_options.fallbacks.capacity = options.live_fallback_queue;
  live_options.fallbacks.per_world = std::max<std::uint64_t>(1, options.live_fallback_queue / 4);
  absl::StatusOr<std::unique_ptr<LiveServiceImpl>> created =
      LiveServiceImpl::Create(live_options, *metrics, auth);
  if (!created.ok()) return created.status();
  live = *std::move(created);
  service->set_live(live.get());
  health.SetLiveWorlds(live->world_names());
  return absl::OkStatus();
}

absl::Status Walkd::Parts::StartGrpc() {
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  // What the clients together may cost gRPC, whatever they send (docs/operations.md, "Limits").
  grpc::ResourceQuota quota("walkd");
  quota.Resize(static_cast<std::size_t>(options.grpc_memory_mb) << 20);
  builder.SetResourceQuota(quota);
  builder.SetMaxReceiveMessageSize(static_cast<int>(options.max_message_bytes));
  builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS,
                             static_cast<int>(options.max_concurrent_streams));
  if (options.max_connection_age_s > 0) {
    const int age_ms = static_cast<int>(
        std::min<std::uint64_t>(options.max_connection_age_s * 1000, std::uint64_t{1} << 30));
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_MS, age_ms);
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_GRACE_MS, age_ms);
  }
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials = GrpcServerCredentials(tls);
  if (!credentials.ok()) return credentials.status();
  int port = 0;
  builder.AddListeningPort(options.listen, *credentials, &port);
  builder.RegisterService(service.get());
  builder.RegisterService(&health);
  builder.RegisterService(live.get());
  admin = std::make_unique<AdminServiceImpl>(
      [this](const std::string& world, WorldRegistry::ReloadDone done) {
        ReloadWorlds(world, "AdminService.Reload", std::move(done));
      },
      *metrics, auth);
  builder.RegisterService(admin.get());
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> counters;
  counters.push_back(calls.CounterFactory());
  builder.experimental().SetInterceptorCreators(std::move(counters));
  server = builder.BuildAndStart();
  if (server == nullptr || port == 0) {
    return absl::UnavailableError(absl::StrCat("--listen: cannot listen on ", options.listen));
  }
  grpc_address = absl::StrCat(HostOf(options.listen), ":", port);
  return absl::OkStatus();
}

absl::Status Walkd::Parts::StartMetricsEndpoint() {
  if (options.metrics_listen.empty()) return absl::OkStatus();
  const std::size_t colon = options.metrics_listen.rfind(':');
  int port = -1;
  if (colon == std::string::npos ||
      !absl::SimpleAtoi(options.metrics_listen.substr(colon + 1), &port) || port < 0 ||
      port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("--metrics-listen: '", options.metrics_listen, "' is not HOST:PORT"));
  }
  const HealthService* health_service = &health;
  const StoreHealth* store_watch = store_health.get();
  metrics_exposer = std::make_unique<MetricsExposer>(
      std::vector<std::weak_ptr<prometheus::Collectable>>{registry, gauges},
      [health_service] { return health_service->serving(); },
      [store_watch]() -> std::string {
        if (store_watch == nullptr || !store_watch->degraded()) return "";
        return "store degraded: " + store_watch->why();
      });
  const std::string host = HostOf(options.metrics_listen);
  absl::StatusOr<int> bound = metrics_exposer->Start(host, port, {tls.cert, tls.key});
  if (!bound.ok()) {
    if (absl::IsInvalidArgument(bound.status())) return bound.status();  // names the TLS flag
    return absl::UnavailableError(absl::StrCat("--metrics-listen: ", bound.status().message()));
  }
  metrics_address = absl::StrCat(host, ":", *bound);
  return absl::OkStatus();
}

void Walkd::Parts::StartLoadingWorlds() {
  worlds.StartLoading([this](const WorldStatus& loaded) {
    metrics->SetWorlds(worlds.ReadyCount(), worlds.FailedCount());
    metrics->DeclareWorldReloads(loaded.name);
    if (loaded.served != nullptr && loaded.served->router != nullptr) {
      metrics->SetCchCustomizeSeconds(loaded.name,
                                      loaded.served->router->timings().customize_seconds);
    }
    if (loaded.stopped) {
      std::cout << "walkd: world '" << loaded.name << "': loading stopped, walkd is stopping ("
                << loaded.error << "); nothing half built was saved" << std::endl;
    } else if (loaded.state == WorldState::kFailed) {
      // One write (std::cerr writes each << at once), as other threads print too.
      std::cerr << absl::StrCat("walkd: world '", loaded.name, "' failed to load: ", loaded.error,
                                "\n");
    } else {
      std::cout << "walkd: world '" << loaded.name << "' ready (content id "
                << nav::FormatId(loaded.served->world.content_id) << ", from "
                << loaded.served->source << "); abstract graph: " << loaded.served->graph_note
                << "; grid: " << loaded.served->grid_note
                << "; fine grid: " << FineGridNote(*loaded.served)
                << "; travel: " << TravelNote(*loaded.served) << NavMeshNotes(*loaded.served)
                << std::endl;
    }
    // Strict: every world; else every world settled and one of them ready (a failed world stays
    // in Info, the log, walk_worlds_failed and its own calls' UNAVAILABLE).
    if (options.strict_worlds ? worlds.AllReady() : worlds.SettledWithOneReady()) {
      health.SetServing(true);
    }
  });
}

namespace {

// What one world's reload did, for the log (one write: other threads print too).
std::string ReloadLine(const WorldReload& reload, const WorldStatus& now) {
  if (reload.result == ReloadResult::kFailed) {
    return absl::StrCat("walkd: world '", reload.name, "' failed to reload",
                        now.served != nullptr ? " (the old world still serves)" : "", ": ",
                        reload.error, "\n");
  }
  const ServedWorld& served = *now.served;
  return absl::StrCat("walkd: world '", reload.name, "' reloaded in ",
                      absl::StrFormat("%.2f", reload.seconds), " s (", reload.changed,
                      " changed): content id ", nav::FormatId(served.world.content_id),
                      ", generation ", now.generation, "; abstract graph: ", served.graph_note,
                      "; grid: ", served.grid_note, "; fine grid: ", FineGridNote(served), "\n");
}

}  // namespace

void Walkd::Parts::ReloadWorlds(const std::string& world, const char* why,
                                WorldRegistry::ReloadDone then) {
  worlds.Reload(world, [this, why, then = std::move(then)](
                           const absl::StatusOr<std::vector<WorldReload>>& reloaded) {
    if (!reloaded.ok()) {
      std::cerr << absl::StrCat("walkd: reload (", why, "): ", reloaded.status().message(), "\n");
      if (then) then(reloaded);
      return;
    }
    int counts[4] = {0, 0, 0, 0};
    const std::vector<WorldStatus> now = worlds.Snapshot();
    for (const WorldReload& reload : *reloaded) {
      ++counts[static_cast<int>(reload.result)];
      if (reload.result == ReloadResult::kUnchanged) continue;
      metrics->RecordWorldReload(reload.name, reload.result == ReloadResult::kReloaded);
      for (const WorldStatus& w : now) {
        if (w.name != reload.name) continue;
        (reload.result == ReloadResult::kFailed ? std::cerr : std::cout) << ReloadLine(reload, w);
        if (reload.result == ReloadResult::kReloaded && w.served->router != nullptr) {
          metrics->SetCchCustomizeSeconds(w.name, w.served->router->timings().customize_seconds);
        }
      }
    }
    std::cout << absl::StrCat("walkd: reload (", why,
                              "): ", counts[static_cast<int>(ReloadResult::kReloaded)],
                              " reloaded, ", counts[static_cast<int>(ReloadResult::kUnchanged)],
                              " unchanged, ", counts[static_cast<int>(ReloadResult::kFailed)],
                              " failed\n")
              << std::flush;
    metrics->SetWorlds(worlds.ReadyCount(), worlds.FailedCount());
    if (options.strict_worlds ? worlds.AllReady() : worlds.SettledWithOneReady()) {
      health.SetServing(true);
    }
    if (then) then(reloaded);
  });
}

absl::StatusOr<std::unique_ptr<Walkd>> Walkd::Start(const WalkdOptions& options) {
  auto parts = std::make_unique<Parts>(options);
  Parts& p = *parts;
  if (absl::Status secured = p.LoadSecurity(); !secured.ok()) return secured;
  p.RegisterMetrics();
  if (absl::Status declared = p.DeclareWorlds(); !declared.ok()) return declared;
  if (!options.no_store) {
    if (absl::Status opened = p.OpenStore(); !opened.ok()) return opened;
  }
  p.StartMemoryGovernor();
  p.CreateWalkService();
  if (absl::Status created = p.CreateLiveService(); !created.ok()) return created;
  if (absl::Status started = p.StartGrpc(); !started.ok()) return started;
  if (absl::Status exposed = p.StartMetricsEndpoint(); !exposed.ok()) {
    p.server->Shutdown();
    return exposed;
  }
  p.StartLoadingWorlds();
  return std::unique_ptr<Walkd>(new Walkd(std::move(parts)));
}

Walkd::Walkd(std::unique_ptr<Parts> parts) : parts_(std::move(parts)) {}

Walkd::~Walkd() { Shutdown(0.0); }

std::string Walkd::grpc_address() const { return parts_->grpc_address; }
std::string Walkd::metrics_address() const { return parts_->metrics_address; }
void Walkd::WaitForWorlds() { parts_->worlds.JoinLoading(); }
void Walkd::Reload(const std::string& world) { parts_->ReloadWorlds(world, "SIGHUP", nullptr); }
bool Walkd::serving() const { return parts_->health.serving(); }

bool Walkd::Shutdown(double grace_s) {
  bool calls_done = false;
  std::call_once(parts_->shutdown_once, [this, grace_s, &calls_done] {
    Parts& p = *parts_;
    p.health.Shutdown();  // NOT_SERVING first, so balancers stop sending
    // A reload is optional work: the worlds serving stay. Stopping it at once also answers the
    // Reload calls waiting on it, so the server's shutdown does not wait for a load.
    p.worlds.StopReloading();
    const auto deadline = std::chrono::system_clock::now() +
                          std::chrono::milliseconds(static_cast<long long>(grace_s * 1000));
    // At the deadline every search stops, so the calls it cancels end at once. Before it, once
    // no call is left on two looks in a row, the connections are closed as the deadline would
    // close them: a client's idle channel would otherwise hold the stop for the whole grace.
    std::mutex alarm_mu;
    std::condition_variable alarm_wake;
    bool done = false;
    bool closed_idle = false;
    std::thread alarm([&] {
      std::unique_lock<std::mutex> lock(alarm_mu);
      int idle_looks = 0;
      while (!done && std::chrono::system_clock::now() < deadline) {
        alarm_wake.wait_until(
            lock, std::min(deadline, std::chrono::system_clock::now() + kShutdownLookEvery),
            [&] { return done; });
        idle_looks = p.calls.Count() == 0 ? idle_looks + 1 : 0;
        if (!done && !closed_idle && idle_looks >= 2) {
          closed_idle = true;
          grpc_server_cancel_all_calls(p.server->c_server());
        }
      }
      calls_done = closed_idle || done;
      p.stopping = true;
    });
    p.server->Shutdown(deadline);  // waits for calls in flight, cancels them at the deadline
    p.server->Wait();
    {
      std::lock_guard<std::mutex> lock(alarm_mu);
      done = true;
    }
    alarm_wake.notify_one();
    alarm.join();
    p.stopping = true;  // what is still queued ends at once
    if (p.cache_warmer.joinable()) {
      p.cache_warmer.request_stop();
      p.cache_warmer.join();
    }
    p.pool.reset();          // runs what is queued (cancelled calls finish at once), joins
    p.store_health.reset();  // its retry thread tells the health service: stopped before it
    // A world still loading may finish within the grace (the default world's prepared graph is
    // then cached for the next start); at the grace's end its loading stops.
    if (!p.worlds.WaitForLoadingUntil(deadline)) p.worlds.StopLoading();
    p.worlds.JoinLoading();
    p.worlds.JoinReloading();  // its last answer is logged before the parts it uses go
    if (p.metrics_exposer) p.metrics_exposer->Stop();
  });
  return calls_done;
}

}  // namespace walk::server
