// hostile_probe: what walkd does under the requests an attacker or a careless client sends, on a
// running walkd (driven by bench/hostile_all.py, which starts walkd on a 4 x 4 demo world "d4"
// and a 32 x 32 live world "yard"). Each probe prints `probe: outcome` lines, with walkd's
// resident memory (VmRSS) before and its peak (VmHWM, reset first) during the probe.
//
//   hostile_probe --addr A --pid P more       one WalkBatch message of 60,000 pairs
//   hostile_probe --addr A --pid P blocks     three streams of one 100,000-pair block each
//   hostile_probe --addr A --pid P group      a PathGroup of 600,000 starts
//   hostile_probe --addr A --pid P floors     a 256 x 256 Floors, at stride 1 and 2
//   hostile_probe --addr A --pid P deadline   long searches abandoned, then a short walk
//   hostile_probe --addr A --pid P starve     unary walks idle and under 50 batch streams
//   hostile_probe --addr A --pid P hold       two long searches, held until killed
//   hostile_probe --addr A --pid P update     UpdateBlockers without a token
//   hostile_probe --addr A --pid P sustain --streams N --seconds S
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "CLI/CLI.hpp"
#include "client/walk_client.h"
#include "client/walk_stream.h"
#include "grpcpp/grpcpp.h"
#include "walk/v1/walk.grpc.pb.h"

namespace {

using Clock = std::chrono::steady_clock;
using Stream = grpc::ClientReaderWriter<walk::v1::WalkBatchRequest, walk::v1::WalkBatchResponse>;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// A /proc/PID/status field in MB (VmRSS, VmHWM); 0 when unreadable.
double StatusMb(int pid, const char* field) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    unsigned long kib = 0;
    if (line.rfind(field, 0) == 0 && std::sscanf(line.c_str() + line.find(':') + 1, "%lu", &kib)) {
      return kib / 1024.0;
    }
  }
  return 0.0;
}

// Resets the process's peak resident memory (VmHWM) to its current one.
void ResetPeak(int pid) { std::ofstream("/proc/" + std::to_string(pid) + "/clear_refs") << "5"; }

std::string Describe(const grpc::Status& status) {
  if (status.ok()) return "OK";
  const std::string message = status.error_message();
  return std::to_string(status.error_code()) + " " +
         (message.size() > 110 ? message.substr(0, 110) + "..." : message);
}

// Where `hold` searches: a world and its far corner, yards (--world, --far).
std::string long_world = "d4";
double far_corner = 2125.0;

// A forced fine-grid walk across the world: on d4 about half a million surfaces expanded.
walk::v1::WalkRequest LongWalk(double offset) {
  walk::v1::WalkRequest r;
  r.set_world(long_world);
  r.set_profile("neutral");
  r.set_band(50);
  r.set_search(walk::v1::SEARCH_GRID);
  r.mutable_from()->set_x_yards(5.0 + offset);
  r.mutable_from()->set_y_yards(5.0);
  r.mutable_to()->set_x_yards(far_corner);
  r.mutable_to()->set_y_yards(far_corner - offset);
  return r;
}

// A walk between two random places of d4, as a route planner asks (auto search).
walk::v1::WalkRequest RandomWalk(std::mt19937& random, double span = 2100.0) {
  std::uniform_real_distribution<double> at(10.0, 10.0 + span);
  walk::v1::WalkRequest r;
  r.set_world("d4");
  r.mutable_from()->set_x_yards(at(random));
  r.mutable_from()->set_y_yards(at(random));
  r.mutable_to()->set_x_yards(at(random));
  r.mutable_to()->set_y_yards(at(random));
  return r;
}

// A few columns apart.
walk::v1::WalkRequest ShortWalk() {
  walk::v1::WalkRequest r;
  r.set_world("d4");
  r.mutable_from()->set_x_yards(100.0);
  r.mutable_from()->set_y_yards(100.0);
  r.mutable_to()->set_x_yards(104.0);
  r.mutable_to()->set_y_yards(100.0);
  return r;
}

struct Probe {
  std::string address;
  int pid = 0;
  std::string token;  // sent with LiveService updates (walkd's --auth-token-file)
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<walk::v1::WalkService::Stub> walks;
  std::unique_ptr<walk::v1::LiveService::Stub> live;

  void Begin() {
    ResetPeak(pid);
    std::printf("  resident before: %.0f MB\n", StatusMb(pid, "VmRSS:"));
  }
  void End() {
    std::printf("  resident after: %.0f MB, peak during: %.0f MB\n", StatusMb(pid, "VmRSS:"),
                StatusMb(pid, "VmHWM:"));
  }
  // One stream that sends `message` and reads to the end.
  grpc::Status SendOne(const walk::v1::WalkBatchRequest& message) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
    auto stream = walks->WalkBatch(&context);
    stream->Write(message);
    stream->WritesDone();
    walk::v1::WalkBatchResponse response;
    while (stream->Read(&response)) {
    }
    return stream->Finish();
  }
  // A unary walk with `deadline_s`: its status and seconds.
  std::pair<grpc::Status, double> TimedWalk(const walk::v1::WalkRequest& request,
                                            double deadline_s) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::milliseconds(static_cast<int>(deadline_s * 1000)));
    walk::v1::WalkResponse response;
    const Clock::time_point start = Clock::now();
    const grpc::Status status = walks->Walk(&context, request, &response);
    return {status, SecondsSince(start)};
  }
};

void More(Probe& p) {
  walk::v1::WalkBatchRequest many;
  std::mt19937 random(1);
  *many.mutable_walk() = RandomWalk(random, 200);
  for (int i = 1; i < 60000; ++i) *many.add_more()->mutable_walk() = RandomWalk(random, 200);
  std::printf("more: one message of 60,000 pairs (%.1f MB)\n", many.ByteSizeLong() / 1e6);
  p.Begin();
  std::printf("  stream: %s\n", Describe(p.SendOne(many)).c_str());
  p.End();
}

void Blocks(Probe& p) {
  walk::v1::WalkBatchRequest message;
  walk::v1::PairBlock& block = *message.mutable_block();
  block.set_world("d4");
  for (int i = 0; i < 100000; ++i) {
    block.add_index(i);
    block.add_from_x(100);
    block.add_from_y(100);
    block.add_to_x(130);
    block.add_to_y(140);
  }
  std::printf("blocks: three streams at once, one 100,000-pair block each (%.1f MB)\n",
              message.ByteSizeLong() / 1e6);
  p.Begin();
  std::vector<std::thread> senders;
  std::vector<grpc::Status> statuses(3);
  for (int k = 0; k < 3; ++k) senders.emplace_back([&, k] { statuses[k] = p.SendOne(message); });
  for (std::thread& t : senders) t.join();
  for (const grpc::Status& s : statuses) std::printf("  stream: %s\n", Describe(s).c_str());
  p.End();
}

void Group(Probe& p) {
  walk::v1::PathGroupRequest group;
  group.set_world("yard");
  for (int i = 0; i < 600000; ++i) {
    walk::v1::Cell* start = group.add_starts();
    start->set_x(i % 32);
    start->set_y((i / 32) % 32);
  }
  group.mutable_goal()->set_x(31);
  group.mutable_goal()->set_y(31);
  std::printf("group: a PathGroup of 600,000 starts (%.1f MB)\n", group.ByteSizeLong() / 1e6);
  p.Begin();
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
  walk::v1::PathGroupResponse response;
  std::printf("  call: %s\n", Describe(p.live->PathGroup(&context, group, &response)).c_str());
  p.End();
}

void Floors(Probe& p) {
  for (int stride : {1, 2}) {
    walk::v1::FloorsRequest request;
    request.set_world("d4");
    request.mutable_place()->set_x_yards(10);
    request.mutable_place()->set_y_yards(10);
    request.set_columns_x(256);
    request.set_columns_y(256);
    request.set_stride(stride);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    walk::v1::FloorsResponse response;
    const grpc::Status status = p.walks->Floors(&context, request, &response);
    std::printf("floors: 256 x 256 at stride %d: %s (reply %.2f MB, %d columns)\n", stride,
                Describe(status).c_str(), response.ByteSizeLong() / 1e6, response.columns_size());
  }
}

void Deadline(Probe& p) {
  const auto [alone, alone_s] = p.TimedWalk(ShortWalk(), 10);
  std::printf("deadline: a short walk alone: %s in %.3f s\n", Describe(alone).c_str(), alone_s);
  const auto [cut, cut_s] = p.TimedWalk(LongWalk(0), 0.2);
  std::printf("deadline: a long search with a 0.2 s deadline: %s after %.3f s\n",
              Describe(cut).c_str(), cut_s);
  // Two long searches abandoned (their deadlines pass), then a short walk.
  std::vector<std::thread> abandoned;
  for (int i = 0; i < 2; ++i) abandoned.emplace_back([&p, i] { p.TimedWalk(LongWalk(i), 0.2); });
  for (std::thread& t : abandoned) t.join();
  const auto [after, after_s] = p.TimedWalk(ShortWalk(), 10);
  std::printf("deadline: a short walk right after two abandoned searches: %s in %.3f s\n",
              Describe(after).c_str(), after_s);
}

// A batch stream of long walks, read in the background until cancelled.
class Flood {
 public:
  Flood(walk::v1::WalkService::Stub& stub, int pairs, double offset) {
    stream_ = stub.WalkBatch(&context_);
    walk::v1::WalkBatchRequest message;
    for (int i = 0; i < pairs; ++i) {
      walk::v1::WalkBatchRequest* pair = i % 256 == 0 ? &message : message.add_more();
      pair->set_index(static_cast<std::uint64_t>(i));
      *pair->mutable_walk() = LongWalk(offset + 0.01 * i);
      if (i % 256 == 255 || i + 1 == pairs) {
        stream_->Write(message);
        message.Clear();
      }
    }
    reader_ = std::thread([this] {
      walk::v1::WalkBatchResponse response;
      while (stream_->Read(&response)) ++answered_;
    });
  }
  ~Flood() {
    context_.TryCancel();
    reader_.join();
  }

 private:
  grpc::ClientContext context_;
  std::unique_ptr<Stream> stream_;
  std::atomic<int> answered_{0};
  std::thread reader_;
};

// Unary walks with a 5 s deadline: how many answered, and their median and slowest seconds.
// Each round asks other pairs (`seed`), so none is answered from the store.
void UnaryRound(Probe& p, const char* when, int count, unsigned seed) {
  std::mt19937 random(seed);
  std::vector<double> seconds;
  int timed_out = 0;
  for (int i = 0; i < count; ++i) {
    const auto [status, s] = p.TimedWalk(RandomWalk(random, 600), 5.0);
    if (status.ok()) {
      seconds.push_back(s);
    } else {
      ++timed_out;
    }
  }
  std::sort(seconds.begin(), seconds.end());
  std::printf("starve: %d unary walks %s: %d answered, %d failed; median %.3f s, slowest %.3f s\n",
              count, when, static_cast<int>(seconds.size()), timed_out,
              seconds.empty() ? 0.0 : seconds[seconds.size() / 2],
              seconds.empty() ? 0.0 : seconds.back());
}

void Starve(Probe& p) {
  UnaryRound(p, "idle", 20, 5);
  std::vector<std::unique_ptr<Flood>> floods;
  for (int i = 0; i < 50; ++i) floods.push_back(std::make_unique<Flood>(*p.walks, 512, i));
  std::this_thread::sleep_for(std::chrono::seconds(1));
  UnaryRound(p, "under 50 batch streams of long walks", 20, 6);
}

// Two clients asking long walks one after another until walkd stops answering.
void Hold(Probe& p) {
  std::vector<std::thread> searches;
  for (int i = 0; i < 2; ++i) {
    searches.emplace_back([&p, i] {
      while (p.TimedWalk(LongWalk(i), 600).first.ok()) {
      }
    });
  }
  for (std::thread& t : searches) t.join();
}

void Update(Probe& p) {
  walk::v1::UpdateBlockersRequest request;
  request.set_world("yard");
  walk::v1::BlockerChange* change = request.add_changes();
  change->set_kind(walk::v1::BlockerChange::KIND_ADD_BUILDING);
  change->set_id(7);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  walk::v1::UpdateBlockersResponse response;
  std::printf("update: UpdateBlockers without a token: %s\n",
              Describe(p.live->UpdateBlockers(&context, request, &response)).c_str());
}

// `streams` batch clients each streaming 512 random pairs a round for `seconds`, while one
// client walks every 20 ms: pairs answered, unary latency, resident memory each 10 s.
void Sustain(Probe& p, int streams, int seconds) {
  const Clock::time_point start = Clock::now();
  const auto running = [&] { return SecondsSince(start) < seconds; };
  std::atomic<std::uint64_t> pairs{0}, stream_errors{0};
  std::vector<std::thread> clients;
  for (int s = 0; s < streams; ++s) {
    clients.emplace_back([&, s] {
      std::mt19937 random(100 + s);
      while (running()) {
        std::vector<walk::v1::WalkRequest> round;
        for (int i = 0; i < 512; ++i) round.push_back(RandomWalk(random));
        const walk::client::StreamedWalks answered =
            walk::client::StreamWalks(p.address, 600, round);
        if (!answered.status.ok()) ++stream_errors;
        for (const auto& a : answered.answers) pairs += a.has_value() ? 1 : 0;
      }
    });
  }
  // Trips between random places of d4 (its travel.json), one after another.
  std::atomic<std::uint64_t> trips{0}, trips_failed{0}, live_calls{0}, live_failed{0};
  clients.emplace_back([&] {
    std::mt19937 random(7);
    while (running()) {
      const walk::v1::WalkRequest walk = RandomWalk(random);
      walk::v1::TripRequest trip;
      trip.set_world("d4");
      *trip.mutable_from() = walk.from();
      *trip.mutable_to() = walk.to();
      trip.set_profile(random() % 2 ? "faction-a" : "faction-b");
      trip.set_band(random() % 2 ? 0 : 20);
      grpc::ClientContext context;
      context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
      walk::v1::TripResponse response;
      (p.walks->Trip(&context, trip, &response).ok() ? trips : trips_failed) += 1;
    }
  });
  // A game server on the live world "yard": a building placed and removed, and units' paths.
  clients.emplace_back([&] {
    std::mt19937 random(5);
    std::uniform_int_distribution<int> cell(0, 31);
    for (std::uint32_t round = 0; running(); ++round) {
      walk::v1::UpdateBlockersRequest update;
      update.set_world("yard");
      walk::v1::BlockerChange* change = update.add_changes();
      change->set_id(1);
      if (round % 2 == 0) {
        change->set_kind(walk::v1::BlockerChange::KIND_ADD_BUILDING);
        const double x = cell(random) % 28, y = cell(random) % 28;
        change->set_x0(x);
        change->set_y0(y);
        change->set_x1(x + 3);
        change->set_y1(y + 3);
      } else {
        change->set_kind(walk::v1::BlockerChange::KIND_REMOVE_BUILDING);
      }
      grpc::ClientContext update_context;
      if (!p.token.empty()) update_context.AddMetadata("authorization", "Bearer " + p.token);
      walk::v1::UpdateBlockersResponse updated;
      (p.live->UpdateBlockers(&update_context, update, &updated).ok() ? live_calls : live_failed) +=
          1;
      for (int unit = 0; unit < 20 && running(); ++unit) {
        walk::v1::LivePathRequest path;
        path.set_world("yard");
        path.mutable_start()->set_x(cell(random));
        path.mutable_start()->set_y(cell(random));
        path.mutable_goal()->set_x(cell(random));
        path.mutable_goal()->set_y(cell(random));
        path.set_unit(1 + random() % 100000);  // many units: the kept routes fill up
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
        walk::v1::LivePathResponse response;
        (p.live->LivePath(&context, path, &response).ok() ? live_calls : live_failed) += 1;
      }
    }
  });
  std::vector<double> unary;
  int unary_failed = 0;
  double peak_rss = 0.0;
  std::mt19937 random(9);
  int next_report = 10;
  std::printf(
      "sustain: %d batch streams of 512 random pairs a round, one unary walk every 20 ms, "
      "trips one after another, live updates and paths, %d s\n",
      streams, seconds);
  std::printf("  resident at start: %.0f MB\n", StatusMb(p.pid, "VmRSS:"));
  while (running()) {
    const auto [status, s] = p.TimedWalk(RandomWalk(random), 5.0);
    if (status.ok()) {
      unary.push_back(s);
    } else {
      ++unary_failed;
    }
    peak_rss = std::max(peak_rss, StatusMb(p.pid, "VmRSS:"));
    if (SecondsSince(start) >= next_report) {
      std::printf("  %3d s: %llu pairs answered, %llu trips, %llu live calls, resident %.0f MB\n",
                  next_report, static_cast<unsigned long long>(pairs.load()),
                  static_cast<unsigned long long>(trips.load()),
                  static_cast<unsigned long long>(live_calls.load()), StatusMb(p.pid, "VmRSS:"));
      std::fflush(stdout);
      next_report += 10;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  for (std::thread& t : clients) t.join();
  std::sort(unary.begin(), unary.end());
  const auto at = [&](double q) {
    return unary.empty()
               ? 0.0
               : unary[std::min(unary.size() - 1, static_cast<std::size_t>(q * unary.size()))];
  };
  const double elapsed = SecondsSince(start);
  std::printf(
      "sustain: %llu pairs in %.0f s (%.0f pairs/s), %llu streams failed; %llu trips (%llu "
      "failed), %llu live calls (%llu failed); unary %zu "
      "answered, %d failed: p50 %.1f ms, p99 %.1f ms, max %.1f ms; resident peak %.0f MB, "
      "end %.0f MB\n",
      static_cast<unsigned long long>(pairs.load()), elapsed, pairs.load() / elapsed,
      static_cast<unsigned long long>(stream_errors.load()),
      static_cast<unsigned long long>(trips.load()),
      static_cast<unsigned long long>(trips_failed.load()),
      static_cast<unsigned long long>(live_calls.load()),
      static_cast<unsigned long long>(live_failed.load()), unary.size(), unary_failed,
      at(0.5) * 1e3, at(0.99) * 1e3, unary.empty() ? 0.0 : unary.back() * 1e3, peak_rss,
      StatusMb(p.pid, "VmRSS:"));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hostile_probe: what walkd does under hostile requests"};
  Probe p;
  std::string probe;
  int streams = 16, seconds = 60;
  app.add_option("--addr", p.address, "walkd's gRPC address")->required();
  app.add_option("--pid", p.pid, "walkd's process id (for its resident memory)")->required();
  app.add_option("probe", probe,
                 "more, blocks, group, floors, deadline, starve, hold, update, "
                 "sustain")
      ->required();
  app.add_option("--streams", streams, "sustain: batch streams")->capture_default_str();
  app.add_option("--seconds", seconds, "sustain: how long")->capture_default_str();
  app.add_option("--token", p.token, "sustain: the token live updates send");
  app.add_option("--world", long_world, "hold: the world searched")->capture_default_str();
  app.add_option("--far", far_corner, "hold: the far corner, yards")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 << 20);
  args.SetMaxSendMessageSize(64 << 20);
  p.channel = grpc::CreateCustomChannel(p.address, grpc::InsecureChannelCredentials(), args);
  p.walks = walk::v1::WalkService::NewStub(p.channel);
  p.live = walk::v1::LiveService::NewStub(p.channel);
  if (probe == "more")
    More(p);
  else if (probe == "blocks")
    Blocks(p);
  else if (probe == "group")
    Group(p);
  else if (probe == "floors")
    Floors(p);
  else if (probe == "deadline")
    Deadline(p);
  else if (probe == "starve")
    Starve(p);
  else if (probe == "hold")
    Hold(p);
  else if (probe == "update")
    Update(p);
  else if (probe == "sustain")
    Sustain(p, streams, seconds);
  else {
    std::fprintf(stderr, "hostile_probe: unknown probe '%s'\n", probe.c_str());
    return 2;
  }
  return 0;
}
