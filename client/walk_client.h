// The C++ client library: a WalkService, AdminService and health client with a deadline on every
// call. Thread-safe: one WalkClient may be shared by threads (gRPC channels and stubs are).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "client/connection.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "walk/v1/walk.grpc.pb.h"

namespace walk::client {

class WalkClient {
 public:
  // A client of the walkd `connection` reaches (a bare HOST:PORT is plain text, no token); every
  // call gives up after `timeout_s`. Connecting is lazy: an unreachable address shows as
  // UNAVAILABLE on the first call.
  WalkClient(const Connection& connection, double timeout_s);

  grpc::Status Walk(const walk::v1::WalkRequest& request, walk::v1::WalkResponse* response);
  grpc::Status Path(const walk::v1::PathRequest& request, walk::v1::PathResponse* response);
  grpc::Status Floors(const walk::v1::FloorsRequest& request, walk::v1::FloorsResponse* response);
  grpc::Status Table(const walk::v1::TableRequest& request, walk::v1::TableResponse* response);
  grpc::Status Trip(const walk::v1::TripRequest& request, walk::v1::TripResponse* response);
  grpc::Status Info(walk::v1::InfoResponse* response);
  // AdminService.Reload: waits for the worlds' reload, so give it a timeout as long as a
  // world's load.
  grpc::Status Reload(const walk::v1::ReloadRequest& request, walk::v1::ReloadResponse* response);
  // grpc.health.v1 Check for `service` ("" is walkd as a whole).
  grpc::Status Health(const std::string& service,
                      grpc::health::v1::HealthCheckResponse::ServingStatus* status);

 private:
  std::unique_ptr<grpc::ClientContext> NewContext() const;

  double timeout_s_;
  Connection connection_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<walk::v1::WalkService::Stub> walk_;
  std::unique_ptr<walk::v1::AdminService::Stub> admin_;
  std::unique_ptr<grpc::health::v1::Health::Stub> health_;
};

// Parses "x,y" or "x,y,z" (yards) into a Place on `continent`. INVALID_ARGUMENT names `field`.
absl::StatusOr<walk::v1::Place> ParsePlace(const std::string& text, std::uint32_t continent,
                                           const std::string& field);

// "grid", "navmesh", "hybrid" or "" / "default" (the world's default) into a Backend; nullopt
// for anything else.
std::optional<walk::v1::Backend> ParseBackend(std::string_view name);

}  // namespace walk::client
