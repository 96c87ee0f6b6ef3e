// How a client reaches walkd: its address, and what walkd may ask of it (docs/operations.md,
// "Security"): TLS (walkd's CA, and a certificate of the client's own for mutual TLS) and the
// token calls send as `authorization: Bearer TOKEN`.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"

namespace walk::client {

// The files a connection is made from, as walkctl's flags name them.
struct ConnectionFiles {
  // Any gRPC target: HOST:PORT, dns:///walkd-headless:50051, ipv4:127.0.0.1:A,127.0.0.1:B.
  std::string address = "127.0.0.1:50051";
  std::string lb_policy;  // gRPC's load-balancing policy: pick_first (its default), round_robin
  std::string tls_ca;     // the CA that signed walkd's certificate; set: speak TLS
  std::string tls_cert;   // the client's certificate (mutual TLS), with tls_key
  std::string tls_key;
  std::string tls_server_name;  // the name walkd's certificate must hold (default: the host)
  std::string token_file;       // its first line is the token
};

struct Connection {
  Connection() = default;
  // Plain text to `address`, no token (walkd on loopback).
  Connection(std::string address)  // NOLINT: a bare address is the common case
      : address(std::move(address)) {}

  std::string address;
  // Null: plain text.
  std::shared_ptr<grpc::ChannelCredentials> credentials;
  std::string server_name;  // overrides the name TLS checks, when set
  std::string token;        // sent with every call when set
  std::string lb_policy;    // empty: gRPC's default (pick_first)
  // When set, OpenChannel returns it: calls that share a channel are spread by its balancer.
  std::shared_ptr<grpc::Channel> shared_channel;

  // A channel to walkd taking replies up to `max_receive_bytes` (or the shared one).
  std::shared_ptr<grpc::Channel> OpenChannel(int max_receive_bytes) const;
  // Adds the token to a call.
  void Authorize(grpc::ClientContext& context) const;
};

// Reads the files. INVALID_ARGUMENT names the flag (--tls-ca, --tls-cert, --tls-key,
// --token-file): unreadable, not PEM, a certificate without its key, a certificate without
// --tls-ca, an empty token, a token file others may read or write (naming its mode and the chmod
// that fixes it) or owned by another user (as walkd judges its own: docs/operations.md,
// "Security").
absl::StatusOr<Connection> Connect(const ConnectionFiles& files);

}  // namespace walk::client
