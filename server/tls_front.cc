#include "server/tls_front.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"

namespace walk::server {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kMaxRequestHead = 16 << 10;
constexpr std::size_t kMaxWaiting = 64;  // accepted connections waiting for a worker

std::string OpensslError() {
  const unsigned long code = ERR_get_error();
  if (code == 0) return "no detail";
  char text[256];
  ERR_error_string_n(code, text, sizeof(text));
  return text;
}

void SetTimeouts(int fd, int timeout_ms) {
  const timeval limit{timeout_ms / 1000, (timeout_ms % 1000) * 1000};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit));
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof(limit));
}

// A TCP connection to 127.0.0.1:`port`; -1 when it fails.
int ConnectLoopback(int port, int timeout_ms) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  SetTimeouts(fd, timeout_ms);
  if (connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Reads the request's head (through its blank line) within `deadline`; empty when the client
// sent none in time, or too much.
std::string ReadRequestHead(SSL* ssl, Clock::time_point deadline) {
  std::string head;
  char buffer[4096];
  while (head.find("\r\n\r\n") == std::string::npos) {
    if (head.size() > kMaxRequestHead || Clock::now() > deadline) return "";
    const int got = SSL_read(ssl, buffer, sizeof(buffer));
    if (got <= 0) return "";
    head.append(buffer, static_cast<std::size_t>(got));
  }
  return head;
}

}  // namespace

struct TlsFront::State {
  Options options;
  SSL_CTX* context = nullptr;
  int listen_fd = -1;
  int port = 0;
  std::atomic<bool> stopping{false};
  std::mutex mu;
  std::condition_variable wake;
  std::deque<int> waiting;  // guarded by mu
  std::thread acceptor;
  std::vector<std::thread> workers;

  ~State() {
    if (listen_fd >= 0) close(listen_fd);
    for (int fd : waiting) close(fd);
    if (context != nullptr) SSL_CTX_free(context);
  }

  absl::Status LoadCertificate();
  absl::Status Listen();
  void Accept();
  void Work();
  void Serve(int client);
};

absl::Status TlsFront::State::LoadCertificate() {
  context = SSL_CTX_new(TLS_server_method());
  if (context == nullptr) return absl::InternalError("TLS: " + OpensslError());
  SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
  if (SSL_CTX_use_certificate_chain_file(context, options.cert_file.c_str()) != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("--tls-cert: ", options.cert_file, ": ", OpensslError()));
  }
  if (SSL_CTX_use_PrivateKey_file(context, options.key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("--tls-key: ", options.key_file, ": ", OpensslError()));
  }
  if (SSL_CTX_check_private_key(context) != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("--tls-key: ", options.key_file, " is not the key of --tls-cert ",
                     options.cert_file, " (the certificate holds another public key)"));
  }
  return absl::OkStatus();
}

absl::Status TlsFront::State::Listen() {
  const std::string address = absl::StrCat(options.ip, ":", options.port);
  listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd < 0) return absl::UnavailableError(absl::StrCat(address, ": ", strerror(errno)));
  const int yes = 1;
  setsockopt(listen_fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  sockaddr_in bind_to{};
  bind_to.sin_family = AF_INET;
  bind_to.sin_port = htons(static_cast<uint16_t>(options.port));
  if (inet_pton(AF_INET, options.ip.c_str(), &bind_to.sin_addr) != 1) {
    return absl::InvalidArgumentError(absl::StrCat(address, ": not an IPv4 address"));
  }
  if (bind(listen_fd, reinterpret_cast<const sockaddr*>(&bind_to), sizeof(bind_to)) != 0 ||
      listen(listen_fd, 64) != 0) {
    return absl::UnavailableError(absl::StrCat(address, ": ", strerror(errno)));
  }
  sockaddr_in bound{};
  socklen_t size = sizeof(bound);
  getsockname(listen_fd, reinterpret_cast<sockaddr*>(&bound), &size);
  port = ntohs(bound.sin_port);
  return absl::OkStatus();
}

void TlsFront::State::Accept() {
  pollfd listening{listen_fd, POLLIN, 0};
  while (!stopping) {
    listening.revents = 0;
    if (poll(&listening, 1, 100) <= 0) continue;  // wakes to see `stopping`
    const int client = accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    std::lock_guard<std::mutex> lock(mu);
    if (waiting.size() >= kMaxWaiting) {
      close(client);
      continue;
    }
    waiting.push_back(client);
    wake.notify_one();
  }
}

void TlsFront::State::Work() {
  while (true) {
    int client = -1;
    {
      std::unique_lock<std::mutex> lock(mu);
      wake.wait(lock, [this] { return stopping || !waiting.empty(); });
      if (waiting.empty()) return;
      client = waiting.front();
      waiting.pop_front();
    }
    Serve(client);
    close(client);
  }
}

void TlsFront::State::Serve(int client) {
  SetTimeouts(client, options.timeout_ms);
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(options.timeout_ms);
  SSL* ssl = SSL_new(context);
  if (ssl == nullptr) return;
  SSL_set_fd(ssl, client);
  const std::string head = SSL_accept(ssl) == 1 ? ReadRequestHead(ssl, deadline) : "";
  const int server = head.empty() ? -1 : ConnectLoopback(options.backend_port, options.timeout_ms);
  if (server >= 0 &&
      send(server, head.data(), head.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(head.size())) {
    char buffer[16 << 10];
    ssize_t got;
    while ((got = recv(server, buffer, sizeof(buffer), 0)) > 0) {
      if (SSL_write(ssl, buffer, static_cast<int>(got)) <= 0) break;
    }
    SSL_shutdown(ssl);
  }
  if (server >= 0) close(server);
  SSL_free(ssl);
}

absl::StatusOr<std::unique_ptr<TlsFront>> TlsFront::Start(const Options& options) {
  auto state = std::make_unique<State>();
  state->options = options;
  if (absl::Status loaded = state->LoadCertificate(); !loaded.ok()) return loaded;
  if (absl::Status listening = state->Listen(); !listening.ok()) return listening;
  State* s = state.get();
  s->acceptor = std::thread([s] { s->Accept(); });
  for (int i = 0; i < options.workers; ++i) s->workers.emplace_back([s] { s->Work(); });
  return std::unique_ptr<TlsFront>(new TlsFront(std::move(state)));
}

TlsFront::TlsFront(std::unique_ptr<State> state) : state_(std::move(state)) {}

TlsFront::~TlsFront() {
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->stopping = true;
  }
  state_->wake.notify_all();
  state_->acceptor.join();
  for (std::thread& worker : state_->workers) worker.join();
}

int TlsFront::port() const { return state_->port; }

}  // namespace walk::server
