// walkd's HTTP port for Prometheus scrapes and orchestrator probes, served by prometheus-cpp's
// Exposer (civetweb):
//   GET /metrics  200, the collectables in the text exposition format, from the Exposer
//   GET /healthz  200 "ok\n" while the process can answer at all (liveness)
//   GET /readyz   200 "serving\n" when is_serving() is true (with ", NOTE" before the newline
//                 when readiness_note() says something: "store degraded: ..."), else 503
//                 "not serving\n" (readiness)
// Any other method or path is 404 "not found\n". HEAD is answered like GET without the body
// (on /metrics also without Content-Length, which only collecting would tell). The server closes
// the connection after each reply.
//
// Ownership: holds weak references to the collectables (the owner keeps them alive while it
// wants them scraped) and owns the Exposer, its listener and its worker threads.
//
// Thread safety: Start() and Stop() may be called from any thread and are serialized with each
// other. Requests are handled on the Exposer's threads, so `is_serving` and the collectables run
// there and must be thread-safe. Any number of MetricsExposers may run in one process.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "prometheus/collectable.h"

namespace walk::server {

class MetricsExposer {
 public:
  // `is_serving` answers /readyz; an empty function counts as always serving. `readiness_note`
  // (may be empty) adds to a serving reply what an operator should know.
  MetricsExposer(std::vector<std::weak_ptr<prometheus::Collectable>> collectables,
                 std::function<bool()> is_serving,
                 std::function<std::string()> readiness_note = nullptr);
  // Stops the server if it is running.
  ~MetricsExposer();
  MetricsExposer(const MetricsExposer&) = delete;
  MetricsExposer& operator=(const MetricsExposer&) = delete;

  // Binds `host`:`port` (port 0 picks a free one) and serves on background threads. `host` is
  // an IPv4 address or a name that resolves to one (civetweb as Debian builds it has no IPv6);
  // the first of its addresses that can be bound is used. Returns the bound port once the
  // server accepts connections. Errors:
  //   INVALID_ARGUMENT     port outside [0, 65535], or `host` does not resolve to IPv4;
  //   UNAVAILABLE          the address cannot be bound (in use, not local, no permission);
  //   FAILED_PRECONDITION  already started (Stop() first to start again).
  // Every message names the address. With `tls` the port speaks HTTPS only (TLS 1.2 or later,
  // server/tls_front.h); its certificate's errors are INVALID_ARGUMENT naming the flag.
  struct Tls {
    std::string cert_file;  // PEM certificate chain; empty: plain HTTP
    std::string key_file;   // PEM private key
  };
  absl::StatusOr<int> Start(const std::string& host, int port, const Tls& tls = {});

  // Stops accepting connections, lets requests in flight finish and joins the threads.
  // Idempotent; a no-op when not started.
  void Stop();

 private:
  struct Running;

  const std::vector<std::weak_ptr<prometheus::Collectable>> collectables_;
  const std::function<bool()> is_serving_;
  const std::function<std::string()> readiness_note_;

  void StopLocked();  // Stop, with mu_ held

  std::mutex mu_;                     // serializes Start() and Stop()
  std::unique_ptr<Running> running_;  // guarded by mu_; null when not started
};

}  // namespace walk::server
