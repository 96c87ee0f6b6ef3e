// Whether a token file is its owner's secret, judged as ssh judges a private key. walkd reads its
// token from one (--auth-token-file) and walkctl its own (--token-file); both refuse a file others
// could read or change, naming its mode and the chmod that mends it.
#pragma once

#include <string>

namespace walk::auth {

// Why the file open as `fd` (named `path` in the message) is not its owner's secret: empty when it
// is this process's user's or root's, a regular file, and no one else may write or read it. A
// root-owned file may be read by its group unless this process is root (a Kubernetes secret
// mounted with an fsGroup is root:fsGroup 0440). `user` names this process's user in the message
// ("yours", "walkd's").
std::string NotSecret(int fd, const std::string& path, const char* user);

}  // namespace walk::auth
