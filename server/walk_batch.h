// The WalkBatch stream: a bidirectional reactor that reads walk requests, answers each on the
// search pool (store first), and writes answers as they are ready, each with its index and its
// own status, then a summary. Memory is bounded: it stops reading while its share of walkd's
// pairs in flight (BatchLimits) is in flight or waiting to be written, so a slow reader slows
// the stream instead of growing it, and many streams share one budget. A message carrying more
// pairs than a message may, or a block larger than a block may, ends the stream with
// RESOURCE_EXHAUSTED naming the limit, counted on the wire before the message is parsed
// (server/wire_call.h): it costs only its bytes. A cancelled call
// (or a passed deadline) stops the work: queued pairs finish at once.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <vector>

#include "server/block_rows.h"
#include "server/search_pool.h"
#include "server/store_first_answerer.h"
#include "server/trip_planner.h"
#include "server/walk_query.h"
#include "server/wire_call.h"
#include "walk/v1/walk.grpc.pb.h"

namespace walk::server {

class WorldRegistry;

// What bounds every batch stream: walkd's options, and the count of streams open (shared).
struct BatchLimits {
  std::size_t max_pairs_per_message = 4096;  // pairs one message carries (`walk` and `more`)
  std::size_t max_block_pairs = 16384;       // pairs one PairBlock holds
  // Pairs read and not yet written, over every stream: each stream may hold this over the
  // streams open, and at least kMinStreamPairs, plus one message.
  std::size_t max_inflight_pairs = 65536;
  std::atomic<int>* open_streams = nullptr;  // never null when a reactor runs
};

class WalkBatchReactor final
    : public WireBidiReactor<walk::v1::WalkBatchRequest, walk::v1::WalkBatchResponse> {
 public:
  // The most pairs one stream holds, however few streams are open, and the fewest it may hold
  // however many are (so every stream makes progress).
  static constexpr std::size_t kMaxOutstanding = 16384;
  static constexpr std::size_t kMinStreamPairs = 256;
  // Most per-pair answers (`more`) and block answers (AnswerBlock rows) one message carries.
  static constexpr std::size_t kAnswersPerMessage = 256;
  static constexpr std::size_t kRowsPerMessage = 4096;
  // A batch ending with at least this many answers in the store's memtable flushes it (in the
  // background): reruns read table files faster.
  static constexpr std::uint64_t kFlushAfterAnswers = 100000;

  // One pair asked alone (in `walk` or `more`), or a trip (in `trip`).
  struct Pair {
    std::uint64_t index = 0;
    WalkQuery query;
    std::optional<TripQuery> trip;
    bool walk_and_trip = false;  // the message carried both: refused
  };

  // Starts reading at once. Deletes itself when the call is done. `stop` stops its searches.
  // Each message is checked on the wire by `rules` (which must outlive the reactor) before it is
  // parsed.
  WalkBatchReactor(const WorldRegistry& worlds, const StoreFirstAnswerer& answerer,
                   const TripPlanner& trips, SearchPool& pool, WalkMetrics& metrics,
                   nav::SearchStop stop, const BatchLimits& limits, const WireRules& rules);

  void OnRequestRead(bool ok, const WireVerdict& verdict) override;
  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

 private:
  enum class Action { kNone, kRead, kWrite, kFinish };
  // What to do next, decided under mu_ and done outside it (no lock is held while calling
  // into gRPC, so an inline reaction cannot deadlock).
  Action NextLocked();
  void Do(Action action);
  // Answers `pair` from the store at once when it can, else routes it on the pool.
  void StartPair(Pair pair);
  bool Cancelled();
  // Turns pair `index`'s answer (or its error) into its response and hands it to Answered.
  void Finalize(std::uint64_t index, const absl::StatusOr<WalkResult>& result, std::uint32_t band);
  // Routes a trip on the pool and hands its answer to Answered.
  void StartTrip(Pair pair);
  void Answered(walk::v1::WalkBatchResponse response, const char* outcome, std::uint32_t band,
                bool failed);
  // A block's pairs: the stored ones answered at once (one MultiGet), the rest routed on the pool,
  // as the rows of a many-to-many where they share places (server/block_rows.h).
  void StartBlock(walk::v1::PairBlock block);
  // Routes the pairs `groups` holds of `block` as rows of a many-to-many: its targets first,
  // then a task per source.
  struct SharedBlock;
  void RouteByRows(std::shared_ptr<const SharedBlock> block, PlaceGroups groups,
                   std::vector<bool> looked_up);
  // Queues answers to block pairs of band `band` and counts them.
  void AnsweredRows(std::vector<BlockAnswer> rows, std::uint32_t band);
  // Moves up to kRowsPerMessage ready block answers into `out` (under mu_).
  void WriteRows(walk::v1::AnswerBlock* out);
  // The pairs this stream may hold now: its share of BatchLimits::max_inflight_pairs.
  std::size_t StreamShare() const;

  const WorldRegistry& worlds_;
  const StoreFirstAnswerer& answerer_;
  const TripPlanner& trips_;
  SearchPool& pool_;
  WalkMetrics& metrics_;
  const nav::SearchStop stop_;
  const BatchLimits limits_;
  // Why the stream ends early (a message over a limit): finished with it. Guarded by mu_.
  absl::Status abort_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();

  std::mutex mu_;
  walk::v1::WalkBatchRequest request_;             // the read in flight fills it
  std::deque<walk::v1::WalkBatchResponse> ready_;  // answers waiting to be written
  std::deque<BlockAnswer> ready_rows_;             // block answers waiting to be written
  walk::v1::WalkBatchResponse writing_message_;    // the write in flight
  std::size_t in_flight_ = 0;                      // submitted to the pool, not yet answered
  bool reading_ = true;
  bool reads_done_ = false;
  bool writing_ = false;
  bool write_buffered_ = false;  // the write in flight carries gRPC's buffer hint
  bool summary_sent_ = false;
  bool flush_due_ = false;  // the summary is being written: flush the store's memtable (in Do)
  bool cancelled_ = false;
  bool finished_ = false;
  walk::v1::BatchSummary summary_;
  std::map<std::uint32_t, std::uint64_t> failed_by_band_;
  std::map<std::uint32_t, walk::v1::BandStats> bands_;  // what each band's pairs did
  std::map<std::uint32_t, std::uint64_t> from_band_zero_by_band_;
  // Hybrid pairs by what they took (HybridChoice 1 .. 3), by band.
  std::map<std::uint32_t, std::uint64_t> hybrid_by_band_[4];
};

}  // namespace walk::server
