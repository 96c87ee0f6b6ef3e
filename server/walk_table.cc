#include "server/walk_table.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "grpcpp/server_context.h"
#include "nav/abstract/abstract_table.h"
#include "nav/query/snap.h"
#include "server/proto_convert.h"

namespace walk::server {
namespace {

// A Table call in flight: one pool task per source row, and the last row to finish replies.
// The first error wins.
struct TableCall {
  TableCall(grpc::CallbackServerContext* context, const walk::v1::TableRequest* request,
            walk::v1::TableResponse* response, std::function<void(const absl::Status&)> finish,
            nav::SearchStop stop, const TableServices& services)
      : context(context),
        request(request),
        response(response),
        finish(std::move(finish)),
        stop(std::move(stop)),
        services(services),
        targets(static_cast<std::uint64_t>(request->targets_size())),
        rows_left(static_cast<std::uint64_t>(request->sources_size())) {}

  grpc::CallbackServerContext* const context;
  const walk::v1::TableRequest* const request;
  walk::v1::TableResponse* const response;  // each row fills its own cells
  const std::function<void(const absl::Status&)> finish;
  const nav::SearchStop stop;  // its searches', shared by its rows
  const TableServices services;
  const std::uint64_t targets;
  // The many-to-many's targets, and the world it borrows from (kept while rows run); null
  // where the CCH does not answer.
  std::shared_ptr<const ServedWorld> world;
  std::unique_ptr<nav::AbstractTable> table;
  std::atomic<std::uint64_t> rows_left;
  std::atomic<std::uint64_t> stored{0};
  std::mutex mu;
  absl::Status error;  // guarded by mu
};

// The place's surface on `c` when it stands there and snaps, else kInvalidId.
nav::SurfaceId SurfaceOf(const nav::World& world, const nav::Continent& c,
                         const walk::v1::Place& proto) {
  const nav::Place place = ToPlace(proto);
  if (place.continent != c.id) return nav::kInvalidId;
  const nav::Snap snap = nav::SnapPlace(c, world.FrameOf(c), place);
  return snap.status == nav::WalkStatus::kOk ? snap.end.surface : nav::kInvalidId;
}

// The targets' side of the many-to-many, when the CCH answers this table's grid walks: a
// prepared world, a band pricing no danger, targets on one continent; else nothing (every cell
// is then routed alone, and reports its own errors).
void BuildTargets(TableCall& call, nav::Searchers& searchers) {
  const walk::v1::TableRequest& request = *call.request;
  if (request.want_walks()) return;  // whole walks are tallied and kept, one by one
  auto world = call.services.worlds.Find(request.world());
  if (!world.ok() || (*world)->router == nullptr || !(*world)->has_grid()) return;
  const ServedWorld::MetricEntry* metric = (*world)->MetricFor(request.profile(), request.band());
  if (metric == nullptr || metric->metric->prices_danger()) return;
  const nav::World& w = (*world)->world;
  const nav::Continent* c = w.FindContinent(ToPlace(request.targets(0)).continent);
  if (c == nullptr) return;
  std::vector<nav::SurfaceId> targets;
  targets.reserve(request.targets_size());
  for (const walk::v1::Place& t : request.targets()) targets.push_back(SurfaceOf(w, *c, t));
  auto table = nav::AbstractTable::Build(*(*world)->router, *c, *metric->metric, targets,
                                         searchers.abstract.cell, &call.stop);
  if (!table.ok() || !(*table)->active()) return;  // a stop is reported by the rows' walks
  call.world = *std::move(world);
  call.table = *std::move(table);
}

// Cell `cell` of the matrix from its walk.
void FillCell(const WalkResult& result, int cell, walk::v1::TableResponse* out) {
  const nav::WalkAnswer& answer = result.answer;
  out->mutable_status()->Set(cell, StatusToProto(answer.status));
  out->mutable_method()->Set(cell, MethodToProto(answer.method));
  const bool ok = answer.status == nav::WalkStatus::kOk;
  out->mutable_seconds()->Set(cell, ok ? answer.seconds : 0.0);
  out->mutable_yards()->Set(cell, ok ? answer.yards : 0.0);
}

// Replies once every row is in.
void FinishTable(TableCall& call) {
  call.response->set_stored(call.stored);
  absl::Status error;
  {
    std::lock_guard<std::mutex> lock(call.mu);
    error = call.error;
  }
  const std::uint64_t limit = call.services.max_reply_bytes;
  if (error.ok() && call.response->ByteSizeLong() > limit) {
    error = absl::ResourceExhaustedError(
        absl::StrCat("max-reply-bytes: the table's reply would pass ", limit,
                     " bytes (more than a client takes); ask fewer sources or targets",
                     call.request->want_walks() ? ", or the matrix alone (no want_walks)" : ""));
    call.response->Clear();
  }
  if (error.ok() && call.context->IsCancelled()) {
    error = absl::CancelledError("the call was cancelled");
  }
  call.finish(error);
}

// The known walks of source row `s` (null without a many-to-many, or where the source does not
// stand on the table's continent).
std::unique_ptr<nav::AbstractTable::Row> RowOf(const TableCall& call, std::uint64_t s,
                                               nav::Searchers& searchers) {
  if (call.table == nullptr) return nullptr;
  const nav::Continent& c = call.table->continent();
  const nav::SurfaceId from =
      SurfaceOf(call.world->world, c, call.request->sources(static_cast<int>(s)));
  return from != nav::kInvalidId ? call.table->RowOf(from, searchers.abstract.cell) : nullptr;
}

// Answers row `s` of `call`: sources[s] to every target, until a walk fails or the call is
// cancelled. The last row to finish finishes the call.
void AnswerRow(TableCall& call, std::uint64_t s, nav::Searchers& searchers) {
  const std::unique_ptr<nav::AbstractTable::Row> row = RowOf(call, s, searchers);
  searchers.abstract.known = row.get();
  for (std::uint64_t t = 0; t < call.targets && !call.context->IsCancelled(); ++t) {
    const int cell = static_cast<int>(s * call.targets + t);
    const absl::StatusOr<WalkResult> result = call.services.answerer.Answer(
        ToTableQuery(*call.request, static_cast<int>(s), static_cast<int>(t)),
        {.field_prefix = "", .look_up = true, .stop = &call.stop}, searchers);
    if (result.ok()) {
      if (result->stored) ++call.stored;
      FillCell(*result, cell, call.response);
      if (call.request->want_walks()) ToProto(*result, call.response->mutable_walks(cell));
      continue;
    }
    std::lock_guard<std::mutex> lock(call.mu);
    if (call.error.ok()) {
      call.error = absl::Status(
          result.status().code(),
          absl::StrCat("sources[", s, "] to targets[", t, "]: ", result.status().message()));
    }
    break;
  }
  searchers.abstract.known = nullptr;  // the row goes with this task
  if (--call.rows_left == 0) FinishTable(call);
}

}  // namespace

void StartTable(grpc::CallbackServerContext* context, const walk::v1::TableRequest& request,
                walk::v1::TableResponse* response, std::function<void(const absl::Status&)> finish,
                nav::SearchStop stop, const TableServices& services) {
  const int sources = request.sources_size(), targets = request.targets_size();
  const int cells = sources * targets;
  response->set_sources(static_cast<std::uint32_t>(sources));
  response->set_targets(static_cast<std::uint32_t>(targets));
  response->mutable_status()->Resize(cells, 0);
  response->mutable_method()->Resize(cells, 0);
  response->mutable_seconds()->Resize(cells, 0.0);
  response->mutable_yards()->Resize(cells, 0.0);
  if (request.want_walks()) {
    for (int i = 0; i < cells; ++i) response->add_walks();
  }
  auto call = std::make_shared<TableCall>(context, &request, response, std::move(finish),
                                          std::move(stop), services);
  SearchPool& pool = services.pool;
  pool.Submit([call, sources, &pool](nav::Searchers& searchers) {
    BuildTargets(*call, searchers);
    for (int s = 1; s < sources; ++s) {
      pool.Submit([call, s](nav::Searchers& row_searchers) { AnswerRow(*call, s, row_searchers); });
    }
    AnswerRow(*call, 0, searchers);
  });
}

}  // namespace walk::server
