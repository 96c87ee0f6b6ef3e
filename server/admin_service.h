// walk.v1.AdminService: operating walkd while it runs. Reload hands the reload to the world
// registry's reloading thread (never blocking gRPC's threads) and replies once every world asked
// is done. Every call needs the token when walkd has one (a write for CallAuth), and is counted
// on the wire before it is parsed, as every request is (server/wire_call.h).
#pragma once

#include <functional>
#include <string>

#include "server/call_auth.h"
#include "server/walk_metrics.h"
#include "server/wire_count.h"
#include "server/world_registry.h"
#include "walk/v1/walk.grpc.pb.h"

namespace walk::server {

// Every method of walk.v1.AdminService, taking its messages as bytes.
using RawAdminService =
    walk::v1::AdminService::WithRawCallbackMethod_Reload<walk::v1::AdminService::Service>;

class AdminServiceImpl final : public RawAdminService {
 public:
  // Reloads a world (empty: every world) and calls `done` once, as WorldRegistry::Reload does.
  using ReloadFn = std::function<void(const std::string& world, WorldRegistry::ReloadDone done)>;

  // `metrics` and `auth` must outlive the service.
  AdminServiceImpl(ReloadFn reload, WalkMetrics& metrics, const CallAuth& auth);

  grpc::ServerUnaryReactor* Reload(grpc::CallbackServerContext* context,
                                   const grpc::ByteBuffer* request,
                                   grpc::ByteBuffer* response) override;

 private:
  const ReloadFn reload_;
  WalkMetrics& metrics_;
  const CallAuth& auth_;
  WireRules reload_rules_;
};

}  // namespace walk::server
