// walkctl: asks walkd. Every call has a deadline (--timeout-s).
//
// Exit codes (docs/api.md): 0 the call succeeded (for `walk`, whatever the walk's own status;
// for `health`, SERVING); 2 bad usage or input; 3 walkd unreachable or the deadline passed;
// 4 walkd refused the request (INVALID_ARGUMENT, NOT_FOUND, UNAVAILABLE world, ...);
// 5 `health`: walkd answered NOT_SERVING.
#include <cstdio>
#include <iostream>
#include <string>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"
#include "client/walk_client.h"
#include "google/protobuf/util/json_util.h"

namespace {

constexpr int kExitUsage = 2;
constexpr int kExitUnreachable = 3;
constexpr int kExitRefused = 4;
constexpr int kExitNotServing = 5;

int ReportRpcError(const grpc::Status& status) {
  std::cerr << "walkctl: " << absl::StatusCodeToString(static_cast<absl::StatusCode>(status.error_code()))
            << ": " << status.error_message() << "\n";
  const bool unreachable = status.error_code() == grpc::StatusCode::UNAVAILABLE &&
                           status.error_message().find("world") == std::string::npos;
  return unreachable || status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED ? kExitUnreachable
                                                                                   : kExitRefused;
}

std::string ToJson(const google::protobuf::Message& message) {
  std::string json;
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  options.preserve_proto_field_names = true;
  (void)google::protobuf::util::MessageToJsonString(message, &json, options);  // cannot fail for our messages
  return json;
}

int Walk(walk::client::WalkClient& client, const std::string& world, const std::string& from,
         const std::string& to, std::uint32_t continent, const std::string& profile, bool json) {
  walk::v1::WalkRequest request;
  request.set_world(world);
  request.set_profile(profile);
  auto from_place = walk::client::ParsePlace(from, continent, "--from");
  auto to_place = walk::client::ParsePlace(to, continent, "--to");
  for (const auto* parsed : {&from_place, &to_place}) {
    if (!parsed->ok()) {
      std::cerr << "walkctl: " << parsed->status().message() << "\n";
      return kExitUsage;
    }
  }
  *request.mutable_from() = *from_place;
  *request.mutable_to() = *to_place;
  walk::v1::WalkResponse response;
  const grpc::Status status = client.Walk(request, &response);
  if (!status.ok()) return ReportRpcError(status);
  if (json) {
    std::cout << ToJson(response) << "\n";
    return 0;
  }
  std::string name = walk::v1::WalkStatus_Name(response.status());
  std::string method = walk::v1::Method_Name(response.method());
  if (response.status() == walk::v1::WALK_STATUS_OK) {
    std::printf("%s: %.3f yards, %.3f seconds (%s, %llu surfaces expanded, model %s)\n",
                name.c_str(), response.yards(), response.seconds(), method.c_str(),
                static_cast<unsigned long long>(response.nodes_expanded()), response.model_id().c_str());
  } else {
    std::printf("%s (%s)\n", name.c_str(), method.c_str());
  }
  for (const auto& [label, end, present] :
       {std::tuple{"from", &response.from_end(), response.has_from_end()},
        std::tuple{"to", &response.to_end(), response.has_to_end()}}) {
    if (!present) continue;
    std::printf("  %-4s column %u,%u level %u at z %.2f yards, region %u\n", label, end->column_x(),
                end->column_y(), end->level(), end->surface_z_yards(), end->region());
  }
  return 0;
}

int Info(walk::client::WalkClient& client, bool json) {
  walk::v1::InfoResponse response;
  const grpc::Status status = client.Info(&response);
  if (!status.ok()) return ReportRpcError(status);
  if (json) {
    std::cout << ToJson(response) << "\n";
    return 0;
  }
  std::cout << "walkd " << response.version() << ", profiles:";
  for (const auto& p : response.profiles()) std::cout << " " << p;
  std::cout << "\n";
  for (const auto& w : response.worlds()) {
    std::cout << "world " << w.name() << ": " << walk::v1::WorldState_Name(w.state())
              << (w.error().empty() ? "" : " (" + w.error() + ")") << ", content id "
              << w.content_id() << ", column " << w.column_yards() << " yd, "
              << w.memory_bytes() / 1024 << " KiB, from " << w.source() << "\n";
    for (const auto& c : w.continents()) {
      std::cout << "  continent " << c.id() << ": " << c.tiles() << " tiles of " << c.tiles_x()
                << " x " << c.tiles_y() << ", " << c.columns() << " columns, " << c.surfaces()
                << " surfaces, at most " << c.max_floors() << " floors, " << c.regions()
                << " regions\n";
    }
  }
  return 0;
}

int Health(walk::client::WalkClient& client, const std::string& service) {
  grpc::health::v1::HealthCheckResponse::ServingStatus serving;
  const grpc::Status status = client.Health(service, &serving);
  if (!status.ok()) return ReportRpcError(status);
  std::cout << grpc::health::v1::HealthCheckResponse::ServingStatus_Name(serving) << "\n";
  return serving == grpc::health::v1::HealthCheckResponse::SERVING ? 0 : kExitNotServing;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"walkctl: ask walkd for walks"};
  app.require_subcommand(1);
  app.fallthrough();  // --addr and --timeout-s may come before or after the subcommand
  std::string address = "127.0.0.1:50051";
  double timeout_s = 10.0;
  app.add_option("--addr", address, "walkd's gRPC address HOST:PORT")->capture_default_str();
  app.add_option("--timeout-s", timeout_s, "Deadline of each call, seconds")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);

  std::string world = "default", from, to, profile;
  std::uint32_t continent = 0;
  bool json = false;
  auto* walk = app.add_subcommand("walk", "The walk between two places");
  walk->add_option("--world", world, "World name")->capture_default_str();
  walk->add_option("--from", from, "Start: x,y or x,y,z yards")->required();
  walk->add_option("--to", to, "End: x,y or x,y,z yards")->required();
  walk->add_option("--continent", continent, "Continent id of both places")->capture_default_str();
  walk->add_option("--profile", profile, "Profile (default: shortest)");
  walk->add_flag("--json", json, "Print the reply as JSON");

  auto* info = app.add_subcommand("info", "The worlds walkd holds");
  info->add_flag("--json", json, "Print the reply as JSON");

  std::string service;
  auto* health = app.add_subcommand("health", "Exit 0 only when walkd is SERVING");
  health->add_option("--service", service, "Service to ask about (empty: walkd as a whole)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kExitUsage;
  }
  walk::client::WalkClient client(address, timeout_s);
  if (*walk) return Walk(client, world, from, to, continent, profile, json);
  if (*info) return Info(client, json);
  if (*health) return Health(client, service);
  return kExitUsage;
}
