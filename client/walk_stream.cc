#include "client/walk_stream.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "absl/strings/str_cat.h"
#include "grpcpp/grpcpp.h"
#include "walk/v1/walk.grpc.pb.h"

namespace walk::client {
namespace {

// Pairs per stream message: enough to spread a message's fixed cost thin.
constexpr std::size_t kPairsPerMessage = 256;

}  // namespace

StreamedWalks StreamWalks(const std::string& address, double timeout_s,
                          const std::vector<walk::v1::WalkRequest>& walks,
                          const std::function<void(const walk::v1::WalkBatchResponse&)>& on_answer) {
  grpc::ChannelArguments channel_args;
  channel_args.SetMaxReceiveMessageSize(64 << 20);
  auto stub = walk::v1::WalkService::NewStub(
      grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), channel_args));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::microseconds(static_cast<long long>(timeout_s * 1e6)));
  auto stream = stub->WalkBatch(&context);
  std::thread writer([&] {
    // The first pair of a chunk in the message itself, the rest in `more`.
    for (std::size_t start = 0; start < walks.size(); start += kPairsPerMessage) {
      walk::v1::WalkBatchRequest request;
      request.set_index(start);
      *request.mutable_walk() = walks[start];
      for (std::size_t k = start + 1; k < std::min(walks.size(), start + kPairsPerMessage); ++k) {
        walk::v1::WalkBatchRequest* more = request.add_more();
        more->set_index(k);
        *more->mutable_walk() = walks[k];
      }
      if (!stream->Write(request)) break;  // the stream ended: Finish says why
    }
    stream->WritesDone();
  });
  StreamedWalks result;
  result.answers.resize(walks.size());
  auto take = [&](walk::v1::WalkBatchResponse&& answer) {
    if (answer.index() >= result.answers.size()) return;  // not ours: ignore it, visibly
    if (on_answer) on_answer(answer);
    result.answers[answer.index()] = std::move(answer);
  };
  walk::v1::WalkBatchResponse response;
  while (stream->Read(&response)) {
    if (response.has_summary()) {
      result.summary = response.summary();
      continue;
    }
    for (auto& more : *response.mutable_more()) take(std::move(more));
    response.clear_more();
    take(std::move(response));
  }
  writer.join();
  const grpc::Status status = stream->Finish();
  if (!status.ok()) {
    result.status = absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                                 absl::StrCat("the batch stream ended: ", status.error_message()));
  }
  return result;
}

}  // namespace walk::client
