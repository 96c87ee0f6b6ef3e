// walk.v1.LiveService: live 2D worlds for game servers (nav/live). Each world is a folder under
// --live-worlds holding `map.map` (MovingAI letters plus the RTS ones, docs/live_grids.md) and
// an optional `layers.txt`; it is named by the folder. Calls are short (a cached path is
// microseconds, a search milliseconds), so they run on gRPC's callback threads; LiveWorld is
// thread-safe (readers share, updates are exclusive). Group members deferred over the fallback
// bound are searched by one FallbackQueue shared by every world, on its own thread.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "nav/live/fallback_queue.h"
#include "nav/live/live_world.h"
#include "server/call_auth.h"
#include "server/walk_metrics.h"
#include "walk/v1/walk.grpc.pb.h"

namespace walk::server {

struct LiveServiceOptions {
  std::string dir;                        // --live-worlds (empty: none)
  std::uint64_t max_group_starts = 4096;  // starts (and formation slots) of one call
  nav::live::LiveWorldOptions world;      // every world's
  nav::live::FallbackQueueOptions fallbacks;
};

class LiveServiceImpl final : public walk::v1::LiveService::CallbackService {
 public:
  // Loads every live world under options.dir. Errors name the folder and the line. `metrics`
  // and `auth` must outlive the service; UpdateBlockers is a write for `auth`, the other calls
  // reads. A PathGroup or FormationTargets of more than max_group_starts starts or slots is
  // RESOURCE_EXHAUSTED.
  static absl::StatusOr<std::unique_ptr<LiveServiceImpl>> Create(const LiveServiceOptions& options,
                                                                 WalkMetrics& metrics,
                                                                 const CallAuth& auth);

  std::size_t world_count() const { return worlds_.size(); }
  std::vector<std::string> world_names() const;
  // Adds every live world to Info's answer.
  void Describe(walk::v1::InfoResponse* out) const;

  grpc::ServerUnaryReactor* LivePath(grpc::CallbackServerContext* context,
                                     const walk::v1::LivePathRequest* request,
                                     walk::v1::LivePathResponse* response) override;
  grpc::ServerUnaryReactor* UpdateBlockers(grpc::CallbackServerContext* context,
                                           const walk::v1::UpdateBlockersRequest* request,
                                           walk::v1::UpdateBlockersResponse* response) override;
  grpc::ServerUnaryReactor* Nearest(grpc::CallbackServerContext* context,
                                    const walk::v1::NearestRequest* request,
                                    walk::v1::NearestResponse* response) override;
  grpc::ServerUnaryReactor* Reachable(grpc::CallbackServerContext* context,
                                      const walk::v1::ReachableRequest* request,
                                      walk::v1::ReachableResponse* response) override;
  grpc::ServerUnaryReactor* PathGroup(grpc::CallbackServerContext* context,
                                      const walk::v1::PathGroupRequest* request,
                                      walk::v1::PathGroupResponse* response) override;
  grpc::ServerUnaryReactor* FormationTargets(grpc::CallbackServerContext* context,
                                             const walk::v1::FormationTargetsRequest* request,
                                             walk::v1::FormationTargetsResponse* response) override;

 private:
  LiveServiceImpl(const LiveServiceOptions& options, WalkMetrics& metrics, const CallAuth& auth);
  // The plan for one PathGroup request; its deferred searches queued.
  absl::Status PlanGroup(const walk::v1::PathGroupRequest& request,
                         walk::v1::PathGroupResponse* response);
  // Finishes the call refused when it lacks the token `access` needs; false when it may go on.
  bool Refused(grpc::CallbackServerContext* context, grpc::ServerUnaryReactor* reactor,
               const char* method, Access access);
  absl::StatusOr<nav::live::LiveWorld*> Find(const std::string& name) const;
  // Finishes the call, recording it, and brings the counter metrics up to the worlds' counters.
  void Finish(grpc::ServerUnaryReactor* reactor, const char* method, const absl::Status& status);
  // Brings walk_live_* up to the worlds' counters and sizes.
  void ExportCounters();

  const LiveServiceOptions options_;
  std::map<std::string, std::unique_ptr<nav::live::LiveWorld>> worlds_;  // fixed after Create
  WalkMetrics& metrics_;  // walk_live_events_total{world, event} follows the worlds' counters
  const CallAuth& auth_;
  std::mutex counters_mu_;
  // guarded by counters_mu_: what was added, by world and event
  std::map<std::pair<std::string, std::string>, std::uint64_t> exported_;
  // Declared last: destroyed first, so its thread stops before the worlds go.
  nav::live::FallbackQueue fallbacks_;
};

}  // namespace walk::server
