// The calls walkd is serving, whatever their service, method or API: a server interceptor is
// made for each call when gRPC starts it and destroyed when the call ends, and counts both.
// Shutdown reads the count: once no call is left it closes the connections at once, where
// gRPC's graceful close of an idle connection would wait for the client to answer a ping (a
// client that is not polling its channel answers none, so the stop took the whole grace).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace grpc::experimental {
class ServerInterceptorFactoryInterface;
}  // namespace grpc::experimental

namespace walk::server {

class CallsInFlight {
 public:
  // For ServerBuilder::experimental().SetInterceptorCreators: its interceptors count into this,
  // which must outlive the server.
  std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> CounterFactory();
  std::int64_t Count() const { return count_.load(std::memory_order_acquire); }

 private:
  std::atomic<std::int64_t> count_{0};
};

}  // namespace walk::server
