#include "server/options.h"

#include <sstream>

#include "CLI/CLI.hpp"
#include "nav/cost/cost_model.h"
#include "nav/import/movingai.h"

namespace walk::server {

namespace {

// The limits on requests and on what is in flight (WalkdOptions).
void AddLimitOptions(CLI::App& app, WalkdOptions& o) {
  const auto at_least_one = CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40);
  app.add_option("--max-pairs-per-message", o.max_pairs_per_message,
                 "WalkBatch pairs one message may carry (walk and more)")
      ->capture_default_str()
      ->check(at_least_one);
  app.add_option("--max-block-pairs", o.max_block_pairs, "Pairs one PairBlock may hold")
      ->capture_default_str()
      ->check(at_least_one);
  app.add_option("--max-inflight-pairs", o.max_inflight_pairs,
                 "Batch pairs read and not yet answered, over every stream")
      ->capture_default_str()
      ->check(at_least_one);
  app.add_option("--max-group-starts", o.max_group_starts, "Starts one PathGroup may have")
      ->capture_default_str()
      ->check(at_least_one);
  app.add_option("--max-blocker-changes", o.max_blocker_changes,
                 "Changes one UpdateBlockers call may carry")
      ->capture_default_str()
      ->check(at_least_one);
  app.add_option("--max-floor-columns", o.max_floor_columns, "Columns one Floors call may ask for")
      ->capture_default_str()
      ->check(at_least_one);
  app.add_option("--max-reply-bytes", o.max_reply_bytes, "Bytes one reply may take")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1} << 16, std::uint64_t{1} << 31));
  app.add_option("--max-message-bytes", o.max_message_bytes, "Bytes one request message may take")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1} << 16, std::uint64_t{1} << 30));
  app.add_option("--grpc-memory-mb", o.grpc_memory_mb,
                 "Memory gRPC may use for connections, calls and messages, MiB")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{16}, std::uint64_t{1} << 20));
  app.add_option("--max-connection-age-s", o.max_connection_age_s,
                 "Seconds a client connection lives before it is asked to reconnect, so "
                 "balancing clients find new replicas (0: forever)")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 31));
  app.add_option("--max-concurrent-streams", o.max_concurrent_streams,
                 "Calls one connection may have open at once")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 20));
}

// TLS and the token (WalkdOptions).
void AddSecurityOptions(CLI::App& app, WalkdOptions& o) {
  app.add_option("--tls-cert", o.tls_cert, "TLS certificate chain, PEM (both ports)")
      ->check(CLI::ExistingFile);
  app.add_option("--tls-key", o.tls_key, "TLS private key, PEM")->check(CLI::ExistingFile);
  app.add_option("--tls-client-ca", o.tls_client_ca,
                 "gRPC clients must present a certificate this CA signed (mutual TLS)")
      ->check(CLI::ExistingFile);
  app.add_option("--auth-token-file", o.auth_token_file,
                 "File whose first line is the token writes (and with --auth-reads, reads) need")
      ->check(CLI::ExistingFile);
  app.add_flag("--auth-reads", o.auth_reads, "Reads need the token too (not health, reflection)");
}

// LiveService's worlds (docs/live_grids.md).
void AddLiveOptions(CLI::App& app, WalkdOptions& o) {
  app.add_option("--live-direct-cells", o.live_direct_cells,
                 "A live move this many cells long or less whose straight line is clear takes "
                 "the line, no search (0: always search)")
      ->capture_default_str()
      ->check(CLI::Range(0, 4096));
  app.add_option("--live-unit-routes", o.live_unit_routes,
                 "Units each live world keeps a route for (LivePath's unit; 0: none)")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 24));
  app.add_option("--live-path-cache", o.live_path_cache,
                 "Answers each live world's path cache holds (0: none)")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 24));
  app.add_option("--live-group-fallbacks", o.live_group_fallbacks,
                 "Per-member searches one PathGroup runs; later members are deferred")
      ->capture_default_str()
      ->check(CLI::Range(0u, 1u << 20));
  app.add_option("--live-group-fallback-cells", o.live_group_fallback_cells,
                 "Cells one PathGroup's own searches may expand; later members are deferred")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 40));
  app.add_option("--live-fallback-queue", o.live_fallback_queue,
                 "Deferred group searches queued over all live worlds (one world: a quarter)")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 24));
  app.add_option("--live-nearest-radius", o.live_nearest_radius,
                 "Cells Nearest, a blocked goal's resolution and a formation's centre look out to")
      ->capture_default_str()
      ->check(CLI::Range(0, 4096));
  nav::live::LiveWorldLimits& l = o.live_limits;
  app.add_option("--live-max-worlds", l.max_worlds, "Live worlds at once, loaded and created")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{0}, std::size_t{1} << 20));
  app.add_option("--live-max-world-cells", l.max_world_cells, "Cells of one created live world")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, nav::kMaxMovingAiCells));
  app.add_option("--live-max-cells", l.max_cells, "Cells of every live world together")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 36));
  app.add_option("--live-max-map-bytes", l.max_map_bytes,
                 "Bytes of a created live world's map (as text)")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, nav::kMaxMovingAiFileBytes));
  app.add_option("--live-max-layer-bytes", l.max_layer_bytes,
                 "Bytes of a created live world's layer file")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{0}, nav::kMaxMovingAiFileBytes));
  app.add_option("--live-max-name-length", l.max_name_length, "Characters of a live world's name")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{255}));
}

}  // namespace

ParsedOptions ParseWalkdOptions(int argc, char** argv) {
  ParsedOptions parsed;
  WalkdOptions& o = parsed.options;
  CLI::App app{"walkd: the walk-query daemon"};
  app.set_config("--config", "", "Read options from this TOML/INI file (keys as the flags)");
  app.add_option("--listen", o.listen, "gRPC address HOST:PORT (port 0: any free port)")
      ->capture_default_str();
  app.add_option("--metrics-listen", o.metrics_listen,
                 "Prometheus endpoint HOST:PORT (/metrics, /healthz, /readyz); empty: none")
      ->capture_default_str();
  app.add_option("--worlds", o.worlds_dir, "Folder of worlds, one subfolder each");
  app.add_option("--data", o.data_dir, "walkd's own files (cached default world)")
      ->capture_default_str();
  app.add_option("--shutdown-grace-s", o.shutdown_grace_s,
                 "Seconds calls in flight get to finish after SIGTERM")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 3600.0));
  app.add_option("--search-threads", o.search_threads, "Search threads (0: one per core)")
      ->capture_default_str()
      ->check(CLI::Range(0, 256));
  app.add_option("--store", o.store_dir, "Walk store folder (default: <data>/store)");
  app.add_option("--store-block-cache-mb", o.store_block_cache_mb,
                 "Walk-store block cache, MiB (the warm part of the store's tables)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("--store-row-cache-mb", o.store_row_cache_mb,
                 "Walk-store row cache, MiB (whole answers; 0: none; only for a hot set that fits)")
      ->capture_default_str();
  app.add_option("--answer-cache-mb", o.answer_cache_mb,
                 "Stored answers' outcomes kept in memory for batch lookups, MiB (0: none)")
      ->capture_default_str();
  app.add_option("--store-max-bytes", o.store_max_bytes,
                 "Bytes of table files the store may hold, e.g. 20GiB (0: no quota); past it "
                 "answers are not kept")
      ->transform(CLI::AsSizeValue(false))
      ->capture_default_str();
  app.add_flag("--no-store", o.no_store, "Keep no walk store: route every walk");
  app.add_option("--ingest", o.ingest_dir, "Ingest this store pack at start");
  app.add_option("--live-worlds", o.live_worlds_dir, "Folder of live RTS worlds (LiveService)");
  AddLiveOptions(app, o);
  app.add_option("--map-grids", o.map_grids,
                 "Serve grids from memory-mapped images in DATA/grid-images (written on first "
                 "load), so resident memory follows the tiles walks touch; false: read grids whole")
      ->capture_default_str();
  app.add_option("--subgoal-hierarchies", o.subgoal_hierarchies,
                 "Build each plain octile grid's subgoal hierarchy at load: its exact walks go by "
                 "it (METHOD_SUBGOAL_HIERARCHY); false: by jump points")
      ->capture_default_str();
  app.add_option("--grid-resident-mb", o.grid_resident_mb,
                 "A mapped grid's pages resident in walkd are handed back once past this, MiB "
                 "(checked every 5 s; 0: never)")
      ->capture_default_str();
  app.add_option("--memory-mb", o.memory_mb,
                 "walkd's resident memory target, MiB: past it walkd hands back mapped grid pages "
                 "and search buffers, and band metrics get only the room left (0: none)")
      ->capture_default_str();
  app.add_option("--leg-cache-mb", o.leg_cache_mb,
                 "Each world's leg cache, MiB (legs of places into the abstract graph)")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 20));
  app.add_option("--band-metrics-mb", o.band_metrics_mb,
                 "Each world's danger-band CCH metrics, MiB, customized once a band is walked "
                 "often enough (0: none; danger bands then take the A* guided by band 0)")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 24));
  app.add_option("--customize-at-load", o.customize_at_load,
                 "Profiles whose CCH metrics each world customizes at load (all: every prepared "
                 "profile); the others on their first walk")
      ->check([](const std::string& name) -> std::string {
        if (name == "all" || nav::FindProfile(name) != nullptr) return "";
        return "--customize-at-load: no profile \"" + name + "\" (all, or a profile's name)";
      });
  app.add_option("--navmesh-cache-mb", o.navmesh_cache_mb,
                 "Each world's navmesh tiles kept resident, MiB (fractions allowed); the rest are "
                 "read again from their files when a walk needs them (0: every tile stays)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, double(1 << 24)));
  app.add_option("--hybrid-slack", o.hybrid_slack,
                 "The hybrid takes the navmesh's walk unless it costs more than this x the grid's")
      ->check(CLI::Range(1.0, 1000.0))
      ->capture_default_str();
  app.add_option("--max-search-expansions", o.max_search_expansions,
                 "Surfaces or nodes one search may expand before it gives up")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1000}, std::uint64_t{1} << 40));
  app.add_option("--max-table-cells", o.max_table_cells, "Most walks one Table call may hold")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{100000000}));
  app.add_option("--max-table-stream-cells", o.max_table_stream_cells,
                 "Most cells one TableRows stream may hold")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1000000000}));
  AddLimitOptions(app, o);
  AddSecurityOptions(app, o);
  app.add_flag("--strict-worlds", o.strict_worlds,
               "Serve only when every world loaded (else once the others are, one at least)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    std::ostringstream out, err;
    parsed.exit_now = true;
    parsed.exit_code = app.exit(e, out, err);
    parsed.message = out.str() + err.str();
  }
  return parsed;
}

}  // namespace walk::server
