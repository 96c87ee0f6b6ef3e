// wire_count_bench: what counting a request on the wire (server/wire_count.h) adds to parsing it.
//
// Builds the messages walkctl streams, serializes them, then times, over --rounds rounds each:
//   - a WalkBatchRequest of 256 pairs, one WalkRequest each (walk and 255 in `more`);
//   - a WalkBatchRequest carrying one PairBlock of 4,096 pairs (walkctl's block);
//   - the 4 MB message of 2,000,000 empty `more` entries a hostile client sends;
// the wire check (CheckWire, walkd's rules for WalkBatch) against a baseline in the same run:
// protobuf's parse of the same bytes into a message (what walkd did first before). Prints the
// median µs of each and the check's share of the parse.
//
//   wire_count_bench [--rounds 200]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "server/wire_count.h"
#include "walk/v1/walk.pb.h"

namespace {

using Clock = std::chrono::steady_clock;

// walkd's rules for a WalkBatch message at its default limits (server/walk_service.cc).
walk::server::WireRules BatchRules() {
  const auto& batch = *walk::v1::WalkBatchRequest::descriptor();
  const auto& block = *walk::v1::PairBlock::descriptor();
  walk::server::WireRules rules;
  rules.type = &batch;
  rules.limits.push_back(
      walk::server::LimitOn(batch, "more", 4095, "max-pairs-per-message", "more", "-"));
  for (const char* column : {"index", "from_x", "from_y", "from_z", "to_x", "to_y", "to_z"}) {
    rules.limits.push_back(
        walk::server::LimitOn(block, column, 16384, "max-block-pairs", column, "-"));
  }
  return rules;
}

std::string PairMessage(int pairs) {
  walk::v1::WalkBatchRequest message;
  for (int i = 0; i < pairs; ++i) {
    walk::v1::WalkBatchRequest* pair = i == 0 ? &message : message.add_more();
    pair->set_index(static_cast<std::uint64_t>(i));
    walk::v1::WalkRequest* walk = pair->mutable_walk();
    walk->set_world("default");
    walk->set_profile("neutral");
    walk->mutable_from()->set_x_yards(100.5 + i);
    walk->mutable_from()->set_y_yards(200.25);
    walk->mutable_to()->set_x_yards(300.75);
    walk->mutable_to()->set_y_yards(400.5 + i);
  }
  return message.SerializeAsString();
}

std::string BlockMessage(int pairs) {
  walk::v1::WalkBatchRequest message;
  message.set_index(~std::uint64_t{0});
  walk::v1::PairBlock* block = message.mutable_block();
  block->set_world("default");
  block->set_profile("neutral");
  for (int i = 0; i < pairs; ++i) {
    block->add_index(static_cast<std::uint64_t>(i));
    block->add_from_x(100.5 + i);
    block->add_from_y(200.25);
    block->add_to_x(300.75);
    block->add_to_y(400.5 + i);
  }
  return message.SerializeAsString();
}

// The median µs of `rounds` runs of `work`.
double MedianUs(int rounds, const std::function<void()>& work) {
  std::vector<double> us;
  for (int i = 0; i < rounds; ++i) {
    const Clock::time_point start = Clock::now();
    work();
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  std::nth_element(us.begin(), us.begin() + rounds / 2, us.end());
  return us[rounds / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 200;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--rounds") == 0) rounds = std::max(1, std::atoi(argv[i + 1]));
  }
  const walk::server::WireRules rules = BatchRules();
  const std::string empty_more = [] {
    std::string bytes;
    for (int i = 0; i < 2000000; ++i) bytes.append("\x1a\x00", 2);
    return bytes;
  }();
  struct Case {
    const char* name;
    std::string bytes;
  };
  std::printf("%-44s %9s %12s %12s %8s\n", "message", "bytes", "check µs", "parse µs", "share");
  for (const Case& c : {Case{"256 pairs, one WalkRequest each", PairMessage(256)},
                        Case{"a PairBlock of 4,096 pairs", BlockMessage(4096)},
                        Case{"2,000,000 empty `more` entries (refused)", empty_more}}) {
    bool ok = true;
    const double check_us =
        MedianUs(rounds, [&] { ok = walk::server::CheckWire(c.bytes, rules).status.ok(); });
    const double parse_us = MedianUs(rounds, [&] {
      walk::v1::WalkBatchRequest parsed;
      if (!parsed.ParseFromString(c.bytes)) std::abort();
    });
    std::printf("%-44s %9zu %12.1f %12.1f %7.1f%%%s\n", c.name, c.bytes.size(), check_us, parse_us,
                100.0 * check_us / parse_us, ok ? "" : "  (refused by the check)");
  }
  return 0;
}
