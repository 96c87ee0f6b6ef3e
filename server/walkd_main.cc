// walkd: the walk-query daemon. Parses options, starts, prints where it listens, reloads the
// worlds whose files changed on SIGHUP, and waits for SIGTERM or SIGINT to shut down cleanly
// (exit 0).
#include <malloc.h>

#include <csignal>
#include <iostream>

#include "server/options.h"
#include "server/walkd.h"

int main(int argc, char** argv) {
  // Blocks of 1 MiB and more (a world's arrays, its CCH, its metrics) are mapped on their own and
  // unmapped when freed. glibc's default threshold rises as large blocks are freed, after which
  // they come from its arenas, whose free memory it keeps: each reload of a world then left
  // walkd larger (614 MB to 885 MB over 16 reloads of the 8 x 8 demo world; with this, 614 to
  // 615 MB: docs/benchmarks.md, "Reloading a world").
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  walk::server::ParsedOptions parsed = walk::server::ParseWalkdOptions(argc, argv);
  if (parsed.exit_now) {
    (parsed.exit_code == 0 ? std::cout : std::cerr) << parsed.message;
    return parsed.exit_code;
  }
  // Block the signals walkd acts on in every thread (threads inherit the mask); this one waits
  // for them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  auto walkd = walk::server::Walkd::Start(parsed.options);
  if (!walkd.ok()) {
    std::cerr << "walkd: " << walkd.status().message() << "\n";
    return 1;
  }
  const walk::server::WalkdOptions& o = parsed.options;
  std::cout << "walkd: grpc listening on " << (*walkd)->grpc_address() << "\n";
  if (!(*walkd)->metrics_address().empty()) {
    std::cout << "walkd: metrics on " << (o.tls_cert.empty() ? "http://" : "https://")
              << (*walkd)->metrics_address() << "/metrics\n";
  }
  if (!o.tls_cert.empty()) {
    std::cout << "walkd: TLS on both ports"
              << (o.tls_client_ca.empty() ? "" : "; gRPC clients need a certificate (mutual TLS)")
              << "\n";
  }
  if (!o.auth_token_file.empty()) {
    std::cout << "walkd: " << (o.auth_reads ? "every call but health" : "writes (UpdateBlockers)")
              << " need the token in " << o.auth_token_file << "\n";
  }
  std::cout << "walkd: loading worlds; health is NOT_SERVING until they are ready" << std::endl;

  int signal_number = 0;
  for (;;) {
    sigwait(&signals, &signal_number);
    if (signal_number != SIGHUP) break;
    // In the background: a SIGTERM during a long reload is still seen at once.
    std::cout << "walkd: SIGHUP: reloading the worlds whose files changed" << std::endl;
    (*walkd)->Reload("");
  }
  std::cout << "walkd: " << (signal_number == SIGTERM ? "SIGTERM" : "SIGINT")
            << ": stopping (grace " << parsed.options.shutdown_grace_s << " s)" << std::endl;
  const bool calls_done = (*walkd)->Shutdown(parsed.options.shutdown_grace_s);
  std::cout << "walkd: stopped ("
            << (calls_done ? "every call ended within the grace"
                           : "the grace ended: the calls still in flight were cancelled")
            << ")" << std::endl;
  return 0;
}
