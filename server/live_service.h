// walk.v1.LiveService: live 2D worlds for game servers (nav/live). Worlds come from two places:
// each folder under --live-worlds holding `map.map` (and optionally `layers.txt`), named by the
// folder and there for walkd's life; and CreateWorld, which keeps the world's created state in
// <data-dir>/live (server/live_world_folder.h) so a restart brings it back. Created worlds are
// reset and dropped while the others serve (nav/live/world_set.h). Calls are short (a cached path
// is microseconds, a search milliseconds), so they run on gRPC's callback threads; LiveWorld is
// thread-safe (readers share, updates are exclusive). Group members deferred over the fallback
// bound are searched by one FallbackQueue shared by every world, on its own thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/live/fallback_queue.h"
#include "nav/live/live_world.h"
#include "nav/live/world_set.h"
#include "server/call_auth.h"
#include "server/walk_metrics.h"
#include "server/wire_call.h"
#include "server/wire_count.h"
#include "walk/v1/walk.grpc.pb.h"

namespace walk::server {

struct LiveServiceOptions {
  std::string dir;                           // --live-worlds (empty: none)
  std::string created_dir;                   // where created worlds are kept (empty: not kept)
  nav::live::LiveWorldLimits limits;         // --live-max-*
  std::uint64_t max_group_starts = 4096;     // starts (and formation slots) of one call
  std::uint64_t max_blocker_changes = 4096;  // changes of one UpdateBlockers call
  nav::live::LiveWorldOptions world;         // every world's
  nav::live::FallbackQueueOptions fallbacks;
  // Called with every world's name after a world is created or dropped (health's services).
  std::function<void(const std::vector<std::string>&)> on_worlds_changed;
};

// Every method of walk.v1.LiveService, taking its messages as bytes.
using RawLiveService = walk::v1::LiveService::WithRawCallbackMethod_LivePath<
    walk::v1::LiveService::WithRawCallbackMethod_UpdateBlockers<
        walk::v1::LiveService::WithRawCallbackMethod_Nearest<
            walk::v1::LiveService::WithRawCallbackMethod_Reachable<
                walk::v1::LiveService::WithRawCallbackMethod_PathGroup<
                    walk::v1::LiveService::WithRawCallbackMethod_FormationTargets<
                        walk::v1::LiveService::WithRawCallbackMethod_CreateWorld<
                            walk::v1::LiveService::WithRawCallbackMethod_ResetWorld<
                                walk::v1::LiveService::WithRawCallbackMethod_DropWorld<
                                    walk::v1::LiveService::WithRawCallbackMethod_ListWorlds<
                                        walk::v1::LiveService::WithRawCallbackMethod_CellAt<
                                            walk::v1::LiveService::WithRawCallbackMethod_WorkCell<
                                                walk::v1::LiveService::Service>>>>>>>>>>>>;

class LiveServiceImpl final : public RawLiveService {
 public:
  // Loads every live world under options.dir, then the created worlds kept in
  // options.created_dir (one that no longer loads, or no longer fits the limits, is left on disk
  // and named on stderr). Errors name the folder and the line. `metrics` and `auth` must outlive
  // the service; UpdateBlockers, CreateWorld, ResetWorld and DropWorld are writes for `auth`, the
  // other calls reads. A PathGroup or FormationTargets of more than max_group_starts starts,
  // passabilities or slots, or an UpdateBlockers of more than max_blocker_changes changes, is
  // RESOURCE_EXHAUSTED, counted on the wire before the request is parsed (server/wire_call.h).
  static absl::StatusOr<std::unique_ptr<LiveServiceImpl>> Create(const LiveServiceOptions& options,
                                                                 WalkMetrics& metrics,
                                                                 const CallAuth& auth);

  std::size_t world_count() const { return worlds_.size(); }
  const nav::live::LiveWorldLimits& limits() const { return worlds_.limits(); }
  std::vector<std::string> world_names() const;
  // Adds every live world to Info's answer.
  void Describe(walk::v1::InfoResponse* out) const;

  // Every method takes its request as bytes, counted on the wire before it is parsed.
  grpc::ServerUnaryReactor* LivePath(grpc::CallbackServerContext* context,
                                     const grpc::ByteBuffer* request,
                                     grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* UpdateBlockers(grpc::CallbackServerContext* context,
                                           const grpc::ByteBuffer* request,
                                           grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* Nearest(grpc::CallbackServerContext* context,
                                    const grpc::ByteBuffer* request,
                                    grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* Reachable(grpc::CallbackServerContext* context,
                                      const grpc::ByteBuffer* request,
                                      grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* PathGroup(grpc::CallbackServerContext* context,
                                      const grpc::ByteBuffer* request,
                                      grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* FormationTargets(grpc::CallbackServerContext* context,
                                             const grpc::ByteBuffer* request,
                                             grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* CreateWorld(grpc::CallbackServerContext* context,
                                        const grpc::ByteBuffer* request,
                                        grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ResetWorld(grpc::CallbackServerContext* context,
                                       const grpc::ByteBuffer* request,
                                       grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* DropWorld(grpc::CallbackServerContext* context,
                                      const grpc::ByteBuffer* request,
                                      grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ListWorlds(grpc::CallbackServerContext* context,
                                       const grpc::ByteBuffer* request,
                                       grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* CellAt(grpc::CallbackServerContext* context,
                                   const grpc::ByteBuffer* request,
                                   grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* WorkCell(grpc::CallbackServerContext* context,
                                     const grpc::ByteBuffer* request,
                                     grpc::ByteBuffer* response) override;

 private:
  LiveServiceImpl(const LiveServiceOptions& options, WalkMetrics& metrics, const CallAuth& auth);
  // What each request may carry on the wire (server/wire_count.h).
  struct WireRulesByRequest {
    WireRules live_path, update_blockers, nearest, reachable, path_group, formation_targets,
        create_world, reset_world, drop_world, list_worlds, cell_at, work_cell;
  };
  static WireRulesByRequest WireRulesFor(const LiveServiceOptions& options);
  // A typed handler: answers `request` into `response` (calls are short: on gRPC's thread).
  template <typename Request, typename Response>
  using Answer = absl::Status (LiveServiceImpl::*)(const Request& request, Response* response);
  // Serves a unary call from its bytes: the token `access` needs, the wire check and the parse,
  // then `answer`.
  template <typename Request, typename Response>
  grpc::ServerUnaryReactor* Serve(const char* method, Access access, const WireRules& rules,
                                  grpc::CallbackServerContext* context,
                                  const grpc::ByteBuffer& request, grpc::ByteBuffer* response,
                                  Answer<Request, Response> answer);
  absl::Status AnswerLivePath(const walk::v1::LivePathRequest& request,
                              walk::v1::LivePathResponse* response);
  absl::Status AnswerUpdateBlockers(const walk::v1::UpdateBlockersRequest& request,
                                    walk::v1::UpdateBlockersResponse* response);
  absl::Status AnswerNearest(const walk::v1::NearestRequest& request,
                             walk::v1::NearestResponse* response);
  absl::Status AnswerReachable(const walk::v1::ReachableRequest& request,
                               walk::v1::ReachableResponse* response);
  // The plan for one PathGroup request; its deferred searches queued.
  absl::Status PlanGroup(const walk::v1::PathGroupRequest& request,
                         walk::v1::PathGroupResponse* response);
  absl::Status AnswerFormationTargets(const walk::v1::FormationTargetsRequest& request,
                                      walk::v1::FormationTargetsResponse* response);
  absl::Status AnswerCreateWorld(const walk::v1::CreateWorldRequest& request,
                                 walk::v1::CreateWorldResponse* response);
  absl::Status AnswerResetWorld(const walk::v1::ResetWorldRequest& request,
                                walk::v1::ResetWorldResponse* response);
  absl::Status AnswerDropWorld(const walk::v1::DropWorldRequest& request,
                               walk::v1::DropWorldResponse* response);
  absl::Status AnswerListWorlds(const walk::v1::ListWorldsRequest& request,
                                walk::v1::ListWorldsResponse* response);
  absl::Status AnswerCellAt(const walk::v1::CellAtRequest& request,
                            walk::v1::CellAtResponse* response);
  absl::Status AnswerWorkCell(const walk::v1::WorkCellRequest& request,
                              walk::v1::WorkCellResponse* response);
  // Loads the created worlds kept in options_.created_dir.
  void LoadCreatedWorlds();
  // Lets go of a dropped or replaced world and, when that freed it, hands its memory back.
  static void ReleaseWorld(std::shared_ptr<nav::live::LiveWorld> world);
  // A world's counters start again from zero (a reset's new world), or its series go (a drop).
  void RestartCounters(const std::string& name, bool forget);
  // Finishes the call, recording it, and brings the counter metrics up to the worlds' counters.
  void Finish(UnaryWireReply* call, const char* method, const absl::Status& status);
  // Brings walk_live_* up to the worlds' counters and sizes.
  void ExportCounters();

  const LiveServiceOptions options_;
  WalkMetrics& metrics_;  // walk_live_events_total{world, event} follows the worlds' counters
  const CallAuth& auth_;
  const WireRulesByRequest wire_;
  nav::live::LiveWorldSet worlds_;
  std::mutex counters_mu_;
  // guarded by counters_mu_: what was added, by world and event
  std::map<std::pair<std::string, std::string>, std::uint64_t> exported_;
  // Declared last: destroyed first, so its thread stops before the worlds go.
  nav::live::FallbackQueue fallbacks_;
};

}  // namespace walk::server
