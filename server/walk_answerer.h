// Answers one walk request as walkd answers every walk: validate; find the world and metric;
// snap the ends; ask the walk store (by the model and both ends); route only on a miss, and keep
// what was routed. Shared by Walk, Path, WalkBatch and Table. Thread-safe: call it from any
// search thread with that thread's Searchers.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "nav/answer_walk.h"
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
                      nav::Searchers& searchers, walk::v1::WalkResponse* out, bool* stored,
                      walk::v1::PathResponse* path = nullptr) const;

  // Answers `request` from the store alone when it can, without searching: returns true when
  // `out` (or `*status`, an error) is final; false when the walk must be routed (call Answer).
  // Cheap enough to run on a gRPC thread.
  bool AnswerFromStore(const walk::v1::WalkRequest& request, const std::string& field_prefix,
                       walk::v1::WalkResponse* out, absl::Status* status) const;

  store::WalkStore* store() const { return store_; }

 private:
  // What both paths share: the checked request, its world, metric, snapped ends and store key.
  struct Prepared;
  absl::Status Prepare(const walk::v1::WalkRequest& request, const std::string& field_prefix,
                       Prepared* prepared) const;
  // Fills `out` from a store hit; false on a miss.
  absl::StatusOr<bool> Lookup(const Prepared& prepared, walk::v1::WalkResponse* out) const;

  const WorldRegistry& worlds_;
  store::WalkStore* store_;
  WalkMetrics& metrics_;
};

}  // namespace walk::server
