// Table and TableRows: sources x targets answered as a matrix on the search pool. A first task
// finds the world and, where the CCH answers (a prepared profile's band 0, or a danger band's
// metric when band metrics are on), builds the targets' side of the many-to-many
// (nav/abstract/abstract_table.h); then a task per source row answers its cells through the
// StoreFirstAnswerer, as Walk answers them: the store first, then the row's known walks before
// any search. A danger band's rows give whole walks, which the store keeps: its table is built
// by the first row whose cell the store misses, so a table asked again builds none. Whole walks
// (want_walks) are routed and kept as Walk's are, without the many-to-many. Table replies once;
// TableRows streams the rows (server/table_rows_stream.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "nav/abstract/abstract_table.h"
#include "nav/search/search_stop.h"
#include "server/search_pool.h"
#include "server/store_first_answerer.h"
#include "server/world_registry.h"
#include "walk/v1/walk.pb.h"

namespace grpc {
class CallbackServerContext;
}

namespace walk::server {

// What a table call borrows; everything must outlive the call.
struct TableServices {
  const WorldRegistry& worlds;
  const StoreFirstAnswerer& answerer;
  SearchPool& pool;
  std::uint64_t max_reply_bytes;
};

// One table's work, shared by its rows (on several pool threads at once): the request, the
// call's stop, and the many-to-many's targets with the world they borrow.
class TableWork {
 public:
  // Borrows `request` and `context`, which must outlive the work's last row.
  TableWork(const walk::v1::TableRequest& request, grpc::CallbackServerContext* context,
            nav::SearchStop stop, const TableServices& services)
      : request_(request), context_(context), stop_(std::move(stop)), services_(services) {}

  const walk::v1::TableRequest& request() const { return request_; }
  std::uint64_t targets() const { return static_cast<std::uint64_t>(request_.targets_size()); }
  const TableServices& services() const { return services_; }
  // When BuildTargets builds: now, or, in a danger band (where cells the many-to-many does not
  // know are walked alone and kept), once a row's cell misses the store: a table whose cells
  // were all walked before is then answered from the store without a side built.
  enum class Build { kNow, kOnceTheStoreMisses };
  // Builds the many-to-many's targets where the CCH answers (else rows walk cell by cell), as
  // `when` says; run once, on a pool thread, before any row. `walks`, the walks its rows would
  // answer, count toward a danger band's metric (nav::AbstractRouter::HierarchyOf): a batch's
  // block counts none (0: the metric only once made), leaving its pairs to band 0's walks and
  // the A* until the band is walked often enough. `reaches`: places in zones the band prices
  // reach across them (nav::AbstractTable::Build), for rows that give seconds and yards.
  void BuildTargets(nav::Searchers& searchers, Build when = Build::kNow,
                    std::uint32_t walks = nav::AbstractRouter::kAtOnce, bool reaches = true);
  // Answers source row `s` into cells `first_cell` .. first_cell + targets() - 1 of `out`
  // (sized), and its whole walks when asked; counts what the store answered in *stored. The
  // first cell's error names the cell; CANCELLED once the call is.
  absl::Status AnswerRow(std::uint64_t s, nav::Searchers& searchers, walk::v1::TableResponse* out,
                         int first_cell, std::uint64_t* stored) const;
  // Source `s`'s row of the many-to-many, giving its walks as `walks` says; null where it knows
  // none (no many-to-many, or the source did not snap, or stands in a zone the band prices and
  // the table does not reach across it).
  // `source_snap`, when not null, receives the source as snapped for the row (none where it is
  // not on the table's continent).
  std::unique_ptr<nav::AbstractTable::Row> RowOf(
      std::uint64_t s, nav::Searchers& searchers, nav::AbstractTable::RowWalks walks,
      std::optional<nav::Snap>* source_snap = nullptr) const;
  // Target `t` as snapped for the table, for its cells' walks; null without a many-to-many or
  // where it is not on the table's continent.
  const nav::Snap* TargetSnap(std::uint64_t t) const {
    return table_ != nullptr && target_snaps_[t].has_value() ? &*target_snaps_[t] : nullptr;
  }
  // Whether `row` (RowOf's) knows its walk to target `t` (from the surface it snapped to).
  bool Knows(const nav::AbstractTable::Row* row, std::uint64_t t) const {
    const nav::Snap* snap = row != nullptr ? TargetSnap(t) : nullptr;
    return snap != nullptr && snap->status == nav::WalkStatus::kOk && row->Knows(snap->end.surface);
  }

 private:
  // The world's metric for the request's profile and band, null where it has none.
  const ServedWorld::MetricEntry* MetricOf(const ServedWorld& world) const;
  // The many-to-many's targets, built where the CCH answers.
  void BuildTable(nav::Searchers& searchers) const;
  // Answers every cell of row `s` the store holds (as AnswerRow), appending the other targets
  // to *to_walk; the first error, naming its cell.
  absl::Status AnswerFromStore(std::uint64_t s, walk::v1::TableResponse* out, int first_cell,
                               std::uint64_t* stored, std::vector<std::uint64_t>* to_walk) const;

  const walk::v1::TableRequest& request_;
  grpc::CallbackServerContext* const context_;  // null outside a Table call (AnswerRow's)
  const nav::SearchStop stop_;
  const TableServices services_;
  // Built by the first row whose cell the store misses (BuildTargets' kOnceTheStoreMisses).
  bool deferred_ = false;
  std::uint32_t walks_ = nav::AbstractRouter::kAtOnce;  // BuildTargets's
  bool reaches_ = true;                                 // BuildTargets's
  mutable std::once_flag built_;
  // Set by BuildTable, before any row reads them (BuildTargets, or built_ once deferred).
  mutable std::shared_ptr<const ServedWorld> world_;  // kept while rows run; null without a table
  mutable std::unique_ptr<nav::AbstractTable> table_;
  mutable std::vector<std::optional<nav::Snap>> target_snaps_;  // by target, with table_
};

// Sizes `out`'s matrix (and its walks, when asked) for `rows` rows of `request`.
void SizeTableCells(const walk::v1::TableRequest& request, int rows, walk::v1::TableResponse* out);

// Answers `request` (its size already checked) into `response` on the pool and calls `finish`
// exactly once, from the last row: the first cell's error (naming the cell and the field), a
// reply too large (max-reply-bytes), CANCELLED, or OK. `stop` is the call's SearchStop.
void StartTable(grpc::CallbackServerContext* context, const walk::v1::TableRequest& request,
                walk::v1::TableResponse* response, std::function<void(const absl::Status&)> finish,
                nav::SearchStop stop, const TableServices& services);

}  // namespace walk::server
