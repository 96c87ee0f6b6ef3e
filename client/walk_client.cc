#include "client/walk_client.h"

#include <chrono>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"

namespace walk::client {

// Replies can be large (a Floors rectangle of 65,536 columns is several MB): allow 64 MB.
constexpr int kMaxReplyBytes = 64 << 20;

WalkClient::WalkClient(const Connection& connection, double timeout_s)
    : timeout_s_(timeout_s),
      connection_(connection),
      channel_(connection.OpenChannel(kMaxReplyBytes)),
      walk_(walk::v1::WalkService::NewStub(channel_)),
      admin_(walk::v1::AdminService::NewStub(channel_)),
      health_(grpc::health::v1::Health::NewStub(channel_)) {}

std::unique_ptr<grpc::ClientContext> WalkClient::NewContext() const {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() +
                        std::chrono::microseconds(static_cast<long long>(timeout_s_ * 1e6)));
  connection_.Authorize(*context);
  return context;
}

grpc::Status WalkClient::Walk(const walk::v1::WalkRequest& request,
                              walk::v1::WalkResponse* response) {
  auto context = NewContext();
  return walk_->Walk(context.get(), request, response);
}

grpc::Status WalkClient::Path(const walk::v1::PathRequest& request,
                              walk::v1::PathResponse* response) {
  auto context = NewContext();
  return walk_->Path(context.get(), request, response);
}

grpc::Status WalkClient::Floors(const walk::v1::FloorsRequest& request,
                                walk::v1::FloorsResponse* response) {
  auto context = NewContext();
  return walk_->Floors(context.get(), request, response);
}

grpc::Status WalkClient::Table(const walk::v1::TableRequest& request,
                               walk::v1::TableResponse* response) {
  auto context = NewContext();
  return walk_->Table(context.get(), request, response);
}

grpc::Status WalkClient::Trip(const walk::v1::TripRequest& request,
                              walk::v1::TripResponse* response) {
  auto context = NewContext();
  return walk_->Trip(context.get(), request, response);
}

grpc::Status WalkClient::Info(walk::v1::InfoResponse* response) {
  auto context = NewContext();
  return walk_->Info(context.get(), walk::v1::InfoRequest(), response);
}

grpc::Status WalkClient::Reload(const walk::v1::ReloadRequest& request,
                                walk::v1::ReloadResponse* response) {
  auto context = NewContext();
  return admin_->Reload(context.get(), request, response);
}

grpc::Status WalkClient::Health(const std::string& service,
                                grpc::health::v1::HealthCheckResponse::ServingStatus* status) {
  auto context = NewContext();
  grpc::health::v1::HealthCheckRequest request;
  request.set_service(service);
  grpc::health::v1::HealthCheckResponse response;
  grpc::Status result = health_->Check(context.get(), request, &response);
  *status = response.status();
  return result;
}

absl::StatusOr<walk::v1::Place> ParsePlace(const std::string& text, std::uint32_t continent,
                                           const std::string& field) {
  std::vector<std::string> parts = absl::StrSplit(text, ',');
  std::vector<double> values;
  for (const std::string& part : parts) {
    double value;
    if (!absl::SimpleAtod(part, &value)) {
      return absl::InvalidArgumentError(field + ": '" + part +
                                        "' is not a number (expected x,y or x,y,z yards)");
    }
    values.push_back(value);
  }
  if (values.size() != 2 && values.size() != 3) {
    return absl::InvalidArgumentError(field + ": expected x,y or x,y,z yards, got '" + text + "'");
  }
  walk::v1::Place place;
  place.set_continent(continent);
  place.set_x_yards(values[0]);
  place.set_y_yards(values[1]);
  if (values.size() == 3) place.set_z_yards(values[2]);
  return place;
}

std::optional<walk::v1::Backend> ParseBackend(std::string_view name) {
  if (name.empty() || name == "default") return walk::v1::BACKEND_UNSPECIFIED;
  if (name == "grid") return walk::v1::BACKEND_GRID;
  if (name == "navmesh") return walk::v1::BACKEND_NAVMESH;
  if (name == "hybrid") return walk::v1::BACKEND_HYBRID;
  return std::nullopt;
}

}  // namespace walk::client
