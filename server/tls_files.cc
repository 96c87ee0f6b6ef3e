#include "server/tls_files.h"

#include <fstream>
#include <iterator>

#include "absl/strings/str_cat.h"

namespace walk::server {
namespace {

absl::StatusOr<std::string> ReadPem(const std::string& path, const char* flag) {
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) {
    return absl::InvalidArgumentError(absl::StrCat(flag, ": cannot read ", path));
  }
  if (text.find("-----BEGIN ") == std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat(flag, ": ", path, " is not a PEM file"));
  }
  return text;
}

absl::Status CheckPairing(const TlsFiles& files) {
  if (files.cert.empty() != files.key.empty()) {
    return absl::InvalidArgumentError(files.cert.empty() ? "--tls-key: needs --tls-cert"
                                                         : "--tls-cert: needs --tls-key");
  }
  if (!files.client_ca.empty() && files.cert.empty()) {
    return absl::InvalidArgumentError("--tls-client-ca: needs --tls-cert and --tls-key");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> GrpcServerCredentials(
    const TlsFiles& files) {
  if (absl::Status paired = CheckPairing(files); !paired.ok()) return paired;
  if (!files.enabled()) return grpc::InsecureServerCredentials();
  absl::StatusOr<std::string> cert = ReadPem(files.cert, "--tls-cert");
  if (!cert.ok()) return cert.status();
  absl::StatusOr<std::string> key = ReadPem(files.key, "--tls-key");
  if (!key.ok()) return key.status();
  grpc::SslServerCredentialsOptions options;
  options.pem_key_cert_pairs.push_back({*key, *cert});
  if (!files.client_ca.empty()) {
    absl::StatusOr<std::string> ca = ReadPem(files.client_ca, "--tls-client-ca");
    if (!ca.ok()) return ca.status();
    options.pem_root_certs = *ca;
    options.client_certificate_request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  return grpc::SslServerCredentials(options);
}

}  // namespace walk::server
