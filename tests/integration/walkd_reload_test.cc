// Worlds reloaded without a restart, on a real walkd and its RocksDB store: a rebuilt world is
// loaded beside the one serving and swapped in (AdminService.Reload, token-protected, and
// SIGHUP), a batch stream runs across the swap with no pair failing, an unchanged world's
// answers still come from the store, a continent rebuilt alone changes only its own content id
// (the other continent's answers still come from the store), and a damaged world keeps its old
// world serving with the error in Info, the log and walk_world_reloads_total.
#include <sys/stat.h>

#include <fstream>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <thread>

#include "client/walk_client.h"
#include "gtest/gtest.h"
#include "tests/integration/walkd_process.h"
#include "tests/server/http_get.h"

namespace walk {
namespace {

using testing::ChildProcess;
using testing::RunCommand;

constexpr char kReloadToken[] = "reload-token-of-walkd-0123456789";
constexpr int kSide = 192;

// A random MovingAI map of kSide x kSide cells, `blocked` of them walls, seeded by `seed`.
void WriteMap(const std::string& path, unsigned seed, double blocked) {
  std::mt19937 random(seed);
  std::bernoulli_distribution wall(blocked);
  std::ofstream out(path);
  out << "type octile\nheight " << kSide << "\nwidth " << kSide << "\nmap\n";
  for (int y = 0; y < kSide; ++y) {
    for (int x = 0; x < kSide; ++x) out << (wall(random) ? '@' : '.');
    out << '\n';
  }
}

// Builds world `dir` (or, with `continent`, that continent of it, the others kept) from a map of
// `seed` and prepares the abstract graph of what changed (long walks go over its CCH).
void BuildWorld(const std::string& root, const std::string& dir, unsigned seed,
                std::optional<int> continent = std::nullopt) {
  const std::string map = root + "/map-" + std::to_string(seed) + ".map";
  WriteMap(map, seed, 0.15);
  std::vector<std::string> flags;
  if (continent) flags = {"--continent", std::to_string(*continent), "--replace"};
  const std::optional<std::string> failed =
      testing::ImportAndPrepare(WALKGRID_BIN, map, dir, "shortest", flags);
  ASSERT_FALSE(failed.has_value()) << *failed;
}

// Fixed random pairs on `continent` of `world`.
std::vector<walk::v1::WalkRequest> Pairs(const std::string& world, unsigned seed, int count,
                                         std::uint32_t continent = 0) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> coordinate(0.5, kSide - 0.5);
  std::vector<walk::v1::WalkRequest> pairs;
  for (int i = 0; i < count; ++i) {
    walk::v1::WalkRequest r;
    r.set_world(world);
    r.mutable_from()->set_x_yards(coordinate(random));
    r.mutable_from()->set_y_yards(coordinate(random));
    r.mutable_to()->set_x_yards(coordinate(random));
    r.mutable_to()->set_y_yards(coordinate(random));
    r.mutable_from()->set_continent(continent);
    r.mutable_to()->set_continent(continent);
    pairs.push_back(r);
  }
  return pairs;
}

// Asks each pair by Walk, all answered.
void AskAll(client::WalkClient& client, const std::vector<walk::v1::WalkRequest>& pairs) {
  for (const walk::v1::WalkRequest& r : pairs) {
    walk::v1::WalkResponse response;
    const grpc::Status status = client.Walk(r, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
  }
}

walk::v1::WorldInfo InfoOf(client::WalkClient& client, const std::string& name) {
  walk::v1::InfoResponse info;
  EXPECT_TRUE(client.Info(&info).ok());
  for (const walk::v1::WorldInfo& w : info.worlds()) {
    if (w.name() == name) return w;
  }
  return walk::v1::WorldInfo();
}

// The value of the series of `family` whose labels read `labels` ("result=\"failed\",world=\"x\"").
double MetricValue(const std::string& metrics_address, const std::string& series) {
  absl::StatusOr<testing::HttpReply> reply = testing::HttpGet(metrics_address, "/metrics");
  if (!reply.ok()) return -1;
  const std::size_t at = reply->body.find("\n" + series + " ");
  if (at == std::string::npos) return -1;
  return std::stod(reply->body.substr(at + series.size() + 2));
}

class WalkdReloadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = testing::FreshTempDir("walkd-reload-it", "worlds");
    worlds_ = root_ + "/worlds";
    BuildWorld(root_, worlds_ + "/alpha", 1);
    BuildWorld(root_, worlds_ + "/beta", 2);
    BuildWorld(root_, worlds_ + "/gamma", 5);  // two continents
    BuildWorld(root_, worlds_ + "/gamma", 6, 1);
    token_file_ = root_ + "/token";
    std::ofstream(token_file_) << kReloadToken << "\n";
    chmod(token_file_.c_str(), 0600);
    walkd_ = std::make_unique<ChildProcess>(std::vector<std::string>{
        WALKD_BIN, "--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0", "--search-threads",
        "2", "--worlds", worlds_, "--data", root_ + "/data", "--auth-token-file", token_file_});
    address_ = walkd_->WaitForLine("walkd: grpc listening on ").value_or("");
    const std::string metrics = walkd_->WaitForLine("walkd: metrics on http://").value_or("");
    metrics_address_ = metrics.substr(0, metrics.find('/'));
    ASSERT_FALSE(address_.empty()) << walkd_->output();
    client::ConnectionFiles files;
    files.address = address_;
    files.token_file = token_file_;
    absl::StatusOr<client::Connection> connection = client::Connect(files);
    ASSERT_TRUE(connection.ok()) << connection.status();
    client_ = std::make_unique<client::WalkClient>(*connection, 120.0);
    ASSERT_TRUE(testing::WaitUntil([&] {
      return InfoOf(*client_, "alpha").state() == walk::v1::WORLD_STATE_READY &&
             InfoOf(*client_, "beta").state() == walk::v1::WORLD_STATE_READY &&
             InfoOf(*client_, "gamma").state() == walk::v1::WORLD_STATE_READY;
    })) << walkd_->output();
  }

  void TearDown() override {
    if (walkd_ == nullptr) return;
    walkd_->Signal(SIGTERM);
    EXPECT_EQ(walkd_->Wait(), 0) << walkd_->output();
  }

  walk::v1::ReloadResponse Reload(const std::string& world) {
    walk::v1::ReloadRequest request;
    request.set_world(world);
    walk::v1::ReloadResponse response;
    const grpc::Status status = client_->Reload(request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response;
  }

  std::string root_, worlds_, token_file_, address_, metrics_address_;
  std::unique_ptr<ChildProcess> walkd_;
  std::unique_ptr<client::WalkClient> client_;
};

// One WalkBatch stream whose pairs are written in two halves: `between` runs once the first
// half's answers are all in, before the second half is written.
struct Streamed {
  std::map<std::uint64_t, walk::v1::WalkBatchResponse> answers;
  grpc::Status status;
};
Streamed StreamAcross(const std::string& address, const std::vector<walk::v1::WalkRequest>& first,
                      const std::vector<walk::v1::WalkRequest>& second,
                      const std::function<void()>& between) {
  auto stub = walk::v1::WalkService::NewStub(
      grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(600));
  auto stream = stub->WalkBatch(&context);
  Streamed result;
  std::mutex mu;
  std::condition_variable first_done;
  std::thread reader([&] {
    walk::v1::WalkBatchResponse response;
    while (stream->Read(&response)) {
      if (response.has_summary()) continue;
      std::lock_guard<std::mutex> lock(mu);
      result.answers[response.index()] = response;
      for (const auto& more : response.more()) result.answers[more.index()] = more;
      if (result.answers.size() >= first.size()) first_done.notify_all();
    }
  });
  walk::v1::WalkBatchRequest request;
  for (std::size_t i = 0; i < first.size(); ++i) {
    request.set_index(i);
    *request.mutable_walk() = first[i];
    EXPECT_TRUE(stream->Write(request));
  }
  between();  // while the first half is answered
  {
    std::unique_lock<std::mutex> lock(mu);
    first_done.wait(lock, [&] { return result.answers.size() >= first.size(); });
  }
  for (std::size_t i = 0; i < second.size(); ++i) {
    request.set_index(first.size() + i);
    *request.mutable_walk() = second[i];
    EXPECT_TRUE(stream->Write(request));
  }
  stream->WritesDone();
  reader.join();
  result.status = stream->Finish();
  return result;
}

// Streams `pairs` through WalkBatch; how many the store answered, and how many it could have
// (ends off every surface are never kept). Every pair must be answered OK.
std::pair<int, int> StoredOf(const std::string& address,
                             const std::vector<walk::v1::WalkRequest>& pairs) {
  const Streamed streamed = StreamAcross(address, pairs, {}, [] {});
  EXPECT_TRUE(streamed.status.ok()) << streamed.status.error_message();
  int stored = 0, keepable = 0;
  for (const auto& [index, answer] : streamed.answers) {
    EXPECT_EQ(answer.code(), 0) << answer.message();
    stored += answer.stored() ? 1 : 0;
    keepable += answer.walk().status() != walk::v1::WALK_STATUS_NO_SURFACE &&
                        answer.walk().status() != walk::v1::WALK_STATUS_OFF_MAP
                    ? 1
                    : 0;
  }
  return {stored, keepable};
}

TEST_F(WalkdReloadTest, ARebuiltWorldIsSwappedInWhileABatchRunsAndTheOtherStaysStored) {
  const walk::v1::WorldInfo alpha_before = InfoOf(*client_, "alpha");
  const walk::v1::WorldInfo beta_before = InfoOf(*client_, "beta");
  EXPECT_EQ(alpha_before.reload().generation(), 1u);
  const std::vector<walk::v1::WalkRequest> alpha_pairs = Pairs("alpha", 11, 200);
  const std::vector<walk::v1::WalkRequest> beta_pairs = Pairs("beta", 12, 200);
  EXPECT_EQ(StoredOf(address_, beta_pairs).first, 0);
  AskAll(*client_, alpha_pairs);

  // Without the token the reload is refused; nothing changed yet anyway.
  {
    client::WalkClient anonymous(address_, 30.0);
    walk::v1::ReloadResponse response;
    EXPECT_EQ(anonymous.Reload(walk::v1::ReloadRequest(), &response).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
  }
  const walk::v1::ReloadResponse nothing = Reload("");
  ASSERT_EQ(nothing.worlds_size(), 3);
  EXPECT_EQ(nothing.worlds(0).result(), walk::v1::RELOAD_RESULT_UNCHANGED);
  EXPECT_EQ(nothing.worlds(1).result(), walk::v1::RELOAD_RESULT_UNCHANGED);

  BuildWorld(root_, worlds_ + "/alpha", 3);  // alpha rebuilt from another map
  walk::v1::ReloadResponse reloaded;
  std::vector<walk::v1::WalkRequest> first = alpha_pairs, second = alpha_pairs;
  first.insert(first.end(), beta_pairs.begin(), beta_pairs.end());
  // Pairs not stored yet: routed on the search pool while the reload runs.
  const std::vector<walk::v1::WalkRequest> fresh = Pairs("alpha", 13, 400);
  first.insert(first.end(), fresh.begin(), fresh.end());
  second.insert(second.end(), beta_pairs.begin(), beta_pairs.end());
  const Streamed streamed =
      StreamAcross(address_, first, second, [&] { reloaded = Reload("alpha"); });
  ASSERT_TRUE(streamed.status.ok()) << streamed.status.error_message();
  ASSERT_EQ(streamed.answers.size(), first.size() + second.size());
  std::set<std::string> alpha_models_after;
  for (const auto& [index, answer] : streamed.answers) {
    EXPECT_EQ(answer.code(), 0) << "pair " << index << ": " << answer.message();
    if (index >= first.size() && index < first.size() + alpha_pairs.size()) {
      alpha_models_after.insert(answer.walk().model_id());
    }
  }
  ASSERT_EQ(reloaded.worlds_size(), 1);
  EXPECT_EQ(reloaded.worlds(0).result(), walk::v1::RELOAD_RESULT_RELOADED)
      << reloaded.worlds(0).error();
  EXPECT_EQ(reloaded.worlds(0).generation(), 2u);
  std::printf("alpha reloaded in %.3f s (%s changed)\n", reloaded.worlds(0).seconds(),
              reloaded.worlds(0).changed_files().c_str());

  const walk::v1::WorldInfo alpha_after = InfoOf(*client_, "alpha");
  const walk::v1::WorldInfo beta_after = InfoOf(*client_, "beta");
  EXPECT_NE(alpha_after.content_id(), alpha_before.content_id());
  EXPECT_EQ(alpha_after.content_id(), reloaded.worlds(0).content_id());
  EXPECT_EQ(alpha_after.reload().generation(), 2u);
  EXPECT_EQ(alpha_after.reload().last().result(), walk::v1::RELOAD_RESULT_RELOADED);
  EXPECT_EQ(beta_after.content_id(), beta_before.content_id());
  EXPECT_EQ(beta_after.reload().generation(), 1u);
  // The second half's alpha walks were answered by the new world only (its models).
  std::set<std::string> new_models;
  for (const auto& m : alpha_after.models()) new_models.insert(m.grid_model());
  for (const std::string& model : alpha_models_after) {
    EXPECT_TRUE(new_models.count(model)) << model << " is not the new alpha's";
  }
  // The unchanged world's answers are still the store's.
  const auto [stored, keepable] = StoredOf(address_, beta_pairs);
  EXPECT_GT(keepable, 100);
  EXPECT_EQ(stored, keepable);
  EXPECT_EQ(MetricValue(metrics_address_,
                        "walk_world_reloads_total{result=\"reloaded\",world=\"alpha\"}"),
            1.0);

  // SIGHUP reloads what changed: beta now.
  BuildWorld(root_, worlds_ + "/beta", 4);
  walkd_->Signal(SIGHUP);
  ASSERT_TRUE(walkd_->WaitForLine("walkd: reload (SIGHUP): 1 reloaded, 2 unchanged, 0 failed"))
      << walkd_->output();
  EXPECT_EQ(InfoOf(*client_, "beta").reload().generation(), 2u);
  EXPECT_NE(InfoOf(*client_, "beta").content_id(), beta_before.content_id());
  EXPECT_EQ(InfoOf(*client_, "alpha").reload().generation(), 2u);
}

TEST_F(WalkdReloadTest, ADamagedWorldKeepsTheOldServingAndSaysWhy) {
  const walk::v1::WorldInfo before = InfoOf(*client_, "alpha");
  std::ofstream(worlds_ + "/alpha/grid.walkgrid", std::ios::trunc) << "not a grid";
  const testing::CommandResult reloaded =
      RunCommand({WALKCTL_BIN, "--addr", address_, "--token-file", token_file_, "admin", "reload"});
  EXPECT_EQ(reloaded.exit_code, 4) << reloaded.output;
  EXPECT_NE(reloaded.output.find("world alpha: failed (the old world still serves, content id " +
                                 before.content_id()),
            std::string::npos)
      << reloaded.output;
  EXPECT_NE(reloaded.output.find("world beta: unchanged"), std::string::npos) << reloaded.output;

  const walk::v1::WorldInfo after = InfoOf(*client_, "alpha");
  EXPECT_EQ(after.state(), walk::v1::WORLD_STATE_READY);
  EXPECT_EQ(after.content_id(), before.content_id());
  EXPECT_EQ(after.reload().last().result(), walk::v1::RELOAD_RESULT_FAILED);
  EXPECT_NE(after.reload().last().error().find("grid.walkgrid"), std::string::npos)
      << after.reload().last().error();
  EXPECT_EQ(after.reload().failed_reloads(), 1u);
  EXPECT_TRUE(
      walkd_->WaitForLine("walkd: world 'alpha' failed to reload (the old world still "
                          "serves): "))
      << walkd_->output();
  EXPECT_EQ(
      MetricValue(metrics_address_, "walk_world_reloads_total{result=\"failed\",world=\"alpha\"}"),
      1.0);
  // The old world answers on.
  const std::vector<walk::v1::WalkRequest> pairs = Pairs("alpha", 21, 20);
  AskAll(*client_, pairs);
}

// Continent 1 rebuilt alone: the reload gives it a new content id and leaves continent 0's, whose
// answers the store still gives.
TEST_F(WalkdReloadTest, AContinentRebuiltAloneKeepsTheOthersStoredAnswers) {
  const walk::v1::WorldInfo before = InfoOf(*client_, "gamma");
  ASSERT_EQ(before.continents_size(), 2);
  const std::vector<walk::v1::WalkRequest> on_0 = Pairs("gamma", 31, 150, 0);
  const std::vector<walk::v1::WalkRequest> on_1 = Pairs("gamma", 32, 150, 1);
  StoredOf(address_, on_0);
  StoredOf(address_, on_1);

  BuildWorld(root_, worlds_ + "/gamma", 7, 1);
  const walk::v1::ReloadResponse reloaded = Reload("gamma");
  ASSERT_EQ(reloaded.worlds_size(), 1);
  EXPECT_EQ(reloaded.worlds(0).result(), walk::v1::RELOAD_RESULT_RELOADED)
      << reloaded.worlds(0).error();
  const walk::v1::WorldInfo after = InfoOf(*client_, "gamma");
  ASSERT_EQ(after.continents_size(), 2);
  EXPECT_EQ(after.continents(0).content_id(), before.continents(0).content_id());
  EXPECT_NE(after.continents(1).content_id(), before.continents(1).content_id());
  EXPECT_EQ(after.reload().generation(), 2u);

  const auto [stored_0, keepable_0] = StoredOf(address_, on_0);
  EXPECT_GT(keepable_0, 50);
  EXPECT_EQ(stored_0, keepable_0) << "continent 0's answers are still the store's";
  const auto [stored_1, keepable_1] = StoredOf(address_, on_1);
  EXPECT_GT(keepable_1, 50);
  EXPECT_EQ(stored_1, 0) << "continent 1 is new: its walks are routed";
}

}  // namespace
}  // namespace walk
