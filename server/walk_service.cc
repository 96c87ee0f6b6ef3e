#include "server/walk_service.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "nav/cost/cost_model.h"
#include "nav/cost/danger.h"
#include "nav/query/place_check.h"
#include "nav/query/snap.h"
#include "server/call_stop.h"
#include "server/grpc_status.h"
#include "server/proto_convert.h"
#include "server/table_rows_stream.h"
#include "server/trip_convert.h"
#include "server/walk_batch.h"
#include "server/walk_table.h"
#include "server/wire_call.h"

namespace walk::server {
namespace {

using Clock = std::chrono::steady_clock;

// A finisher for a unary call: records the request's metrics, then replies.
std::function<void(const absl::Status&)> Finisher(UnaryWireReply* call, WalkMetrics& metrics,
                                                  const char* method) {
  const Clock::time_point start = Clock::now();
  return [call, start, &metrics, method](const absl::Status& status) {
    const grpc::Status reply = ToGrpcStatus(status);
    metrics.RecordRequest(method, GrpcCodeName(reply.error_code()),
                          std::chrono::duration<double>(Clock::now() - start).count());
    call->Reply(reply);
  };
}

// A WalkBatch stream refused before it starts: it ends with `status` at once.
class RefusedStream final : public grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer> {
 public:
  explicit RefusedStream(const grpc::Status& status) { Finish(status); }
  void OnDone() override { delete this; }
};

}  // namespace

WalkServiceImpl::WireRulesByRequest WalkServiceImpl::WireRulesFor(const Limits& limits) {
  using walk::v1::PairBlock;
  const auto& batch = *walk::v1::WalkBatchRequest::descriptor();
  const auto& block = *PairBlock::descriptor();
  const BatchLimits& b = limits.batch;
  // A message's own pair is one of its max_pairs_per_message.
  const std::uint64_t more = b.max_pairs_per_message - 1;
  WireRulesByRequest rules;
  rules.batch.type = &batch;
  rules.batch.limits.push_back(LimitOn(
      batch, "more", more, "max-pairs-per-message", "more",
      absl::StrCat("a message carries at most ", b.max_pairs_per_message, " pairs, its walk and ",
                   more, " in more; send more messages, or pairs in blocks")));
  for (const char* column : {"index", "from_x", "from_y", "from_z", "to_x", "to_y", "to_z"}) {
    rules.batch.limits.push_back(LimitOn(block, column, b.max_block_pairs, "max-block-pairs",
                                         absl::StrCat("block.", column), "send more blocks"));
  }
  const auto& table = *walk::v1::TableRequest::descriptor();
  rules.table.type = &table;
  rules.table_rows.type = &table;
  for (const char* side : {"sources", "targets"}) {
    rules.table.limits.push_back(LimitOn(
        table, side, limits.max_table_cells, "max-table-cells", side,
        absl::StrCat("a table holds at most ", limits.max_table_cells,
                     " walks (sources x targets); split it, or raise walkd's --max-table-cells")));
    rules.table_rows.limits.push_back(
        LimitOn(table, side, limits.max_table_stream_cells, "max-table-stream-cells", side,
                absl::StrCat("a streamed table holds at most ", limits.max_table_stream_cells,
                             " cells (sources x targets); split it, or raise walkd's "
                             "--max-table-stream-cells")));
  }
  // The others have no repeated field: only their unknown fields are counted.
  rules.walk.type = walk::v1::WalkRequest::descriptor();
  rules.path.type = walk::v1::PathRequest::descriptor();
  rules.floors.type = walk::v1::FloorsRequest::descriptor();
  rules.info.type = walk::v1::InfoRequest::descriptor();
  rules.trip.type = walk::v1::TripRequest::descriptor();
  return rules;
}

template <typename Request, typename Response>
grpc::ServerUnaryReactor* WalkServiceImpl::Serve(const char* method, const WireRules& rules,
                                                 grpc::CallbackServerContext* context,
                                                 const grpc::ByteBuffer& request,
                                                 grpc::ByteBuffer* response,
                                                 Answer<Request, Response> answer) {
  auto* call = new UnaryWireCall<Request, Response>(response);
  Finish finish = Finisher(call, metrics_, method);
  if (absl::Status allowed = auth_.Check(*context, Access::kRead); !allowed.ok()) {
    finish(allowed);
    return call;
  }
  if (absl::Status read = call->Read(request, rules); !read.ok()) {
    finish(read);
    return call;
  }
  (this->*answer)(context, call->request(), call->response(), std::move(finish));
  return call;
}

void WalkServiceImpl::AnswerOnPool(PoolCall call) {
  const StoreFirstAnswerer& answerer = answerer_;
  pool_.Submit([call = std::move(call), &answerer](nav::Searchers& searchers) {
    if (call.context->IsCancelled()) {
      call.finish(absl::CancelledError("the call was cancelled before its search ran"));
      return;
    }
    if (absl::Status wanted = call.stop.Check(0); !wanted.ok()) {  // its deadline passed queued
      call.finish(wanted);
      return;
    }
    absl::StatusOr<WalkResult> result = answerer.Answer(
        call.query, {.field_prefix = call.field_prefix, .stop = &call.stop}, searchers);
    if (result.ok()) call.reply(*result);
    call.finish(result.status());
  });
}

void WalkServiceImpl::AnswerWalk(grpc::CallbackServerContext* context,
                                 const walk::v1::WalkRequest& request,
                                 walk::v1::WalkResponse* response, Finish finish) {
  AnswerOnPool({.context = context,
                .query = ToWalkQuery(request),
                .field_prefix = "",
                .reply = [response](const WalkResult& result) { ToProto(result, response); },
                .finish = std::move(finish),
                .stop = StopOf(context, stopping_, limits_.max_search_expansions)});
}

void WalkServiceImpl::AnswerPath(grpc::CallbackServerContext* context,
                                 const walk::v1::PathRequest& request,
                                 walk::v1::PathResponse* response, Finish finish) {
  AnswerOnPool({.context = context,
                .query = ToWalkQuery(request),
                .field_prefix = "walk.",
                .reply = [response](const WalkResult& result) { ToProto(result, response); },
                .finish = std::move(finish),
                .stop = StopOf(context, stopping_, limits_.max_search_expansions)});
}

grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>* WalkServiceImpl::WalkBatch(
    grpc::CallbackServerContext* context) {
  if (absl::Status allowed = auth_.Check(*context, Access::kRead); !allowed.ok()) {
    metrics_.RecordRequest("WalkBatch", GrpcCodeName(ToGrpcStatus(allowed).error_code()), 0.0);
    return new RefusedStream(ToGrpcStatus(allowed));
  }
  return new WalkBatchReactor(worlds_, answerer_, trips_, pool_, metrics_,
                              StopOf(context, stopping_, limits_.max_search_expansions),
                              limits_.batch, wire_.batch);
}

void WalkServiceImpl::AnswerTrip(grpc::CallbackServerContext* context,
                                 const walk::v1::TripRequest& request,
                                 walk::v1::TripResponse* response, Finish finish) {
  const TripPlanner& trips = trips_;
  pool_.Submit([context, request = &request, response, &trips, finish = std::move(finish),
                stop = StopOf(context, stopping_, limits_.max_search_expansions)](
                   nav::Searchers& searchers) {
    if (context->IsCancelled()) {
      finish(absl::CancelledError("the call was cancelled before its search ran"));
      return;
    }
    absl::StatusOr<TripResult> result = trips.Plan(ToTripQuery(*request), "", &stop, searchers);
    if (result.ok()) ToProto(*result, response);
    finish(result.status());
  });
}

void WalkServiceImpl::AnswerTable(grpc::CallbackServerContext* context,
                                  const walk::v1::TableRequest& request,
                                  walk::v1::TableResponse* response, Finish finish) {
  if (absl::Status size = CheckTableSize(request, limits_.max_table_cells, "max-table-cells");
      !size.ok()) {
    finish(size);
    return;
  }
  StartTable(context, request, response, std::move(finish),
             StopOf(context, stopping_, limits_.max_search_expansions),
             {.worlds = worlds_,
              .answerer = answerer_,
              .pool = pool_,
              .max_reply_bytes = limits_.max_reply_bytes});
}

absl::Status WalkServiceImpl::CheckTableSize(const walk::v1::TableRequest& request,
                                             std::uint64_t limit, const char* limit_name) {
  const std::uint64_t sources = request.sources_size(), targets = request.targets_size();
  if (sources == 0 || targets == 0) {
    return absl::InvalidArgumentError(sources == 0 ? "sources: required" : "targets: required");
  }
  if (sources * targets > limit) {
    return absl::ResourceExhaustedError(
        absl::StrCat(limit_name, ": a table holds at most ", limit,
                     " walks (sources x targets); split it, or raise walkd's --", limit_name));
  }
  return absl::OkStatus();
}

grpc::ServerWriteReactor<grpc::ByteBuffer>* WalkServiceImpl::TableRows(
    grpc::CallbackServerContext* context, const grpc::ByteBuffer* request_bytes) {
  absl::Status refused = auth_.Check(*context, Access::kRead);
  walk::v1::TableRequest request;
  if (refused.ok()) refused = ReadWireMessage(*request_bytes, wire_.table_rows, &request).status;
  if (refused.ok()) {
    refused = CheckTableSize(request, limits_.max_table_stream_cells, "max-table-stream-cells");
  }
  if (!refused.ok()) {
    metrics_.RecordRequest("TableRows", GrpcCodeName(ToGrpcStatus(refused).error_code()), 0.0);
    return new RefusedWriteStream(ToGrpcStatus(refused));
  }
  const auto start = std::chrono::steady_clock::now();
  WalkMetrics& metrics = metrics_;
  return TableRowsStream::Start(
      context, std::move(request), StopOf(context, stopping_, limits_.max_search_expansions),
      {.worlds = worlds_,
       .answerer = answerer_,
       .pool = pool_,
       .max_reply_bytes = limits_.max_reply_bytes},
      [start, &metrics](const grpc::Status& status) {
        metrics.RecordRequest(
            "TableRows", GrpcCodeName(status.error_code()),
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      });
}

void WalkServiceImpl::AnswerFloors(grpc::CallbackServerContext* /*context*/,
                                   const walk::v1::FloorsRequest& request,
                                   walk::v1::FloorsResponse* response, Finish finish) {
  if (request.world().empty()) {
    finish(absl::InvalidArgumentError("world: required"));
    return;
  }
  if (!request.has_place()) {
    finish(absl::InvalidArgumentError("place: required"));
    return;
  }
  const std::uint64_t wide = std::max<std::uint32_t>(1, request.columns_x());
  const std::uint64_t high = std::max<std::uint32_t>(1, request.columns_y());
  const std::uint64_t stride = std::max<std::uint32_t>(1, request.stride());
  if (((wide + stride - 1) / stride) * ((high + stride - 1) / stride) > limits_.max_floor_columns) {
    finish(absl::ResourceExhaustedError(absl::StrCat(
        "max-floor-columns: a Floors call returns at most ", limits_.max_floor_columns,
        " columns (columns_x / stride x columns_y / stride); raise stride or ask less")));
    return;
  }
  absl::StatusOr<std::shared_ptr<const ServedWorld>> world = worlds_.Find(request.world());
  if (!world.ok()) {
    finish(world.status());
    return;
  }
  const nav::World& w = (*world)->world;
  const nav::Place place = ToPlace(request.place());
  if (absl::Status valid = nav::ValidatePlace(place, "place"); !valid.ok()) {
    finish(valid);
    return;
  }
  const nav::Continent* c = w.FindContinent(place.continent);
  if (c == nullptr) {
    finish(absl::NotFoundError(
        absl::StrCat("place.continent: the world has no continent ", place.continent)));
    return;
  }
  const nav::WorldFrame frame = w.FrameOf(*c);
  const std::int64_t x0 = frame.ColumnX(place.x_yards);
  const std::int64_t y0 = frame.ColumnY(place.y_yards);
  const auto step = static_cast<std::int64_t>(stride);
  std::uint64_t bytes = 0;
  for (std::int64_t y = y0; y < y0 + static_cast<std::int64_t>(high); y += step) {
    for (std::int64_t x = x0; x < x0 + static_cast<std::int64_t>(wide); x += step) {
      if (!c->OnMap(x, y)) continue;
      walk::v1::Column* column = response->add_columns();
      ColumnToProto(*c, frame, static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y),
                    column);
      bytes += column->ByteSizeLong() + 4;  // with its tag and length
      if (bytes > limits_.max_reply_bytes) {
        response->Clear();
        finish(absl::ResourceExhaustedError(
            absl::StrCat("max-reply-bytes: the reply would pass ", limits_.max_reply_bytes,
                         " bytes (more than a client takes); ask fewer columns or raise stride")));
        return;
      }
    }
  }
  response->set_column_yards(w.column_yards);
  finish(absl::OkStatus());
}

void WalkServiceImpl::AnswerInfo(grpc::CallbackServerContext* /*context*/,
                                 const walk::v1::InfoRequest& /*request*/,
                                 walk::v1::InfoResponse* response, Finish finish) {
  for (const WorldStatus& w : worlds_.Snapshot()) ToProto(w, response->add_worlds());
  for (const std::string& name : nav::ProfileNames()) response->add_profiles(name);
  for (std::uint32_t band : nav::kDangerBands) response->add_bands(band);
  response->set_version(WALKD_VERSION);
  walk::v1::Limits* limits = response->mutable_limits();
  limits->set_max_table_cells(limits_.max_table_cells);
  limits->set_max_table_stream_cells(limits_.max_table_stream_cells);
  limits->set_max_pairs_per_message(limits_.batch.max_pairs_per_message);
  limits->set_max_block_pairs(limits_.batch.max_block_pairs);
  limits->set_max_floor_columns(limits_.max_floor_columns);
  limits->set_max_group_starts(limits_.max_group_starts);
  limits->set_max_blocker_changes(limits_.max_blocker_changes);
  limits->set_max_reply_bytes(limits_.max_reply_bytes);
  limits->set_max_message_bytes(limits_.max_message_bytes);
  limits->set_max_search_expansions(limits_.max_search_expansions);
  limits->set_max_inflight_pairs(limits_.batch.max_inflight_pairs);
  limits->set_max_concurrent_streams(limits_.max_concurrent_streams);
  limits->set_max_live_worlds(limits_.live.max_worlds);
  limits->set_max_live_world_cells(limits_.live.max_world_cells);
  limits->set_max_live_cells(limits_.live.max_cells);
  limits->set_max_live_map_bytes(limits_.live.max_map_bytes);
  limits->set_max_live_layer_bytes(limits_.live.max_layer_bytes);
  limits->set_max_live_name_length(limits_.live.max_name_length);
  if (live_ != nullptr) live_->Describe(response);
  finish(absl::OkStatus());
}

grpc::ServerUnaryReactor* WalkServiceImpl::Walk(grpc::CallbackServerContext* context,
                                                const grpc::ByteBuffer* request,
                                                grpc::ByteBuffer* response) {
  return Serve<walk::v1::WalkRequest, walk::v1::WalkResponse>(
      "Walk", wire_.walk, context, *request, response, &WalkServiceImpl::AnswerWalk);
}

grpc::ServerUnaryReactor* WalkServiceImpl::Path(grpc::CallbackServerContext* context,
                                                const grpc::ByteBuffer* request,
                                                grpc::ByteBuffer* response) {
  return Serve<walk::v1::PathRequest, walk::v1::PathResponse>(
      "Path", wire_.path, context, *request, response, &WalkServiceImpl::AnswerPath);
}

grpc::ServerUnaryReactor* WalkServiceImpl::Floors(grpc::CallbackServerContext* context,
                                                  const grpc::ByteBuffer* request,
                                                  grpc::ByteBuffer* response) {
  return Serve<walk::v1::FloorsRequest, walk::v1::FloorsResponse>(
      "Floors", wire_.floors, context, *request, response, &WalkServiceImpl::AnswerFloors);
}

grpc::ServerUnaryReactor* WalkServiceImpl::Table(grpc::CallbackServerContext* context,
                                                 const grpc::ByteBuffer* request,
                                                 grpc::ByteBuffer* response) {
  return Serve<walk::v1::TableRequest, walk::v1::TableResponse>(
      "Table", wire_.table, context, *request, response, &WalkServiceImpl::AnswerTable);
}

grpc::ServerUnaryReactor* WalkServiceImpl::Info(grpc::CallbackServerContext* context,
                                                const grpc::ByteBuffer* request,
                                                grpc::ByteBuffer* response) {
  return Serve<walk::v1::InfoRequest, walk::v1::InfoResponse>(
      "Info", wire_.info, context, *request, response, &WalkServiceImpl::AnswerInfo);
}

grpc::ServerUnaryReactor* WalkServiceImpl::Trip(grpc::CallbackServerContext* context,
                                                const grpc::ByteBuffer* request,
                                                grpc::ByteBuffer* response) {
  return Serve<walk::v1::TripRequest, walk::v1::TripResponse>(
      "Trip", wire_.trip, context, *request, response, &WalkServiceImpl::AnswerTrip);
}

}  // namespace walk::server
