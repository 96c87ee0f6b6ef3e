#include "client/connection.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "auth/secret_file.h"

namespace walk::client {
namespace {

absl::StatusOr<std::string> ReadFile(const std::string& path, const char* flag) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::InvalidArgumentError(absl::StrCat(flag, ": cannot read ", path));
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

absl::StatusOr<std::string> ReadPem(const std::string& path, const char* flag) {
  absl::StatusOr<std::string> text = ReadFile(path, flag);
  if (text.ok() && text->find("-----BEGIN ") == std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat(flag, ": ", path, " is not a PEM file"));
  }
  return text;
}

// The token: the first line of `path`, spaces trimmed, once the file is known to be a secret.
absl::StatusOr<std::string> ReadToken(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--token-file: cannot read ", path, ": ", std::strerror(errno)));
  }
  constexpr std::size_t kMaxTokenFileBytes = 64 << 10;
  std::string text(kMaxTokenFileBytes, '\0');
  const std::string why = auth::NotSecret(fd, path, "yours");
  const ssize_t got = why.empty() ? read(fd, text.data(), text.size()) : 0;
  close(fd);
  if (!why.empty()) return absl::InvalidArgumentError("--token-file: " + why);
  text.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
  const std::string token(absl::StripAsciiWhitespace(text.substr(0, text.find('\n'))));
  if (token.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("--token-file: ", path, " holds no token"));
  }
  return token;
}

absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> TlsCredentials(
    const ConnectionFiles& files) {
  if (files.tls_cert.empty() != files.tls_key.empty()) {
    return absl::InvalidArgumentError(files.tls_cert.empty() ? "--tls-key: needs --tls-cert"
                                                             : "--tls-cert: needs --tls-key");
  }
  if (files.tls_ca.empty()) {
    if (!files.tls_cert.empty()) return absl::InvalidArgumentError("--tls-cert: needs --tls-ca");
    return nullptr;
  }
  grpc::SslCredentialsOptions options;
  absl::StatusOr<std::string> ca = ReadPem(files.tls_ca, "--tls-ca");
  if (!ca.ok()) return ca.status();
  options.pem_root_certs = *ca;
  if (!files.tls_cert.empty()) {
    absl::StatusOr<std::string> cert = ReadPem(files.tls_cert, "--tls-cert");
    if (!cert.ok()) return cert.status();
    absl::StatusOr<std::string> key = ReadPem(files.tls_key, "--tls-key");
    if (!key.ok()) return key.status();
    options.pem_cert_chain = *cert;
    options.pem_private_key = *key;
  }
  return grpc::SslCredentials(options);
}

}  // namespace

std::shared_ptr<grpc::Channel> Connection::OpenChannel(int max_receive_bytes) const {
  if (shared_channel != nullptr) return shared_channel;
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(max_receive_bytes);
  if (!server_name.empty()) args.SetSslTargetNameOverride(server_name);
  if (!lb_policy.empty()) args.SetLoadBalancingPolicyName(lb_policy);
  return grpc::CreateCustomChannel(
      address, credentials ? credentials : grpc::InsecureChannelCredentials(), args);
}

void Connection::Authorize(grpc::ClientContext& context) const {
  if (!token.empty()) context.AddMetadata("authorization", absl::StrCat("Bearer ", token));
}

absl::StatusOr<Connection> Connect(const ConnectionFiles& files) {
  Connection connection(files.address);
  absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> credentials = TlsCredentials(files);
  if (!credentials.ok()) return credentials.status();
  connection.credentials = *std::move(credentials);
  connection.server_name = files.tls_server_name;
  connection.lb_policy = files.lb_policy;
  if (!files.token_file.empty()) {
    absl::StatusOr<std::string> token = ReadToken(files.token_file);
    if (!token.ok()) return token.status();
    connection.token = *std::move(token);
  }
  return connection;
}

}  // namespace walk::client
