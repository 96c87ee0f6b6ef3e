// Answers one walk request as walkd answers every walk: validate; find the world and metric;
// snap the ends; ask the walk store (by the model and both ends); route only on a miss, and keep
// what was routed. Shared by Walk, Path, WalkBatch and Table. Thread-safe: call it from any
// search thread with that thread's Walker.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "nav/walker.h"
#include "server/walk_metrics.h"
#include "server/world_registry.h"
#include "store/walk_store.h"
#include "walk/v1/walk.pb.h"

namespace walk::server {

class WalkAnswerer {
 public:
  // `store` may be null (no store: every walk is routed). All are borrowed.
  WalkAnswerer(const WorldRegistry& worlds, store::WalkStore* store, WalkMetrics& metrics)
      : worlds_(worlds), store_(store), metrics_(metrics) {}

  // Answers `request` into `out`. Returns the RPC-level status: INVALID_ARGUMENT naming the
  // field (prefixed with `field_prefix`), NOT_FOUND, UNAVAILABLE, or an internal store error.
  // `stored` says whether the store answered. `path`, when non-null, also receives the way
  // (a path is always routed; its answer is still kept in the store).
  absl::Status Answer(const walk::v1::WalkRequest& request, const std::string& field_prefix,
                      nav::Walker& walker, walk::v1::WalkResponse* out, bool* stored,
                      walk::v1::PathResponse* path = nullptr) const;

  store::WalkStore* store() const { return store_; }

 private:
  const WorldRegistry& worlds_;
  store::WalkStore* store_;
  WalkMetrics& metrics_;
};

}  // namespace walk::server
