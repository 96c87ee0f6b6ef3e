// Answers one walk request as walkd answers every walk: validate; find the world and metric;
// snap the ends; ask the walk store (by the model and both ends); route only on a miss, and keep
// what was routed. Shared by Walk, Path, WalkBatch and Table. Thread-safe: call it from any
// search thread with that thread's Searchers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "nav/query/walk_pipeline.h"
#include "server/walk_metrics.h"
#include "server/world_registry.h"
#include "store/answer_cache.h"
#include "store/walk_store.h"
#include "walk/v1/walk.pb.h"

namespace walk::server {

// One pair of a PairBlock, answered: its entries of AnswerBlock's columns.
struct BlockAnswer {
  std::uint64_t index = 0;
  int code = 0;         // 0 or a gRPC code number
  std::string message;  // why, when code is not 0
  walk::v1::WalkStatus status = walk::v1::WALK_STATUS_UNSPECIFIED;
  walk::v1::Method method = walk::v1::METHOD_UNSPECIFIED;
  double seconds = 0.0;
  double yards = 0.0;
  bool stored = false;
  std::uint64_t model = 0;
};

// Pair `i` of `block` as the WalkRequest it stands for.
walk::v1::WalkRequest BlockPairRequest(const walk::v1::PairBlock& block, std::size_t i);

// Pair `index`'s answer from Answer's outcome (`status`, and `response` when status is OK).
BlockAnswer ToBlockAnswer(std::uint64_t index, const absl::Status& status,
                          const walk::v1::WalkResponse& response, bool stored);

class StoreFirstAnswerer {
 public:
  // `store` may be null (no store: every walk is routed); `cache` may be null (batch lookups
  // read the store). All are borrowed.
  StoreFirstAnswerer(const WorldRegistry& worlds, store::WalkStore* store, WalkMetrics& metrics,
                     store::AnswerCache* cache = nullptr)
      : worlds_(worlds), store_(store), metrics_(metrics), cache_(cache) {}

  // Answers `request` into `out`. Returns the RPC-level status: INVALID_ARGUMENT naming the
  // field (prefixed with `field_prefix`), NOT_FOUND, UNAVAILABLE, or an internal store error.
  // `stored` says whether the store answered. `path`, when non-null, also receives the way
  // (a path is always routed; its answer is still kept in the store).
  // `look_up` false skips the store lookup (the caller's MultiGet already missed).
  absl::Status Answer(const walk::v1::WalkRequest& request, const std::string& field_prefix,
                      nav::Searchers& searchers, walk::v1::WalkResponse* out, bool* stored,
                      walk::v1::PathResponse* path = nullptr, bool look_up = true) const;

  // Answers `request` from the store alone when it can, without searching: returns true when
  // `out` (or `*status`, an error) is final; false when the walk must be routed (call Answer).
  // Cheap enough to run on a gRPC thread.
  bool AnswerFromStore(const walk::v1::WalkRequest& request, const std::string& field_prefix,
                       walk::v1::WalkResponse* out, absl::Status* status) const;

  // Answers every pair of `block` the store holds (the answer cache first, then one MultiGet
  // for the rest) into `answered`; appends
  // the positions (in the block) of the others to `to_route`: route each with
  // Answer(BlockPairRequest(block, i), "block.", ..., look_up = !looked_up), which also gives a
  // pair's own errors. A
  // block refused as a whole (columns of unequal length, a missing world, an unknown world,
  // profile or band) answers every pair it indexes with that error. Cheap enough for a gRPC
  // thread.
  struct ToRoute {
    std::size_t position;  // in the block
    bool looked_up;        // the store was asked and has no answer
    friend bool operator<(const ToRoute& a, const ToRoute& b) { return a.position < b.position; }
  };
  void AnswerBlockFromStore(const walk::v1::PairBlock& block, std::vector<BlockAnswer>* answered,
                            std::vector<ToRoute>* to_route) const;

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
  store::AnswerCache* cache_;
};

}  // namespace walk::server
