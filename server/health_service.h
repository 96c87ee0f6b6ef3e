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

namespace walk::server {

class HealthService final : public grpc::health::v1::Health::CallbackService {
 public:
  HealthService() = default;

  // Sets the status every known service reports, and tells every watcher.
  void SetServing(bool serving);
  bool serving() const;
  // Sets whether the walk store is degraded (service "walkd.store"), and tells its watchers.
  void SetStoreDegraded(bool degraded);
  // The live worlds' names ("walkd.live/NAME" services).
  void SetLiveWorlds(std::vector<std::string> names);
  // Ends every Watch stream (with OK) and refuses new ones; call before the server shuts down.
  void Shutdown();

  grpc::ServerUnaryReactor* Check(grpc::CallbackServerContext* context,
                                  const grpc::health::v1::HealthCheckRequest* request,
                                  grpc::health::v1::HealthCheckResponse* response) override;
  grpc::ServerWriteReactor<grpc::health::v1::HealthCheckResponse>* Watch(
      grpc::CallbackServerContext* context,
      const grpc::health::v1::HealthCheckRequest* request) override;

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

  mutable std::mutex mu_;
  bool serving_ = false;                            // guarded by mu_
  bool store_degraded_ = false;                     // guarded by mu_
  std::vector<std::string> live_worlds_;            // guarded by mu_
  bool shut_down_ = false;                          // guarded by mu_
  std::vector<std::shared_ptr<Watcher>> watchers_;  // guarded by mu_
};

}  // namespace walk::server
