// A minimal HTTP/1.1 client for tests of walkd's metrics port: one request per connection, the
// reply read until the server closes it.
#pragma once

#include <netdb.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <limits>
#include <map>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace walk::testing {

struct HttpReply {
  int status = 0;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
};

// Sends `method` `path` to `address` ("HOST:PORT") with "Connection: close" and reads the reply
// to the end of the connection. Errors: UNAVAILABLE when it cannot connect or send, DATA_LOSS
// when the reply is not HTTP.
// `timeout_s` (> 0) gives up a send or a wait for the reply after that many seconds
// (DEADLINE_EXCEEDED).
inline absl::StatusOr<HttpReply> HttpRequest(const std::string& address, const std::string& method,
                                             const std::string& path, int timeout_s = 0) {
  const std::size_t colon = address.rfind(':');
  if (colon == std::string::npos) return absl::InvalidArgumentError("address is not HOST:PORT");
  const std::string host = address.substr(0, colon);
  const std::string port = address.substr(colon + 1);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0 || found == nullptr) {
    return absl::UnavailableError(absl::StrCat("cannot resolve ", address));
  }
  const int fd = socket(found->ai_family, found->ai_socktype, found->ai_protocol);
  const bool connected = fd >= 0 && connect(fd, found->ai_addr, found->ai_addrlen) == 0;
  freeaddrinfo(found);
  if (!connected) {
    if (fd >= 0) close(fd);
    return absl::UnavailableError(absl::StrCat("cannot connect to ", address));
  }
  if (timeout_s > 0) {
    const timeval limit{timeout_s, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
  }
  const std::string request = absl::StrCat(method, " ", path, " HTTP/1.1\r\nHost: ", address,
                                           "\r\nConnection: close\r\n\r\n");
  for (std::size_t sent = 0; sent < request.size();) {
    const ssize_t n = send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) {
      close(fd);
      return absl::UnavailableError(absl::StrCat("cannot send to ", address));
    }
    sent += static_cast<std::size_t>(n);
  }
  std::string raw;
  char buffer[4096];
  ssize_t n;
  while ((n = recv(fd, buffer, sizeof(buffer), 0)) > 0)
    raw.append(buffer, static_cast<std::size_t>(n));
  close(fd);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
    return absl::DeadlineExceededError(
        absl::StrCat("no reply from ", address, " in ", timeout_s, " s"));
  }

  const std::size_t head_end = raw.find("\r\n\r\n");
  HttpReply reply;
  if (!raw.starts_with("HTTP/1.") || head_end == std::string::npos || raw.size() < 12 ||
      !absl::SimpleAtoi(raw.substr(9, 3), &reply.status)) {
    return absl::DataLossError(absl::StrCat("not an HTTP reply: '", raw, "'"));
  }
  std::size_t line = raw.find("\r\n") + 2;
  while (line < head_end) {
    const std::size_t end = raw.find("\r\n", line);
    const std::size_t colon_at = raw.find(':', line);
    if (colon_at < end) {
      std::string name = raw.substr(line, colon_at - line);
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      std::size_t value = colon_at + 1;
      while (value < end && raw[value] == ' ') ++value;
      reply.headers[name] = raw.substr(value, end - value);
    }
    line = end + 2;
  }
  reply.body = raw.substr(head_end + 4);
  return reply;
}

inline absl::StatusOr<HttpReply> HttpGet(const std::string& address, const std::string& path) {
  return HttpRequest(address, "GET", path);
}

// The value of the sample line of a scrape (`text`, the text exposition format) that starts
// with `series` followed by a space, or NaN.
inline double SampleValue(const std::string& text, const std::string& series) {
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (absl::StartsWith(line, series + " ")) {
      double value = std::numeric_limits<double>::quiet_NaN();
      if (absl::SimpleAtod(line.substr(series.size() + 1), &value)) return value;
    }
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace walk::testing
