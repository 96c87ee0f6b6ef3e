#include "client/walk_stream.h"

#include <chrono>
#include <thread>

#include "absl/strings/str_cat.h"
#include "grpcpp/grpcpp.h"
#include "walk/v1/walk.grpc.pb.h"

namespace walk::client {

absl::StatusOr<std::vector<walk::v1::WalkBatchResponse>> StreamWalks(
    const std::string& address, double timeout_s, const std::vector<walk::v1::WalkRequest>& walks) {
  auto stub = walk::v1::WalkService::NewStub(
      grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::microseconds(static_cast<long long>(timeout_s * 1e6)));
  auto stream = stub->WalkBatch(&context);
  std::thread writer([&] {
    walk::v1::WalkBatchRequest request;
    for (std::size_t i = 0; i < walks.size(); ++i) {
      request.set_index(i);
      *request.mutable_walk() = walks[i];
      if (!stream->Write(request)) break;
    }
    stream->WritesDone();
  });
  std::vector<walk::v1::WalkBatchResponse> answers(walks.size());
  std::vector<bool> seen(walks.size(), false);
  walk::v1::WalkBatchResponse response;
  while (stream->Read(&response)) {
    if (response.has_summary() || response.index() >= answers.size()) continue;
    seen[response.index()] = true;
    answers[response.index()] = std::move(response);
  }
  writer.join();
  const grpc::Status status = stream->Finish();
  if (!status.ok()) {
    return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                        absl::StrCat("the batch stream ended: ", status.error_message()));
  }
  for (std::size_t i = 0; i < seen.size(); ++i) {
    if (!seen[i]) return absl::InternalError(absl::StrCat("walk ", i, " was never answered"));
  }
  return answers;
}

}  // namespace walk::client
