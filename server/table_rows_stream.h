// TableRows: a table's rows streamed in order (server/walk_table.h answers them). Rows are
// answered on the search pool a window ahead of what is written, and written as soon as they
// follow the last row sent, as many a message as --max-reply-bytes lets; walkd holds only the
// targets' side of the many-to-many and the rows of the window, never the whole matrix.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

#include "server/walk_table.h"
#include "server/wire_call.h"

namespace walk::server {

class TableRowsStream final : public WireWriteReactor<walk::v1::TableResponse> {
 public:
  // Told how the stream ended, once, as it finishes.
  using OnFinish = std::function<void(const grpc::Status&)>;
  // Streams `request` (its size already checked). Lives until OnDone; starts at once.
  static TableRowsStream* Start(grpc::CallbackServerContext* context,
                                walk::v1::TableRequest request, nav::SearchStop stop,
                                const TableServices& services, OnFinish on_finish);

  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

 private:
  TableRowsStream(grpc::CallbackServerContext* context, walk::v1::TableRequest request,
                  nav::SearchStop stop, const TableServices& services, OnFinish on_finish);
  // What to do once the lock is let go: write `message_`, finish with `status_`, submit rows.
  struct Next {
    bool write = false;
    bool finish = false;
    std::uint64_t submit_from = 0, submit_to = 0;  // rows to answer
  };
  Next NextLocked();
  // How many answered rows from next_row_ on the next message takes: up to rows_per_message_,
  // within the reply's bytes; 0 while it must wait for more. Sets status_ when one row alone is
  // too large for a reply.
  std::uint64_t RowsForMessageLocked();
  // Moves `rows` answered rows into message_.
  void FillMessageLocked(std::uint64_t rows);
  void Do(const Next& next);
  // Row `s` answered on a pool thread: kept until it is its turn to be written.
  void AnswerRow(std::uint64_t s, nav::Searchers& searchers);

  const walk::v1::TableRequest request_;
  TableWork work_;  // borrows request_
  const std::uint64_t sources_;
  const std::uint64_t rows_per_message_;
  const std::uint64_t window_;  // rows answered ahead of the last row written
  const std::uint64_t max_reply_bytes_;
  const OnFinish on_finish_;
  std::shared_ptr<TableRowsStream> self_;  // dropped in OnDone
  std::mutex mu_;
  bool built_ = false;           // the targets are built: rows may be submitted
  std::uint64_t submitted_ = 0;  // rows handed to the pool
  std::uint64_t in_flight_ = 0;  // handed and not answered
  std::uint64_t next_row_ = 0;   // the first row not yet written
  struct AnsweredRow {
    std::unique_ptr<walk::v1::TableResponse> cells;
    std::uint64_t bytes = 0;  // its cells' encoded size
  };
  std::map<std::uint64_t, AnsweredRow> answered_;  // rows waiting to be written
  bool writing_ = false;
  bool done_ = false;
  absl::Status status_;              // the first error, or the stream's end
  walk::v1::TableResponse message_;  // not touched while a write is in flight
};

}  // namespace walk::server
