// Answers walks as walkd answers every walk: validate; find the world and metric; snap the ends;
// ask the walk store (by the model and both ends); route only on a miss, and keep what was
// routed. Shared by Walk, Path, WalkBatch and Table. It speaks plain C++ (server/walk_query.h):
// the handlers convert from and to protos. Thread-safe: call it from any search thread with that
// thread's Searchers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nav/query/walk_pipeline.h"
#include "server/store_health.h"
#include "server/walk_metrics.h"
#include "server/walk_query.h"
#include "server/world_registry.h"
#include "store/answer_cache.h"
#include "store/walk_store.h"

namespace walk::server {

// Pair `index`'s entries of an AnswerBlock from its walk's outcome: the walk, or why it was
// refused.
BlockAnswer ToBlockAnswer(std::uint64_t index, const absl::StatusOr<WalkResult>& result);

inline constexpr double kDefaultHybridSlack = 1.2;

class StoreFirstAnswerer {
 public:
  // `store` may be null (no store: every walk is routed); `cache` may be null (batch lookups
  // read the store). All are borrowed.
  // `hybrid_slack`: the hybrid takes the navmesh's walk unless it costs more than this x the
  // grid's (walkd's --hybrid-slack).
  // `store_health` (may be null) is told of store failures: a failed write or lookup never
  // fails a walk (its answer is returned, not kept; a lookup that fails is a miss), and while
  // the store is degraded nothing is written.
  StoreFirstAnswerer(const WorldRegistry& worlds, store::WalkStore* store, WalkMetrics& metrics,
                     store::AnswerCache* cache = nullptr, double hybrid_slack = kDefaultHybridSlack,
                     StoreHealth* store_health = nullptr)
      : worlds_(worlds),
        store_(store),
        metrics_(metrics),
        cache_(cache),
        hybrid_slack_(hybrid_slack),
        store_health_(store_health) {}

  // How Answer treats one query.
  struct AnswerOptions {
    // Prefixes the field an INVALID_ARGUMENT names: "walk." for a PathRequest's walk or a batch
    // pair, "block." for a block's pair, "" for a WalkRequest.
    absl::string_view field_prefix;
    // False skips the store lookup: the caller's MultiGet has already missed.
    bool look_up = true;
    // When the call's searches must stop (server/call_stop.h); may be null.
    const nav::SearchStop* stop = nullptr;
    // False: a band pricing danger is walked without asking band 0's walk first (a table's row
    // knows the cell in its own band, exactly and for less).
    bool band_zero_first = true;
    // A grid walk dearer than this is not wanted (nav::WalkOptions::max_seconds): the answer
    // may then say only that (WalkAnswer::dearer), and is neither kept nor counted.
    double max_seconds = std::numeric_limits<double>::infinity();
    // The query's places snapped once by a caller that asks many cells of the same places (a
    // table), taken where the query's world, as found, has their continent; or none.
    nav::GivenSnaps snaps = {};
  };

  // Answers `query`. Errors are the RPC's: INVALID_ARGUMENT naming the field, NOT_FOUND,
  // UNAVAILABLE (the world is loading or failed), FAILED_PRECONDITION (a forced search the world
  // cannot do), what `options.stop` says when it stops a search, or an internal store error. A
  // query that wants its way is always routed; its answer is still kept in the store.
  absl::StatusOr<WalkResult> Answer(const WalkQuery& query, const AnswerOptions& options,
                                    nav::Searchers& searchers) const;

  // Answers `query` from the store alone when it can, without searching: a result (stored), an
  // error (as Answer's), or nullopt when the walk must be routed (call Answer). Cheap enough to
  // run on a gRPC thread.
  absl::StatusOr<std::optional<WalkResult>> AnswerFromStore(const WalkQuery& query,
                                                            absl::string_view field_prefix) const;

  // A pair of a block the store could not answer.
  struct ToRoute {
    std::size_t position;  // in the block
    bool looked_up;        // the store was asked and has no answer
    friend bool operator<(const ToRoute& a, const ToRoute& b) { return a.position < b.position; }
  };
  // Answers every pair of `pairs` the store holds (the answer cache first, then one MultiGet for
  // the rest) into `answered`, and appends the others to `to_route`, in the block's order: route
  // each with Answer(pairs.Query(position), {"block.", !looked_up}), which also gives a pair's
  // own errors. A block refused as a whole (columns of unequal length, a missing world, an
  // unknown world, profile or band) answers every pair it indexes with that error. Cheap enough
  // for a gRPC thread.
  void AnswerBlockFromStore(const WalkPairs& pairs, std::vector<BlockAnswer>* answered,
                            std::vector<ToRoute>* to_route) const;

  store::WalkStore* store() const { return store_; }

 private:
  // What both paths share: the checked query, its world, metric, snapped ends and store key.
  struct Prepared;
  // `snaps` are taken where they apply (the rest of the places are snapped here).
  absl::Status Prepare(const WalkQuery& query, absl::string_view field_prefix, Prepared* prepared,
                       const nav::GivenSnaps& snaps = {}) const;
  // Fills `out` from the store's answer under `key`; false on a miss or without a key.
  absl::StatusOr<bool> LookupKey(const std::optional<store::WalkKey>& key,
                                 nav::WalkAnswer* out) const;
  // The same for the grid's key, with the ends snapped.
  absl::StatusOr<bool> Lookup(const Prepared& prepared, nav::WalkAnswer* out) const;
  // Keeps `answer` under `key` (when there is one).
  absl::Status Keep(const std::optional<store::WalkKey>& key, const nav::WalkAnswer& answer) const;
  // The grid's answer: stored, band 0's, or routed and kept.
  absl::StatusOr<WalkResult> AnswerGrid(const WalkQuery& query, const AnswerOptions& options,
                                        const Prepared& prepared, nav::Searchers& searchers) const;
  // The navmesh's answer: stored, or walked and kept; nullopt when only saved answers are
  // served and none is stored.
  absl::StatusOr<std::optional<WalkResult>> AnswerNavMesh(const WalkQuery& query,
                                                          const AnswerOptions& options,
                                                          const Prepared& prepared,
                                                          nav::Searchers& searchers) const;
  // The hybrid's answer of the two (the navmesh's may be missing), counted in the metrics.
  WalkResult Combine(std::uint32_t band, std::optional<WalkResult> navmesh, WalkResult grid) const;
  // AnswerBlockFromStore for a block the navmesh or the hybrid answers.
  void AnswerMixedBlockFromStore(const WalkPairs& pairs, const ServedWorld& served,
                                 BackendChoice backend, std::vector<BlockAnswer>* answered,
                                 std::vector<ToRoute>* to_route) const;
  // The pairs of a danger band's block that the store misses (`keys`, under the band's model,
  // of the pairs at `positions`): band 0's stored walk of each answers the band where it enters
  // no zone the band prices (as Answer's reuse: nav/query/band_zero_reuse.h), into `answered`,
  // kept under the band's key; the others stay in `keys` and `positions`. A no-op for band 0
  // and bands that price no danger. The pairs' own rows or walks would answer the same, after
  // the band metric's customization.
  void AnswerFromStoredBandZero(const WalkPairs& pairs, const ServedWorld& served,
                                std::vector<store::WalkKey>* keys,
                                std::vector<std::size_t>* positions,
                                std::vector<BlockAnswer>* answered) const;
  // A danger band's query answered by band 0's walk when that walk enters no zone the band
  // prices (nav/query/band_zero_reuse.h): true with `result->answer` set and kept, false when
  // the band must search.
  absl::StatusOr<bool> AnswerFromBandZero(const WalkQuery& query, const AnswerOptions& options,
                                          const Prepared& prepared, nav::Searchers& searchers,
                                          WalkResult* result) const;

  const WorldRegistry& worlds_;
  store::WalkStore* store_;
  WalkMetrics& metrics_;
  store::AnswerCache* cache_;
  double hybrid_slack_;
  StoreHealth* store_health_;
};

}  // namespace walk::server
