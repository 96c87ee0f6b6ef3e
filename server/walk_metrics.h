// walkd's metrics, registered once: request counts and durations by RPC and code, searches and
// their counters (nodes expanded, heap operations, as the RTS specification counts them), walks by
// status, worlds loaded, store lookups, batch pairs, and the LiveService's calls and events. Names
// follow Prometheus conventions: walk_ prefix, base units, _total counters.
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "nav/query/answer.h"

namespace prometheus {
class Registry;
}  // namespace prometheus

namespace walk::server {

class WalkMetrics {
 public:
  // Registers every family in `registry`, which must outlive this object.
  explicit WalkMetrics(prometheus::Registry& registry);
  ~WalkMetrics();
  WalkMetrics(const WalkMetrics&) = delete;
  WalkMetrics& operator=(const WalkMetrics&) = delete;

  // One finished RPC: its method ("Walk"), gRPC code name ("OK") and duration in seconds.
  void RecordRequest(const std::string& method, const std::string& code, double seconds);
  // One answered walk: its status, the search that answered and what that search cost.
  void RecordWalk(const nav::WalkAnswer& answer, std::uint32_t band);
  // A danger band's walk that took band 0's (no danger search ran), routed, not stored.
  void RecordBandZeroWalk(std::uint32_t band);
  // `count` hybrid walks of `band` that took `taken` ("navmesh", "navmesh_none",
  // "navmesh_detour"), stored or routed.
  void RecordHybridWalks(std::uint32_t band, const char* taken, std::uint64_t count = 1);
  void SetWorlds(int loaded, int failed);
  // Makes walk_world_reloads_total's series of `world` (at 0), so the family shows before the
  // first reload.
  void DeclareWorldReloads(const std::string& world);
  // A reload of `world` that found its files changed: the new world serves (`reloaded`) or it
  // failed to load (walk_world_reloads_total).
  void RecordWorldReload(const std::string& world, bool reloaded);
  // Seconds the world's CCH took to customize its metrics when it loaded
  // (walk_cch_customize_seconds).
  void SetCchCustomizeSeconds(const std::string& world, double seconds);
  // A walk-store write or read ("write", "read") that failed; answers computed and not kept.
  void RecordStoreError(const char* operation);
  void RecordUnkeptAnswer();
  // Whether the store takes no writes now (walk_store_degraded, 0 or 1).
  void SetStoreDegraded(bool degraded);
  // A walk-store lookup: a hit answers without a search.
  void RecordStoreLookup(bool hit);
  // `hits` and `misses` lookups at once (a block's MultiGet).
  void RecordStoreLookups(std::uint64_t hits, std::uint64_t misses);
  // One pair of a batch, by outcome: stored, routed, straight, failed, refused.
  void RecordBatchPair(const char* outcome);
  // `count` batch pairs of one outcome at once.
  void RecordBatchPairs(const char* outcome, std::uint64_t count);
  // One finished LiveService call: its method ("LivePath") and gRPC code name ("OK").
  void RecordLiveRequest(const std::string& method, const std::string& code);
  // `count` more events of one kind ("path", "cache_hit", ...) in live world `world`.
  void RecordLiveEvents(const std::string& world, const std::string& event, std::uint64_t count);
  // Live world `world` now: its revision, path cache entries and units with a kept route.
  void SetLiveWorld(const std::string& world, std::uint64_t revision, std::uint64_t cache_entries,
                    std::uint64_t unit_routes);
  // Live world `world`'s bytes (LiveWorld::MemoryBytes), and the live worlds held now.
  void SetLiveWorldBytes(const std::string& world, std::uint64_t bytes);
  void SetLiveWorlds(std::uint64_t count);
  // A live world dropped: every series labelled with it goes, so names of finished matches do not
  // pile up in the scrape.
  void ForgetLiveWorld(const std::string& world);
  // The fallback queue now: deferred group searches waiting, over all live worlds.
  void SetLiveFallbacksWaiting(std::uint64_t waiting);

 private:
  // The prometheus-cpp families, kept out of this header.
  struct Families;
  const std::unique_ptr<Families> families_;
};

}  // namespace walk::server
