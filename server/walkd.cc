#include "server/walkd.h"

#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <stop_token>
#include <thread>

#include "absl/strings/str_cat.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/grpcpp.h"
#include "server/health_service.h"
#include "server/live_service.h"
#include "server/metrics.h"
#include "server/metrics_http.h"
#include "server/search_pool.h"
#include "server/store_first_answerer.h"
#include "server/walk_metrics.h"
#include "server/walk_service.h"
#include "server/world_registry.h"
#include "store/walk_store.h"

namespace walk::server {

struct Walkd::Parts {
  WalkdOptions options;
  MetricsRegistry registry;
  std::unique_ptr<WalkMetrics> metrics;
  WorldRegistry worlds;
  std::unique_ptr<SearchPool> pool;
  std::unique_ptr<store::WalkStore> store;
  std::unique_ptr<store::AnswerCache> answer_cache;
  // Fills the answer cache from the store at start (declared after both: stopped first).
  std::jthread cache_warmer;
  std::unique_ptr<StoreFirstAnswerer> answerer;
  HealthService health;
  std::unique_ptr<WalkServiceImpl> service;
  std::unique_ptr<LiveServiceImpl> live;
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<MetricsHttpServer> metrics_http;
  std::string grpc_address;
  std::string metrics_address;
  std::once_flag shutdown_once;
};

namespace {

// "host:port" → host and the port bound, as walkd prints them.
std::string HostOf(const std::string& address) {
  const std::size_t colon = address.rfind(':');
  return colon == std::string::npos ? address : address.substr(0, colon);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Walkd>> Walkd::Start(const WalkdOptions& options) {
  auto parts = std::make_unique<Parts>();
  Parts& p = *parts;
  p.options = options;
  AddProcessMetrics(p.registry);
  p.metrics = std::make_unique<WalkMetrics>(p.registry);

  p.worlds.SetLegCacheBytes(options.leg_cache_mb << 20);
  // The worlds' leg caches, summed over every ready world (read at scrape time).
  WorldRegistry* worlds = &p.worlds;
  auto leg_caches = [worlds](auto read) {
    double total = 0.0;
    for (const WorldStatus& w : worlds->Snapshot()) {
      if (w.served && w.served->router) total += read(w.served->router->leg_cache());
    }
    return total;
  };
  p.registry.AddCallbackGauge(
      "walk_leg_cache_bytes", "Bytes held by the worlds' leg caches.", [leg_caches] {
        return leg_caches(
            [](const nav::LegCache& cache) { return static_cast<double>(cache.bytes()); });
      });
  p.registry.AddCallbackGauge("walk_leg_cache_hit_ratio",
                              "Share of leg lookups the leg caches answered since start.",
                              [leg_caches] {
                                const double hits = leg_caches([](const nav::LegCache& cache) {
                                  return static_cast<double>(cache.hits());
                                });
                                const double misses = leg_caches([](const nav::LegCache& cache) {
                                  return static_cast<double>(cache.misses());
                                });
                                return hits + misses > 0 ? hits / (hits + misses) : 0.0;
                              });
  absl::StatusOr<std::vector<std::string>> names =
      p.worlds.Discover(options.worlds_dir, options.data_dir);
  if (!names.ok()) return names.status();

  if (!options.no_store) {
    store::WalkStoreOptions store_options;
    store_options.dir = options.store_dir.empty()
                            ? (std::filesystem::path(options.data_dir) / "store").string()
                            : options.store_dir;
    store_options.row_cache_bytes = options.store_row_cache_mb << 20;
    store_options.block_cache_bytes = options.store_block_cache_mb << 20;
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(store_options.dir).parent_path(), ec);
    absl::StatusOr<std::unique_ptr<store::WalkStore>> opened =
        store::WalkStore::Open(store_options);
    if (!opened.ok()) {
      return absl::Status(opened.status().code(),
                          absl::StrCat("--store: ", opened.status().message()));
    }
    p.store = *std::move(opened);
    if (!options.ingest_dir.empty()) {
      auto ingested = p.store->Ingest(options.ingest_dir);
      if (!ingested.ok()) {
        return absl::Status(ingested.status().code(),
                            absl::StrCat("--ingest: ", ingested.status().message()));
      }
      std::cout << "walkd: ingested the store pack " << options.ingest_dir << std::endl;
    }
    if (options.answer_cache_mb > 0) {
      p.answer_cache = std::make_unique<store::AnswerCache>(options.answer_cache_mb << 20);
      store::AnswerCache* cache = p.answer_cache.get();
      p.registry.AddCallbackGauge("walk_answer_cache_answers",
                                  "Stored answers held in memory for batch lookups.",
                                  [cache] { return static_cast<double>(cache->Size()); });
    }
    store::WalkStore* raw_store = p.store.get();
    if (p.answer_cache) {
      // A restarted walkd answers yesterday's batch from memory too: the stored answers, in key
      // order, as many as the cache's young maps hold, read in the background while it serves.
      p.cache_warmer =
          std::jthread([raw_store, cache = p.answer_cache.get()](std::stop_token stop) {
            const std::size_t room = cache->YoungCapacity() / 10 * 9;
            std::size_t loaded = 0;
            const auto started = std::chrono::steady_clock::now();
            const absl::Status read = raw_store->ForEachOutcome(
                [&](const store::WalkKey& key, const store::WalkOutcome& outcome) {
                  if (stop.stop_requested() || loaded >= room) return false;
                  cache->Insert(key, outcome);
                  ++loaded;
                  return true;
                });
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            if (!read.ok()) {
              std::cerr << "walkd: the answer cache was not warmed: " << read.message()
                        << std::endl;
            } else {
              std::cout << "walkd: answer cache warmed with " << loaded << " stored answers in "
                        << std::fixed << std::setprecision(1) << seconds << " s" << std::endl;
            }
          });
    }
    p.registry.AddCallbackGauge("walk_store_answers",
                                "Answers in the walk store (RocksDB's estimate).", [raw_store] {
                                  auto answers = raw_store->EstimateAnswers();
                                  return answers.ok() ? static_cast<double>(*answers) : 0.0;
                                });
  }
  p.answerer = std::make_unique<StoreFirstAnswerer>(p.worlds, p.store.get(), *p.metrics,
                                                    p.answer_cache.get());

  const int threads = options.search_threads > 0
                          ? options.search_threads
                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  p.pool = std::make_unique<SearchPool>(threads);
  p.service = std::make_unique<WalkServiceImpl>(p.worlds, *p.answerer, *p.pool, *p.metrics,
                                                options.max_table_cells);

  absl::StatusOr<std::unique_ptr<LiveServiceImpl>> live =
      LiveServiceImpl::Create(options.live_worlds_dir, p.registry);
  if (!live.ok()) return live.status();
  p.live = *std::move(live);

  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(options.listen, grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(p.service.get());
  builder.RegisterService(&p.health);
  builder.RegisterService(p.live.get());
  p.server = builder.BuildAndStart();
  if (p.server == nullptr || port == 0) {
    return absl::UnavailableError(absl::StrCat("--listen: cannot listen on ", options.listen));
  }
  p.grpc_address = absl::StrCat(HostOf(options.listen), ":", port);

  if (!options.metrics_listen.empty()) {
    const std::size_t colon = options.metrics_listen.rfind(':');
    int metrics_port = -1;
    if (colon == std::string::npos ||
        !absl::SimpleAtoi(options.metrics_listen.substr(colon + 1), &metrics_port) ||
        metrics_port < 0 || metrics_port > 65535) {
      p.server->Shutdown();
      return absl::InvalidArgumentError(
          absl::StrCat("--metrics-listen: '", options.metrics_listen, "' is not HOST:PORT"));
    }
    HealthService* health = &p.health;
    p.metrics_http =
        std::make_unique<MetricsHttpServer>(p.registry, [health] { return health->serving(); });
    absl::StatusOr<int> bound = p.metrics_http->Start(HostOf(options.metrics_listen), metrics_port);
    if (!bound.ok()) {
      p.server->Shutdown();
      return absl::UnavailableError(absl::StrCat("--metrics-listen: ", bound.status().message()));
    }
    p.metrics_address = absl::StrCat(HostOf(options.metrics_listen), ":", *bound);
  }

  Parts* raw = parts.get();
  p.worlds.StartLoading([raw](const WorldStatus& loaded) {
    raw->metrics->SetWorlds(raw->worlds.ReadyCount(), raw->worlds.FailedCount());
    if (loaded.state == WorldState::kFailed) {
      std::cerr << "walkd: world '" << loaded.name << "' failed to load: " << loaded.error << "\n";
    } else {
      std::cout << "walkd: world '" << loaded.name << "' ready (content id "
                << nav::FormatId(loaded.served->world.content_id) << ", from "
                << loaded.served->source << "); abstract graph: " << loaded.served->graph_note
                << std::endl;
    }
    if (raw->worlds.AllReady()) raw->health.SetServing(true);
  });
  return std::unique_ptr<Walkd>(new Walkd(std::move(parts)));
}

Walkd::Walkd(std::unique_ptr<Parts> parts) : parts_(std::move(parts)) {}

Walkd::~Walkd() { Shutdown(0.0); }

std::string Walkd::grpc_address() const { return parts_->grpc_address; }
std::string Walkd::metrics_address() const { return parts_->metrics_address; }
void Walkd::WaitForWorlds() { parts_->worlds.JoinLoading(); }
bool Walkd::serving() const { return parts_->health.serving(); }

void Walkd::Shutdown(double grace_s) {
  std::call_once(parts_->shutdown_once, [this, grace_s] {
    Parts& p = *parts_;
    p.health.Shutdown();  // NOT_SERVING first, so balancers stop sending
    const auto deadline = std::chrono::system_clock::now() +
                          std::chrono::milliseconds(static_cast<long long>(grace_s * 1000));
    p.server->Shutdown(deadline);  // waits for calls in flight, cancels them at the deadline
    p.server->Wait();
    if (p.cache_warmer.joinable()) {
      p.cache_warmer.request_stop();
      p.cache_warmer.join();
    }
    p.pool.reset();  // runs what is queued (cancelled calls finish at once), joins
    p.worlds.JoinLoading();
    if (p.metrics_http) p.metrics_http->Stop();
  });
}

}  // namespace walk::server
