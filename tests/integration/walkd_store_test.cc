// Integration tests of the walk store through a real walkd: batches stream and are kept,
// reruns are answered from the store, a walkd killed with SIGKILL mid-batch keeps every answer
// it acknowledged, a damaged store is reported at start, tables are bounded.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <thread>

#include "client/walk_client.h"
#include "client/walk_stream.h"
#include "gtest/gtest.h"
#include "store/staged_dir.h"
#include "store/walk_store.h"
#include "tests/integration/walkd_client.h"
#include "tests/integration/walkd_process.h"
#include "tests/server/http_get.h"

namespace walk {
namespace {

using testing::MakeTempDir;
using testing::RunCommand;
using testing::WaitServing;

using Walkd = testing::StartedWalkd;

Walkd Start(const std::string& data, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"--data", data, "--search-threads", "2"};
  args.insert(args.end(), extra.begin(), extra.end());
  return testing::StartWalkdOnLoopback(WALKD_BIN, args);
}

// Random pairs on the default (demo 2 x 2) world, fixed seed.
std::vector<walk::v1::WalkRequest> Pairs(int count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> coordinate(0.0, 1060.0);
  std::vector<walk::v1::WalkRequest> pairs;
  for (int i = 0; i < count; ++i) {
    walk::v1::WalkRequest r;
    r.set_world("default");
    r.set_profile("neutral");
    r.mutable_from()->set_x_yards(coordinate(random));
    r.mutable_from()->set_y_yards(coordinate(random));
    r.mutable_to()->set_x_yards(coordinate(random));
    r.mutable_to()->set_y_yards(coordinate(random));
    pairs.push_back(r);
  }
  return pairs;
}

// Streams `pairs` through WalkBatch; `on_answer` sees each answer as it arrives and may stop the
// reading by returning false. Returns the answers by index and the summary (if it came).
struct BatchResult {
  std::map<std::uint64_t, walk::v1::WalkBatchResponse> answers;
  std::optional<walk::v1::BatchSummary> summary;
  grpc::Status status;
};
BatchResult Stream(const std::string& address, const std::vector<walk::v1::WalkRequest>& pairs,
                   std::function<bool(const walk::v1::WalkBatchResponse&)> on_answer = {}) {
  auto channel = grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
  auto stub = walk::v1::WalkService::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(240));
  auto stream = stub->WalkBatch(&context);
  std::thread writer([&] {
    walk::v1::WalkBatchRequest request;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      request.set_index(i);
      *request.mutable_walk() = pairs[i];
      if (!stream->Write(request)) break;
    }
    stream->WritesDone();
  });
  BatchResult result;
  walk::v1::WalkBatchResponse response;
  bool reading = true;
  while (reading && stream->Read(&response)) {
    if (response.has_summary()) {
      result.summary = response.summary();
      continue;
    }
    // One message may carry many answers: its own, then those in `more`.
    std::vector<walk::v1::WalkBatchResponse> answers;
    answers.reserve(1 + response.more_size());
    answers.push_back(response);
    answers.front().clear_more();
    for (const auto& more : response.more()) answers.push_back(more);
    for (const auto& answer : answers) {
      result.answers[answer.index()] = answer;
      if (reading && on_answer && !on_answer(answer)) reading = false;
    }
  }
  if (!reading) context.TryCancel();
  writer.join();
  result.status = stream->Finish();
  return result;
}

TEST(WalkdStoreTest, BatchesAreKeptAndAReRunIsAnsweredFromTheStore) {
  const std::string data = MakeTempDir("rerun");
  Walkd walkd = Start(data);
  client::WalkClient client(walkd.address, 30.0);
  ASSERT_TRUE(WaitServing(client)) << walkd.process->output();
  std::vector<walk::v1::WalkRequest> pairs = Pairs(60, 1);
  pairs[7].set_band(15);  // a bad pair gets its own status; the stream goes on
  const BatchResult first = Stream(walkd.address, pairs);
  ASSERT_TRUE(first.status.ok()) << first.status.error_message();
  ASSERT_EQ(first.answers.size(), pairs.size());
  ASSERT_TRUE(first.summary.has_value());
  EXPECT_EQ(first.summary->asked(), 60u);
  EXPECT_EQ(first.summary->refused(), 1u);
  EXPECT_EQ(first.answers.at(7).code(), static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_EQ(first.answers.at(7).message().rfind("walk.band:", 0), 0u)
      << first.answers.at(7).message();
  EXPECT_EQ(first.summary->stored(), 0u);

  const BatchResult second = Stream(walkd.address, pairs);
  ASSERT_TRUE(second.status.ok());
  std::uint64_t stored = 0, unkept = 0;
  for (const auto& [index, answer] : second.answers) {
    if (answer.code() != 0) continue;
    const auto& before = first.answers.at(index).walk();
    // Every answer whose ends snapped; an end off the map or off every surface is never kept.
    const bool keepable = before.status() != walk::v1::WALK_STATUS_OFF_MAP &&
                          before.status() != walk::v1::WALK_STATUS_NO_SURFACE;
    EXPECT_EQ(answer.stored(), keepable) << index;
    stored += keepable;
    unkept += !keepable;
    EXPECT_EQ(answer.walk().status(), before.status());
    EXPECT_DOUBLE_EQ(answer.walk().seconds(), before.seconds());
    EXPECT_DOUBLE_EQ(answer.walk().yards(), before.yards());
    EXPECT_EQ(answer.walk().zone_cells_size(), before.zone_cells_size());
  }
  EXPECT_EQ(stored + unkept, 59u);
  EXPECT_GT(stored, 0u);
  EXPECT_EQ(second.summary->stored(), stored);
  EXPECT_EQ(second.summary->routed() + second.summary->stored() + second.summary->refused(), 60u);

  // A single Walk is answered from the store too, under the same model.
  walk::v1::WalkResponse single;
  ASSERT_TRUE(client.Walk(pairs[0], &single).ok());
  EXPECT_EQ(single.model_id(), first.answers.at(0).walk().model_id());
  walkd.process->Signal(SIGTERM);
  EXPECT_EQ(walkd.process->Wait(), 0);
  std::filesystem::remove_all(data);
}

TEST(WalkdStoreTest, ChunkedMessagesAreAnsweredPairByPair) {
  const std::string data = MakeTempDir("chunks");
  Walkd walkd = Start(data);
  client::WalkClient client(walkd.address, 30.0);
  ASSERT_TRUE(WaitServing(client));
  const std::vector<walk::v1::WalkRequest> pairs = Pairs(30, 6);
  auto stub = walk::v1::WalkService::NewStub(
      grpc::CreateChannel(walkd.address, grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
  auto stream = stub->WalkBatch(&context);
  for (int message = 0; message < 3; ++message) {  // 3 messages of 10 pairs: indices 100..129
    walk::v1::WalkBatchRequest request;
    request.set_index(100 + message * 10);
    *request.mutable_walk() = pairs[message * 10];
    for (int k = 1; k < 10; ++k) {
      walk::v1::WalkBatchRequest* more = request.add_more();
      more->set_index(100 + message * 10 + k);
      *more->mutable_walk() = pairs[message * 10 + k];
    }
    ASSERT_TRUE(stream->Write(request));
  }
  stream->WritesDone();
  std::set<std::uint64_t> answered;
  walk::v1::WalkBatchResponse response;
  std::optional<walk::v1::BatchSummary> summary;
  while (stream->Read(&response)) {
    if (response.has_summary()) {
      summary = response.summary();
      continue;
    }
    answered.insert(response.index());
    for (const auto& more : response.more()) answered.insert(more.index());
  }
  ASSERT_TRUE(stream->Finish().ok());
  EXPECT_EQ(answered.size(), 30u);
  EXPECT_EQ(*answered.begin(), 100u);
  EXPECT_EQ(*answered.rbegin(), 129u);
  ASSERT_TRUE(summary.has_value());
  EXPECT_EQ(summary->asked(), 30u);
  walkd.process->Signal(SIGTERM);
  EXPECT_EQ(walkd.process->Wait(), 0);
  std::filesystem::remove_all(data);
}

// One raw block through WalkBatch; every answer in its columns, by index.
std::map<std::uint64_t, client::PairAnswer> StreamBlock(const std::string& address,
                                                        const walk::v1::PairBlock& block) {
  auto stub = walk::v1::WalkService::NewStub(
      grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
  auto stream = stub->WalkBatch(&context);
  walk::v1::WalkBatchRequest request;
  *request.mutable_block() = block;
  EXPECT_TRUE(stream->Write(request));
  stream->WritesDone();
  std::map<std::uint64_t, client::PairAnswer> answers;
  walk::v1::WalkBatchResponse response;
  while (stream->Read(&response)) {
    EXPECT_FALSE(response.has_walk()) << "a block is answered in columns only";
    const walk::v1::AnswerBlock& rows = response.answers();
    for (int k = 0; k < rows.index_size(); ++k) {
      client::PairAnswer& a = answers[rows.index(k)];
      a.code = rows.code(k);
      if (rows.message().count(rows.index(k))) a.message = rows.message().at(rows.index(k));
    }
  }
  EXPECT_TRUE(stream->Finish().ok());
  return answers;
}

// Every pair among `places` (8 x 8 when there are 8) in `band`.
std::vector<walk::v1::WalkRequest> EveryPairAmong(const std::vector<walk::v1::WalkRequest>& places,
                                                  std::uint32_t band) {
  std::vector<walk::v1::WalkRequest> pairs;
  for (const walk::v1::WalkRequest& from : places) {
    for (const walk::v1::WalkRequest& to : places) {
      walk::v1::WalkRequest r = from;
      r.set_band(band);
      *r.mutable_to() = to.to();
      pairs.push_back(r);
    }
  }
  return pairs;
}

// Each answer of `pairs` streamed in `routed` is the same walk asked alone (by Path: routed
// again) in status, method, seconds and yards, and, with `same_band_zero`, in whether band 0's
// walk answered it. Every pair must have been answered.
void ExpectPairsAreTheWalksAlone(client::WalkClient& client,
                                 const std::vector<walk::v1::WalkRequest>& pairs,
                                 const client::StreamedWalks& routed, bool same_band_zero) {
  ASSERT_EQ(routed.answers.size(), pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const std::string what =
        "band " + std::to_string(pairs[i].band()) + " pair " + std::to_string(i);
    ASSERT_TRUE(routed.answers[i].has_value()) << what;
    const client::PairAnswer& a = *routed.answers[i];
    ASSERT_EQ(a.code, 0) << what << " " << a.message;
    walk::v1::PathRequest path;
    *path.mutable_walk() = pairs[i];
    walk::v1::PathResponse alone;
    ASSERT_TRUE(client.Path(path, &alone).ok()) << what;
    const walk::v1::WalkResponse& w = alone.walk();
    ASSERT_EQ(a.status, w.status()) << what;
    if (same_band_zero) {
      EXPECT_EQ(a.from_band_zero, w.from_band_zero()) << what;
    }
    EXPECT_EQ(a.method, w.method()) << what;
    EXPECT_NEAR(a.seconds, w.seconds(), 1e-9 * std::max(1.0, w.seconds())) << what;
    EXPECT_NEAR(a.yards, w.yards(), 1e-6 * std::max(1.0, w.yards())) << what;
  }
}

// A block's pairs that share places (8 sources x 8 targets) are walked as the rows of a
// many-to-many, whole: each is what the walk asked alone finds (routed again with its path), in
// band 0 and band 20 (other places, so that no band-0 walk of theirs is stored), and each is
// kept in the store as a walk alone is.
TEST(WalkdStoreTest, BlockPairsThatSharePlacesAreWalkedAsRowsAndKept) {
  const std::string data = MakeTempDir("block-rows");
  Walkd walkd = Start(data);
  client::WalkClient client(walkd.address, 60.0);
  ASSERT_TRUE(WaitServing(client)) << walkd.process->output();
  for (const std::uint32_t band : {0u, 20u}) {
    const std::vector<walk::v1::WalkRequest> pairs = EveryPairAmong(Pairs(8, 21 + band), band);
    const client::StreamedWalks routed = client::StreamWalks(walkd.address, 120, pairs);
    ASSERT_TRUE(routed.status.ok()) << routed.status.message();
    ASSERT_TRUE(routed.summary.has_value());
    EXPECT_EQ(routed.summary->routed(), pairs.size()) << "band " << band;
    ExpectPairsAreTheWalksAlone(client, pairs, routed, /*same_band_zero=*/false);
    int by_graph = 0;
    for (const std::optional<client::PairAnswer>& a : routed.answers) {
      by_graph += a->method == walk::v1::METHOD_CCH;
    }
    EXPECT_GT(by_graph, 0) << "band " << band;
    // Every pair was kept: asked again, the store answers all of them.
    const client::StreamedWalks again = client::StreamWalks(walkd.address, 120, pairs);
    ASSERT_TRUE(again.summary.has_value());
    EXPECT_EQ(again.summary->stored(), pairs.size()) << "band " << band;
  }
  walkd.process->Signal(SIGTERM);
  EXPECT_EQ(walkd.process->Wait(), 0);
  std::filesystem::remove_all(data);
}

// A danger band's block asked after band 0's walks of its pairs are stored: each pair whose
// band-0 walk enters no zone the band prices is answered by that walk, from the store, as the
// walk asked alone reuses it (no band metric customized for it), the others walked; every answer
// is the walk alone's (routed again with its path), and kept.
TEST(WalkdStoreTest, ADangerBandsBlockTakesBandZerosStoredWalks) {
  const std::string data = MakeTempDir("block-band-zero");
  Walkd walkd = Start(data);
  client::WalkClient client(walkd.address, 60.0);
  ASSERT_TRUE(WaitServing(client)) << walkd.process->output();
  const std::vector<walk::v1::WalkRequest> places = Pairs(8, 31);
  const std::vector<walk::v1::WalkRequest> band_zero = EveryPairAmong(places, 0);
  ASSERT_TRUE(client::StreamWalks(walkd.address, 120, band_zero).status.ok());
  for (const std::uint32_t band : {20u, 50u}) {
    const std::vector<walk::v1::WalkRequest> pairs = EveryPairAmong(places, band);
    const client::StreamedWalks routed = client::StreamWalks(walkd.address, 120, pairs);
    ASSERT_TRUE(routed.status.ok()) << routed.status.message();
    ExpectPairsAreTheWalksAlone(client, pairs, routed, /*same_band_zero=*/true);
    std::size_t reused = 0, kept = 0;
    for (const std::optional<client::PairAnswer>& a : routed.answers) {
      reused += a->from_band_zero;
      // Kept unless an end stands nowhere (the store keeps no such answer).
      kept += a->status != walk::v1::WALK_STATUS_OFF_MAP &&
              a->status != walk::v1::WALK_STATUS_NO_SURFACE;
    }
    EXPECT_GT(reused, pairs.size() / 2) << "band " << band;
    const client::StreamedWalks again = client::StreamWalks(walkd.address, 120, pairs);
    ASSERT_TRUE(again.summary.has_value());
    EXPECT_EQ(again.summary->stored(), kept) << "band " << band;
  }
  walkd.process->Signal(SIGTERM);
  EXPECT_EQ(walkd.process->Wait(), 0);
  std::filesystem::remove_all(data);
}

TEST(WalkdStoreTest, PairBlocksAreAnsweredInColumnsAsPairByPair) {
  const std::string data = MakeTempDir("blocks");
  Walkd walkd = Start(data);
  client::WalkClient client(walkd.address, 30.0);
  ASSERT_TRUE(WaitServing(client)) << walkd.process->output();
  std::vector<walk::v1::WalkRequest> pairs = Pairs(40, 11);
  pairs[3].mutable_from()->set_z_yards(
      500.0);  // a height on one end: the column carries NaN for the rest
  pairs[5].mutable_to()->set_x_yards(-5e8);  // refused alone, naming its field
  pairs[9].set_band(20);                     // another band: another block
  // The reference: pair by pair (and now stored).
  const BatchResult reference = Stream(walkd.address, pairs);
  ASSERT_TRUE(reference.status.ok()) << reference.status.error_message();
  ASSERT_EQ(reference.answers.size(), pairs.size());

  auto expect_same = [&](const client::StreamedWalks& blocks, const std::string& what) {
    ASSERT_TRUE(blocks.status.ok()) << what << ": " << blocks.status.message();
    ASSERT_TRUE(blocks.summary.has_value()) << what;
    EXPECT_EQ(blocks.summary->asked(), pairs.size()) << what;
    EXPECT_EQ(blocks.summary->stored(), pairs.size() - 1) << what << ": every valid pair is stored";
    EXPECT_EQ(blocks.summary->refused(), 1u) << what;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      ASSERT_TRUE(blocks.answers[i].has_value()) << what << ": pair " << i;
      const client::PairAnswer& a = *blocks.answers[i];
      const walk::v1::WalkBatchResponse& r = reference.answers.at(i);
      ASSERT_EQ(a.code, r.code()) << what << ": pair " << i << " " << a.message;
      if (a.code != 0) {
        EXPECT_EQ(a.message.rfind("block.to.x_yards", 0), 0u) << a.message;
        continue;
      }
      EXPECT_TRUE(a.stored) << what << ": pair " << i;
      EXPECT_EQ(a.status, r.walk().status()) << what << ": pair " << i;
      EXPECT_EQ(a.method, r.walk().method()) << what << ": pair " << i;
      EXPECT_EQ(a.seconds, r.walk().seconds()) << what << ": pair " << i;
      EXPECT_EQ(a.yards, r.walk().yards()) << what << ": pair " << i;
      char model[17];
      std::snprintf(model, sizeof model, "%016llx", static_cast<unsigned long long>(a.model));
      EXPECT_EQ(model, r.walk().model_id()) << what << ": pair " << i;
    }
  };
  // Fresh pairs routed through blocks answer as the same pairs asked one by one afterwards
  // (then from the store); a NaN height travels alone and is refused as alone.
  std::vector<walk::v1::WalkRequest> fresh = Pairs(20, 12);
  fresh[4].mutable_to()->set_z_yards(std::nan(""));
  const client::StreamedWalks routed = client::StreamWalks(walkd.address, 120, fresh);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  ASSERT_TRUE(routed.summary.has_value());
  EXPECT_EQ(routed.summary->routed(), fresh.size() - 1);
  const BatchResult after = Stream(walkd.address, fresh);
  ASSERT_TRUE(after.status.ok());
  for (std::size_t i = 0; i < fresh.size(); ++i) {
    ASSERT_TRUE(routed.answers[i].has_value()) << i;
    const client::PairAnswer& a = *routed.answers[i];
    const walk::v1::WalkBatchResponse& r = after.answers.at(i);
    ASSERT_EQ(a.code, r.code()) << i << " " << a.message;
    if (i == 4) {
      EXPECT_EQ(a.code, static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
      EXPECT_EQ(a.message, r.message());
      continue;
    }
    EXPECT_FALSE(a.stored) << i;
    EXPECT_TRUE(r.stored()) << i;
    EXPECT_EQ(a.status, r.walk().status()) << i;
    EXPECT_EQ(a.method, r.walk().method()) << i;
    EXPECT_EQ(a.seconds, r.walk().seconds()) << i;
    EXPECT_EQ(a.yards, r.walk().yards()) << i;
  }

  // In blocks: answered from the answer cache (filled as the reference was stored)...
  expect_same(client::StreamWalks(walkd.address, 120, pairs), "blocks, cached");

  // Whole blocks refused: a short column, an unknown world. Every pair named, the field too.
  walk::v1::PairBlock bad;
  bad.set_world("default");
  for (int i = 0; i < 3; ++i) {
    bad.add_index(50 + i);
    bad.add_from_x(10);
    bad.add_to_x(20);
    bad.add_to_y(20);
  }
  bad.add_from_y(10);
  auto refused = StreamBlock(walkd.address, bad);
  ASSERT_EQ(refused.size(), 3u);
  for (const auto& [index, a] : refused) {
    EXPECT_EQ(a.code, static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
    EXPECT_EQ(a.message.rfind("block.from_y: 1 values for 3 pairs", 0), 0u) << a.message;
  }
  bad.add_from_y(10);
  bad.add_from_y(10);
  bad.set_world("atlantis");
  refused = StreamBlock(walkd.address, bad);
  ASSERT_EQ(refused.size(), 3u);
  EXPECT_EQ(refused.at(51).code, static_cast<int>(grpc::StatusCode::NOT_FOUND));
  EXPECT_EQ(refused.at(51).message.rfind("block.", 0), 0u) << refused.at(51).message;
  walkd.process->Signal(SIGTERM);
  EXPECT_EQ(walkd.process->Wait(), 0);

  // ...and with no answer cache, from RocksDB: the same answers.
  walkd = Start(data, {"--answer-cache-mb", "0"});
  client::WalkClient again(walkd.address, 30.0);
  ASSERT_TRUE(WaitServing(again)) << walkd.process->output();
  expect_same(client::StreamWalks(walkd.address, 120, pairs), "blocks, RocksDB");
  walkd.process->Signal(SIGTERM);
  EXPECT_EQ(walkd.process->Wait(), 0);

  // A restarted walkd warms its answer cache from the store: every stored answer (the valid
  // pairs, band 0's answer of the band-20 pair, which that band first asks, and the fresh ones),
  // then the same answers again.
  walkd = Start(data);
  const std::optional<std::string> warmed =
      walkd.process->WaitForLine("walkd: answer cache warmed with ");
  ASSERT_TRUE(warmed.has_value()) << walkd.process->output();
  EXPECT_EQ(std::stoul(*warmed), (pairs.size() - 1) + 1 + (fresh.size() - 1)) << *warmed;
  client::WalkClient third(walkd.address, 30.0);
  ASSERT_TRUE(WaitServing(third)) << walkd.process->output();
  expect_same(client::StreamWalks(walkd.address, 120, pairs), "blocks, warmed cache");
  walkd.process->Signal(SIGTERM);
  EXPECT_EQ(walkd.process->Wait(), 0);
  std::filesystem::remove_all(data);
}

TEST(WalkdStoreTest, ACancelledBlockStreamStopsItsWork) {
  const std::string data = MakeTempDir("cancel-block");
  Walkd walkd = Start(data);
  client::WalkClient client(walkd.address, 30.0);
  ASSERT_TRUE(WaitServing(client)) << walkd.process->output();
  const std::vector<walk::v1::WalkRequest> pairs = Pairs(3000, 21);
  walk::v1::WalkBatchRequest request;
  request.set_index(UINT64_MAX);
  walk::v1::PairBlock* block = request.mutable_block();
  block->set_world("default");
  block->set_profile("neutral");
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    block->add_index(i);
    block->add_from_x(pairs[i].from().x_yards());
    block->add_from_y(pairs[i].from().y_yards());
    block->add_to_x(pairs[i].to().x_yards());
    block->add_to_y(pairs[i].to().y_yards());
  }
  {
    auto stub = walk::v1::WalkService::NewStub(
        grpc::CreateChannel(walkd.address, grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    auto stream = stub->WalkBatch(&context);
    ASSERT_TRUE(stream->Write(request));
    stream->WritesDone();
    walk::v1::WalkBatchResponse response;
    ASSERT_TRUE(stream->Read(&response));  // the first answers: the block is being routed
    EXPECT_GT(response.answers().index_size(), 0);
    context.TryCancel();
    while (stream->Read(&response)) {
    }
    EXPECT_EQ(stream->Finish().error_code(), grpc::StatusCode::CANCELLED);
  }
  // walkd goes on serving, and the cancelled block left most of its pairs unrouted: asked again,
  // far fewer than all come from the store.
  const client::StreamedWalks again = client::StreamWalks(walkd.address, 240, pairs);
  ASSERT_TRUE(again.status.ok()) << again.status.message();
  ASSERT_TRUE(again.summary.has_value());
  EXPECT_EQ(again.summary->asked(), pairs.size());
  EXPECT_LT(again.summary->stored(), pairs.size() / 2) << "the cancelled stream kept routing";
  walkd.process->Signal(SIGTERM);
  EXPECT_EQ(walkd.process->Wait(), 0);
  std::filesystem::remove_all(data);
}

TEST(WalkdStoreTest, ASigkilledWalkdKeepsEveryAnswerItAcknowledged) {
  const std::string data = MakeTempDir("sigkill");
  std::vector<walk::v1::WalkRequest> pairs = Pairs(400, 2);
  std::map<std::uint64_t, walk::v1::WalkResponse> acknowledged;
  {
    Walkd walkd = Start(data);
    client::WalkClient client(walkd.address, 30.0);
    ASSERT_TRUE(WaitServing(client)) << walkd.process->output();
    // Kill walkd with SIGKILL after 40 routed answers have arrived: mid-batch, for real.
    const BatchResult partial =
        Stream(walkd.address, pairs, [&](const walk::v1::WalkBatchResponse& r) {
          if (r.code() == 0 && !r.stored()) {
            acknowledged[r.index()] = r.walk();
          }
          if (acknowledged.size() == 40) {
            walkd.process->Signal(SIGKILL);
            return false;
          }
          return true;
        });
    EXPECT_EQ(walkd.process->Wait(), 128 + SIGKILL);
  }
  ASSERT_EQ(acknowledged.size(), 40u);
  // Reopen the same store: no corruption, and every acknowledged answer is there.
  Walkd again = Start(data);
  client::WalkClient client(again.address, 30.0);
  ASSERT_TRUE(WaitServing(client)) << again.process->output();
  std::vector<walk::v1::WalkRequest> asked;
  std::vector<std::uint64_t> order;
  for (const auto& [index, answer] : acknowledged) {
    asked.push_back(pairs[index]);
    order.push_back(index);
  }
  const BatchResult reread = Stream(again.address, asked);
  ASSERT_TRUE(reread.status.ok()) << reread.status.error_message();
  for (std::size_t i = 0; i < asked.size(); ++i) {
    const auto& answer = reread.answers.at(i);
    const walk::v1::WalkStatus status = acknowledged[order[i]].status();
    if (status == walk::v1::WALK_STATUS_OFF_MAP || status == walk::v1::WALK_STATUS_NO_SURFACE) {
      continue;  // never kept
    }
    EXPECT_TRUE(answer.stored()) << "acknowledged pair " << order[i] << " is not in the store";
    EXPECT_DOUBLE_EQ(answer.walk().seconds(), acknowledged[order[i]].seconds());
  }
  again.process->Signal(SIGTERM);
  EXPECT_EQ(again.process->Wait(), 0);
  std::filesystem::remove_all(data);
}

TEST(WalkdStoreTest, ADamagedStoreIsReportedClearlyAtStart) {
  const std::string data = MakeTempDir("damaged");
  {
    Walkd walkd = Start(data);
    client::WalkClient client(walkd.address, 30.0);
    ASSERT_TRUE(WaitServing(client));
    Stream(walkd.address, Pairs(10, 3));
    walkd.process->Signal(SIGTERM);
    ASSERT_EQ(walkd.process->Wait(), 0);
  }
  // Damage the store: CURRENT names a manifest that is not there.
  std::ofstream(data + "/store/CURRENT", std::ios::trunc) << "MANIFEST-999999\n";
  const auto refused =
      RunCommand({WALKD_BIN, "--listen", "127.0.0.1:0", "--metrics-listen", "", "--data", data});
  EXPECT_EQ(refused.exit_code, 1) << refused.output;
  EXPECT_NE(refused.output.find("--store"), std::string::npos) << refused.output;
  EXPECT_NE(refused.output.find(data + "/store"), std::string::npos) << refused.output;
  std::filesystem::remove_all(data);
}

// The command a refusal gives between backquotes, starting with `start`; empty when none.
std::string QuotedCommand(const std::string& output, const std::string& start) {
  const std::size_t at = output.find("`" + start);
  if (at == std::string::npos) return "";
  const std::size_t end = output.find('`', at + 1);
  return end == std::string::npos ? "" : output.substr(at + 1, end - at - 1);
}

TEST(WalkdStoreTest, AHalfStoreOrAnInterruptedIngestIsRefusedNamingTheCommandThatMendsIt) {
  const std::string data = MakeTempDir("half");
  const std::string dir = data + "/store";
  {
    store::WalkStoreOptions options;
    options.dir = dir;
    absl::StatusOr<std::unique_ptr<store::WalkStore>> made = store::WalkStore::Open(options);
    ASSERT_TRUE(made.ok()) << made.status();
    ASSERT_TRUE((*made)->Close().ok());
  }
  // A store whose creation was cut short: RocksDB's first files, no CURRENT, no answers.
  std::filesystem::remove(dir + "/CURRENT");
  const std::vector<std::string> walkd = {WALKD_BIN, "--listen", "127.0.0.1:0", "--metrics-listen",
                                          "",        "--data",   data};
  auto refused = RunCommand(walkd);
  EXPECT_EQ(refused.exit_code, 1) << refused.output;
  EXPECT_NE(refused.output.find("--store: walk store " + dir + " is a half store"),
            std::string::npos)
      << refused.output;
  const std::string mend = QuotedCommand(refused.output, "rm -r");
  EXPECT_EQ(mend, "rm -r -- " + dir) << refused.output;
  ASSERT_EQ(RunCommand({"/bin/sh", "-c", mend}).exit_code, 0) << mend;

  // No store, but the half store of an ingest that was killed beside it: refused, not replaced
  // by an empty store.
  const std::string staging = dir + store::kIngestStagingSuffix;
  std::filesystem::create_directories(staging);
  std::ofstream(staging + "/" + store::kStagingMarkerName)
      << "pid 4242\ncommand walkctl store ingest /packs --store " << dir << "\n";
  refused = RunCommand(walkd);
  EXPECT_EQ(refused.exit_code, 1) << refused.output;
  EXPECT_NE(refused.output.find("--store: walk store " + dir + " holds no store, and " + staging +
                                " is the half store of an interrupted ingest"),
            std::string::npos)
      << refused.output;
  EXPECT_NE(refused.output.find("`walkctl store ingest /packs --store " + dir + "`"),
            std::string::npos)
      << refused.output;
  EXPECT_EQ(QuotedCommand(refused.output, "rm -r"), "rm -r -- " + staging) << refused.output;
  EXPECT_FALSE(std::filesystem::exists(dir));
  std::filesystem::remove_all(data);
}

TEST(WalkdStoreTest, TablesAnswerSourcesByTargetsWithinTheirLimit) {
  const std::string data = MakeTempDir("table");
  Walkd walkd = Start(data, {"--max-table-cells", "12"});
  client::WalkClient client(walkd.address, 60.0);
  ASSERT_TRUE(WaitServing(client));
  auto channel = grpc::CreateChannel(walkd.address, grpc::InsecureChannelCredentials());
  auto stub = walk::v1::WalkService::NewStub(channel);
  walk::v1::TableRequest request;
  request.set_world("default");
  request.set_profile("neutral");
  const std::vector<walk::v1::WalkRequest> places = Pairs(4, 4);
  for (int s = 0; s < 3; ++s) *request.add_sources() = places[s].from();
  for (int t = 0; t < 4; ++t) *request.add_targets() = places[t].to();
  walk::v1::TableResponse table;
  {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    ASSERT_TRUE(stub->Table(&context, request, &table).ok());
  }
  ASSERT_EQ(table.seconds_size(), 12);
  EXPECT_EQ(table.walks_size(), 0);  // the matrix alone unless whole walks are asked for
  // Cell (1, 2) equals the single walk from source 1 to target 2.
  walk::v1::WalkRequest single;
  single.set_world("default");
  single.set_profile("neutral");
  *single.mutable_from() = request.sources(1);
  *single.mutable_to() = request.targets(2);
  walk::v1::WalkResponse walk;
  ASSERT_TRUE(client.Walk(single, &walk).ok());
  EXPECT_NEAR(table.seconds(1 * 4 + 2), walk.seconds(), 1e-9 * walk.seconds());
  // One more target: over the limit; the error names the limit, not the request's size.
  *request.add_targets() = places[0].from();
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  const grpc::Status over = stub->Table(&context, request, &table);
  EXPECT_EQ(over.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(over.error_message().find("max-table-cells"), std::string::npos);
  EXPECT_NE(over.error_message().find("12 walks"), std::string::npos);
  EXPECT_EQ(over.error_message().find("15"), std::string::npos) << over.error_message();
  walkd.process->Signal(SIGTERM);
  EXPECT_EQ(walkd.process->Wait(), 0);
  std::filesystem::remove_all(data);
}

// TableRows streams a table's rows in order, as many a message as --max-reply-bytes lets; each
// row equals the one-row Table, and the stream's own limit is Info's and names its flag.
TEST(WalkdStoreTest, TableRowsStreamsTheRowsInOrderWithinTheirLimit) {
  constexpr int kSources = 50, kTargets = 60;
  const std::string data = MakeTempDir("table-rows");
  Walkd walkd = Start(data, {"--max-reply-bytes", "65536", "--max-table-stream-cells", "3000"});
  client::WalkClient client(walkd.address, 60.0);
  ASSERT_TRUE(WaitServing(client));
  walk::v1::InfoResponse info;
  ASSERT_TRUE(client.Info(&info).ok());
  ASSERT_EQ(info.limits().max_table_stream_cells(), 3000u);
  auto channel = grpc::CreateChannel(walkd.address, grpc::InsecureChannelCredentials());
  auto stub = walk::v1::WalkService::NewStub(channel);
  walk::v1::TableRequest request;
  request.set_world("default");
  request.set_profile("neutral");
  const std::vector<walk::v1::WalkRequest> places = Pairs(kTargets, 10);
  for (int s = 0; s < kSources; ++s) *request.add_sources() = places[s].from();
  for (int t = 0; t < kTargets; ++t) *request.add_targets() = places[t].to();
  std::vector<walk::v1::TableResponse> messages;
  {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
    auto reader = stub->TableRows(&context, request);
    for (walk::v1::TableResponse message; reader->Read(&message);) messages.push_back(message);
    const grpc::Status status = reader->Finish();
    ASSERT_TRUE(status.ok()) << status.error_message();
  }
  walk::v1::TableResponse table;  // the same matrix in one reply (about 54 KB)
  ASSERT_TRUE(client.Table(request, &table).ok());
  // Rows of 60 cells of about 18 bytes, in three quarters of 64 KiB: 40 rows a message.
  EXPECT_EQ(messages.size(), 2u);
  int next_cell = 0;
  for (const walk::v1::TableResponse& message : messages) {
    EXPECT_EQ(message.first_source() * kTargets, static_cast<std::uint32_t>(next_cell));
    ASSERT_EQ(message.seconds_size() % kTargets, 0);
    ASSERT_EQ(message.status_size(), message.seconds_size());
    ASSERT_EQ(message.yards_size(), message.seconds_size());
    EXPECT_LE(message.ByteSizeLong(), 65536u);
    for (int i = 0; i < message.seconds_size(); ++i, ++next_cell) {
      EXPECT_EQ(message.status(i), table.status(next_cell)) << "cell " << next_cell;
      EXPECT_EQ(message.method(i), table.method(next_cell)) << "cell " << next_cell;
      EXPECT_NEAR(message.seconds(i), table.seconds(next_cell),
                  1e-9 * std::max(1.0, table.seconds(next_cell)));
      EXPECT_NEAR(message.yards(i), table.yards(next_cell),
                  1e-6 * std::max(1.0, table.yards(next_cell)));
    }
  }
  EXPECT_EQ(next_cell, kSources * kTargets);
  // Seconds alone: the same seconds, no yards.
  walk::v1::TableRequest seconds_request = request;
  seconds_request.set_seconds_only(true);
  walk::v1::TableResponse seconds_only;
  ASSERT_TRUE(client.Table(seconds_request, &seconds_only).ok());
  ASSERT_EQ(seconds_only.seconds_size(), kSources * kTargets);
  for (int cell = 0; cell < kSources * kTargets; ++cell) {
    EXPECT_EQ(seconds_only.status(cell), table.status(cell)) << "cell " << cell;
    EXPECT_NEAR(seconds_only.seconds(cell), table.seconds(cell),
                1e-9 * std::max(1.0, table.seconds(cell)));
    EXPECT_EQ(seconds_only.yards(cell), 0.0) << "cell " << cell;
  }
  // Whole walks: one row of 300 of them is more than a 64 KiB reply holds; the stream ends
  // naming the limit rather than sending a message no client takes.
  {
    walk::v1::TableRequest walks = request;
    walks.set_want_walks(true);
    walks.clear_sources();
    walks.clear_targets();
    *walks.add_sources() = places[0].from();
    for (const walk::v1::WalkRequest& pair : Pairs(300, 11)) *walks.add_targets() = pair.to();
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
    auto reader = stub->TableRows(&context, walks);
    walk::v1::TableResponse message;
    EXPECT_FALSE(reader->Read(&message));
    const grpc::Status too_large = reader->Finish();
    EXPECT_EQ(too_large.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    EXPECT_NE(too_large.error_message().find("max-reply-bytes: row 0 of the table alone"),
              std::string::npos)
        << too_large.error_message();
  }
  // One more source: over the stream's limit, refused before any row.
  *request.add_sources() = places[0].to();
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  auto reader = stub->TableRows(&context, request);
  walk::v1::TableResponse message;
  EXPECT_FALSE(reader->Read(&message));
  const grpc::Status over = reader->Finish();
  EXPECT_EQ(over.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(over.error_message().find("max-table-stream-cells"), std::string::npos)
      << over.error_message();
  walkd.process->Signal(SIGTERM);
  EXPECT_EQ(walkd.process->Wait(), 0);
  std::filesystem::remove_all(data);
}

// A table's cells are the walks asked alone, in band 0 and band 20 (the many-to-many on the
// band's metric, places in priced zones reaching across them; the cells it does not know walk by
// walk). Many-to-many cells carry no zone cells, so they are never stored: a walk asked after the
// table is routed again, while every other cell's walk was kept.
// How many cells of a table the CCH answered, and how many the table kept in the store.
struct CellCounts {
  int graph = 0;
  int kept = 0;
};

// Each cell of `table` (the answer to `request`) against the walk asked alone: the same status,
// method, seconds and yards (a danger band's cell with an end in a priced zone: the A* alone,
// the many-to-many's METHOD_CCH in the table). First whether the table kept the cell (a
// one-cell table, which reads the store), then the walk alone (which keeps it): only the
// many-to-many's cells (METHOD_CCH in the table) go unkept, and every other cell with both ends
// snapped is kept (in a danger band, band 0's walks reused are METHOD_CCH too, and kept).
CellCounts ExpectCellsAreTheWalksAskedAlone(client::WalkClient& client,
                                            const walk::v1::TableRequest& request,
                                            const walk::v1::TableResponse& table) {
  CellCounts counts;
  const std::uint32_t band = request.band();
  const int targets = request.targets_size();
  for (int s = 0; s < request.sources_size(); ++s) {
    for (int t = 0; t < targets; ++t) {
      const int cell = s * targets + t;
      walk::v1::TableRequest one = request;
      one.clear_sources();
      one.clear_targets();
      *one.add_sources() = request.sources(s);
      *one.add_targets() = request.targets(t);
      walk::v1::TableResponse one_cell;
      EXPECT_TRUE(client.Table(one, &one_cell).ok());
      walk::v1::WalkRequest single;
      single.set_world(request.world());
      single.set_profile(request.profile());
      single.set_band(band);
      *single.mutable_from() = request.sources(s);
      *single.mutable_to() = request.targets(t);
      walk::v1::WalkResponse walk;
      EXPECT_TRUE(client.Walk(single, &walk).ok());
      EXPECT_EQ(table.status(cell), walk.status()) << "band " << band << " cell " << cell;
      const bool reached = band > 0 && table.method(cell) == walk::v1::METHOD_CCH &&
                           walk.method() == walk::v1::METHOD_CCH_ASTAR;
      if (!reached) {
        EXPECT_EQ(table.method(cell), walk.method()) << "band " << band << " cell " << cell;
      }
      EXPECT_NEAR(table.seconds(cell), walk.seconds(), 1e-9 * std::max(1.0, walk.seconds()));
      EXPECT_NEAR(table.yards(cell), walk.yards(), 1e-6 * std::max(1.0, walk.yards()));
      const bool by_graph = table.method(cell) == walk::v1::METHOD_CCH;
      const bool snapped = walk.status() != walk::v1::WALK_STATUS_OFF_MAP &&
                           walk.status() != walk::v1::WALK_STATUS_NO_SURFACE;
      counts.graph += by_graph;
      counts.kept += one_cell.stored() == 1;
      // In a danger band a cell the many-to-many does not know may be band 0's walk, which
      // avoided every priced zone (METHOD_CCH too), kept.
      if (band == 0 || !by_graph) {
        EXPECT_EQ(one_cell.stored(), !by_graph && snapped ? 1u : 0u)
            << "band " << band << " cell " << cell << " method " << walk.method();
      }
    }
  }
  return counts;
}

TEST(WalkdStoreTest, TableCellsAreTheWalksAskedAloneAndManyToManyCellsAreNeverStored) {
  const std::string data = MakeTempDir("matrix");
  Walkd walkd = Start(data);
  client::WalkClient client(walkd.address, 60.0);
  ASSERT_TRUE(WaitServing(client));
  const std::vector<walk::v1::WalkRequest> places = Pairs(16, 9);
  for (const std::uint32_t band : {0u, 20u}) {
    walk::v1::TableRequest request;
    request.set_world("default");
    request.set_profile("neutral");
    request.set_band(band);
    for (int s = 0; s < 12; ++s) *request.add_sources() = places[s].from();
    for (int t = 0; t < 14; ++t) *request.add_targets() = places[t].to();
    walk::v1::TableResponse table;
    ASSERT_TRUE(client.Table(request, &table).ok());
    ASSERT_EQ(table.status_size(), 12 * 14);
    const CellCounts counts = ExpectCellsAreTheWalksAskedAlone(client, request, table);
    std::printf("band %u: %d cells over the CCH, %d kept by the table\n", band, counts.graph,
                counts.kept);
    if (band == 0) {
      EXPECT_GT(counts.graph, 12 * 14 / 3);
    }
    // Asked again: every walk with both ends snapped is in the store now.
    walk::v1::TableResponse again;
    ASSERT_TRUE(client.Table(request, &again).ok());
    int snapped = 0;
    for (int cell = 0; cell < 12 * 14; ++cell) {
      snapped += again.status(cell) != walk::v1::WALK_STATUS_OFF_MAP &&
                 again.status(cell) != walk::v1::WALK_STATUS_NO_SURFACE;
      // A many-to-many cell's seconds, summed in another order by the walk alone.
      EXPECT_NEAR(again.seconds(cell), table.seconds(cell),
                  1e-9 * std::max(1.0, table.seconds(cell)));
    }
    EXPECT_EQ(again.stored(), static_cast<std::uint64_t>(snapped));
  }
  // Whole walks on request: each cell's WalkResponse, equal to the matrix.
  walk::v1::TableRequest request;
  request.set_world("default");
  request.set_profile("neutral");
  request.set_want_walks(true);
  for (int s = 0; s < 3; ++s) *request.add_sources() = places[s].from();
  for (int t = 0; t < 4; ++t) *request.add_targets() = places[t].to();
  walk::v1::TableResponse walks;
  ASSERT_TRUE(client.Table(request, &walks).ok());
  ASSERT_EQ(walks.walks_size(), 12);
  for (int cell = 0; cell < 12; ++cell) {
    EXPECT_EQ(walks.walks(cell).seconds(), walks.seconds(cell));
    EXPECT_EQ(walks.walks(cell).status(), walks.status(cell));
  }
  walkd.process->Signal(SIGTERM);
  EXPECT_EQ(walkd.process->Wait(), 0);
  std::filesystem::remove_all(data);
}

// A 512 x 512 MovingAI map (2 x 2 tiles, so most walks cross the abstract graph): an open field
// cut by long walls, a lake (water prices it unlike a plain octile grid, so the CCH answers),
// and four closed 2 x 2 rooms (pockets) a wall away from the field. Returns the world folder
// (import-movingai, then prepare).
std::string PocketWorld(const std::string& worlds) {
  std::vector<std::string> rows(512, std::string(512, '.'));
  for (int y = 200; y < 300; ++y) rows[y].replace(180, 150, 150, 'W');
  for (int x = 0; x < 400; ++x) rows[128][x] = '@';
  for (int x = 112; x < 512; ++x) rows[384][x] = '@';
  for (int y = 60; y < 460; ++y) rows[y][256] = y % 97 != 0 ? '@' : '.';
  for (const auto& [x0, y0] : {std::pair{20, 20}, {480, 40}, {40, 470}, {470, 460}}) {
    for (int y = y0 - 1; y < y0 + 3; ++y) rows[y].replace(x0 - 1, 4, 4, '@');
    for (int y = y0; y < y0 + 2; ++y) rows[y].replace(x0, 2, 2, '.');
  }
  const std::string map = worlds + "/pockets.map", dir = worlds + "/pockets";
  std::ofstream out(map);
  out << "type octile\nheight 512\nwidth 512\nmap\n";
  for (const std::string& row : rows) out << row << "\n";
  out.close();
  const std::optional<std::string> failed =
      testing::ImportAndPrepare(WALKGRID_BIN, map, dir, "neutral");
  EXPECT_FALSE(failed.has_value()) << *failed;
  std::filesystem::remove(map);
  return dir;
}

// A place at the middle of column (x, y) of a MovingAI world (a yard a column).
walk::v1::Place MapPlace(double x, double y) {
  walk::v1::Place place;
  place.set_x_yards(x + 0.5);
  place.set_y_yards(y + 0.5);
  return place;
}

// A walk from or to a place in a pocket starts or ends where it settles, on the field: a table's
// matrix knows those walks too (its rows and targets take the settled surfaces), so they are
// matrix cells, never walked alone (which keeps them), and equal to the walks asked alone. A
// stored walk says where it was settled, as the walk did.
TEST(WalkdStoreTest, ATablesPlacesInPocketsAreAnsweredByTheMatrix) {
  const std::string data = MakeTempDir("pockets");
  const std::string worlds = MakeTempDir("pocket-worlds");
  PocketWorld(worlds);
  Walkd walkd = Start(data, {"--worlds", worlds});
  client::WalkClient client(walkd.address, 60.0);
  ASSERT_TRUE(WaitServing(client));
  walk::v1::TableRequest request;
  request.set_world("pockets");
  request.set_profile("neutral");
  for (const auto& [x, y] : {std::pair{20, 20}, {300, 20}, {480, 40}, {100, 300}})
    *request.add_sources() = MapPlace(x, y);
  for (const auto& [x, y] : {std::pair{40, 470}, {300, 500}, {470, 460}, {400, 330}})
    *request.add_targets() = MapPlace(x, y);
  walk::v1::TableResponse table;
  ASSERT_TRUE(client.Table(request, &table).ok());
  const CellCounts counts = ExpectCellsAreTheWalksAskedAlone(client, request, table);
  EXPECT_GE(counts.graph, 12);
  // The pockets' places are settled: walked to and from places outside the table (a stored
  // answer tells where the places snap, not where they settled).
  walk::v1::WalkRequest out_of_a_pocket;
  out_of_a_pocket.set_world("pockets");
  out_of_a_pocket.set_profile("neutral");
  *out_of_a_pocket.mutable_from() = request.sources(0);
  *out_of_a_pocket.mutable_to() = MapPlace(100, 450);
  walk::v1::WalkRequest into_a_pocket = out_of_a_pocket;
  *into_a_pocket.mutable_from() = MapPlace(150, 60);
  *into_a_pocket.mutable_to() = request.targets(2);
  walk::v1::WalkResponse out, in;
  ASSERT_TRUE(client.Walk(out_of_a_pocket, &out).ok());
  ASSERT_TRUE(client.Walk(into_a_pocket, &in).ok());
  EXPECT_EQ(out.method(), walk::v1::METHOD_CCH);
  EXPECT_TRUE(out.from_end().settled());
  EXPECT_EQ(in.method(), walk::v1::METHOD_CCH);
  EXPECT_TRUE(in.to_end().settled());
  // Asked again, the store answers, and says where the walk stood at its ends as it did.
  walk::v1::WalkResponse out_again, in_again;
  ASSERT_TRUE(client.Walk(out_of_a_pocket, &out_again).ok());
  ASSERT_TRUE(client.Walk(into_a_pocket, &in_again).ok());
  EXPECT_GT(out.nodes_expanded(), 0u);
  EXPECT_EQ(out_again.nodes_expanded(), 0u);  // the store's: it cost no search
  EXPECT_EQ(in_again.nodes_expanded(), 0u);
  for (const auto& [first, again] : {std::pair{&out, &out_again}, {&in, &in_again}}) {
    for (const auto& [end, end_again] : {std::pair{&first->from_end(), &again->from_end()},
                                         {&first->to_end(), &again->to_end()}}) {
      EXPECT_EQ(end_again->column_x(), end->column_x());
      EXPECT_EQ(end_again->column_y(), end->column_y());
      EXPECT_EQ(end_again->level(), end->level());
      EXPECT_EQ(end_again->region(), end->region());
      EXPECT_EQ(end_again->settled(), end->settled());
      EXPECT_EQ(end_again->settle_yards(), end->settle_yards());
    }
  }
  walkd.process->Signal(SIGTERM);
  EXPECT_EQ(walkd.process->Wait(), 0);
  std::filesystem::remove_all(data);
  std::filesystem::remove_all(worlds);
}

// A danger band's table whose cells the store holds (its many-to-many's cells are never kept:
// here every pair is walked alone after the table, which keeps it), asked again by a walkd
// started afresh on the same store, is answered from the store without a side built: no band
// metric customized (the first table customized one for its sides).
TEST(WalkdStoreTest, ADangerBandTableAskedAgainBuildsNoSides) {
  const std::string data = MakeTempDir("danger-again");
  const std::vector<walk::v1::WalkRequest> places = Pairs(16, 21);
  walk::v1::TableRequest request;
  request.set_world("default");
  request.set_profile("neutral");
  request.set_band(20);
  for (int s = 0; s < 10; ++s) *request.add_sources() = places[s].from();
  for (int t = 0; t < 12; ++t) *request.add_targets() = places[t].to();
  std::vector<walk::v1::WalkResponse> alone;
  for (int run = 0; run < 2; ++run) {
    Walkd walkd = Start(data, {"--metrics-listen", "127.0.0.1:0"});
    client::WalkClient client(walkd.address, 120.0);
    ASSERT_TRUE(WaitServing(client));
    walk::v1::TableResponse table;
    ASSERT_TRUE(client.Table(request, &table).ok());
    const auto scrape = testing::HttpGet(walkd.metrics_address, "/metrics");
    ASSERT_TRUE(scrape.ok()) << scrape.status();
    const double customized =
        testing::SampleValue(scrape->body, "walk_band_metric_customizations_total");
    int snapped = 0;
    for (int cell = 0; cell < table.status_size(); ++cell) {
      snapped += table.status(cell) != walk::v1::WALK_STATUS_OFF_MAP &&
                 table.status(cell) != walk::v1::WALK_STATUS_NO_SURFACE;
    }
    ASSERT_GT(snapped, 0);
    if (run == 0) {
      EXPECT_GE(customized, 1.0);  // the table's sides on the band's metric
      for (int s = 0; s < request.sources_size(); ++s) {
        for (int t = 0; t < request.targets_size(); ++t) {
          walk::v1::WalkRequest single;
          single.set_world("default");
          single.set_profile("neutral");
          single.set_band(20);
          *single.mutable_from() = request.sources(s);
          *single.mutable_to() = request.targets(t);
          ASSERT_TRUE(client.Walk(single, &alone.emplace_back()).ok());
        }
      }
    } else {
      EXPECT_EQ(table.stored(), static_cast<std::uint64_t>(snapped));
      EXPECT_EQ(customized, 0.0);
      for (int cell = 0; cell < table.status_size(); ++cell) {
        EXPECT_EQ(table.status(cell), alone[cell].status()) << "cell " << cell;
        EXPECT_EQ(table.seconds(cell), alone[cell].seconds()) << "cell " << cell;
        EXPECT_EQ(table.yards(cell), alone[cell].yards()) << "cell " << cell;
      }
    }
    walkd.process->Signal(SIGTERM);
    EXPECT_EQ(walkd.process->Wait(), 0);
  }
  std::filesystem::remove_all(data);
}

// Under a memory target that leaves band metrics no room, a danger band walked often enough to
// want its metric has the answer cache and the store's block cache give way, as walkd's gauges
// say; its walks are answered all the same (by the A*).
TEST(WalkdStoreTest, CachesGiveWayWhenADangerBandWantsItsMetricWithoutRoom) {
  const std::string data = MakeTempDir("give-way");
  // Under what walkd holds before it loads a world: the band metrics' room is 0 throughout.
  Walkd walkd = Start(data, {"--metrics-listen", "127.0.0.1:0", "--memory-mb", "16"});
  client::WalkClient client(walkd.address, 120.0);
  ASSERT_TRUE(WaitServing(client));
  auto gauge = [&](const char* name) {
    const auto scrape = testing::HttpGet(walkd.metrics_address, "/metrics");
    EXPECT_TRUE(scrape.ok()) << scrape.status();
    return scrape.ok() ? testing::SampleValue(scrape->body, name) : -1.0;
  };
  // Band 10 prices three of the default world's four zones: many pairs cross one and search.
  // Batches of new pairs until the caches give way: enough refusals must come within 10 s, which
  // one batch may not bring on a slow machine (bounded: six batches at most).
  for (int round = 0; round < 6 && gauge("walk_memory_caches_yielding") != 1.0; ++round) {
    std::vector<walk::v1::WalkRequest> pairs = Pairs(1600, 35 + round);
    for (walk::v1::WalkRequest& pair : pairs) pair.set_band(10);
    const BatchResult batch = Stream(walkd.address, pairs);
    ASSERT_TRUE(batch.status.ok()) << batch.status.error_message();
    ASSERT_EQ(batch.answers.size(), pairs.size());
    // The governor looks about four times a second (a bounded wait, not timed).
    for (int look = 0; look < 20 && gauge("walk_memory_caches_yielding") != 1.0; ++look) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  EXPECT_GE(gauge("walk_band_metric_refusals_total"), 256.0);
  EXPECT_EQ(gauge("walk_memory_caches_yielding"), 1.0);
  EXPECT_GE(gauge("walk_memory_cache_yields_total"), 1.0);
  EXPECT_EQ(gauge("walk_band_metric_customizations_total"), 0.0);
  walkd.process->Signal(SIGTERM);
  EXPECT_EQ(walkd.process->Wait(), 0);
  std::filesystem::remove_all(data);
}

TEST(WalkdStoreTest, WalkctlBatchWritesAnswersInOrderAndAsksOnlyWhatIsMissing) {
  const std::string data = MakeTempDir("walkctl");
  Walkd walkd = Start(data);
  client::WalkClient client(walkd.address, 30.0);
  ASSERT_TRUE(WaitServing(client));
  const std::string input = data + "/pairs.jsonl", csv = data + "/pairs.csv",
                    out = data + "/answers.jsonl";
  {
    std::ofstream f(input);
    f << R"({"id": "q1", "from": [100, 100], "to": [300, 320], "profile": "neutral"})"
      << "\n";
    f << "this line is not JSON\n";
    f << R"({"id": "q2", "world": "default", "from": [500, 520], "to": [600, 610, 40], "band": 10})"
      << "\n";
    f << R"({"from": [900, 200], "to": [150, 900], "profile": "faction-b"})"
      << "\n";
  }
  auto first = RunCommand({WALKCTL_BIN, "--addr", walkd.address, "batch", input, "--out", out});
  EXPECT_EQ(first.exit_code, 0) << first.output;
  EXPECT_NE(first.output.find("line 2: not a JSON object (skipped)"), std::string::npos)
      << first.output;
  std::ifstream in(out);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 4u);  // three answers in input order, then the summary
  EXPECT_NE(lines[0].find("\"id\":\"q1\""), std::string::npos);
  EXPECT_NE(lines[1].find("\"id\":\"q2\""), std::string::npos);
  EXPECT_NE(lines[2].find("\"line\":4"), std::string::npos);
  EXPECT_NE(lines[3].find("\"summary\""), std::string::npos);
  EXPECT_NE(lines[3].find("\"malformed\":1"), std::string::npos);
  auto again = RunCommand({WALKCTL_BIN, "--addr", walkd.address, "batch", input, "--out", out});
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("walkctl batch: 0 pairs asked, 3 kept"), std::string::npos)
      << again.output;
  // The same pairs as CSV.
  {
    std::ofstream f(csv);
    f << "id,from_x,from_y,to_x,to_y,to_z,profile,band\n";
    f << "c1,100,100,300,320,,neutral,\n";
    f << "c2,500,520,600,610,40,,10\n";
    f << "c3,abc,1,2,3,,,\n";
  }
  auto from_csv = RunCommand(
      {WALKCTL_BIN, "--addr", walkd.address, "batch", csv, "--out", data + "/csv.jsonl"});
  EXPECT_EQ(from_csv.exit_code, 0) << from_csv.output;
  EXPECT_NE(from_csv.output.find("line 4: from_x: 'abc' is not a number"), std::string::npos)
      << from_csv.output;
  std::string summary;  // the last line
  std::ifstream csv_out(data + "/csv.jsonl");
  for (std::string line; std::getline(csv_out, line);) summary = line;
  EXPECT_NE(summary.find("\"stored\":2"), std::string::npos) << summary;  // q1, q2 again
  walkd.process->Signal(SIGTERM);
  EXPECT_EQ(walkd.process->Wait(), 0);
  std::filesystem::remove_all(data);
}

TEST(WalkdStoreTest, WalkctlRoutesPricesRoutesAndImprovesTheOrderOfFreeStops) {
  const std::string data = MakeTempDir("routes");
  Walkd walkd = Start(data);
  client::WalkClient client(walkd.address, 30.0);
  ASSERT_TRUE(WaitServing(client));
  const std::string routes = data + "/routes.json", out = data + "/priced.jsonl";
  // Free stops given in a zig-zag along a line: the improved order walks it once. The same
  // stops in a second route of the same band share their pairs; a stop off the map falls back
  // to the straight line.
  std::ofstream(routes) << R"({"world": "default", "profile": "neutral", "routes": [
    {"id": "zigzag", "level": 3, "stops": [
      {"name": "a", "at": [300, 300]},
      {"name": "d", "at": [600, 300], "free": true},
      {"name": "b", "at": [400, 300], "free": true},
      {"name": "c", "at": [500, 300], "free": true},
      {"name": "e", "at": [700, 300]}]},
    {"id": "again", "level": 2, "stops": [
      {"name": "a", "at": [300, 300]}, {"name": "b", "at": [400, 300]}]},
    {"id": "nowhere", "level": 48, "stops": [
      {"name": "a", "at": [300, 300]}, {"name": "far", "at": [9000, 9000]}]}]})";
  auto priced = RunCommand({WALKCTL_BIN, "--addr", walkd.address, "routes", routes, "--out", out});
  ASSERT_EQ(priced.exit_code, 0) << priced.output;
  std::ifstream in(out);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_NE(lines[0].find(R"("improved_order":["a","b","c","d","e"])"), std::string::npos)
      << lines[0];
  EXPECT_EQ(lines[0].find(R"("saved_seconds":0.0)"), std::string::npos)
      << lines[0];  // it saved time
  EXPECT_NE(lines[2].find(R"("band":50)"), std::string::npos) << lines[2];
  EXPECT_NE(lines[2].find(R"("fallback_legs":1)"), std::string::npos) << lines[2];
  // 20 + 2 + 2 ordered pairs asked; "again" repeats two of "zigzag"'s (same band 0).
  EXPECT_NE(lines[3].find(R"("pairs_asked":24)"), std::string::npos) << lines[3];
  EXPECT_NE(lines[3].find(R"("pairs_streamed":22)"), std::string::npos) << lines[3];
  walkd.process->Signal(SIGTERM);
  EXPECT_EQ(walkd.process->Wait(), 0);
  std::filesystem::remove_all(data);
}

TEST(WalkdStoreTest, AStorePackExportedAndIngestedAnswersAsComputedOnline) {
  const std::string a = MakeTempDir("pack-a"), b = MakeTempDir("pack-b");
  const std::vector<walk::v1::WalkRequest> pairs = Pairs(40, 5);
  BatchResult online;
  {
    Walkd walkd = Start(a);
    client::WalkClient client(walkd.address, 30.0);
    ASSERT_TRUE(WaitServing(client));
    online = Stream(walkd.address, pairs);
    ASSERT_TRUE(online.status.ok());
    walkd.process->Signal(SIGTERM);
    ASSERT_EQ(walkd.process->Wait(), 0);
  }
  const std::string model = online.answers.at(0).walk().model_id();
  const std::string pack = a + "/pack";
  auto exported = RunCommand(
      {WALKCTL_BIN, "store", "export", "--store", a + "/store", "--model", model, "--out", pack});
  ASSERT_EQ(exported.exit_code, 0) << exported.output;
  auto models = RunCommand({WALKCTL_BIN, "store", "models", "--store", a + "/store"});
  EXPECT_NE(models.output.find(model), std::string::npos) << models.output;
  // A fresh walkd ingests the pack at start: every answer is stored and equal.
  Walkd fresh = Start(b, {"--ingest", pack});
  client::WalkClient client(fresh.address, 30.0);
  ASSERT_TRUE(WaitServing(client)) << fresh.process->output();
  EXPECT_NE(fresh.process->output().find("walkd: ingested "), std::string::npos);
  const BatchResult ingested = Stream(fresh.address, pairs);
  ASSERT_TRUE(ingested.status.ok());
  std::uint64_t stored = 0;
  for (const auto& [index, answer] : ingested.answers) {
    const auto& before = online.answers.at(index).walk();
    EXPECT_EQ(answer.walk().status(), before.status());
    EXPECT_DOUBLE_EQ(answer.walk().seconds(), before.seconds());
    EXPECT_DOUBLE_EQ(answer.walk().yards(), before.yards());
    stored += answer.stored() ? 1 : 0;
  }
  EXPECT_GT(stored, 30u);
  fresh.process->Signal(SIGTERM);
  EXPECT_EQ(fresh.process->Wait(), 0);
  // A damaged pack is refused, clearly, at start.
  for (const auto& entry : std::filesystem::directory_iterator(pack)) {
    if (entry.path().extension() == ".sst") std::filesystem::resize_file(entry.path(), 100);
  }
  const std::string c = MakeTempDir("pack-c");
  const auto refused = RunCommand({WALKD_BIN, "--listen", "127.0.0.1:0", "--metrics-listen", "",
                                   "--data", c, "--ingest", pack});
  EXPECT_EQ(refused.exit_code, 1) << refused.output;
  EXPECT_NE(refused.output.find("--ingest"), std::string::npos) << refused.output;
  std::filesystem::remove_all(a);
  std::filesystem::remove_all(b);
  std::filesystem::remove_all(c);
}

}  // namespace
}  // namespace walk
