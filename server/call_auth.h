// Who may call what. With a token (walkd's --auth-token-file) the RPCs that change state
// (LiveService.UpdateBlockers, and any added later) need it, and with --auth-reads every RPC
// does but the health service and reflection. Clients send it as gRPC metadata:
// `authorization: Bearer TOKEN`. Without a token everything is open (on loopback by default).
//
// Thread safety: immutable once made; Check may be called from any thread.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"

namespace walk::server {

enum class Access { kRead, kWrite };

class CallAuth {
 public:
  // Everything open.
  CallAuth() = default;
  // The token in `token_file` (its first line, spaces trimmed: at least 16 characters), needed
  // for writes and, with `reads_too`, for reads. The file must be a secret, as ssh asks of a
  // private key: owned by walkd's user or root, and no one else may read or write it (a
  // root-owned file may be read by its group when walkd is not root: Kubernetes secrets with an
  // fsGroup). Errors: INVALID_ARGUMENT naming --auth-token-file (unreadable, not a regular file,
  // readable or writable by others, naming its mode and the chmod that fixes it; owned by another
  // user; empty; too short).
  static absl::StatusOr<CallAuth> FromFile(const std::string& token_file, bool reads_too);

  // OK when the call may go on; UNAUTHENTICATED when it needs a token and sent none,
  // PERMISSION_DENIED when it sent another.
  absl::Status Check(const grpc::ServerContextBase& context, Access access) const;

  bool enabled() const { return !token_.empty(); }

 private:
  std::string token_;
  bool reads_too_ = false;
};

}  // namespace walk::server
