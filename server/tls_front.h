// HTTPS in front of a plain HTTP server on loopback: the metrics port's TLS. Debian 12's civetweb
// cannot serve HTTPS itself (it looks up SSL_get_peer_certificate, which OpenSSL 3 no longer
// exports, and calls the null pointer on every connection), so TLS ends here and each request
// goes on over loopback to the Exposer, which closes the connection after its reply.
//
// One request per connection: the front reads the request's head (at most 16 KiB: probes and
// scrapes are bodiless GETs), forwards it, and relays the reply until the server closes. Every
// connection has `timeout_ms` for its handshake and its request, so idle or slow clients cannot
// hold the workers; connections beyond the workers' queue are closed at once.
//
// Thread safety: Start and the destructor from one thread; connections are served on the front's
// own threads.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace walk::server {

class TlsFront {
 public:
  struct Options {
    std::string ip;         // IPv4 address to listen on
    int port = 0;           // 0: any free port
    std::string cert_file;  // PEM certificate chain
    std::string key_file;   // PEM private key
    int backend_port = 0;   // the plain server, on 127.0.0.1
    int workers = 8;
    int timeout_ms = 2000;
  };

  // Listens and serves. Errors: INVALID_ARGUMENT naming --tls-cert or --tls-key (unreadable, not
  // a certificate or key, not a pair); UNAVAILABLE when the address cannot be bound.
  static absl::StatusOr<std::unique_ptr<TlsFront>> Start(const Options& options);
  // Stops accepting, lets the connections being served finish, joins the threads.
  ~TlsFront();
  TlsFront(const TlsFront&) = delete;
  TlsFront& operator=(const TlsFront&) = delete;

  int port() const;

 private:
  struct State;
  explicit TlsFront(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace walk::server
