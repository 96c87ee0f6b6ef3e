#include "server/walk_batch.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "server/grpc_status.h"
#include "server/proto_convert.h"
#include "server/trip_convert.h"
#include "server/walk_table.h"

namespace walk::server {
namespace {

// The walk or trip one message (or one entry of `more`) carries.
WalkBatchReactor::Pair PairOf(const walk::v1::WalkBatchRequest& request) {
  WalkBatchReactor::Pair pair;
  pair.index = request.index();
  if (request.has_trip()) {
    pair.trip = ToTripQuery(request.trip());
    pair.walk_and_trip = request.has_walk();
  } else {
    pair.query = ToWalkQuery(request.walk());
  }
  return pair;
}

}  // namespace

WalkBatchReactor::WalkBatchReactor(const WorldRegistry& worlds, const StoreFirstAnswerer& answerer,
                                   const TripPlanner& trips, SearchPool& pool, WalkMetrics& metrics,
                                   nav::SearchStop stop, const BatchLimits& limits,
                                   const WireRules& rules)
    : WireBidiReactor(rules),
      worlds_(worlds),
      answerer_(answerer),
      trips_(trips),
      pool_(pool),
      metrics_(metrics),
      stop_(std::move(stop)),
      limits_(limits) {
  ++*limits_.open_streams;
  if (answerer.store() != nullptr) {
    if (auto before = answerer.store()->EstimateAnswers(); before.ok())
      summary_.set_store_answers_before(*before);
  }
  StartRead(&request_);
}

void WalkBatchReactor::OnRequestRead(bool ok, const WireVerdict& verdict) {
  // Take the request out of request_ before reading_ turns false: from then on another thread
  // may start the next read into request_.
  walk::v1::WalkBatchRequest request;
  if (ok) request = std::move(request_);
  // The message's pairs: its own and those it carries.
  std::vector<Pair> pairs;
  walk::v1::PairBlock block;
  // Over a limit (or not a message): the stream ends here, before any pair costs anything.
  const absl::Status& over = verdict.status;
  if (!over.ok()) metrics_.RecordBatchPairs("refused", std::max<std::uint64_t>(1, verdict.entries));
  if (ok) {
    const bool has_block = request.has_block();
    block.Swap(request.mutable_block());
    pairs.reserve(1 + request.more_size());
    // A message carrying only a block has no pair of its own.
    if (request.has_walk() || request.has_trip() || !has_block) pairs.push_back(PairOf(request));
    for (const walk::v1::WalkBatchRequest& more : request.more()) pairs.push_back(PairOf(more));
  }
  const std::size_t asked = pairs.size() + static_cast<std::size_t>(block.index_size());
  bool cancelled;
  {
    std::lock_guard<std::mutex> lock(mu_);
    reading_ = false;
    if (!over.ok() && abort_.ok()) abort_ = over;
    if (!ok || cancelled_) reads_done_ = true;
    cancelled = cancelled_;
    if (ok && !cancelled) {
      in_flight_ += asked;
      summary_.set_asked(summary_.asked() + asked);
    }
  }
  if (ok && !cancelled) {
    if (block.index_size() > 0) StartBlock(std::move(block));
    for (Pair& pair : pairs) StartPair(std::move(pair));
  }
  Action action;
  {
    std::lock_guard<std::mutex> lock(mu_);
    action = NextLocked();
  }
  Do(action);
}

void WalkBatchReactor::StartPair(Pair pair) {
  if (pair.trip) return StartTrip(std::move(pair));
  // A stored answer costs a lookup: answer it here, on gRPC's thread; route the rest on the pool.
  absl::StatusOr<std::optional<WalkResult>> stored = answerer_.AnswerFromStore(pair.query, "walk.");
  if (!stored.ok()) return Finalize(pair.index, stored.status(), pair.query.band);
  if (stored->has_value()) return Finalize(pair.index, **std::move(stored), pair.query.band);
  pool_.Submit(
      [this, pair = std::move(pair)](nav::Searchers& searchers) {
        if (Cancelled()) {  // the call is over: answer at once, nobody will read it
          Finalize(pair.index, absl::CancelledError("the batch was cancelled"), pair.query.band);
          return;
        }
        Finalize(pair.index,
                 answerer_.Answer(pair.query, {.field_prefix = "walk.", .stop = &stop_}, searchers),
                 pair.query.band);
      },
      SearchPool::Priority::kBatch);
}

void WalkBatchReactor::StartTrip(Pair pair) {
  const std::uint32_t band = pair.trip->band;
  if (pair.walk_and_trip) {
    walk::v1::WalkBatchResponse response;
    response.set_index(pair.index);
    const absl::Status refused =
        absl::InvalidArgumentError("trip: a message carries a walk or a trip, not both");
    response.set_code(static_cast<int>(refused.code()));
    response.set_message(std::string(refused.message()));
    return Answered(std::move(response), "refused", band, false);
  }
  pool_.Submit(
      [this, pair = std::move(pair), band](nav::Searchers& searchers) {
        walk::v1::WalkBatchResponse response;
        response.set_index(pair.index);
        absl::StatusOr<TripResult> result =
            Cancelled() ? absl::CancelledError("the batch was cancelled")
                        : trips_.Plan(*pair.trip, "trip.", &stop_, searchers);
        if (!result.ok()) {
          const grpc::Status status = ToGrpcStatus(result.status());
          response.set_code(static_cast<int>(status.error_code()));
          response.set_message(status.error_message());
          return Answered(std::move(response), "refused", band, false);
        }
        ToProto(*result, response.mutable_trip());
        const bool failed = !result->trip.found;
        Answered(std::move(response), failed ? "failed" : "trip", band, failed);
      },
      SearchPool::Priority::kBatch);
}

bool WalkBatchReactor::Cancelled() {
  std::lock_guard<std::mutex> lock(mu_);
  return cancelled_;
}

// A block's message and the plain view of its pairs, kept alive while its pairs are routed.
struct WalkBatchReactor::SharedBlock {
  explicit SharedBlock(walk::v1::PairBlock message)
      : proto(std::move(message)), pairs(ToWalkPairs(proto)) {}
  SharedBlock(const SharedBlock&) = delete;
  SharedBlock& operator=(const SharedBlock&) = delete;

  const walk::v1::PairBlock proto;
  const WalkPairs pairs;  // borrows proto's columns
};

void WalkBatchReactor::StartBlock(walk::v1::PairBlock block) {
  auto shared = std::make_shared<const SharedBlock>(std::move(block));
  const WalkPairs& pairs = shared->pairs;
  std::vector<BlockAnswer> answered;
  std::vector<StoreFirstAnswerer::ToRoute> to_route;
  answerer_.AnswerBlockFromStore(pairs, &answered, &to_route);  // its size was checked on read
  const std::uint32_t band = pairs.band;
  if (!answered.empty()) AnsweredRows(std::move(answered), band);
  std::vector<std::size_t> positions;
  for (const StoreFirstAnswerer::ToRoute& route : to_route) positions.push_back(route.position);
  if (std::optional<PlaceGroups> groups = GroupByPlaces(pairs, positions)) {
    std::vector<bool> looked_up(pairs.size(), false);
    for (const StoreFirstAnswerer::ToRoute& route : to_route) {
      looked_up[route.position] = route.looked_up;
    }
    RouteByRows(std::move(shared), *std::move(groups), std::move(looked_up));
    return;
  }
  for (const StoreFirstAnswerer::ToRoute& route : to_route) {
    const std::size_t i = route.position;
    const bool look_up = !route.looked_up;
    pool_.Submit(
        [this, shared, i, look_up, band](nav::Searchers& searchers) {
          const std::uint64_t index = shared->pairs.index[i];
          if (Cancelled()) {  // a cancelled call answers at once: nobody will read it
            AnsweredRows(
                {RefusedBlockAnswer(index, absl::CancelledError("the batch was cancelled"))}, band);
            return;
          }
          const absl::StatusOr<WalkResult> result = answerer_.Answer(
              shared->pairs.Query(i),
              {.field_prefix = "block.", .look_up = look_up, .stop = &stop_}, searchers);
          AnsweredRows({ToBlockAnswer(index, result)}, band);
        },
        SearchPool::Priority::kBatch);
  }
}

namespace {

// A block's pairs routed as rows: the many-to-many's work and the pairs grouped by source.
struct BlockRows {
  BlockRows(PlaceGroups groups, std::vector<bool> looked_up, nav::SearchStop stop,
            const TableServices& services)
      : groups(std::move(groups)),
        looked_up(std::move(looked_up)),
        work(this->groups.table, nullptr, std::move(stop), services) {}

  const PlaceGroups groups;
  const std::vector<bool> looked_up;  // by position in the block: the store has no answer
  TableWork work;                     // borrows groups.table
};

}  // namespace

void WalkBatchReactor::RouteByRows(std::shared_ptr<const SharedBlock> block, PlaceGroups groups,
                                   std::vector<bool> looked_up) {
  const std::uint32_t band = block->pairs.band;
  auto rows = std::make_shared<BlockRows>(
      std::move(groups), std::move(looked_up), stop_,
      TableServices{.worlds = worlds_, .answerer = answerer_, .pool = pool_, .max_reply_bytes = 0});
  // One source's pairs, through its row (whole walks: each answered and kept as alone).
  auto answer_source = [this, block, rows, band](std::size_t s, nav::Searchers& searchers) {
    const std::unique_ptr<nav::AbstractTable::Row> row =
        Cancelled() ? nullptr
                    : rows->work.RowOf(s, searchers, nav::AbstractTable::RowWalks::kWhole);
    searchers.abstract.known = row.get();
    const std::vector<std::size_t>& positions = rows->groups.positions[s];
    std::vector<BlockAnswer> answers;
    for (std::size_t k = 0; k < positions.size(); ++k) {
      const std::size_t i = positions[k];
      const std::uint64_t index = block->pairs.index[i];
      if (Cancelled()) {  // a cancelled call answers at once: nobody will read it
        answers.push_back(
            RefusedBlockAnswer(index, absl::CancelledError("the batch was cancelled")));
        continue;
      }
      const bool known = rows->work.Knows(row.get(), rows->groups.targets[s][k]);
      const absl::StatusOr<WalkResult> result = answerer_.Answer(block->pairs.Query(i),
                                                                 {.field_prefix = "block.",
                                                                  .look_up = !rows->looked_up[i],
                                                                  .stop = &stop_,
                                                                  .band_zero_first = !known},
                                                                 searchers);
      answers.push_back(ToBlockAnswer(index, result));
    }
    searchers.abstract.known = nullptr;  // the row goes with this task
    AnsweredRows(std::move(answers), band);
  };
  pool_.Submit(
      [this, rows, answer_source](nav::Searchers& searchers) {
        // A danger band's block counts none of its pairs toward the band's metric: most are
        // answered by band 0's walk, and those that take the A* count one each, as any walk's
        // does. Its rows read the metric once one of those has made it.
        if (!Cancelled()) rows->work.BuildTargets(searchers, TableWork::Build::kNow, 0, false);
        for (std::size_t s = 1; s < rows->groups.positions.size(); ++s) {
          pool_.Submit([answer_source,
                        s](nav::Searchers& row_searchers) { answer_source(s, row_searchers); },
                       SearchPool::Priority::kBatch);
        }
        answer_source(0, searchers);
      },
      SearchPool::Priority::kBatch);
}

void WalkBatchReactor::AnsweredRows(std::vector<BlockAnswer> rows, std::uint32_t band) {
  // Outcomes as Finalize names them: refused, failed, stored, straight, routed.
  enum Outcome { kRefused, kFailed, kStored, kStraight, kRouted, kOutcomes };
  static constexpr const char* kNames[kOutcomes] = {"refused", "failed", "stored", "straight",
                                                    "routed"};
  std::uint64_t counts[kOutcomes] = {};
  std::uint64_t stored = 0, routed = 0, from_band_zero = 0;
  std::uint64_t hybrid[4] = {};  // by HybridChoice
  for (const BlockAnswer& row : rows) {
    if (!row.error.ok()) {
      ++counts[kRefused];
      continue;
    }
    ++hybrid[static_cast<int>(row.hybrid)];
    if (row.from_band_zero) ++from_band_zero;
    ++(row.stored ? stored : routed);
    if (row.status != nav::WalkStatus::kOk)
      ++counts[kFailed];
    else if (row.stored)
      ++counts[kStored];
    else if (row.method == nav::Method::kStraightLine)
      ++counts[kStraight];
    else
      ++counts[kRouted];
  }
  for (int o = 0; o < kOutcomes; ++o) metrics_.RecordBatchPairs(kNames[o], counts[o]);
  Action action;
  {
    std::lock_guard<std::mutex> lock(mu_);
    in_flight_ -= rows.size();
    walk::v1::BandStats& by_band = bands_[band];
    by_band.set_asked(by_band.asked() + rows.size());
    by_band.set_refused(by_band.refused() + counts[kRefused]);
    by_band.set_stored(by_band.stored() + stored);
    by_band.set_routed(by_band.routed() + routed);
    by_band.set_straight(by_band.straight() + counts[kStraight]);
    by_band.set_failed(by_band.failed() + counts[kFailed]);
    summary_.set_refused(summary_.refused() + counts[kRefused]);
    summary_.set_stored(summary_.stored() + stored);
    summary_.set_routed(summary_.routed() + routed);
    summary_.set_straight(summary_.straight() + counts[kStraight]);
    if (counts[kFailed] > 0) failed_by_band_[band] += counts[kFailed];
    if (from_band_zero > 0) from_band_zero_by_band_[band] += from_band_zero;
    for (int choice = 1; choice < 4; ++choice) {
      if (hybrid[choice] > 0) hybrid_by_band_[choice][band] += hybrid[choice];
    }
    if (!cancelled_) {
      for (BlockAnswer& row : rows) ready_rows_.push_back(std::move(row));
    }
    action = NextLocked();
  }
  Do(action);
}

void WalkBatchReactor::Finalize(std::uint64_t index, const absl::StatusOr<WalkResult>& result,
                                std::uint32_t band) {
  walk::v1::WalkBatchResponse response;
  ToProto(index, result, &response);
  if (!result.ok()) return Answered(std::move(response), "refused", band, false);
  const bool failed = result->answer.status != nav::WalkStatus::kOk;
  const char* outcome = result->stored                                        ? "stored"
                        : result->answer.method == nav::Method::kStraightLine ? "straight"
                                                                              : "routed";
  Answered(std::move(response), failed ? "failed" : outcome, band, failed);
}

void WalkBatchReactor::Answered(walk::v1::WalkBatchResponse response, const char* outcome,
                                std::uint32_t band, bool failed) {
  metrics_.RecordBatchPair(outcome);
  Action action;
  {
    std::lock_guard<std::mutex> lock(mu_);
    --in_flight_;
    walk::v1::BandStats& by_band = bands_[band];
    by_band.set_asked(by_band.asked() + 1);
    if (failed) by_band.set_failed(by_band.failed() + 1);
    if (response.code() != 0) {
      summary_.set_refused(summary_.refused() + 1);
      by_band.set_refused(by_band.refused() + 1);
    } else if (response.has_trip()) {
      by_band.set_routed(by_band.routed() + 1);
      summary_.set_trips(summary_.trips() + 1);
      if (response.trip().rode()) summary_.set_trips_rode(summary_.trips_rode() + 1);
      if (failed) ++failed_by_band_[band];
    } else {
      if (response.stored()) {
        summary_.set_stored(summary_.stored() + 1);
        by_band.set_stored(by_band.stored() + 1);
      } else {
        summary_.set_routed(summary_.routed() + 1);
        by_band.set_routed(by_band.routed() + 1);
      }
      if (response.walk().method() == walk::v1::METHOD_STRAIGHT_LINE && !response.stored()) {
        summary_.set_straight(summary_.straight() + 1);
        by_band.set_straight(by_band.straight() + 1);
      }
      if (failed) ++failed_by_band_[band];
      if (response.walk().from_band_zero()) ++from_band_zero_by_band_[band];
      if (const int choice = response.walk().hybrid(); choice > 0 && choice < 4) {
        ++hybrid_by_band_[choice][band];
      }
    }
    if (!cancelled_) ready_.push_back(std::move(response));
    action = NextLocked();
  }
  Do(action);
}

WalkBatchReactor::Action WalkBatchReactor::NextLocked() {
  if (finished_) return Action::kNone;
  if (cancelled_) {
    if (in_flight_ == 0 && !writing_ && !reading_) {
      finished_ = true;
      return Action::kFinish;
    }
    return Action::kNone;
  }
  if (!writing_ && (!ready_.empty() || !ready_rows_.empty())) {
    // One message answers up to kAnswersPerMessage ready pairs (the first in the message
    // itself, the rest in `more`) and up to kRowsPerMessage block pairs in columns. Fewer
    // messages, fewer round trips.
    writing_ = true;
    if (!ready_.empty()) {
      writing_message_ = std::move(ready_.front());
      ready_.pop_front();
    } else {
      writing_message_.Clear();  // keeps the columns' capacity
    }
    while (!ready_.empty() &&
           static_cast<std::size_t>(writing_message_.more_size()) + 1 < kAnswersPerMessage) {
      *writing_message_.add_more() = std::move(ready_.front());
      ready_.pop_front();
    }
    if (!ready_rows_.empty()) WriteRows(writing_message_.mutable_answers());
    // More answers are queued behind this message: let gRPC coalesce them into fewer frames; the
    // last one goes without the hint and flushes.
    write_buffered_ = !ready_.empty() || !ready_rows_.empty();
    return Action::kWrite;
  }
  if (!reading_ && !reads_done_ &&
      in_flight_ + ready_.size() + ready_rows_.size() < StreamShare()) {
    reading_ = true;
    return Action::kRead;
  }
  if (reads_done_ && in_flight_ == 0 && ready_.empty() && ready_rows_.empty() && !writing_ &&
      !reading_) {
    if (!summary_sent_ && abort_.ok()) {  // a stream ended over a limit has no summary
      summary_sent_ = true;
      for (const auto& [band, count] : failed_by_band_) {
        walk::v1::BandCount* c = summary_.add_failed();
        c->set_band(band);
        c->set_count(count);
      }
      auto add = [](const std::map<std::uint32_t, std::uint64_t>& counts, auto* list) {
        for (const auto& [band, count] : counts) {
          walk::v1::BandCount* c = list->Add();
          c->set_band(band);
          c->set_count(count);
        }
      };
      add(from_band_zero_by_band_, summary_.mutable_from_band_zero());
      add(hybrid_by_band_[1], summary_.mutable_navmesh());
      add(hybrid_by_band_[2], summary_.mutable_navmesh_none());
      add(hybrid_by_band_[3], summary_.mutable_navmesh_detour());
      for (auto& [band, stats] : bands_) {
        stats.set_band(band);
        *summary_.add_bands() = stats;
      }
      if (answerer_.store() != nullptr) {
        if (auto after = answerer_.store()->EstimateAnswers(); after.ok())
          summary_.set_store_answers_after(*after);
        flush_due_ = true;  // done in Do, outside the lock
      }
      summary_.set_wall_seconds(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
      writing_ = true;
      write_buffered_ = false;
      writing_message_.Clear();
      *writing_message_.mutable_summary() = summary_;
      return Action::kWrite;
    }
    finished_ = true;
    return Action::kFinish;
  }
  return Action::kNone;
}

void WalkBatchReactor::WriteRows(walk::v1::AnswerBlock* out) {
  const std::size_t rows = std::min(ready_rows_.size(), kRowsPerMessage);
  ReserveRows(static_cast<int>(rows), out);
  for (std::size_t k = 0; k < rows; ++k) {
    AppendRow(std::move(ready_rows_.front()), out);
    ready_rows_.pop_front();
  }
}

void WalkBatchReactor::Do(Action action) {
  switch (action) {
    case Action::kNone:
      break;
    case Action::kRead:
      StartRead(&request_);
      break;
    case Action::kWrite:
      if (flush_due_) {
        flush_due_ = false;
        // Failing here only leaves the answers in the memtable (and the log): nothing to report.
        answerer_.store()->FlushInBackgroundIfAbove(kFlushAfterAnswers).IgnoreError();
      }
      StartWrite(&writing_message_,
                 write_buffered_ ? grpc::WriteOptions().set_buffer_hint() : grpc::WriteOptions());
      break;
    case Action::kFinish: {
      absl::Status why;
      {
        std::lock_guard<std::mutex> lock(mu_);
        why = cancelled_ ? absl::CancelledError("the batch was cancelled") : abort_;
      }
      Finish(ToGrpcStatus(why));
      break;
    }
  }
}

void WalkBatchReactor::OnWriteDone(bool ok) {
  Action action;
  {
    std::lock_guard<std::mutex> lock(mu_);
    writing_ = false;
    if (!ok) cancelled_ = true;  // the stream broke: stop
    action = NextLocked();
  }
  Do(action);
  // A read may also be due now that a write slot freed.
  Action more;
  {
    std::lock_guard<std::mutex> lock(mu_);
    more = NextLocked();
  }
  Do(more);
}

void WalkBatchReactor::OnCancel() {
  Action action;
  {
    std::lock_guard<std::mutex> lock(mu_);
    cancelled_ = true;
    ready_.clear();
    ready_rows_.clear();
    action = NextLocked();
  }
  Do(action);
}

void WalkBatchReactor::OnDone() {
  --*limits_.open_streams;
  delete this;
}

std::size_t WalkBatchReactor::StreamShare() const {
  const std::size_t open =
      static_cast<std::size_t>(std::max(1, limits_.open_streams->load(std::memory_order_relaxed)));
  return std::clamp(limits_.max_inflight_pairs / open, kMinStreamPairs, kMaxOutstanding);
}

}  // namespace walk::server
