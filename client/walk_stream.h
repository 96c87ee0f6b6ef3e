// Streams many walks through WalkBatch and collects every answer by its index: the client side
// of a batch, shared by walkctl batch and walkctl routes. Walks that share a world, profile, band
// and continents travel in PairBlock columns (4,096 pairs a block) and come back in AnswerBlock
// columns; forced searches travel one message a pair, 256 pairs a stream message. Against a walkd
// that predates blocks (it answers none), the unanswered pairs are asked again one a message.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "client/connection.h"
#include "walk/v1/walk.pb.h"

namespace walk::client {

// One pair's answer, whichever way it travelled.
struct PairAnswer {
  int code = 0;         // 0 or a gRPC code number: the pair was refused
  std::string message;  // why, when code is not 0
  walk::v1::WalkStatus status = walk::v1::WALK_STATUS_UNSPECIFIED;
  walk::v1::Method method = walk::v1::METHOD_UNSPECIFIED;
  double seconds = 0.0;  // set when status is OK
  double yards = 0.0;
  bool stored = false;          // the walk store answered
  bool from_band_zero = false;  // a danger band's answer that is band 0's walk
  walk::v1::Backend backend = walk::v1::BACKEND_UNSPECIFIED;  // which answered
  walk::v1::HybridChoice hybrid = walk::v1::HYBRID_CHOICE_UNSPECIFIED;
  std::uint64_t model = 0;

  // A walk was found.
  bool found() const { return code == 0 && status == walk::v1::WALK_STATUS_OK; }
};

struct StreamedWalks {
  // answers[i] answers walks[i]; nullopt when the stream ended before answering it.
  std::vector<std::optional<PairAnswer>> answers;
  std::optional<walk::v1::BatchSummary> summary;
  // The stream's own outcome (UNAVAILABLE, DEADLINE_EXCEEDED, ...); a pair refused alone has its
  // own code in its answer.
  absl::Status status;
};

struct StreamOptions {
  // Send blockable walks in PairBlock columns. False sends every walk as its own WalkRequest
  // (the slower way, kept for comparison in benchmarks).
  bool blocks = true;
  // Called with each answer as it arrives (on the calling thread), with the walk's position.
  std::function<void(std::size_t, const PairAnswer&)> on_answer;
  // Pairs a PairBlock carries, and per-pair walks a stream message carries: enough to spread a
  // message's fixed cost thin, few enough that answers start flowing at once. FitToLimits keeps
  // them within what walkd takes.
  std::size_t block_pairs = 4096;
  std::size_t message_pairs = 256;

  // Lowers block_pairs and message_pairs to walkd's limits (Info's), where those are lower.
  void FitToLimits(const walk::v1::Limits& limits);
};

// Answers `walks`; the stream's deadline is `timeout_s`.
StreamedWalks StreamWalks(const Connection& connection, double timeout_s,
                          const std::vector<walk::v1::WalkRequest>& walks,
                          const StreamOptions& options = StreamOptions());

}  // namespace walk::client
