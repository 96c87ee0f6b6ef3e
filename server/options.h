// walkd's options: flags, or the same keys in a config file (--config FILE, TOML/INI).
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "nav/live/world_limits.h"

namespace walk::server {

struct WalkdOptions {
  // gRPC address, HOST:PORT. Port 0 picks a free port (printed at start).
  std::string listen = "127.0.0.1:50051";
  // Prometheus text endpoint (/metrics, /healthz, /readyz), HOST:PORT. Empty: no endpoint.
  std::string metrics_listen = "127.0.0.1:9464";
  // Folder of worlds: every subfolder holding a grid.walkgrid is a world named by the subfolder.
  // Empty, or holding no grid: walkd serves its embedded default world.
  std::string worlds_dir;
  // walkd's own files (the cached default world; later the store).
  std::string data_dir = "walkd-data";
  // After SIGTERM/SIGINT, calls in flight get this long to finish, seconds.
  double shutdown_grace_s = 10.0;
  // Threads that run searches. 0: one per core.
  int search_threads = 0;
  // The walk store (RocksDB). Empty: <data_dir>/store.
  std::string store_dir;
  // The store's block cache, MiB: uncompressed table blocks, where batches' MultiGets find
  // stored answers.
  std::uint64_t store_block_cache_mb = 256;
  // The store's row cache, MiB: whole answers by key. 0: none. It pays only when the answers
  // asked again fit in it (~250 B each); a smaller one churns and slows lookups (docs/store.md).
  std::uint64_t store_row_cache_mb = 0;
  // Outcomes of stored answers (status, method, seconds, yards) kept in memory, MiB: a batch's
  // stored pair then costs a hash lookup instead of a RocksDB read. 0: none.
  std::uint64_t answer_cache_mb = 256;
  // Bytes of table files the store may hold (0: no quota; the flag takes 512MiB, 20GB, ...). At the
  // quota the store is degraded as on a full disk: walks are answered and not kept
  // (docs/operations.md, "The store degraded").
  std::uint64_t store_max_bytes = 0;
  // Run without a store: every walk is routed, nothing is kept.
  bool no_store = false;
  // A store pack (walkctl store export), or a folder of packs, to ingest at start, before
  // serving. A new store is built beside (`<store>.ingest-tmp`) and renamed into place whole.
  std::string ingest_dir;
  // Folder of live worlds (LiveService): every subfolder holding map.map (and layers.txt).
  std::string live_worlds_dir;
  // Live worlds' paths (docs/live_grids.md): a clear straight move of at most this many cells
  // takes the line without a search (0: always search); units whose route is kept; answers the
  // path cache holds; per-member searches one PathGroup runs before deferring the rest; deferred
  // searches the fallback queue holds over all worlds (one world: a quarter of it).
  std::int32_t live_direct_cells = 16;
  std::uint64_t live_unit_routes = 16384;
  std::uint64_t live_path_cache = 2048;
  std::uint32_t live_group_fallbacks = 32;
  std::uint64_t live_group_fallback_cells = 50'000;  // cells those searches may expand
  std::uint64_t live_fallback_queue = 4096;
  std::int32_t live_nearest_radius = 32;
  // Live worlds created over LiveService (docs/operations.md, "Limits").
  nav::live::LiveWorldLimits live_limits;  // cells Nearest and goal resolution look out to
  // Each world's leg cache, MiB: legs of places into the abstract graph, so a place with many
  // walks is searched once.
  std::uint64_t leg_cache_mb = 256;
  // Each world's band metrics, MiB: CCH metrics customized per (continent, profile, danger band)
  // on first use, so a walk in a danger band whose ends' zones the band does not price is a CCH
  // query (nav/abstract/band_metrics.h); 0: none (the danger A* answers every such walk).
  std::uint64_t band_metrics_mb = 1024;
  // The profiles whose CCH metrics each world customizes at load ("all": every prepared one);
  // the others are customized on their first walk, so a profile never walked holds nothing.
  std::vector<std::string> customize_at_load;
  // Each world's navmesh tiles kept resident, MiB, fractions allowed (nav/navmesh/tile_cache.h);
  // 0: every tile.
  double navmesh_cache_mb = 0.0;
  // Serve grids from mapped images kept in DATA/grid-images (nav/grid/grid_image.h), so resident
  // memory follows the tiles walks touch; false: read each grid whole into memory.
  bool map_grids = true;
  // Build each plain octile grid's subgoal hierarchy at load (nav/cch/subgoal_hierarchies.h):
  // their exact walks then go by it; false: by jump points.
  bool subgoal_hierarchies = true;
  // Each mapped grid's resident pages are handed back once past this, MiB (0: never).
  std::uint64_t grid_resident_mb = 512;
  // walkd's resident memory target, MiB (server/memory_governor.h): past it walkd hands back
  // mapped grid pages and search buffers, and band metrics get only the room left; 0: none.
  std::uint64_t memory_mb = 2048;
  // The hybrid backend takes the navmesh's walk unless it costs more than this x the grid's
  // (docs/navmesh.md). At least 1.
  double hybrid_slack = 1.2;
  // Readiness: with strict worlds walkd serves (health SERVING, /readyz 200) only when every world
  // loaded; without, once every world has settled and at least one is ready.
  bool strict_worlds = false;
  // Surfaces or nodes one search may expand before it gives up (RESOURCE_EXHAUSTED): the fine
  // grid of the largest world, searched whole, stays under it. Searches also stop when their
  // call is cancelled or its deadline passes.
  std::uint64_t max_search_expansions = std::uint64_t{1} << 26;
  // Most walks one Table call may hold (sources x targets).
  std::uint64_t max_table_cells = 10000;
  std::uint64_t max_table_stream_cells = 4000000;  // cells one TableRows stream may hold
  // What one request may ask, and what may be in flight (docs/operations.md, "Limits"): a
  // request over one is RESOURCE_EXHAUSTED naming it.
  std::uint64_t max_pairs_per_message = 4096;  // WalkBatch pairs in one message's walk and more
  std::uint64_t max_block_pairs = 16384;       // pairs in one PairBlock
  std::uint64_t max_inflight_pairs = 65536;    // batch pairs read and unanswered, all streams
  std::uint64_t max_group_starts = 4096;       // a PathGroup's starts, a formation's slots
  std::uint64_t max_blocker_changes = 4096;    // one UpdateBlockers call's changes
  std::uint64_t max_floor_columns = 16384;     // columns one Floors call asks for
  // Bytes one reply may take: under the 4 MiB a gRPC client takes by default.
  std::uint64_t max_reply_bytes = (std::uint64_t{4} << 20) - (64 << 10);
  // Bytes one request message may take (gRPC's receive limit).
  std::uint64_t max_message_bytes = std::uint64_t{4} << 20;
  // Memory gRPC may use for its connections, calls and messages (its ResourceQuota), MiB.
  std::uint64_t grpc_memory_mb = 1024;
  // Seconds a client connection lives before walkd asks it to reconnect (gRPC's max connection
  // age, with the grace as long again for calls in flight); 0: forever. Clients balancing over
  // replicas (round_robin on a DNS name) find replicas added since when they reconnect.
  std::uint64_t max_connection_age_s = 0;
  // Calls one connection may have open at once (HTTP/2's max concurrent streams).
  std::uint64_t max_concurrent_streams = 128;
  // TLS on both ports (docs/operations.md, "Security"): the server's certificate chain and key
  // (PEM); with a client CA, gRPC clients must present a certificate it signed (mutual TLS).
  std::string tls_cert;
  std::string tls_key;
  std::string tls_client_ca;
  // A file whose first line is the token calls must send (`authorization: Bearer TOKEN`): writes
  // (LiveService.UpdateBlockers) always, reads too with auth_reads. Empty: no token.
  std::string auth_token_file;
  bool auth_reads = false;
};

// Parses argv (and the config file it names). Returns the options, or an error whose message is
// CLI11's (naming the bad flag or key). `exit_code` is set when parsing asked to exit (--help):
// the caller prints `message` and exits with it.
struct ParsedOptions {
  WalkdOptions options;
  bool exit_now = false;
  int exit_code = 0;
  std::string message;
};
ParsedOptions ParseWalkdOptions(int argc, char** argv);

}  // namespace walk::server
