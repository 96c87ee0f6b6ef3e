// Replicas behind gRPC's own balancing: three walkd on loopback serving the same world, each with
// its own store, and one `walkctl batch --lb round_robin` across all three. Its answers equal one
// walkd's, and every replica answered a share.
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "client/walk_client.h"
#include "gtest/gtest.h"
#include "nav/grid/grid_format.h"
#include "nav/import/movingai.h"
#include "tests/integration/walkd_process.h"
#include "tests/server/http_get.h"

namespace walk {
namespace {

// A 40 x 40 world with a few walls, saved as a world folder.
void WriteWorld(const std::string& dir) {
  std::string text = "type octile\nheight 40\nwidth 40\nmap\n";
  for (int y = 0; y < 40; ++y) {
    std::string row(40, '.');
    for (int x = 0; x < 40; ++x) {
      if ((x == 13 && y < 30) || (x == 27 && y > 10) || (y == 20 && x > 30)) row[x] = '@';
    }
    text += row + "\n";
  }
  auto map = nav::ParseMovingAiMap(text);
  ASSERT_TRUE(map.ok());
  auto world = nav::WorldFromMovingAi(*map);
  ASSERT_TRUE(world.ok());
  ASSERT_TRUE(nav::SaveWorld(*world, "test:replicas", dir).ok());
}

struct Replica {
  testing::StartedWalkd walkd;
  std::string metrics;  // HOST:PORT of its metrics endpoint
};

Replica StartReplica(const std::string& worlds, const std::string& data) {
  Replica r;
  r.walkd.process = std::make_unique<testing::ChildProcess>(std::vector<std::string>{
      WALKD_BIN, "--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0", "--worlds", worlds,
      "--data", data, "--search-threads", "1"});
  r.walkd.address = r.walkd.process->WaitForLine("walkd: grpc listening on ").value_or("");
  const std::string metrics =
      r.walkd.process->WaitForLine("walkd: metrics on http://").value_or("");
  r.metrics = metrics.substr(0, metrics.find('/'));
  return r;
}

// `count` replicas serving DIR/worlds, each with a data folder of its own; returns once every one
// is SERVING.
void StartServing(const std::string& dir, int count, std::vector<Replica>* replicas) {
  for (int k = 0; k < count; ++k) {
    replicas->push_back(StartReplica(dir + "/worlds", absl::StrCat(dir, "/data", k)));
    ASSERT_FALSE(replicas->back().walkd.address.empty())
        << replicas->back().walkd.process->output();
  }
  for (const Replica& r : *replicas) {
    client::WalkClient client(r.walkd.address, 30.0);
    ASSERT_TRUE(testing::WaitUntil([&] {
      grpc::health::v1::HealthCheckResponse::ServingStatus status;
      return client.Health("", &status).ok() &&
             status == grpc::health::v1::HealthCheckResponse::SERVING;
    }));
  }
}

// The gRPC target naming every replica: ipv4:A,B,C.
std::string TargetOf(const std::vector<Replica>& replicas) {
  std::vector<std::string> addresses;
  for (const Replica& r : replicas) addresses.push_back(r.walkd.address);
  return "ipv4:" + absl::StrJoin(addresses, ",");
}

// `count` random pairs on the field (seed `seed`), as walkctl batch input.
void WritePairs(const std::string& path, int count, unsigned seed) {
  std::ofstream pairs(path);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coord(0.5, 39.5);
  for (int k = 0; k < count; ++k) {
    pairs << "{\"world\": \"field\", \"from\": [" << coord(rng) << ", " << coord(rng)
          << "], \"to\": [" << coord(rng) << ", " << coord(rng) << "]}\n";
  }
}

// The pairs walk_batch_pairs_total says this replica answered.
double PairsAnswered(const Replica& r) {
  auto reply = testing::HttpGet(r.metrics, "/metrics");
  if (!reply.ok()) return -1;
  double total = 0;
  for (absl::string_view line : absl::StrSplit(reply->body, '\n')) {
    if (!absl::StartsWith(line, "walk_batch_pairs_total{")) continue;
    double value = 0;
    if (absl::SimpleAtod(line.substr(line.rfind(' ') + 1), &value)) total += value;
  }
  return total;
}

// The answers of a batch output without the summary line.
std::vector<std::string> AnswerLines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("{\"summary\"", 0) != 0) lines.push_back(line);
  }
  return lines;
}

TEST(ReplicasTest, OneBatchOverThreeReplicasAnswersAsOneWalkdDoes) {
  const std::string dir = testing::FreshTempDir("walkd-replicas", "all");
  ASSERT_NO_FATAL_FAILURE(WriteWorld(dir + "/worlds/field"));
  // Enough pairs that the batch outlasts the replicas' connections coming up: round_robin only
  // rotates over those already connected, and a tiny batch can end before the last one is.
  WritePairs(dir + "/pairs.jsonl", 2400, 7);
  std::vector<Replica> replicas;
  ASSERT_NO_FATAL_FAILURE(StartServing(dir, 3, &replicas));
  const std::string target = TargetOf(replicas);
  auto spread = testing::RunCommand({WALKCTL_BIN, "--addr", target, "--lb", "round_robin", "batch",
                                     dir + "/pairs.jsonl", "--out", dir + "/spread.jsonl",
                                     "--streams", "12"});
  ASSERT_EQ(spread.exit_code, 0) << spread.output;
  for (const Replica& r : replicas) {
    EXPECT_GT(PairsAnswered(r), 0.0) << r.walkd.address << " answered no pair";
  }
  double total = 0;
  for (const Replica& r : replicas) total += PairsAnswered(r);
  EXPECT_EQ(total, 2400.0);

  // One walkd alone, from a fresh store: the same answers, line by line (stored or not aside).
  Replica alone = StartReplica(dir + "/worlds", dir + "/alone");
  client::WalkClient client(alone.walkd.address, 30.0);
  ASSERT_TRUE(testing::WaitUntil([&] {
    grpc::health::v1::HealthCheckResponse::ServingStatus status;
    return client.Health("", &status).ok() &&
           status == grpc::health::v1::HealthCheckResponse::SERVING;
  }));
  auto one = testing::RunCommand({WALKCTL_BIN, "--addr", alone.walkd.address, "batch",
                                  dir + "/pairs.jsonl", "--out", dir + "/one.jsonl"});
  ASSERT_EQ(one.exit_code, 0) << one.output;
  const std::vector<std::string> a = AnswerLines(dir + "/spread.jsonl");
  const std::vector<std::string> b = AnswerLines(dir + "/one.jsonl");
  ASSERT_EQ(a.size(), 2400u);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) EXPECT_EQ(a[k], b[k]) << k;
  std::filesystem::remove_all(dir);
}

// Three walkd started afresh: a batch's streams (as many as the target has addresses, by default)
// pull pieces of the pairs, so replicas that connected after the first still answer their share.
TEST(ReplicasTest, ABatchSpreadsOverFreshReplicasFromTheFirstSecond) {
  const std::string dir = testing::FreshTempDir("walkd-replicas", "fresh");
  ASSERT_NO_FATAL_FAILURE(WriteWorld(dir + "/worlds/field"));
  constexpr int kPairs = 3000;
  WritePairs(dir + "/pairs.jsonl", kPairs, 11);
  std::vector<Replica> replicas;
  ASSERT_NO_FATAL_FAILURE(StartServing(dir, 3, &replicas));
  const std::string target = TargetOf(replicas);
  auto batch = testing::RunCommand({WALKCTL_BIN, "--addr", target, "--lb", "round_robin", "batch",
                                    dir + "/pairs.jsonl", "--out", dir + "/out.jsonl"});
  ASSERT_EQ(batch.exit_code, 0) << batch.output;
  double total = 0;
  for (const Replica& r : replicas) {
    const double answered = PairsAnswered(r);
    total += answered;
    EXPECT_GE(answered, kPairs * 0.2) << r.walkd.address << " answered too small a share";
  }
  EXPECT_EQ(total, kPairs);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace walk
