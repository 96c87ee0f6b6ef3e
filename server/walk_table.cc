#include "server/walk_table.h"

#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "grpcpp/server_context.h"
#include "nav/query/snap.h"
#include "nav/query/walk_options.h"
#include "server/proto_convert.h"

namespace walk::server {
namespace {

// Where a table's place stands on `c`: its snap (none where it is on another continent),
// which its cells' walks take instead of snapping it again; the surface it snaps to
// (kInvalidId when it stands nowhere there); and, for a place in a pocket (a small region), the
// surface a walk settles it on when the walk's other end lies outside the pocket, as nearly
// every other end of a table does (SnapEnds); else kInvalidId.
struct PlaceSurfaces {
  std::optional<nav::Snap> snap;
  nav::SurfaceId snapped = nav::kInvalidId;
  nav::SurfaceId settled = nav::kInvalidId;
};
PlaceSurfaces SurfacesOf(const ServedWorld& served, const nav::Continent& c,
                         const walk::v1::Place& proto) {
  const nav::Place place = ToPlace(proto);
  if (place.continent != c.id) return {};
  PlaceSurfaces surfaces{.snap = served.SnapOf(c, place)};
  nav::Snap snap = *surfaces.snap;
  if (snap.status != nav::WalkStatus::kOk) return surfaces;
  surfaces.snapped = snap.end.surface;
  if (nav::SettleEnd(c, served.world.FrameOf(c).column_yards, nav::WalkOptions().settle, &snap.end))
    surfaces.settled = snap.end.surface;
  return surfaces;
}

// Cell `cell` of the matrix from its walk (its yards 0 when only seconds are asked).
void FillCell(const WalkResult& result, bool seconds_only, int cell, walk::v1::TableResponse* out) {
  const nav::WalkAnswer& answer = result.answer;
  out->mutable_status()->Set(cell, StatusToProto(answer.status));
  out->mutable_method()->Set(cell, MethodToProto(answer.method));
  const bool ok = answer.status == nav::WalkStatus::kOk;
  out->mutable_seconds()->Set(cell, ok ? answer.seconds : 0.0);
  out->mutable_yards()->Set(cell, ok && !seconds_only ? answer.yards : 0.0);
}

// `status` as the error of cell (s, t), naming it.
absl::Status CellError(std::uint64_t s, std::uint64_t t, const absl::Status& status) {
  return absl::Status(status.code(),
                      absl::StrCat("sources[", s, "] to targets[", t, "]: ", status.message()));
}

}  // namespace

void SizeTableCells(const walk::v1::TableRequest& request, int rows, walk::v1::TableResponse* out) {
  const int cells = rows * request.targets_size();
  out->set_sources(static_cast<std::uint32_t>(request.sources_size()));
  out->set_targets(static_cast<std::uint32_t>(request.targets_size()));
  out->mutable_status()->Resize(cells, 0);
  out->mutable_method()->Resize(cells, 0);
  out->mutable_seconds()->Resize(cells, 0.0);
  out->mutable_yards()->Resize(cells, 0.0);
  if (request.want_walks()) {
    for (int i = out->walks_size(); i < cells; ++i) out->add_walks();
  }
}

const ServedWorld::MetricEntry* TableWork::MetricOf(const ServedWorld& world) const {
  if (world.router == nullptr || !world.has_grid()) return nullptr;
  return world.MetricFor(request_.profile(), request_.band());
}

void TableWork::BuildTargets(nav::Searchers& searchers, Build when, std::uint32_t walks,
                             bool reaches) {
  if (request_.want_walks()) return;  // whole walks are tallied and kept, one by one
  walks_ = walks;
  reaches_ = reaches;
  if (when == Build::kOnceTheStoreMisses) {
    auto world = services_.worlds.Find(request_.world());
    const ServedWorld::MetricEntry* metric = world.ok() ? MetricOf(**world) : nullptr;
    if (metric != nullptr && metric->metric->prices_danger()) {
      deferred_ = true;
      return;
    }
  }
  BuildTable(searchers);
}

void TableWork::BuildTable(nav::Searchers& searchers) const {
  auto world = services_.worlds.Find(request_.world());
  if (!world.ok()) return;
  const ServedWorld::MetricEntry* metric = MetricOf(**world);
  if (metric == nullptr) return;
  const nav::World& w = (*world)->world;
  const nav::Continent* c = w.FindContinent(ToPlace(request_.targets(0)).continent);
  if (c == nullptr) return;
  std::vector<nav::SurfaceId> targets;
  targets.reserve(request_.targets_size());
  std::vector<nav::SurfaceId> settled;  // a target in a pocket is walked to where it settles
  std::vector<std::optional<nav::Snap>> target_snaps;
  target_snaps.reserve(request_.targets_size());
  for (const walk::v1::Place& t : request_.targets()) {
    const PlaceSurfaces surfaces = SurfacesOf(**world, *c, t);
    targets.push_back(surfaces.snapped);
    target_snaps.push_back(surfaces.snap);
    if (surfaces.settled != nav::kInvalidId) settled.push_back(surfaces.settled);
  }
  targets.insert(targets.end(), settled.begin(), settled.end());
  auto table = nav::AbstractTable::Build(*(*world)->router, *c, *metric->metric, targets,
                                         searchers.abstract.cell, &stop_, walks_, reaches_);
  if (!table.ok() || !(*table)->active()) return;  // a stop is reported by the rows' walks
  world_ = *std::move(world);
  table_ = *std::move(table);
  target_snaps_ = std::move(target_snaps);
}

std::unique_ptr<nav::AbstractTable::Row> TableWork::RowOf(
    std::uint64_t s, nav::Searchers& searchers, nav::AbstractTable::RowWalks walks,
    std::optional<nav::Snap>* source_snap) const {
  if (table_ == nullptr) return nullptr;
  // A source in a pocket walks from where it settles (to every target outside its pocket).
  const PlaceSurfaces surfaces =
      SurfacesOf(*world_, table_->continent(), request_.sources(static_cast<int>(s)));
  if (source_snap != nullptr) *source_snap = surfaces.snap;
  const nav::SurfaceId from =
      surfaces.settled != nav::kInvalidId ? surfaces.settled : surfaces.snapped;
  return from != nav::kInvalidId ? table_->RowOf(from, searchers.abstract.cell, walks) : nullptr;
}

absl::Status TableWork::AnswerFromStore(std::uint64_t s, walk::v1::TableResponse* out,
                                        int first_cell, std::uint64_t* stored,
                                        std::vector<std::uint64_t>* to_walk) const {
  for (std::uint64_t t = 0; t < targets(); ++t) {
    if (context_->IsCancelled()) return absl::CancelledError("the call was cancelled");
    const absl::StatusOr<std::optional<WalkResult>> result = services_.answerer.AnswerFromStore(
        ToTableQuery(request_, static_cast<int>(s), static_cast<int>(t)), "");
    if (!result.ok()) return CellError(s, t, result.status());
    if (!result->has_value()) {
      to_walk->push_back(t);
      continue;
    }
    ++*stored;
    FillCell(**result, request_.seconds_only() && !request_.want_walks(),
             first_cell + static_cast<int>(t), out);
  }
  return absl::OkStatus();
}

absl::Status TableWork::AnswerRow(std::uint64_t s, nav::Searchers& searchers,
                                  walk::v1::TableResponse* out, int first_cell,
                                  std::uint64_t* stored) const {
  std::vector<std::uint64_t> to_walk;
  if (deferred_) {
    if (absl::Status status = AnswerFromStore(s, out, first_cell, stored, &to_walk); !status.ok())
      return status;
    if (to_walk.empty()) return absl::OkStatus();
    std::call_once(built_, [&] { BuildTable(searchers); });
  } else {
    to_walk.resize(targets());
    for (std::uint64_t t = 0; t < targets(); ++t) to_walk[t] = t;
  }
  // The rows give the matrix alone (seconds and yards, never stored), in every band.
  using RowWalks = nav::AbstractTable::RowWalks;
  const RowWalks walks =
      request_.seconds_only() ? RowWalks::kSecondsOnly : RowWalks::kSecondsAndYards;
  std::optional<nav::Snap> source_snap;
  const std::unique_ptr<nav::AbstractTable::Row> row = RowOf(s, searchers, walks, &source_snap);
  searchers.abstract.known = row.get();
  absl::Status status;
  for (const std::uint64_t t : to_walk) {
    if (context_->IsCancelled()) {
      status = absl::CancelledError("the call was cancelled");
      break;
    }
    // A cell the row knows is answered by it in its own band, without band 0's walk first.
    const bool known = Knows(row.get(), t);
    // Each place snapped once for the whole table (its targets) or row (its source).
    const absl::StatusOr<WalkResult> result = services_.answerer.Answer(
        ToTableQuery(request_, static_cast<int>(s), static_cast<int>(t)),
        {.field_prefix = "",
         .look_up = true,
         .stop = &stop_,
         .band_zero_first = !known,
         .snaps = {.on = table_ != nullptr ? &table_->continent() : nullptr,
                   .from = source_snap ? &*source_snap : nullptr,
                   .to = TargetSnap(t)}},
        searchers);
    if (!result.ok()) {
      status = CellError(s, t, result.status());
      break;
    }
    const int cell = first_cell + static_cast<int>(t);
    if (result->stored) ++*stored;
    FillCell(*result, request_.seconds_only() && !request_.want_walks(), cell, out);
    if (request_.want_walks()) ToProto(*result, out->mutable_walks(cell));
  }
  searchers.abstract.known = nullptr;  // the row goes with this task
  return status;
}

namespace {

// A Table call in flight: one pool task per source row, and the last row to finish replies.
// The first error wins.
struct TableCall {
  TableCall(grpc::CallbackServerContext* context, const walk::v1::TableRequest& request,
            walk::v1::TableResponse* response, std::function<void(const absl::Status&)> finish,
            nav::SearchStop stop, const TableServices& services)
      : work(request, context, std::move(stop), services),
        context(context),
        response(response),
        finish(std::move(finish)),
        rows_left(static_cast<std::uint64_t>(request.sources_size())) {}

  TableWork work;
  grpc::CallbackServerContext* const context;
  walk::v1::TableResponse* const response;  // each row fills its own cells
  const std::function<void(const absl::Status&)> finish;
  std::atomic<std::uint64_t> rows_left;
  std::atomic<std::uint64_t> stored{0};
  std::mutex mu;
  absl::Status error;  // guarded by mu
};

// Replies once every row is in.
void FinishTable(TableCall& call) {
  call.response->set_stored(call.stored);
  absl::Status error;
  {
    std::lock_guard<std::mutex> lock(call.mu);
    error = call.error;
  }
  const std::uint64_t limit = call.work.services().max_reply_bytes;
  if (error.ok() && call.response->ByteSizeLong() > limit) {
    error = absl::ResourceExhaustedError(absl::StrCat(
        "max-reply-bytes: the table's reply would pass ", limit,
        " bytes (more than a client takes); ask fewer sources or targets, or stream it "
        "(TableRows)",
        call.work.request().want_walks() ? ", or the matrix alone (no want_walks)" : ""));
    call.response->Clear();
  }
  if (error.ok() && call.context->IsCancelled()) {
    error = absl::CancelledError("the call was cancelled");
  }
  call.finish(error);
}

void AnswerTableRow(TableCall& call, std::uint64_t s, nav::Searchers& searchers) {
  std::uint64_t stored = 0;
  const absl::Status status = call.work.AnswerRow(
      s, searchers, call.response, static_cast<int>(s * call.work.targets()), &stored);
  call.stored += stored;
  if (!status.ok()) {
    std::lock_guard<std::mutex> lock(call.mu);
    if (call.error.ok()) call.error = status;
  }
  if (--call.rows_left == 0) FinishTable(call);
}

}  // namespace

void StartTable(grpc::CallbackServerContext* context, const walk::v1::TableRequest& request,
                walk::v1::TableResponse* response, std::function<void(const absl::Status&)> finish,
                nav::SearchStop stop, const TableServices& services) {
  const int sources = request.sources_size();
  SizeTableCells(request, sources, response);
  auto call = std::make_shared<TableCall>(context, request, response, std::move(finish),
                                          std::move(stop), services);
  SearchPool& pool = services.pool;
  // The rows queue as one call's: other calls' tasks take turns with them.
  constexpr SearchPool::Priority kInteractive = SearchPool::Priority::kInteractive;
  pool.Submit(
      [call, sources, &pool](nav::Searchers& searchers) {
        call->work.BuildTargets(searchers, TableWork::Build::kOnceTheStoreMisses);
        for (int s = 1; s < sources; ++s) {
          pool.Submit(
              [call, s](nav::Searchers& row_searchers) { AnswerTableRow(*call, s, row_searchers); },
              kInteractive, call.get());
        }
        AnswerTableRow(*call, 0, searchers);
      },
      kInteractive, call.get());
}

}  // namespace walk::server
