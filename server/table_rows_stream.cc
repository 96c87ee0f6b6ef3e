#include "server/table_rows_stream.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "grpcpp/server_context.h"
#include "server/grpc_status.h"

namespace walk::server {
namespace {

// Bytes a cell takes in a message: its status, method, seconds and yards packed, and with whole
// walks one WalkResponse (generously: they hold ends and zone cells).
std::uint64_t CellBytes(bool want_walks) { return want_walks ? 1024 : 20; }

}  // namespace

TableRowsStream::TableRowsStream(grpc::CallbackServerContext* context,
                                 walk::v1::TableRequest request, nav::SearchStop stop,
                                 const TableServices& services, OnFinish on_finish)
    : request_(std::move(request)),
      work_(request_, context, std::move(stop), services),
      sources_(static_cast<std::uint64_t>(request_.sources_size())),
      rows_per_message_(std::max<std::uint64_t>(
          1, services.max_reply_bytes * 3 / 4 /
                 (CellBytes(request_.want_walks()) * std::max(1, request_.targets_size())))),
      window_(2 * rows_per_message_ + 8),
      max_reply_bytes_(services.max_reply_bytes),
      on_finish_(std::move(on_finish)) {}

TableRowsStream* TableRowsStream::Start(grpc::CallbackServerContext* context,
                                        walk::v1::TableRequest request, nav::SearchStop stop,
                                        const TableServices& services, OnFinish on_finish) {
  std::shared_ptr<TableRowsStream> stream(new TableRowsStream(
      context, std::move(request), std::move(stop), services, std::move(on_finish)));
  stream->self_ = stream;
  // The stream's tasks queue as one call's: other calls' tasks take turns with them.
  services.pool.Submit(
      [stream](nav::Searchers& searchers) {
        stream->work_.BuildTargets(searchers, TableWork::Build::kOnceTheStoreMisses);
        Next next;
        {
          std::lock_guard<std::mutex> lock(stream->mu_);
          stream->built_ = true;
          next = stream->NextLocked();
        }
        stream->Do(next);
      },
      SearchPool::Priority::kInteractive, stream.get());
  return stream.get();
}

void TableRowsStream::AnswerRow(std::uint64_t s, nav::Searchers& searchers) {
  auto row = std::make_unique<walk::v1::TableResponse>();
  SizeTableCells(request_, 1, row.get());
  std::uint64_t stored = 0;
  const absl::Status status = work_.AnswerRow(s, searchers, row.get(), 0, &stored);
  row->set_stored(stored);
  Next next;
  {
    std::lock_guard<std::mutex> lock(mu_);
    --in_flight_;
    if (!status.ok() && status_.ok()) status_ = status;
    const std::uint64_t bytes = row->ByteSizeLong();
    answered_[s] = {.cells = std::move(row), .bytes = bytes};
    next = NextLocked();
  }
  Do(next);
}

std::uint64_t TableRowsStream::RowsForMessageLocked() {
  // A message's envelope (sources, targets, first_source, stored) is a few bytes: a quarter of
  // the reply is left for it and for the fields' tags and lengths.
  const std::uint64_t budget = max_reply_bytes_ * 3 / 4;
  std::uint64_t rows = 0, bytes = 0;
  bool full = false;
  for (; rows < rows_per_message_; ++rows) {
    const auto it = answered_.find(next_row_ + rows);
    if (it == answered_.end()) break;
    if (bytes + it->second.bytes > budget) {
      full = true;
      break;
    }
    bytes += it->second.bytes;
  }
  if (rows == 0 && full) {
    status_ = absl::ResourceExhaustedError(
        absl::StrCat("max-reply-bytes: row ", next_row_, " of the table alone would pass ", budget,
                     " bytes; ask fewer targets",
                     request_.want_walks() ? ", or the matrix alone (no want_walks)" : ""));
    return 0;
  }
  const bool ready = full || rows == rows_per_message_ || next_row_ + rows == sources_;
  return ready ? rows : 0;
}

void TableRowsStream::FillMessageLocked(std::uint64_t rows) {
  message_.Clear();
  SizeTableCells(request_, 0, &message_);
  message_.set_first_source(static_cast<std::uint32_t>(next_row_));
  std::uint64_t stored = 0;
  for (std::uint64_t r = 0; r < rows; ++r) {
    auto it = answered_.find(next_row_ + r);
    walk::v1::TableResponse& row = *it->second.cells;
    stored += row.stored();
    message_.mutable_status()->Add(row.status().begin(), row.status().end());
    message_.mutable_method()->Add(row.method().begin(), row.method().end());
    message_.mutable_seconds()->Add(row.seconds().begin(), row.seconds().end());
    message_.mutable_yards()->Add(row.yards().begin(), row.yards().end());
    for (auto& w : *row.mutable_walks()) *message_.add_walks() = std::move(w);
    answered_.erase(it);
  }
  message_.set_stored(stored);
  next_row_ += rows;
}

TableRowsStream::Next TableRowsStream::NextLocked() {
  Next next;
  if (done_ || !built_) return next;
  if (!writing_ && status_.ok()) {
    if (const std::uint64_t rows = RowsForMessageLocked(); rows > 0) {
      FillMessageLocked(rows);
      writing_ = next.write = true;
    }
  }
  const bool failed = !status_.ok();
  if (!failed && submitted_ < sources_) {
    next.submit_from = submitted_;
    next.submit_to = std::min(sources_, next_row_ + window_);
    if (next.submit_to < next.submit_from) next.submit_to = next.submit_from;
    in_flight_ += next.submit_to - next.submit_from;
    submitted_ = next.submit_to;
  }
  const bool all_sent = next_row_ == sources_;
  if (!writing_ && in_flight_ == 0 && (failed || all_sent)) done_ = next.finish = true;
  return next;
}

void TableRowsStream::Do(const Next& next) {
  for (std::uint64_t s = next.submit_from; s < next.submit_to; ++s) {
    std::shared_ptr<TableRowsStream> self = self_;
    work_.services().pool.Submit(
        [self, s](nav::Searchers& searchers) { self->AnswerRow(s, searchers); },
        SearchPool::Priority::kInteractive, this);
  }
  if (next.write) StartWrite(&message_);
  if (next.finish) {
    const grpc::Status status = ToGrpcStatus(status_);  // status_ is settled once done
    if (on_finish_) on_finish_(status);
    Finish(status);
  }
}

void TableRowsStream::OnWriteDone(bool ok) {
  Next next;
  {
    std::lock_guard<std::mutex> lock(mu_);
    writing_ = false;
    if (!ok && status_.ok()) status_ = absl::CancelledError("the stream broke");
    next = NextLocked();
  }
  Do(next);
}

void TableRowsStream::OnCancel() {
  Next next;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (status_.ok()) status_ = absl::CancelledError("the call was cancelled");
    next = NextLocked();
  }
  Do(next);
}

void TableRowsStream::OnDone() { self_.reset(); }

}  // namespace walk::server
