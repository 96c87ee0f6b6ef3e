#include "server/metrics_http.h"

#include <httplib.h>
#include <netdb.h>
#include <sys/socket.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <system_error>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace walk::server {
namespace {

constexpr char kMetricsContentType[] = "text/plain; version=0.0.4; charset=utf-8";
constexpr char kTextContentType[] = "text/plain; charset=utf-8";
// Scrapes and probes are few and quick; a couple of workers is plenty (httplib's default pool
// has at least 8 threads).
constexpr size_t kWorkerThreads = 2;

// "host:port", with brackets around IPv6 literals.
std::string FormatAddress(const std::string& host, int port) {
  if (host.find(':') != std::string::npos) return absl::StrCat("[", host, "]:", port);
  return absl::StrCat(host, ":", port);
}

// OK if `host` resolves to an address we could listen on, else why not.
absl::Status CheckHostResolves(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* result = nullptr;
  const int error = getaddrinfo(host.c_str(), nullptr, &hints, &result);
  if (error != 0) {
    return absl::InvalidArgumentError(absl::StrCat("metrics HTTP server: cannot listen on ",
                                                   FormatAddress(host, port),
                                                   ": cannot resolve host: ", gai_strerror(error)));
  }
  freeaddrinfo(result);
  return absl::OkStatus();
}

}  // namespace

MetricsHttpServer::MetricsHttpServer(const MetricsRegistry& registry,
                                     std::function<bool()> is_serving)
    : registry_(registry), is_serving_(std::move(is_serving)) {}

MetricsHttpServer::~MetricsHttpServer() { Stop(); }

absl::StatusOr<int> MetricsHttpServer::Start(const std::string& host, int port) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string address = FormatAddress(host, port);
  if (server_ != nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("metrics HTTP server: already started; cannot also listen on ", address));
  }
  if (port < 0 || port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("metrics HTTP server: port out of range [0, 65535] in ", address));
  }
  if (absl::Status status = CheckHostResolves(host, port); !status.ok()) return status;

  auto server = std::make_unique<httplib::Server>();
  server->new_task_queue = [] { return new httplib::ThreadPool(kWorkerThreads); };
  // httplib's default sets SO_REUSEPORT, which would let a second process bind the same port
  // and silently split the scrapes; SO_REUSEADDR alone still allows a quick restart.
  server->set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });

  server->Get("/metrics", [this](const httplib::Request&, httplib::Response& response) {
    response.set_content(registry_.Render(), kMetricsContentType);
  });
  server->Get("/healthz", [](const httplib::Request&, httplib::Response& response) {
    response.set_content("ok\n", kTextContentType);
  });
  server->Get("/readyz", [this](const httplib::Request&, httplib::Response& response) {
    if (!is_serving_ || is_serving_()) {
      response.set_content("serving\n", kTextContentType);
    } else {
      response.status = 503;
      response.set_content("not serving\n", kTextContentType);
    }
  });
  // httplib also runs this for the handlers' own error statuses (the 503 above), so only fill
  // in the body of unrouted requests.
  server->set_error_handler(httplib::Server::HandlerWithResponse(
      [](const httplib::Request&, httplib::Response& response) {
        if (response.status != 404) return httplib::Server::HandlerResponse::Unhandled;
        response.set_content("not found\n", kTextContentType);
        return httplib::Server::HandlerResponse::Handled;
      }));

  // httplib reports a failed bind as false / -1 only; errno still holds bind()'s reason.
  errno = 0;
  int bound_port = -1;
  if (port == 0) {
    bound_port = server->bind_to_any_port(host);
  } else if (server->bind_to_port(host, port)) {
    bound_port = port;
  }
  if (bound_port < 0) {
    const int bind_errno = errno;
    return absl::UnavailableError(
        absl::StrCat("metrics HTTP server: cannot listen on ", address, ": ",
                     bind_errno != 0 ? std::generic_category().message(bind_errno)
                                     : std::string("bind failed")));
  }

  listen_returned_ = false;
  listen_thread_ = std::thread([this, raw = server.get()] {
    raw->listen_after_bind();
    listen_returned_ = true;
  });
  // httplib's stop() does nothing until the accept loop runs, so wait for it here; then a
  // Stop() right after Start() cannot miss it and hang.
  while (!server->is_running() && !listen_returned_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (!server->is_running()) {
    listen_thread_.join();
    return absl::InternalError(absl::StrCat("metrics HTTP server: accept loop on ",
                                            FormatAddress(host, bound_port), " ended at once"));
  }
  server_ = std::move(server);
  return bound_port;
}

void MetricsHttpServer::Stop() {
  std::lock_guard<std::mutex> lock(mu_);
  if (server_ == nullptr) return;
  server_->stop();
  listen_thread_.join();
  server_.reset();
}

}  // namespace walk::server
