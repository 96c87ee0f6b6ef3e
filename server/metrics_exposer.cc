#include "server/metrics_exposer.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "CivetServer.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "civetweb.h"
#include "prometheus/exposer.h"
#include "server/tls_front.h"

namespace walk::server {
namespace {

constexpr char kTextContentType[] = "text/plain; charset=utf-8";
// Scrapes and probes are few and quick, but a connection holds its worker while it is open: a
// few idle or slow clients must not keep a liveness probe waiting. Enough workers for a handful
// of them, and a short timeout for a request that does not come.
constexpr int kWorkerThreads = 8;
constexpr int kRequestTimeoutMs = 2000;

// What a metrics port answers itself rather than through the Exposer.
struct Probes {
  std::function<bool()> is_serving;   // empty: always serving
  std::function<std::string()> note;  // empty: nothing to add
};

// Which probes answer on which civetweb server. civetweb's callbacks are plain functions shared
// by every server in the process, and a request names its server only by its context; so each
// context is entered here when civetweb creates it (init_context, called on the thread that
// constructs the Exposer, before any request is accepted) and removed when civetweb deletes it
// (exit_context, after its threads have stopped). Keys are contexts, not ports, so servers on
// one port of different addresses stay apart. Thread-safe.
class ProbeTable {
 public:
  static ProbeTable& Get() {
    static ProbeTable* const table = new ProbeTable();
    return *table;
  }

  void Insert(const mg_context* context, std::shared_ptr<const Probes> probes) {
    std::lock_guard<std::mutex> lock(mu_);
    probes_[context] = std::move(probes);
  }
  void Erase(const mg_context* context) {
    std::lock_guard<std::mutex> lock(mu_);
    probes_.erase(context);
  }
  // The probes of `context`; null if it is not one of ours.
  std::shared_ptr<const Probes> Find(const mg_context* context) const {
    std::lock_guard<std::mutex> lock(mu_);
    const auto it = probes_.find(context);
    return it == probes_.end() ? nullptr : it->second;
  }

 private:
  mutable std::mutex mu_;
  std::map<const mg_context*, std::shared_ptr<const Probes>> probes_;  // guarded by mu_
};

// The Exposer this thread is constructing: the probes its server is to answer with, and the
// first error civetweb reports while starting it. Set only around the Exposer's constructor.
struct StartingServer {
  std::shared_ptr<const Probes> probes;
  std::string first_error;
};
thread_local StartingServer* starting_server = nullptr;

void InitContext(const mg_context* context) {
  if (starting_server != nullptr) ProbeTable::Get().Insert(context, starting_server->probes);
}

void ExitContext(const mg_context* context) { ProbeTable::Get().Erase(context); }

// Keeps the first message civetweb logs while an Exposer starts (why it could not bind), for the
// Status. Returns 1: civetweb writes no log of its own (it has no log file configured either).
int LogMessage(const mg_connection*, const char* message) {
  if (starting_server != nullptr && starting_server->first_error.empty() && message != nullptr) {
    starting_server->first_error = message;
  }
  return 1;
}

// Sends a whole text/plain reply, without the body for HEAD. civetweb closes the connection
// after every request (keep-alive is off by default), so the reply says so.
int Reply(mg_connection* connection, int status, std::string_view body, bool head) {
  mg_printf(
      connection,
      "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n",
      status, mg_get_response_code_text(connection, status), kTextContentType, body.size());
  if (!head) mg_write(connection, body.data(), body.size());
  return status;
}

// prometheus-cpp's Exposer takes no handlers of ours, but passes civetweb's callbacks on; this
// begin_request hook runs before civetweb looks for a handler and answers every request itself
// but GET /metrics, which goes on to the Exposer. Returns the status sent, or 0 to let civetweb
// go on.
int BeginRequest(mg_connection* connection) {
  const std::shared_ptr<const Probes> probes = ProbeTable::Get().Find(mg_get_context(connection));
  const mg_request_info* request = mg_get_request_info(connection);
  if (probes == nullptr || request == nullptr) return 0;
  const std::string_view method = request->request_method ? request->request_method : "";
  const std::string_view path = request->local_uri ? request->local_uri : "";
  const bool head = method == "HEAD";
  if (method != "GET" && !head) return Reply(connection, 404, "not found\n", head);
  if (path == "/metrics") {
    if (!head) return 0;
    // The Exposer's handler serves GET only; a HEAD gets the headers a GET would, but for the
    // length, which is only known once the metrics are collected.
    mg_printf(connection, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nConnection: close\r\n\r\n",
              kTextContentType);
    return 200;
  }
  if (path == "/healthz") return Reply(connection, 200, "ok\n", head);
  if (path == "/readyz") {
    if (!probes->is_serving || probes->is_serving()) {
      const std::string note = probes->note ? probes->note() : std::string();
      return Reply(connection, 200, note.empty() ? "serving\n" : "serving, " + note + "\n", head);
    }
    return Reply(connection, 503, "not serving\n", head);
  }
  return Reply(connection, 404, "not found\n", head);
}

// The hooks every MetricsExposer hands its Exposer; all other callbacks stay unset.
const CivetCallbacks& Callbacks() {
  static const CivetCallbacks* const callbacks = [] {
    auto* hooks = new CivetCallbacks();
    hooks->begin_request = &BeginRequest;
    hooks->log_message = &LogMessage;
    hooks->init_context = &InitContext;
    hooks->exit_context = &ExitContext;
    return hooks;
  }();
  return *callbacks;
}

// "host:port", with brackets around IPv6 literals.
std::string FormatAddress(const std::string& host, int port) {
  if (host.find(':') != std::string::npos) return absl::StrCat("[", host, "]:", port);
  return absl::StrCat(host, ":", port);
}

// The IPv4 addresses `host` resolves to for listening, in resolver order, as dotted quads.
absl::StatusOr<std::vector<std::string>> ResolveIpv4(const std::string& host,
                                                     const std::string& address) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* result = nullptr;
  const int error = getaddrinfo(host.c_str(), nullptr, &hints, &result);
  if (error != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("metrics HTTP server: cannot listen on ", address,
                     ": cannot resolve host to IPv4: ", gai_strerror(error)));
  }
  std::vector<std::string> ips;
  for (const addrinfo* info = result; info != nullptr; info = info->ai_next) {
    char text[INET_ADDRSTRLEN];
    const auto* ipv4 = reinterpret_cast<const sockaddr_in*>(info->ai_addr);
    if (inet_ntop(AF_INET, &ipv4->sin_addr, text, sizeof(text)) == nullptr) continue;
    if (std::find(ips.begin(), ips.end(), text) == ips.end()) ips.emplace_back(text);
  }
  freeaddrinfo(result);
  return ips;
}

// An Exposer listening on `ip`:`port` whose server answers with `probes`; or why not (civetweb's
// own words). The Exposer throws when civetweb cannot start, so that is caught here.
absl::StatusOr<std::unique_ptr<prometheus::Exposer>> StartExposer(
    const std::string& ip, int port, std::shared_ptr<const Probes> probes) {
  StartingServer starting{std::move(probes), ""};
  starting_server = &starting;
  std::unique_ptr<prometheus::Exposer> exposer;
  std::string failure;
  try {
    exposer = std::make_unique<prometheus::Exposer>(
        std::vector<std::string>{"listening_ports", absl::StrCat(ip, ":", port), "num_threads",
                                 absl::StrCat(kWorkerThreads), "request_timeout_ms",
                                 absl::StrCat(kRequestTimeoutMs), "enable_keep_alive", "no"},
        &Callbacks());
  } catch (const std::exception& e) {
    failure = starting.first_error.empty() ? e.what() : starting.first_error;
  }
  starting_server = nullptr;
  if (exposer == nullptr) return absl::UnavailableError(failure);
  return exposer;
}

// True if a TCP connection to `ip`:`port` opened (it is closed again at once).
bool Knock(const std::string& ip, int port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  // A wildcard listener is reached on loopback.
  if (inet_pton(AF_INET, ip == "0.0.0.0" ? "127.0.0.1" : ip.c_str(), &address.sin_addr) != 1) {
    return false;
  }
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const bool connected =
      connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) == 0;
  close(fd);
  return connected;
}

// The HTTPS front on the first of `ips` it can bind, forwarding to the Exposer on loopback.
absl::StatusOr<std::unique_ptr<TlsFront>> StartFront(const std::vector<std::string>& ips, int port,
                                                     const MetricsExposer::Tls& tls,
                                                     int backend_port) {
  absl::Status failure = absl::UnavailableError("no IPv4 address to bind");
  for (const std::string& ip : ips) {
    absl::StatusOr<std::unique_ptr<TlsFront>> front =
        TlsFront::Start({.ip = ip,
                         .port = port,
                         .cert_file = tls.cert_file,
                         .key_file = tls.key_file,
                         .backend_port = backend_port,
                         .workers = kWorkerThreads,
                         .timeout_ms = kRequestTimeoutMs});
    if (front.ok() || absl::IsInvalidArgument(front.status())) return front;  // the certificate
    failure = front.status();
  }
  return failure;
}

}  // namespace

struct MetricsExposer::Running {
  std::unique_ptr<prometheus::Exposer> exposer;
  std::string ip;  // the Exposer's
  int port = 0;
  std::unique_ptr<TlsFront> front;  // with TLS: the port clients reach (stopped first)
};

MetricsExposer::MetricsExposer(std::vector<std::weak_ptr<prometheus::Collectable>> collectables,
                               std::function<bool()> is_serving,
                               std::function<std::string()> readiness_note)
    : collectables_(std::move(collectables)),
      is_serving_(std::move(is_serving)),
      readiness_note_(std::move(readiness_note)) {}

MetricsExposer::~MetricsExposer() { Stop(); }

absl::StatusOr<int> MetricsExposer::Start(const std::string& host, int port, const Tls& tls) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string address = FormatAddress(host, port);
  if (running_ != nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("metrics HTTP server: already started; cannot also listen on ", address));
  }
  if (port < 0 || port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("metrics HTTP server: port out of range [0, 65535] in ", address));
  }
  absl::StatusOr<std::vector<std::string>> ips = ResolveIpv4(host, address);
  if (!ips.ok()) return ips.status();

  const auto probes = std::make_shared<const Probes>(Probes{is_serving_, readiness_note_});
  // With TLS, the Exposer listens on loopback behind the front.
  const bool behind_front = !tls.cert_file.empty();
  const std::vector<std::string> exposer_ips =
      behind_front ? std::vector<std::string>{"127.0.0.1"} : *ips;
  std::string failure = "no IPv4 address to bind";
  for (const std::string& ip : exposer_ips) {
    absl::StatusOr<std::unique_ptr<prometheus::Exposer>> exposer =
        StartExposer(ip, behind_front ? 0 : port, probes);
    if (!exposer.ok()) {
      failure = std::string(exposer.status().message());
      continue;
    }
    const std::vector<int> ports = (*exposer)->GetListeningPorts();
    if (ports.empty()) {
      failure = "civetweb reports no listening port";
      continue;
    }
    running_ = std::make_unique<Running>(Running{*std::move(exposer), ip, ports.front(), nullptr});
    break;
  }
  if (running_ == nullptr) {
    return absl::UnavailableError(
        absl::StrCat("metrics HTTP server: cannot listen on ", address, ": ", failure));
  }
  if (behind_front) {
    absl::StatusOr<std::unique_ptr<TlsFront>> front = StartFront(*ips, port, tls, running_->port);
    if (!front.ok()) {
      StopLocked();
      return absl::Status(front.status().code(), absl::StrCat("metrics HTTPS server on ", address,
                                                              ": ", front.status().message()));
    }
    running_->front = *std::move(front);
  }
  for (const std::weak_ptr<prometheus::Collectable>& collectable : collectables_) {
    running_->exposer->RegisterCollectable(collectable);
  }
  return running_->front ? running_->front->port() : running_->port;
}

void MetricsExposer::Stop() {
  std::lock_guard<std::mutex> lock(mu_);
  StopLocked();
}

void MetricsExposer::StopLocked() {
  if (running_ == nullptr) return;
  running_->front.reset();
  // civetweb's listening thread sees the stop only when its poll of the listening socket returns,
  // which without a connection takes its full timeout (2 s). So while the Exposer stops, knock on
  // the port until the listener is closed (refused) or the Exposer is gone.
  std::atomic<bool> stopped{false};
  std::thread knocker([&stopped, ip = running_->ip, port = running_->port] {
    while (!stopped.load() && Knock(ip, port)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  running_.reset();
  stopped = true;
  knocker.join();
}

}  // namespace walk::server
