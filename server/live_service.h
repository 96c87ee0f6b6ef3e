// walk.v1.LiveService: live 2D worlds for game servers (nav/live). Each world is a folder under
// --live-worlds holding `map.map` (MovingAI letters plus the RTS ones, docs/live_grids.md) and
// an optional `layers.txt`; it is named by the folder. Calls are short (a cached path is
// microseconds, a search milliseconds), so they run on gRPC's callback threads; LiveWorld is
// thread-safe (readers share, updates are exclusive).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "nav/live/live_world.h"
#include "server/call_auth.h"
#include "server/walk_metrics.h"
#include "walk/v1/walk.grpc.pb.h"

namespace walk::server {

class LiveServiceImpl final : public walk::v1::LiveService::CallbackService {
 public:
  // Loads every live world under `dir` (empty: none). Errors name the folder and the line.
  // `metrics` and `auth` must outlive the service; UpdateBlockers is a write for `auth`, the
  // other calls reads. A PathGroup of more than `max_group_starts` starts is RESOURCE_EXHAUSTED.
  static absl::StatusOr<std::unique_ptr<LiveServiceImpl>> Create(const std::string& dir,
                                                                 WalkMetrics& metrics,
                                                                 const CallAuth& auth,
                                                                 std::uint64_t max_group_starts);

  std::size_t world_count() const { return worlds_.size(); }

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

 private:
  LiveServiceImpl(WalkMetrics& metrics, const CallAuth& auth);
  // Finishes the call refused when it lacks the token `access` needs; false when it may go on.
  bool Refused(grpc::CallbackServerContext* context, grpc::ServerUnaryReactor* reactor,
               const char* method, Access access);
  absl::StatusOr<nav::live::LiveWorld*> Find(const std::string& name) const;
  // Finishes the call, recording it, and brings the counter metrics up to the worlds' counters.
  void Finish(grpc::ServerUnaryReactor* reactor, const char* method, const absl::Status& status);

  std::map<std::string, std::unique_ptr<nav::live::LiveWorld>> worlds_;  // fixed after Create
  WalkMetrics& metrics_;  // walk_live_events_total{event} follows the worlds' counters
  const CallAuth& auth_;
  std::uint64_t max_group_starts_ = 4096;
  std::mutex counters_mu_;
  std::map<std::string, std::uint64_t> exported_;  // guarded by counters_mu_: what was added
};

}  // namespace walk::server
