// walkd as one object: the world registry, the search pool, the gRPC server (WalkService,
// health, reflection) and the metrics endpoint, started and stopped together.
//
// Start binds both addresses and returns at once; worlds load in the background while health
// says NOT_SERVING. Shutdown turns health NOT_SERVING, lets calls in flight finish within the
// grace period (then cancels them), and stops everything. Used by walkd's main and by tests.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "server/options.h"

namespace walk::server {

class Walkd {
 public:
  // Errors: INVALID_ARGUMENT naming the option (a bad --worlds folder), UNAVAILABLE when an
  // address cannot be bound (the message names it).
  static absl::StatusOr<std::unique_ptr<Walkd>> Start(const WalkdOptions& options);
  ~Walkd();

  // The bound gRPC address, HOST:PORT (the real port when --listen asked for port 0).
  std::string grpc_address() const;
  // The bound metrics address, HOST:PORT; empty when there is no metrics endpoint.
  std::string metrics_address() const;
  // Blocks until every world has loaded or failed (tests).
  void WaitForWorlds();
  // Reloads `world` (empty: every world) whose files changed, in the background; the log says
  // what each did (SIGHUP; AdminService.Reload does the same and replies).
  void Reload(const std::string& world);
  bool serving() const;

  // Stops taking calls, lets those in flight finish within `grace_s`, cancels the rest, stops.
  // Idempotent. Returns once the server has stopped: true when every call had ended by itself
  // (false when the grace ended first, or when the stop was already done).
  bool Shutdown(double grace_s);

 private:
  struct Parts;
  explicit Walkd(std::unique_ptr<Parts> parts);
  std::unique_ptr<Parts> parts_;
};

}  // namespace walk::server
