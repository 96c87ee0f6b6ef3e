// The one place an absl::Status becomes a grpc::Status.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace walk::server {

grpc::Status ToGrpcStatus(const absl::Status& status);
// The upper-case name of a gRPC code ("OK", "INVALID_ARGUMENT"), as metrics label it.
std::string GrpcCodeName(grpc::StatusCode code);

}  // namespace walk::server
