#include "client/trip_stream.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "absl/strings/str_cat.h"
#include "grpcpp/grpcpp.h"
#include "walk/v1/walk.grpc.pb.h"

namespace walk::client {
namespace {

using BatchStream =
    grpc::ClientReaderWriter<walk::v1::WalkBatchRequest, walk::v1::WalkBatchResponse>;

// Writes `trips`, `message_pairs` a message: the first in the message itself, the rest in `more`.
void WriteTrips(BatchStream& stream, const std::vector<walk::v1::TripRequest>& trips,
                std::size_t message_pairs) {
  walk::v1::WalkBatchRequest message;
  bool has_trip = false, live = true;
  for (std::size_t i = 0; i < trips.size() && live; ++i) {
    walk::v1::WalkBatchRequest* pair = has_trip ? message.add_more() : &message;
    pair->set_index(i);
    *pair->mutable_trip() = trips[i];
    has_trip = true;
    if (static_cast<std::size_t>(message.more_size()) + 1 >= message_pairs) {
      live = stream.Write(message);  // false: the stream ended, Finish says why
      message.Clear();
      has_trip = false;
    }
  }
  if (has_trip && live) stream.Write(message);
  stream.WritesDone();
}

}  // namespace

StreamedTrips StreamTrips(const Connection& connection, double timeout_s,
                          const std::vector<walk::v1::TripRequest>& trips,
                          const std::function<void(std::size_t, const TripAnswer&)>& on_answer,
                          std::size_t message_pairs) {
  auto stub = walk::v1::WalkService::NewStub(connection.OpenChannel(64 << 20));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::microseconds(static_cast<long long>(timeout_s * 1e6)));
  connection.Authorize(context);
  auto stream = stub->WalkBatch(&context);
  std::thread writer([&] { WriteTrips(*stream, trips, std::max<std::size_t>(message_pairs, 1)); });
  StreamedTrips result;
  result.answers.resize(trips.size());
  auto take = [&](const walk::v1::WalkBatchResponse& r) {
    if (r.index() >= result.answers.size()) return;  // not ours: ignore it, visibly
    TripAnswer answer;
    answer.code = r.code();
    answer.message = r.message();
    answer.trip = r.trip();
    if (on_answer) on_answer(r.index(), answer);
    result.answers[r.index()] = std::move(answer);
  };
  walk::v1::WalkBatchResponse response;
  while (stream->Read(&response)) {
    if (response.has_summary()) {
      result.summary = response.summary();
      continue;
    }
    if (response.has_trip() || response.code() != 0) take(response);
    for (const auto& more : response.more()) take(more);
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
