// grpc.health.v1.Health, our own (not gRPC's default service, which starts out SERVING before
// any world is loaded). NOT_SERVING until walkd says otherwise; Watch streams every change.
// Known services: "" (walkd as a whole), "walk.v1.WalkService", "walkd.store" (the walk
// store: NOT_SERVING while it takes no writes; walks are still answered), "walk.v1.LiveService"
// and "walkd.live/NAME" for each live world (SERVING from the start, as live worlds load before
// the server listens, until shutdown). Thread-safe.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "grpc/health/v1/health.grpc.pb.h"
#include "server/wire_count.h"

namespace walk::server {

// Both methods of grpc.health.v1.Health, taking their requests as bytes.
using RawHealthService = grpc::health::v1::Health::WithRawCallbackMethod_Check<
    grpc::health::v1::Health::WithRawCallbackMethod_Watch<grpc::health::v1::Health::Service>>;

class HealthService final : public RawHealthService {
 public:
  HealthService();

  // Sets the status every known service reports, and tells every watcher.
  void SetServing(bool serving);
  bool serving() const;
  // Sets whether the walk store is degraded (service "walkd.store"), and tells its watchers.
  void SetStoreDegraded(bool degraded);
  // The live worlds' names ("walkd.live/NAME" services).
  void SetLiveWorlds(std::vector<std::string> names);
  // Ends every Watch stream (with OK) and refuses new ones; call before the server shuts down.
  void Shutdown();

  // Each request is counted on the wire (its unknown fields) before it is parsed
  // (server/wire_call.h).
  grpc::ServerUnaryReactor* Check(grpc::CallbackServerContext* context,
                                  const grpc::ByteBuffer* request,
                                  grpc::ByteBuffer* response) override;
  grpc::ServerWriteReactor<grpc::ByteBuffer>* Watch(grpc::CallbackServerContext* context,
                                                    const grpc::ByteBuffer* request) override;

 private:
  class Watcher;
  friend class Watcher;
  // The status a service reports now: SERVING, NOT_SERVING or SERVICE_UNKNOWN.
  grpc::health::v1::HealthCheckResponse::ServingStatus StatusOf(const std::string& service) const;
  void Remove(Watcher* watcher);
  // Sends each watcher its service's status now.
  void TellWatchers();
  // The watchers now, each kept alive by the copy while the caller uses it.
  std::vector<std::shared_ptr<Watcher>> Watchers() const;

  const WireRules wire_;  // a HealthCheckRequest's
  mutable std::mutex mu_;
  bool serving_ = false;                            // guarded by mu_
  bool store_degraded_ = false;                     // guarded by mu_
  std::vector<std::string> live_worlds_;            // guarded by mu_
  bool shut_down_ = false;                          // guarded by mu_
  std::vector<std::shared_ptr<Watcher>> watchers_;  // guarded by mu_
};

}  // namespace walk::server
