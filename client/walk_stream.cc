#include "client/walk_stream.h"

#include <algorithm>
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
  constexpr std::size_t kPairsPerMessage = 256;  // as walkctl batch: chunks spare message costs
  std::thread writer([&] {
    for (std::size_t start = 0; start < walks.size(); start += kPairsPerMessage) {
      walk::v1::WalkBatchRequest request;
      request.set_index(start);
      *request.mutable_walk() = walks[start];
      for (std::size_t k = start + 1; k < std::min(walks.size(), start + kPairsPerMessage); ++k) {
        walk::v1::WalkBatchRequest* more = request.add_more();
        more->set_index(k);
        *more->mutable_walk() = walks[k];
      }
      if (!stream->Write(request)) break;
    }
    stream->WritesDone();
  });
  std::vector<walk::v1::WalkBatchResponse> answers(walks.size());
  std::vector<bool> seen(walks.size(), false);
  walk::v1::WalkBatchResponse response;
  auto take = [&](walk::v1::WalkBatchResponse&& answer) {
    if (answer.index() >= answers.size()) return;
    seen[answer.index()] = true;
    answers[answer.index()] = std::move(answer);
  };
  while (stream->Read(&response)) {
    if (response.has_summary()) continue;
    for (auto& more : *response.mutable_more()) take(std::move(more));
    response.clear_more();
    take(std::move(response));
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
