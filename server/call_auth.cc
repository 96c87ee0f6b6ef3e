#include "server/call_auth.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "auth/secret_file.h"

namespace walk::server {
namespace {

constexpr std::size_t kMinTokenChars = 16;
constexpr char kBearer[] = "Bearer ";

// Compares in time that does not depend on where the strings differ.
bool SameSecret(absl::string_view a, absl::string_view b) {
  unsigned char differ = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < a.size(); ++i) {
    differ |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
  }
  return differ == 0;
}

// Bytes of a token file read; its first line is the token.
constexpr std::size_t kMaxTokenFileBytes = 64 << 10;

// The token file's first line, once the file is known to be its owner's secret.
absl::StatusOr<std::string> ReadTokenLine(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return absl::InvalidArgumentError(absl::StrCat("--auth-token-file: cannot read a token from ",
                                                   path, ": ", std::strerror(errno)));
  }
  std::string text(kMaxTokenFileBytes, '\0');
  const std::string why = auth::NotSecret(fd, path, "walkd's");
  const ssize_t got = why.empty() ? read(fd, text.data(), text.size()) : 0;
  close(fd);
  if (!why.empty()) return absl::InvalidArgumentError("--auth-token-file: " + why);
  if (got <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--auth-token-file: cannot read a token from ", path));
  }
  text.resize(static_cast<std::size_t>(got));
  return text.substr(0, text.find('\n'));
}

}  // namespace

absl::StatusOr<CallAuth> CallAuth::FromFile(const std::string& token_file, bool reads_too) {
  absl::StatusOr<std::string> line = ReadTokenLine(token_file);
  if (!line.ok()) return line.status();
  CallAuth auth;
  auth.token_ = std::string(absl::StripAsciiWhitespace(*line));
  if (auth.token_.size() < kMinTokenChars) {
    return absl::InvalidArgumentError(absl::StrCat("--auth-token-file: ", token_file,
                                                   "'s token is shorter than ", kMinTokenChars,
                                                   " characters"));
  }
  auth.reads_too_ = reads_too;
  return auth;
}

absl::Status CallAuth::Check(const grpc::ServerContextBase& context, Access access) const {
  if (token_.empty() || (access == Access::kRead && !reads_too_)) return absl::OkStatus();
  const auto& metadata = context.client_metadata();
  const auto found = metadata.find("authorization");
  if (found == metadata.end()) {
    return absl::UnauthenticatedError(
        "authorization: this call needs walkd's token (send the metadata 'authorization: Bearer "
        "TOKEN'; walkctl --token-file)");
  }
  const absl::string_view sent(found->second.data(), found->second.size());
  if (!absl::StartsWith(sent, kBearer) || !SameSecret(sent.substr(sizeof(kBearer) - 1), token_)) {
    return absl::PermissionDeniedError("authorization: the token sent is not walkd's");
  }
  return absl::OkStatus();
}

}  // namespace walk::server
