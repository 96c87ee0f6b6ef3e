#include "client/walk_stream.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <thread>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "grpcpp/grpcpp.h"
#include "walk/v1/walk.grpc.pb.h"

namespace walk::client {
namespace {

// What the pairs of one block share.
using BlockKey =
    std::tuple<std::string, std::string, std::uint32_t, std::uint32_t, std::uint32_t, int>;

// A block says "no height" with NaN: a walk naming a NaN height goes alone, and is refused
// as walkd refuses it.
bool Blockable(const walk::v1::WalkRequest& walk) {
  auto nan_height = [](const walk::v1::Place& p) {
    return p.has_z_yards() && std::isnan(p.z_yards());
  };
  return walk.search() == walk::v1::SEARCH_AUTO && walk.has_from() && walk.has_to() &&
         !nan_height(walk.from()) && !nan_height(walk.to());
}

// The index of a message that carries only a block: beyond any pair, so a walkd that predates
// blocks (and answers such a message as one pair with no walk) answers nothing of ours.
constexpr std::uint64_t kBlockOnlyIndex = std::numeric_limits<std::uint64_t>::max();

BlockKey KeyOf(const walk::v1::WalkRequest& walk) {
  return {walk.world(),          walk.profile(), walk.band(), walk.from().continent(),
          walk.to().continent(), walk.backend()};
}

bool SameBlock(const walk::v1::WalkRequest& a, const walk::v1::WalkRequest& b) {
  return a.band() == b.band() && a.from().continent() == b.from().continent() &&
         a.to().continent() == b.to().continent() && a.backend() == b.backend() &&
         a.world() == b.world() && a.profile() == b.profile();
}

void AddToBlock(const walk::v1::WalkRequest& walk, std::size_t index, walk::v1::PairBlock* block) {
  if (block->index_size() == 0) {
    block->set_world(walk.world());
    block->set_profile(walk.profile());
    block->set_band(walk.band());
    block->set_backend(walk.backend());
    block->set_from_continent(walk.from().continent());
    block->set_to_continent(walk.to().continent());
  }
  const int before = block->index_size();
  block->add_index(index);
  block->add_from_x(walk.from().x_yards());
  block->add_from_y(walk.from().y_yards());
  block->add_to_x(walk.to().x_yards());
  block->add_to_y(walk.to().y_yards());
  // Heights: a column only once some end names one (NaN for the ends that do not).
  constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  auto height = [&](const walk::v1::Place& place, google::protobuf::RepeatedField<double>* z) {
    if (!place.has_z_yards() && z->empty()) return;
    while (z->size() < before) z->Add(kNone);
    z->Add(place.has_z_yards() ? place.z_yards() : kNone);
  };
  height(walk.from(), block->mutable_from_z());
  height(walk.to(), block->mutable_to_z());
}

// Pads the height columns of a finished block to its length.
void FinishBlock(walk::v1::PairBlock* block) {
  for (auto* z : {block->mutable_from_z(), block->mutable_to_z()}) {
    while (!z->empty() && z->size() < block->index_size())
      z->Add(std::numeric_limits<double>::quiet_NaN());
  }
}

PairAnswer FromResponse(const walk::v1::WalkBatchResponse& r) {
  PairAnswer a;
  a.code = r.code();
  a.message = r.message();
  a.status = r.walk().status();
  a.method = r.walk().method();
  a.seconds = r.walk().seconds();
  a.yards = r.walk().yards();
  a.stored = r.stored();
  a.from_band_zero = r.walk().from_band_zero();
  a.backend = r.walk().backend();
  a.hybrid = r.walk().hybrid();
  const std::string& id = r.walk().model_id();
  std::from_chars(id.data(), id.data() + id.size(), a.model, 16);
  return a;
}

// One pair's answer from row `k` of an AnswerBlock's columns (a column too short reads as unset).
PairAnswer FromRow(const walk::v1::AnswerBlock& rows, int k) {
  PairAnswer a;
  a.code = k < rows.code_size() ? rows.code(k) : 0;
  if (a.code != 0) {
    auto it = rows.message().find(rows.index(k));
    if (it != rows.message().end()) a.message = it->second;
  }
  a.status = k < rows.status_size() ? static_cast<walk::v1::WalkStatus>(rows.status(k))
                                    : walk::v1::WALK_STATUS_UNSPECIFIED;
  a.method = k < rows.method_size() ? static_cast<walk::v1::Method>(rows.method(k))
                                    : walk::v1::METHOD_UNSPECIFIED;
  a.seconds = k < rows.seconds_size() ? rows.seconds(k) : 0.0;
  a.yards = k < rows.yards_size() ? rows.yards(k) : 0.0;
  a.stored = k < rows.stored_size() && rows.stored(k);
  a.from_band_zero = k < rows.from_band_zero_size() && rows.from_band_zero(k);
  a.backend = k < rows.backend_size() ? static_cast<walk::v1::Backend>(rows.backend(k))
                                      : walk::v1::BACKEND_UNSPECIFIED;
  a.hybrid = k < rows.hybrid_size() ? static_cast<walk::v1::HybridChoice>(rows.hybrid(k))
                                    : walk::v1::HYBRID_CHOICE_UNSPECIFIED;
  a.model = k < rows.model_size() ? rows.model(k) : 0;
  return a;
}

using BatchStream =
    grpc::ClientReaderWriter<walk::v1::WalkBatchRequest, walk::v1::WalkBatchResponse>;

// Writes `walks` to `stream`, each with its position as its index, then WritesDone. With
// `options.blocks`, blockable walks go in PairBlock columns, block_pairs a block; the others one a
// message, message_pairs a stream message. Stops early when the stream ends.
void WriteWalks(BatchStream& stream, const std::vector<walk::v1::WalkRequest>& walks,
                const StreamOptions& options) {
  const bool blocks = options.blocks;
  std::map<BlockKey, walk::v1::WalkBatchRequest> open;  // a block being filled, by what it shares
  walk::v1::WalkBatchRequest singles;                   // per-pair walks being gathered
  bool has_single = false;
  walk::v1::WalkBatchRequest* last = nullptr;  // the block of the last blockable walk
  const walk::v1::WalkRequest* last_walk = nullptr;
  bool live = true;
  auto send = [&](walk::v1::WalkBatchRequest* request) {
    live = live && stream.Write(*request);  // false: the stream ended, Finish says why
    request->Clear();
  };
  for (std::size_t i = 0; i < walks.size() && live; ++i) {
    if (blocks && Blockable(walks[i])) {
      // Pairs usually come in runs that share their block: look the block up once a run.
      if (last_walk == nullptr || !SameBlock(*last_walk, walks[i])) last = &open[KeyOf(walks[i])];
      last_walk = &walks[i];
      walk::v1::WalkBatchRequest& request = *last;
      request.set_index(kBlockOnlyIndex);
      AddToBlock(walks[i], i, request.mutable_block());
      if (static_cast<std::size_t>(request.block().index_size()) >= options.block_pairs) {
        FinishBlock(request.mutable_block());
        send(&request);
      }
      continue;
    }
    // The first pair of a chunk in the message itself, the rest in `more`.
    walk::v1::WalkBatchRequest* pair = has_single ? singles.add_more() : &singles;
    pair->set_index(i);
    *pair->mutable_walk() = walks[i];
    has_single = true;
    if (static_cast<std::size_t>(singles.more_size()) + 1 >= options.message_pairs) {
      send(&singles);
      has_single = false;
    }
  }
  if (has_single && live) send(&singles);
  for (auto& [key, request] : open) {
    if (!live) break;
    if (request.block().index_size() == 0) continue;
    FinishBlock(request.mutable_block());
    send(&request);
  }
  stream.WritesDone();
}

// Reads every answer of `stream` into `result` (answers by index, the summary), calling
// `on_answer` (when set) with each as it arrives. Answers to indexes beyond `result` are not
// ours and are ignored.
void ReadAnswers(BatchStream& stream,
                 const std::function<void(std::size_t, const PairAnswer&)>& on_answer,
                 StreamedWalks* result) {
  auto take = [&](std::uint64_t index, PairAnswer&& answer) {
    if (index >= result->answers.size()) return;  // not ours: ignore it, visibly
    if (on_answer) on_answer(index, answer);
    result->answers[index] = std::move(answer);
  };
  walk::v1::WalkBatchResponse response;
  while (stream.Read(&response)) {
    if (response.has_summary()) {
      result->summary = response.summary();
      continue;
    }
    // The message's own answer (present when it has a walk or a code), those in `more`, and
    // those in columns.
    if (response.has_walk() || response.code() != 0) take(response.index(), FromResponse(response));
    for (const auto& more : response.more()) take(more.index(), FromResponse(more));
    const walk::v1::AnswerBlock& rows = response.answers();
    for (int k = 0; k < rows.index_size(); ++k) take(rows.index(k), FromRow(rows, k));
  }
}

}  // namespace

void StreamOptions::FitToLimits(const walk::v1::Limits& limits) {
  // 0: a walkd that does not list its limits (it takes these defaults).
  if (limits.max_block_pairs() > 0) {
    block_pairs = std::min<std::size_t>(block_pairs, limits.max_block_pairs());
  }
  if (limits.max_pairs_per_message() > 0) {
    message_pairs = std::min<std::size_t>(message_pairs, limits.max_pairs_per_message());
  }
}

StreamedWalks StreamWalks(const Connection& connection, double timeout_s,
                          const std::vector<walk::v1::WalkRequest>& walks,
                          const StreamOptions& options) {
  auto stub = walk::v1::WalkService::NewStub(connection.OpenChannel(64 << 20));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::microseconds(static_cast<long long>(timeout_s * 1e6)));
  connection.Authorize(context);
  auto stream = stub->WalkBatch(&context);
  std::thread writer([&] { WriteWalks(*stream, walks, options); });
  StreamedWalks result;
  result.answers.resize(walks.size());
  ReadAnswers(*stream, options.on_answer, &result);
  writer.join();
  const grpc::Status status = stream->Finish();
  if (!status.ok()) {
    result.status = absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                                 absl::StrCat("the batch stream ended: ", status.error_message()));
    return result;
  }
  // A walkd that predates blocks answered none of them: ask those pairs again, one a message.
  std::vector<std::size_t> unanswered;
  for (std::size_t i = 0; i < walks.size(); ++i) {
    if (!result.answers[i]) unanswered.push_back(i);
  }
  if (options.blocks && !unanswered.empty()) {
    std::vector<walk::v1::WalkRequest> again;
    again.reserve(unanswered.size());
    for (std::size_t i : unanswered) again.push_back(walks[i]);
    StreamOptions singles = options;
    singles.blocks = false;
    singles.on_answer = nullptr;
    if (options.on_answer) {
      singles.on_answer = [&](std::size_t k, const PairAnswer& a) {
        options.on_answer(unanswered[k], a);
      };
    }
    StreamedWalks retried = StreamWalks(connection, timeout_s, again, singles);
    for (std::size_t k = 0; k < unanswered.size(); ++k)
      result.answers[unanswered[k]] = std::move(retried.answers[k]);
    result.status = retried.status;
    if (retried.summary) result.summary = retried.summary;
  }
  return result;
}

}  // namespace walk::client
