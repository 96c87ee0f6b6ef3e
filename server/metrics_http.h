// A small HTTP server for Prometheus scrapes and orchestrator probes:
//   GET /metrics  200, the registry in the text exposition format 0.0.4
//   GET /healthz  200 "ok\n" while the process can answer at all (liveness)
//   GET /readyz   200 "serving\n" when is_serving() is true, else 503 "not serving\n" (readiness)
// Anything else is 404.
//
// Ownership: borrows the registry, which must outlive this server (or at least its Stop()).
// Owns its HTTP listener and the threads that serve requests.
//
// Thread safety: Start() and Stop() may be called from any thread and are serialized with each
// other. Requests are handled on the server's own threads, so `is_serving` and the registry's
// callback gauges run there and must be thread-safe.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "server/metrics.h"

namespace httplib {
class Server;
}  // namespace httplib

namespace walk::server {

class MetricsHttpServer {
 public:
  // `is_serving` answers /readyz; an empty function counts as always serving.
  MetricsHttpServer(const MetricsRegistry& registry, std::function<bool()> is_serving);
  // Stops the server if it is running.
  ~MetricsHttpServer();
  MetricsHttpServer(const MetricsHttpServer&) = delete;
  MetricsHttpServer& operator=(const MetricsHttpServer&) = delete;

  // Binds `host`:`port` (port 0 picks a free one) and serves on a background thread. Returns the
  // bound port once the server accepts connections. Errors:
  //   INVALID_ARGUMENT     port outside [0, 65535], or `host` does not resolve;
  //   UNAVAILABLE          the address cannot be bound (in use, not local, no permission);
  //   FAILED_PRECONDITION  already started (Stop() first to start again).
  // Every message names the address.
  absl::StatusOr<int> Start(const std::string& host, int port);

  // Stops accepting connections, lets in-flight requests finish and joins the threads.
  // Idempotent; a no-op when not started.
  void Stop();

 private:
  const MetricsRegistry& registry_;
  const std::function<bool()> is_serving_;

  std::mutex mu_;                             // serializes Start() and Stop()
  std::unique_ptr<httplib::Server> server_;   // guarded by mu_; null when not started
  std::thread listen_thread_;                 // guarded by mu_; runs the accept loop
  std::atomic<bool> listen_returned_{false};  // set by listen_thread_ when its loop ends
};

}  // namespace walk::server
