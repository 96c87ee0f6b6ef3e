// Stored-answer throughput through WalkBatch, end to end: a client streams every pair of a
// JSON-lines file (walkctl batch's input, parsed before the clock starts) to a running walkd and
// takes every answer back, in PairBlock columns and, as the baseline in the same run, one
// WalkRequest a pair. Run it after the pairs are stored (bench/batch_bench.py does both). The
// first run is also printed alone: on a restarted walkd it is the one that reads RocksDB.
//
//   build/bench/batch_stream_bench --addr 127.0.0.1:PORT --pairs pairs.jsonl
//                                  [--runs 3] [--baseline 0]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "client/batch_input.h"
#include "client/walk_stream.h"

namespace {

struct Run {
  double seconds = 0.0;
  std::size_t answered = 0, stored = 0;
};

Run Stream(const std::string& address, const std::vector<walk::v1::WalkRequest>& walks,
           bool blocks) {
  walk::client::StreamOptions options;
  options.blocks = blocks;
  const auto start = std::chrono::steady_clock::now();
  const walk::client::StreamedWalks result =
      walk::client::StreamWalks(address, 3600, walks, options);
  Run run;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!result.status.ok()) {
    std::fprintf(stderr, "batch_stream_bench: %s\n", std::string(result.status.message()).c_str());
    std::exit(1);
  }
  for (const auto& answer : result.answers) {
    run.answered += answer.has_value();
    run.stored += answer.has_value() && answer->stored;
  }
  return run;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::string address, pairs_path;
  int runs = 3;
  bool baseline = true;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--addr")
      address = argv[i + 1];
    else if (flag == "--pairs")
      pairs_path = argv[i + 1];
    else if (flag == "--runs")
      runs = std::max(1, std::atoi(argv[i + 1]));
    else if (flag == "--baseline")
      baseline = std::atoi(argv[i + 1]) != 0;
  }
  if (address.empty() || pairs_path.empty()) {
    std::fprintf(stderr,
                 "usage: batch_stream_bench --addr HOST:PORT --pairs PAIRS.jsonl [--runs N]\n");
    return 2;
  }
  std::ifstream in(pairs_path);
  std::vector<walk::v1::WalkRequest> walks;
  std::string text;
  for (std::uint64_t line = 1; std::getline(in, text); ++line) {
    auto pair = walk::client::ParseJsonPair(text, line, walk::client::BatchDefaults());
    if (pair.ok()) walks.push_back(std::move(pair->walk));
  }
  std::printf("%zu pairs from %s, %d runs each way (median)\n", walks.size(), pairs_path.c_str(),
              runs);
  std::vector<double> block_s, single_s;
  Run last_block, last_single;
  for (int r = 0; r < runs; ++r) {
    last_block = Stream(address, walks, true);
    block_s.push_back(last_block.seconds);
    if (!baseline) continue;
    last_single = Stream(address, walks, false);
    single_s.push_back(last_single.seconds);
  }
  const double b = Median(block_s);
  const double n = static_cast<double>(walks.size());
  // The first run may find walkd's answer cache cold (a restarted walkd reads RocksDB); the
  // later ones find it warm.
  std::printf("PairBlock columns, first run: %.2f s, %9.0f pairs/s\n", block_s[0], n / block_s[0]);
  std::printf("PairBlock columns:       %.2f s, %9.0f pairs/s (answered %zu, stored %zu)\n", b,
              n / b, last_block.answered, last_block.stored);
  if (!baseline) return 0;
  const double s = Median(single_s);
  std::printf(
      "one message a pair:      %.2f s, %9.0f pairs/s (answered %zu, stored %zu)  [baseline]\n", s,
      n / s, last_single.answered, last_single.stored);
  std::printf("ratio: %.2fx\n", s / b);
  return 0;
}
