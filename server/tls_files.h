// TLS for walkd's gRPC port, from PEM files (walkd's --tls-cert, --tls-key, --tls-client-ca):
// with a client CA, clients must present a certificate it signed (mutual TLS). The metrics port
// takes the same certificate and key (server/tls_front.h).
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"

namespace walk::server {

struct TlsFiles {
  std::string cert;       // the server's certificate chain; empty: no TLS
  std::string key;        // its private key
  std::string client_ca;  // certificates of the CA client certificates must chain to; optional

  bool enabled() const { return !cert.empty(); }
};

// The gRPC port's credentials: insecure without a certificate, else TLS (mutual with a client
// CA). The files are read and checked with OpenSSL first, so walkd refuses them at start naming
// the flag rather than failing to listen. Errors: INVALID_ARGUMENT naming the flag (a file
// missing or unreadable, not PEM, a certificate file without a certificate or a key file without
// a key (an encrypted key included), a key that is not the certificate's, a client CA without a
// certificate, a key without a certificate or the other way round).
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> GrpcServerCredentials(
    const TlsFiles& files);

}  // namespace walk::server
