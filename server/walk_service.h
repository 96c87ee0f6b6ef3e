// walk.v1.WalkService: converts a request into plain types (server/proto_convert.h), has it
// validated (naming the bad field) and answered on the search pool (never on gRPC's threads),
// and converts the answer into the reply.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

#include "absl/strings/string_view.h"
#include "server/call_auth.h"
#include "server/live_service.h"
#include "server/search_pool.h"
#include "server/store_first_answerer.h"
#include "server/trip_planner.h"
#include "server/walk_batch.h"
#include "server/walk_metrics.h"
#include "server/walk_query.h"
#include "server/wire_count.h"
#include "server/world_registry.h"
#include "walk/v1/walk.grpc.pb.h"

namespace walk::server {

// Every method of walk.v1.WalkService, taking its messages as bytes.
using RawWalkService = walk::v1::WalkService::WithRawCallbackMethod_Walk<
    walk::v1::WalkService::WithRawCallbackMethod_Path<
        walk::v1::WalkService::WithRawCallbackMethod_Floors<
            walk::v1::WalkService::WithRawCallbackMethod_WalkBatch<
                walk::v1::WalkService::WithRawCallbackMethod_Table<
                    walk::v1::WalkService::WithRawCallbackMethod_TableRows<
                        walk::v1::WalkService::WithRawCallbackMethod_Info<
                            walk::v1::WalkService::WithRawCallbackMethod_Trip<
                                walk::v1::WalkService::Service>>>>>>>>;

class WalkServiceImpl final : public RawWalkService {
 public:
  // What bounds the service's calls: walkd's options, read once.
  struct Limits {
    std::uint64_t max_table_cells = 10000;           // walks one Table call may hold
    std::uint64_t max_table_stream_cells = 4000000;  // cells one TableRows stream may hold
    // Surfaces or nodes one search may expand (nav::SearchStop::budget).
    std::uint64_t max_search_expansions = std::uint64_t{1} << 26;
    // Columns one Floors call may ask for; bytes a reply may take (under a client's 4 MiB).
    std::uint64_t max_floor_columns = 16384;
    std::uint64_t max_reply_bytes = (std::uint64_t{4} << 20) - (64 << 10);
    BatchLimits batch;  // its open_streams is the service's own
    // Limits other parts enforce, listed in Info so clients size requests by them: a PathGroup's
    // starts, an UpdateBlockers call's changes, a request message's bytes, calls open on one
    // connection.
    std::uint64_t max_group_starts = 4096;
    std::uint64_t max_blocker_changes = 4096;  // one UpdateBlockers call's changes
    std::uint64_t max_message_bytes = std::uint64_t{4} << 20;
    std::uint64_t max_concurrent_streams = 128;
    nav::live::LiveWorldLimits live;  // what CreateWorld accepts
  };
  // Everything is borrowed and must outlive the service. `stopping` turns true when walkd stops
  // for good (its grace over): every search then stops. Every call is a read for `auth`.
  WalkServiceImpl(const WorldRegistry& worlds, const StoreFirstAnswerer& answerer,
                  const TripPlanner& trips, SearchPool& pool, WalkMetrics& metrics,
                  const std::atomic<bool>& stopping, const Limits& limits, const CallAuth& auth)
      : worlds_(worlds),
        answerer_(answerer),
        trips_(trips),
        pool_(pool),
        metrics_(metrics),
        stopping_(stopping),
        limits_(limits),
        auth_(auth),
        wire_(WireRulesFor(limits)) {
    limits_.batch.open_streams = &open_streams_;
  }

  // Every method takes its request as bytes, counted on the wire before it is parsed
  // (server/wire_call.h), then answers it as a typed call.
  grpc::ServerUnaryReactor* Walk(grpc::CallbackServerContext* context,
                                 const grpc::ByteBuffer* request,
                                 grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* Path(grpc::CallbackServerContext* context,
                                 const grpc::ByteBuffer* request,
                                 grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* Floors(grpc::CallbackServerContext* context,
                                   const grpc::ByteBuffer* request,
                                   grpc::ByteBuffer* response) override;
  grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>* WalkBatch(
      grpc::CallbackServerContext* context) override;
  grpc::ServerUnaryReactor* Table(grpc::CallbackServerContext* context,
                                  const grpc::ByteBuffer* request,
                                  grpc::ByteBuffer* response) override;
  grpc::ServerWriteReactor<grpc::ByteBuffer>* TableRows(grpc::CallbackServerContext* context,
                                                        const grpc::ByteBuffer* request) override;
  grpc::ServerUnaryReactor* Info(grpc::CallbackServerContext* context,
                                 const grpc::ByteBuffer* request,
                                 grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* Trip(grpc::CallbackServerContext* context,
                                 const grpc::ByteBuffer* request,
                                 grpc::ByteBuffer* response) override;

  // The live worlds Info lists (null: none). Set before the server starts; must outlive it.
  void set_live(const LiveServiceImpl* live) { live_ = live; }

 private:
  // Finishes a call; called exactly once.
  using Finish = std::function<void(const absl::Status&)>;
  // A typed handler: answers `request` into `response` and calls `finish` (now or later).
  template <typename Request, typename Response>
  using Answer = void (WalkServiceImpl::*)(grpc::CallbackServerContext* context,
                                           const Request& request, Response* response,
                                           Finish finish);
  // What each request may carry on the wire (server/wire_count.h).
  struct WireRulesByRequest {
    WireRules walk, path, floors, batch, table, table_rows, info, trip;
  };
  static WireRulesByRequest WireRulesFor(const Limits& limits);

  // Serves a unary call from its bytes: the token, the wire check and the parse, then `answer`.
  template <typename Request, typename Response>
  grpc::ServerUnaryReactor* Serve(const char* method, const WireRules& rules,
                                  grpc::CallbackServerContext* context,
                                  const grpc::ByteBuffer& request, grpc::ByteBuffer* response,
                                  Answer<Request, Response> answer);
  void AnswerWalk(grpc::CallbackServerContext* context, const walk::v1::WalkRequest& request,
                  walk::v1::WalkResponse* response, Finish finish);
  void AnswerPath(grpc::CallbackServerContext* context, const walk::v1::PathRequest& request,
                  walk::v1::PathResponse* response, Finish finish);
  void AnswerFloors(grpc::CallbackServerContext* context, const walk::v1::FloorsRequest& request,
                    walk::v1::FloorsResponse* response, Finish finish);
  void AnswerTable(grpc::CallbackServerContext* context, const walk::v1::TableRequest& request,
                   walk::v1::TableResponse* response, Finish finish);
  // What a table's size must meet: RESOURCE_EXHAUSTED naming `limit_name` past `limit` cells.
  static absl::Status CheckTableSize(const walk::v1::TableRequest& request, std::uint64_t limit,
                                     const char* limit_name);
  void AnswerInfo(grpc::CallbackServerContext* context, const walk::v1::InfoRequest& request,
                  walk::v1::InfoResponse* response, Finish finish);
  void AnswerTrip(grpc::CallbackServerContext* context, const walk::v1::TripRequest& request,
                  walk::v1::TripResponse* response, Finish finish);

  // One walk answered on the search pool, as Walk and Path ask it.
  struct PoolCall {
    grpc::CallbackServerContext* context = nullptr;
    WalkQuery query;
    // As StoreFirstAnswerer::AnswerOptions; a string literal (the call outlives its caller's
    // frame).
    absl::string_view field_prefix;
    // Fills the call's reply from the answer; runs on the pool thread before `finish`.
    std::function<void(const WalkResult&)> reply;
    // Finishes the call; called exactly once.
    std::function<void(const absl::Status&)> finish;
    // When its searches stop.
    nav::SearchStop stop;
  };
  // Answers `call.query` on the search pool (never on gRPC's thread).
  void AnswerOnPool(PoolCall call);

  const WorldRegistry& worlds_;
  const StoreFirstAnswerer& answerer_;
  const TripPlanner& trips_;
  SearchPool& pool_;
  WalkMetrics& metrics_;
  const std::atomic<bool>& stopping_;
  Limits limits_;
  const CallAuth& auth_;
  const WireRulesByRequest wire_;
  std::atomic<int> open_streams_{0};  // WalkBatch streams open (BatchLimits::open_streams)
  const LiveServiceImpl* live_ = nullptr;
};

}  // namespace walk::server
