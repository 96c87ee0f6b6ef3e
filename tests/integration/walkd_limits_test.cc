// walkd under hostile load, on a real server: searches stop (a work budget, cancelled batches,
// SIGTERM past the grace), and unary walks keep answering while batch streams hold every search
// thread busy. The world is the 4 x 4 demo world without an abstract graph, where a forced grid
// walk across it expands about half a million surfaces.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "client/walk_client.h"
#include "client/walk_stream.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/integration/walkd_process.h"
#include "walk/v1/walk.grpc.pb.h"

namespace walk {
namespace {

using testing::RunCommand;

// The 4 x 4 demo world, made once.
const std::string& LimitWorlds() {
  static const std::string* dir = [] {
    auto* d = new std::string(testing::FreshTempDir("walkd-limits-it", "worlds"));
    const testing::CommandResult made =
        RunCommand({WALKGRID_BIN, "demo", "--tiles", "4x4", "--out", *d + "/d4"});
    EXPECT_EQ(made.exit_code, 0) << made.output;
    return d;
  }();
  return *dir;
}

testing::StartedWalkd ServeLimited(const std::string& name, const std::vector<std::string>& more) {
  std::vector<std::string> args = {"--worlds", LimitWorlds(), "--data",
                                   testing::FreshTempDir("walkd-limits-it", name)};
  args.insert(args.end(), more.begin(), more.end());
  testing::StartedWalkd walkd = testing::StartWalkdOnLoopback(WALKD_BIN, args);
  EXPECT_FALSE(walkd.address.empty()) << walkd.process->output();
  client::WalkClient client(walkd.address, 30.0);
  for (int attempt = 0; attempt < 1200 * testing::Patience() && !walkd.process->Exited();
       ++attempt) {
    grpc::health::v1::HealthCheckResponse::ServingStatus serving;
    if (client.Health("", &serving).ok() &&
        serving == grpc::health::v1::HealthCheckResponse::SERVING) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return walkd;
}

// A forced grid walk across the world: about half a million surfaces expanded.
walk::v1::WalkRequest LongWalk(double offset = 0.0) {
  walk::v1::WalkRequest r;
  r.set_world("d4");
  r.set_profile("neutral");
  r.set_band(50);
  r.set_search(walk::v1::SEARCH_GRID);
  r.mutable_from()->set_x_yards(5.0 + offset);
  r.mutable_from()->set_y_yards(5.0);
  r.mutable_to()->set_x_yards(2125.0);
  r.mutable_to()->set_y_yards(2125.0 - offset);
  return r;
}

TEST(WalkdLimitsTest, AWorkBudgetStopsASearchNamingTheFlag) {
  testing::StartedWalkd walkd = ServeLimited("budget", {"--max-search-expansions", "20000"});
  client::WalkClient client(walkd.address, 30.0);
  walk::v1::WalkResponse response;
  const grpc::Status status = client.Walk(LongWalk(), &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(status.error_message().find("--max-search-expansions"), std::string::npos)
      << status.error_message();
  // A short walk still answers.
  walk::v1::WalkRequest near = LongWalk();
  near.mutable_to()->set_x_yards(40.0);
  near.mutable_to()->set_y_yards(40.0);
  EXPECT_TRUE(client.Walk(near, &response).ok());
}

// A batch stream of `pairs` long walks, one message a pair, that reads its answers in the
// background until cancelled.
class LongBatch {
 public:
  LongBatch(walk::v1::WalkService::Stub& stub, int pairs) {
    stream_ = stub.WalkBatch(&context_);
    walk::v1::WalkBatchRequest message;
    for (int i = 0; i < pairs; ++i) {
      walk::v1::WalkBatchRequest* pair = i == 0 ? &message : message.add_more();
      pair->set_index(static_cast<std::uint64_t>(i));
      *pair->mutable_walk() = LongWalk(0.1 * i);
      if (message.more_size() == 255 || i + 1 == pairs) {
        stream_->Write(message);
        message.Clear();
      }
    }
    reader_ = std::thread([this] {
      walk::v1::WalkBatchResponse response;
      while (stream_->Read(&response)) ++answered_;
    });
  }
  ~LongBatch() {
    context_.TryCancel();
    reader_.join();
  }
  int answered() const { return answered_; }

 private:
  grpc::ClientContext context_;
  std::unique_ptr<grpc::ClientReaderWriter<walk::v1::WalkBatchRequest, walk::v1::WalkBatchResponse>>
      stream_;
  std::atomic<int> answered_{0};
  std::thread reader_;
};

// Waits (a bounded while) until `batch` has its first answer; whether it came.
bool WaitForFirstAnswer(const LongBatch& batch) {
  for (int wait = 0; wait < 600 * testing::Patience() && batch.answered() == 0; ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return batch.answered() > 0;
}

// Waits (a minute, times the patience) for walkd to exit; whether it did.
bool WaitForExit(testing::StartedWalkd& walkd) {
  for (int wait = 0; wait < 1200 * testing::Patience(); ++wait) {
    if (walkd.process->Exited()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return walkd.process->Exited();
}

TEST(WalkdLimitsTest, UnaryWalksAnswerUnderBatchLoadAndCancelledWorkEndsAtOnce) {
  testing::StartedWalkd walkd =
      ServeLimited("fairness", {"--search-threads", "2", "--shutdown-grace-s", "1"});
  auto channel = grpc::CreateChannel(walkd.address, grpc::InsecureChannelCredentials());
  auto stub = walk::v1::WalkService::NewStub(channel);
  {
    // Eight streams of 512 long walks: minutes of searching queued behind two threads.
    std::vector<std::unique_ptr<LongBatch>> batches;
    for (int i = 0; i < 8; ++i) batches.push_back(std::make_unique<LongBatch>(*stub, 512));
    ASSERT_TRUE(WaitForFirstAnswer(*batches.front())) << "the batches are being searched";
    // A unary walk goes before the queued batch pairs: it answers within its deadline.
    client::WalkClient client(walkd.address, 15.0 * testing::Patience());
    for (int i = 0; i < 3; ++i) {
      walk::v1::WalkResponse response;
      const grpc::Status status = client.Walk(LongWalk(1.0 + i), &response);
      ASSERT_TRUE(status.ok()) << status.error_code() << " " << status.error_message();
      EXPECT_EQ(response.status(), walk::v1::WALK_STATUS_OK);
    }
    int answered = 0;
    for (const auto& batch : batches) answered += batch->answered();
    EXPECT_LT(answered, 8 * 512) << "the batches were still queued";
  }  // every stream cancelled here
  // The cancelled streams' queued pairs end at once: SIGTERM finishes long before the minutes
  // of searching they held (the loop below gives up after a minute).
  walkd.process->Signal(SIGTERM);
  ASSERT_TRUE(WaitForExit(walkd)) << "walkd still searching a minute after SIGTERM";
  EXPECT_EQ(walkd.process->Wait(), 0) << walkd.process->output();
}

// SIGTERM while eight streams hold minutes of long searches (not cancelled: their clients wait)
// and two unary long walks run: walkd stops every search at its grace's end and exits, long
// before the work it held (the loop below gives up after a minute).
TEST(WalkdLimitsTest, SigtermWithSearchesAndFloodsInFlightExitsAfterItsGrace) {
  testing::StartedWalkd walkd =
      ServeLimited("sigterm", {"--search-threads", "2", "--shutdown-grace-s", "1"});
  auto channel = grpc::CreateChannel(walkd.address, grpc::InsecureChannelCredentials());
  auto stub = walk::v1::WalkService::NewStub(channel);
  std::vector<std::unique_ptr<LongBatch>> batches;
  for (int i = 0; i < 8; ++i) batches.push_back(std::make_unique<LongBatch>(*stub, 512));
  std::vector<std::thread> unary;
  for (int i = 0; i < 2; ++i) {
    unary.emplace_back([&walkd, i] {
      client::WalkClient client(walkd.address, 120.0);
      walk::v1::WalkResponse response;
      client.Walk(LongWalk(2.0 + i), &response).IgnoreError();
    });
  }
  ASSERT_TRUE(WaitForFirstAnswer(*batches.front())) << "the batches are being searched";
  const auto signalled = std::chrono::steady_clock::now();
  walkd.process->Signal(SIGTERM);
  ASSERT_TRUE(WaitForExit(walkd)) << "walkd still searching a minute after SIGTERM";
  std::printf("exited %.2f s after SIGTERM (grace 1 s)\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - signalled).count());
  EXPECT_EQ(walkd.process->Wait(), 0) << walkd.process->output();
  EXPECT_NE(walkd.process->output().find(
                "walkd: stopped (the grace ended: the calls still in flight were cancelled)"),
            std::string::npos)
      << walkd.process->output();
  for (std::thread& t : unary) t.join();
  batches.clear();
}

// One WalkBatch stream that sends `message` and reads to the end: the stream's status.
grpc::Status SendOne(walk::v1::WalkService::Stub& stub, const walk::v1::WalkBatchRequest& message) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  auto stream = stub.WalkBatch(&context);
  stream->Write(message);
  stream->WritesDone();
  walk::v1::WalkBatchResponse response;
  while (stream->Read(&response)) {
  }
  return stream->Finish();
}

// A near walk on the 4 x 4 world (cheap), as a batch pair.
walk::v1::WalkRequest NearWalk(int i) {
  walk::v1::WalkRequest r;
  r.set_world("d4");
  r.mutable_from()->set_x_yards(100.0 + (i % 1000) * 0.7);
  r.mutable_from()->set_y_yards(100.0);
  r.mutable_to()->set_x_yards(130.0 + (i % 1000) * 0.7);
  r.mutable_to()->set_y_yards(140.0);
  return r;
}

TEST(WalkdLimitsTest, AmplifyingRequestsAreRefusedAndMemoryStaysBounded) {
  const std::string live = testing::FreshTempDir("walkd-limits-it", "live");
  std::filesystem::create_directories(live + "/yard");
  {
    std::ofstream map(live + "/yard/map.map");
    map << "type octile\nheight 32\nwidth 32\nmap\n";
    for (int y = 0; y < 32; ++y) map << std::string(32, '.') << "\n";
  }
  testing::StartedWalkd walkd =
      ServeLimited("amplify", {"--live-worlds", live, "--search-threads", "2"});
  auto channel = grpc::CreateChannel(walkd.address, grpc::InsecureChannelCredentials());
  auto stub = walk::v1::WalkService::NewStub(channel);
  auto live_stub = walk::v1::LiveService::NewStub(channel);
  const std::uint64_t before = testing::ResidentBytes(walkd.process->pid());
  ASSERT_GT(before, 0u);

  // A message of 60,000 pairs (3.6 MB): the stream ends, naming the limit.
  walk::v1::WalkBatchRequest many;
  *many.mutable_walk() = NearWalk(0);
  for (int i = 1; i < 60000; ++i) *many.add_more()->mutable_walk() = NearWalk(i);
  grpc::Status status = SendOne(*stub, many);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(status.error_message().rfind("max-pairs-per-message:", 0), 0u)
      << status.error_message();
  many.Clear();
  // Blocks of 100,000 pairs, three at once: each stream ends, naming the limit.
  walk::v1::WalkBatchRequest block_message;
  walk::v1::PairBlock& block = *block_message.mutable_block();
  block.set_world("d4");
  for (int i = 0; i < 100000; ++i) {
    block.add_index(i);
    block.add_from_x(100);
    block.add_from_y(100);
    block.add_to_x(130);
    block.add_to_y(140);
  }
  std::vector<std::thread> senders;
  std::atomic<int> refused{0};
  for (int k = 0; k < 3; ++k) {
    senders.emplace_back([&] {
      const grpc::Status s = SendOne(*stub, block_message);
      if (s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED &&
          s.error_message().rfind("max-block-pairs:", 0) == 0) {
        ++refused;
      }
    });
  }
  for (std::thread& t : senders) t.join();
  EXPECT_EQ(refused.load(), 3);
  // A group of 500,000 starts (3 MB).
  {
    walk::v1::PathGroupRequest group;
    group.set_world("yard");
    for (int i = 0; i < 500000; ++i) {
      walk::v1::Cell* start = group.add_starts();
      start->set_x(i % 32);
      start->set_y((i / 32) % 32);
    }
    group.mutable_goal()->set_x(31);
    group.mutable_goal()->set_y(31);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    walk::v1::PathGroupResponse response;
    status = live_stub->PathGroup(&context, group, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    EXPECT_EQ(status.error_message().rfind("max-group-starts:", 0), 0u) << status.error_message();
  }
  // Eight streams of 12 messages of 4,096 pairs that read nothing until they have sent it all:
  // walkd holds only its in-flight budget of them, whatever the clients send.
  std::vector<std::thread> floods;
  std::atomic<std::uint64_t> flood_answers{0};
  std::atomic<int> flood_ok{0};
  for (int k = 0; k < 8; ++k) {
    floods.emplace_back([&stub, &flood_answers, &flood_ok] {
      grpc::ClientContext context;
      context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
      auto stream = stub->WalkBatch(&context);
      walk::v1::WalkBatchRequest message;
      for (int m = 0; m < 12; ++m) {
        message.Clear();
        for (int i = 0; i < 4096; ++i) {
          walk::v1::WalkBatchRequest* pair = i == 0 ? &message : message.add_more();
          pair->set_index(static_cast<std::uint64_t>(m * 4096 + i));
          *pair->mutable_walk() = NearWalk(m * 4096 + i);
        }
        if (!stream->Write(message)) break;
      }
      stream->WritesDone();
      walk::v1::WalkBatchResponse response;
      while (stream->Read(&response)) {
        if (!response.has_summary()) flood_answers += 1 + response.more_size();
      }
      flood_ok += stream->Finish().ok() ? 1 : 0;
    });
  }
  for (std::thread& t : floods) t.join();
  EXPECT_EQ(flood_ok.load(), 8);
  EXPECT_EQ(flood_answers.load(), 8u * 12 * 4096) << "every pair answered";
  const std::uint64_t after = testing::ResidentBytes(walkd.process->pid());
  std::printf("resident: %.0f MB before, %.0f MB after\n", before / 1e6, after / 1e6);
  // The stated bound (docs/operations.md, "Limits"): 600 MB over what walkd held at start.
  EXPECT_LT(after, before + (std::uint64_t{600} << 20));
  // And it still answers.
  client::WalkClient client(walkd.address, 30.0);
  walk::v1::WalkResponse response;
  EXPECT_TRUE(client.Walk(NearWalk(1), &response).ok());
}

// A message written byte by byte: `count` copies of `field` as an empty length-delimited entry
// (two bytes each), as a hostile client sends it; no message object is made on this side.
std::string EmptyEntries(std::uint32_t field, int count) {
  const char entry[2] = {static_cast<char>(field << 3 | 2), 0};
  std::string bytes;
  bytes.reserve(2 * static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) bytes.append(entry, 2);
  return bytes;
}

grpc::ByteBuffer AsByteBuffer(const std::string& bytes) {
  grpc::Slice slice(bytes);
  return grpc::ByteBuffer(&slice, 1);
}

// Waits for the one operation in flight on `cq`; its ok.
bool Await(grpc::CompletionQueue& cq) {
  void* tag = nullptr;
  bool ok = false;
  return cq.Next(&tag, &ok) && ok;
}

// Sends `bytes` as the one message of a WalkBatch stream, reads what comes back, and returns how
// the stream ended.
grpc::Status SendRawBatchMessage(const std::shared_ptr<grpc::Channel>& channel,
                                 const std::string& bytes) {
  grpc::GenericStub stub(channel);
  grpc::CompletionQueue cq;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
  auto call = stub.PrepareCall(&context, "/walk.v1.WalkService/WalkBatch", &cq);
  call->StartCall(nullptr);
  grpc::Status status;
  if (Await(cq)) {
    call->Write(AsByteBuffer(bytes), nullptr);
    if (Await(cq)) {
      call->WritesDone(nullptr);
      Await(cq);
    }
    grpc::ByteBuffer reply;
    do call->Read(&reply, nullptr);
    while (Await(cq));
  }
  call->Finish(&status, nullptr);
  Await(cq);
  cq.Shutdown();
  while (Await(cq)) {
  }
  return status;
}

// Sends `bytes` as the request of unary method `method` ("/walk.v1.LiveService/PathGroup").
grpc::Status SendRawUnary(const std::shared_ptr<grpc::Channel>& channel, const std::string& method,
                          const std::string& bytes) {
  grpc::GenericStub stub(channel);
  grpc::CompletionQueue cq;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
  auto call = stub.PrepareUnaryCall(&context, method, AsByteBuffer(bytes), &cq);
  call->StartCall();
  grpc::ByteBuffer reply;
  grpc::Status status;
  call->Finish(&reply, &status, nullptr);
  Await(cq);
  cq.Shutdown();
  while (Await(cq)) {
  }
  return status;
}

// The most resident memory `pid` held while `work` ran (sampled every 2 ms), over `before`.
template <typename Work>
std::int64_t PeakGrowth(pid_t pid, std::uint64_t before, Work work) {
  std::atomic<bool> done{false};
  std::atomic<std::uint64_t> peak{before};
  std::thread sampler([&] {
    while (!done) {
      const std::uint64_t now = testing::ResidentBytes(pid);
      if (now > peak) peak = now;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  });
  work();
  done = true;
  sampler.join();
  const std::uint64_t last = testing::ResidentBytes(pid);
  return static_cast<std::int64_t>(std::max<std::uint64_t>(peak, last)) -
         static_cast<std::int64_t>(before);
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

// One 4 MB message of 2,000,000 empty entries cost walkd 200 MB of protobuf objects before it
// was refused. Entries are now counted on the wire before a message is parsed: such a message
// costs walkd little more than its bytes, whatever the request type, and sixteen at once stay
// within --grpc-memory-mb.
TEST(WalkdLimitsTest, EntriesAreCountedOnTheWireBeforeAMessageIsParsed) {
  const std::uint64_t grpc_memory_mb = 256;
  testing::StartedWalkd walkd = ServeLimited(
      "wire", {"--search-threads", "2", "--grpc-memory-mb", std::to_string(grpc_memory_mb)});
  auto channel = grpc::CreateChannel(walkd.address, grpc::InsecureChannelCredentials());
  client::WalkClient client(walkd.address, 30.0);
  walk::v1::WalkResponse walked;
  ASSERT_TRUE(client.Walk(NearWalk(1), &walked).ok());  // every lazy start-up cost paid
  const pid_t pid = walkd.process->pid();
  constexpr int kEntries = 2000000;  // 4,000,000 bytes: under --max-message-bytes (4 MiB)
  const std::string more = EmptyEntries(3, kEntries);  // WalkBatchRequest.more

  std::uint64_t before = testing::ResidentBytes(pid);
  grpc::Status status;
  const std::int64_t one =
      PeakGrowth(pid, before, [&] { status = SendRawBatchMessage(channel, more); });
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_TRUE(StartsWith(status.error_message(),
                         "max-pairs-per-message: more holds 2000000 entries, over the 4095"))
      << status.error_message();
  std::printf(
      "one WalkBatch message of %d empty `more` entries: resident %.1f MB before, "
      "peak growth %.1f MB\n",
      kEntries, before / 1e6, one / 1e6);
  EXPECT_LE(one, std::int64_t{32} << 20);

  // Again, a few times: it levels, it does not pile up.
  const std::int64_t repeats = PeakGrowth(pid, before, [&] {
    for (int k = 0; k < 4; ++k) EXPECT_FALSE(SendRawBatchMessage(channel, more).ok());
  });
  std::printf("four more, one after another: peak growth %.1f MB over the first's start\n",
              repeats / 1e6);
  EXPECT_LE(repeats, std::int64_t{32} << 20);

  // Every request type with a repeated field, the same way; and unknown fields on one without.
  struct Probe {
    const char* method;
    std::uint32_t field;
    const char* refusal;
  };
  for (const Probe& probe : {
           Probe{"/walk.v1.WalkService/Table", 2, "max-table-cells: sources holds 2000000"},
           Probe{"/walk.v1.LiveService/UpdateBlockers", 2,
                 "max-blocker-changes: changes holds 2000000"},
           Probe{"/walk.v1.LiveService/PathGroup", 2, "max-group-starts: starts holds 2000000"},
           Probe{"/walk.v1.WalkService/Walk", 15, "unknown fields: the request carries 2000000"},
           Probe{"/grpc.health.v1.Health/Check", 15, "unknown fields: the request carries 2000000"},
       }) {
    before = testing::ResidentBytes(pid);
    const std::int64_t growth = PeakGrowth(pid, before, [&] {
      status = SendRawUnary(channel, probe.method, EmptyEntries(probe.field, kEntries));
    });
    EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << probe.method;
    EXPECT_TRUE(StartsWith(status.error_message(), probe.refusal)) << status.error_message();
    std::printf("%s with %d empty entries: peak growth %.1f MB\n", probe.method, kEntries,
                growth / 1e6);
    EXPECT_LE(growth, std::int64_t{32} << 20) << probe.method;
  }

  // Sixteen at once.
  before = testing::ResidentBytes(pid);
  std::atomic<int> refused{0};
  const std::int64_t sixteen = PeakGrowth(pid, before, [&] {
    std::vector<std::thread> senders;
    for (int k = 0; k < 16; ++k) {
      senders.emplace_back([&] {
        const grpc::Status s = SendRawBatchMessage(channel, more);
        if (s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED &&
            StartsWith(s.error_message(), "max-pairs-per-message: more holds 2000000")) {
          ++refused;
        }
      });
    }
    for (std::thread& t : senders) t.join();
  });
  std::printf("sixteen such messages at once: peak growth %.1f MB (--grpc-memory-mb %llu)\n",
              sixteen / 1e6, static_cast<unsigned long long>(grpc_memory_mb));
  EXPECT_EQ(refused.load(), 16);
  EXPECT_LE(sixteen, static_cast<std::int64_t>(grpc_memory_mb << 20));
  // And walkd still answers, listing the limit UpdateBlockers is held to.
  EXPECT_TRUE(client.Walk(NearWalk(2), &walked).ok());
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  walk::v1::InfoResponse info;
  ASSERT_TRUE(
      walk::v1::WalkService::NewStub(channel)->Info(&context, walk::v1::InfoRequest(), &info).ok());
  EXPECT_EQ(info.limits().max_blocker_changes(), 4096u);
}

// The health the walk store reports (service "walkd.store").
grpc::health::v1::HealthCheckResponse::ServingStatus StoreStatus(const std::string& address) {
  auto channel = grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
  auto stub = grpc::health::v1::Health::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  grpc::health::v1::HealthCheckRequest request;
  request.set_service("walkd.store");
  grpc::health::v1::HealthCheckResponse response;
  if (!stub->Check(&context, request, &response).ok()) return response.UNKNOWN;
  return response.status();
}

// A walk on the default world between two random places.
walk::v1::WalkRequest DefaultWalk(std::mt19937& random) {
  std::uniform_real_distribution<double> coordinate(20.0, 1040.0);
  walk::v1::WalkRequest r;
  r.set_world("default");
  r.mutable_from()->set_x_yards(coordinate(random));
  r.mutable_from()->set_y_yards(coordinate(random));
  r.mutable_to()->set_x_yards(coordinate(random));
  r.mutable_to()->set_y_yards(coordinate(random));
  return r;
}

// The store on a real, small file system that fills up: walks go on being answered (not kept),
// health says the store is degraded, and once there is room again it takes writes by itself.
// (RocksDB resumes from a full disk once a memtable's worth, 64 MB, is free: hence 160 MB.)
TEST(WalkdLimitsTest, AFullDiskDegradesTheStoreAndItRecoversByItself) {
  const std::string disk = testing::FreshTempDir("walkd-limits-it", "smalldisk");
  if (std::system(("mount -t tmpfs -o size=160m tmpfs " + disk + " 2>/dev/null").c_str()) != 0) {
    GTEST_SKIP() << "cannot mount a small tmpfs here (needs root): the full-disk test is skipped";
  }
  struct Unmount {
    std::string dir;
    ~Unmount() { std::system(("umount -l " + dir).c_str()); }
  } unmount{disk};
  testing::StartedWalkd walkd = testing::StartWalkdOnLoopback(
      WALKD_BIN, {"--data", testing::FreshTempDir("walkd-limits-it", "smalldisk-data"), "--store",
                  disk + "/store", "--answer-cache-mb", "0"});
  ASSERT_FALSE(walkd.address.empty()) << walkd.process->output();
  client::WalkClient client(walkd.address, 60.0);
  for (int attempt = 0; attempt < 1200 * testing::Patience(); ++attempt) {
    grpc::health::v1::HealthCheckResponse::ServingStatus serving;
    if (client.Health("", &serving).ok() &&
        serving == grpc::health::v1::HealthCheckResponse::SERVING) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_EQ(StoreStatus(walkd.address), grpc::health::v1::HealthCheckResponse::SERVING);
  // Fill the disk.
  {
    std::ofstream filler(disk + "/filler", std::ios::binary);
    const std::string block(1 << 16, 'x');
    while (filler.write(block.data(), block.size())) {
    }
  }
  std::mt19937 random(7);
  walk::v1::WalkResponse response;
  bool degraded = false;
  for (int i = 0; i < 4000 && !degraded; ++i) {
    const grpc::Status status = client.Walk(DefaultWalk(random), &response);
    ASSERT_TRUE(status.ok()) << "a full disk must not fail a walk: " << status.error_message()
                             << "\n"
                             << walkd.process->output();
    if (i % 50 == 49) {
      degraded = StoreStatus(walkd.address) == grpc::health::v1::HealthCheckResponse::NOT_SERVING;
    }
  }
  ASSERT_TRUE(degraded) << "the store filled the disk and never said so";
  grpc::health::v1::HealthCheckResponse::ServingStatus whole;
  ASSERT_TRUE(client.Health("", &whole).ok());
  EXPECT_EQ(whole, grpc::health::v1::HealthCheckResponse::SERVING) << "walks are still served";
  // Room again: the store resumes by itself (it retries every 2 s; this gives up after a minute).
  std::filesystem::remove(disk + "/filler");
  bool resumed = false;
  for (int wait = 0; wait < 600 && !resumed; ++wait) {
    resumed = StoreStatus(walkd.address) == grpc::health::v1::HealthCheckResponse::SERVING;
    if (!resumed) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(resumed) << "the store never took writes again";
  // A new walk is kept again: asked twice in a batch, its second answer comes from the store.
  const walk::v1::WalkRequest fresh = DefaultWalk(random);
  client.Walk(fresh, &response).IgnoreError();
  const client::StreamedWalks again = client::StreamWalks(walkd.address, 60, {fresh});
  ASSERT_TRUE(again.status.ok()) << again.status << walkd.process->output();
  ASSERT_TRUE(again.answers[0].has_value());
  EXPECT_TRUE(again.answers[0]->stored);
  walkd.process->Signal(SIGTERM);
  EXPECT_EQ(walkd.process->Wait(), 0);
  const std::string log = walkd.process->FinishOutput();
  EXPECT_NE(log.find("the walk store is degraded"), std::string::npos) << log;
  EXPECT_NE(log.find("the walk store takes writes again"), std::string::npos) << log;
}

}  // namespace
}  // namespace walk
