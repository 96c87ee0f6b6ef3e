// The WalkBatch stream: a bidirectional reactor that reads walk requests, answers each on the
// search pool (store first), and writes answers as they are ready, each with its index and its
// own status, then a summary. Memory is bounded: it stops reading while kMaxOutstanding pairs
// are in flight or waiting to be written, so a slow reader slows the stream instead of growing
// it. A cancelled call (or a passed deadline) stops the work: queued pairs finish at once.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <vector>

#include "server/search_pool.h"
#include "server/store_first_answerer.h"
#include "server/walk_query.h"
#include "walk/v1/walk.grpc.pb.h"

namespace walk::server {

class WalkBatchReactor final
    : public grpc::ServerBidiReactor<walk::v1::WalkBatchRequest, walk::v1::WalkBatchResponse> {
 public:
  // Pairs read but not yet written, at most, plus one message (a message read may carry many:
  // the bound is checked before each read).
  static constexpr std::size_t kMaxOutstanding = 16384;
  // Most per-pair answers (`more`) and block answers (AnswerBlock rows) one message carries.
  static constexpr std::size_t kAnswersPerMessage = 256;
  static constexpr std::size_t kRowsPerMessage = 4096;
  // A batch ending with at least this many answers in the store's memtable flushes it (in the
  // background): reruns read table files faster.
  static constexpr std::uint64_t kFlushAfterAnswers = 100000;
  // Most pairs one PairBlock may hold: a larger one has every pair refused, naming the limit
  // (its lookups run on a gRPC thread, and the memory bound counts it whole).
  static constexpr std::size_t kMaxBlockPairs = 16384;

  // Starts reading at once. Deletes itself when the call is done. `stop` stops its searches.
  WalkBatchReactor(const StoreFirstAnswerer& answerer, SearchPool& pool, WalkMetrics& metrics,
                   nav::SearchStop stop);

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

 private:
  enum class Action { kNone, kRead, kWrite, kFinish };
  // What to do next, decided under mu_ and done outside it (no lock is held while calling
  // into gRPC, so an inline reaction cannot deadlock).
  Action NextLocked();
  void Do(Action action);
  // One pair asked alone (in `walk` or `more`).
  struct Pair {
    std::uint64_t index = 0;
    WalkQuery query;
  };
  // Answers `pair` from the store at once when it can, else routes it on the pool.
  void StartPair(Pair pair);
  bool Cancelled();
  // Turns pair `index`'s answer (or its error) into its response and hands it to Answered.
  void Finalize(std::uint64_t index, const absl::StatusOr<WalkResult>& result, std::uint32_t band);
  void Answered(walk::v1::WalkBatchResponse response, const char* outcome, std::uint32_t band,
                bool failed);
  // A block's pairs: the stored ones answered at once (one MultiGet), the rest routed on the pool.
  void StartBlock(walk::v1::PairBlock block);
  // Queues answers to block pairs of band `band` and counts them.
  void AnsweredRows(std::vector<BlockAnswer> rows, std::uint32_t band);
  // Moves up to kRowsPerMessage ready block answers into `out` (under mu_).
  void WriteRows(walk::v1::AnswerBlock* out);

  const StoreFirstAnswerer& answerer_;
  SearchPool& pool_;
  WalkMetrics& metrics_;
  const nav::SearchStop stop_;
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
  std::map<std::uint32_t, std::uint64_t> from_band_zero_by_band_;
  // Hybrid pairs by what they took (HybridChoice 1 .. 3), by band.
  std::map<std::uint32_t, std::uint64_t> hybrid_by_band_[4];
};

}  // namespace walk::server
