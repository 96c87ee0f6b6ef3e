// walkctl store, run as the real binary: an ingest into a new store killed with SIGKILL at
// several points leaves no store or a whole one (every answer of the pack), and a rerun ingests
// it whole without any cleaning by hand; an ingest into a whole store killed the same way leaves
// it whole, with the pack's answers all there or none; an export killed the same way leaves no
// half pack, and a rerun exports it; a half store (no CURRENT) is refused naming the command
// that mends it. The kill points are files appearing in the folder the tool writes, polled for,
// not moments in time.
#include <signal.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nav/grid/grid.h"
#include "store/walk_store.h"
#include "tests/integration/walkd_process.h"
#include "tests/store/temp_dir.h"

namespace walk::client {
namespace {

namespace fs = std::filesystem;
using store::StoredWalk;
using store::WalkKey;
using store::WalkStore;
using store::WalkStoreOptions;
using walk::testing::ChildProcess;
using walk::testing::RunCommand;

constexpr int kRows = 200;
constexpr int kCols = 300;  // 60,000 answers a model

WalkKey KeyOf(std::uint64_t model, int i, int j) {
  WalkKey key;
  key.model = model;
  key.from.x_decis = i;
  key.from.surface = static_cast<std::uint32_t>(i);
  key.to.x_decis = j;
  key.to.y_decis = -j;
  key.to.surface = static_cast<std::uint32_t>(j);
  return key;
}

StoredWalk WalkOf(std::uint64_t model, int i, int j) {
  StoredWalk walk;
  walk.status = (i + j) % 9 == 0 ? nav::WalkStatus::kNoWalk : nav::WalkStatus::kOk;
  walk.method = nav::Method::kFineGrid;
  walk.seconds = static_cast<double>(model % 7) + i * 1.5 + j;
  walk.yards = i + j * 0.25;
  for (int k = 0; k < (i + j) % 3; ++k)
    walk.zone_cells.push_back({i, j, static_cast<std::uint16_t>(k + 1), 0.5 * k});
  return walk;
}

WalkStoreOptions OptionsFor(const std::string& dir, bool create) {
  WalkStoreOptions options;
  options.dir = dir;
  options.block_cache_bytes = 8 << 20;
  options.create_if_missing = create;
  return options;
}

// Writes the answers of `model` into the store in `dir`, then exports them as a pack of several
// files into `pack`.
void MakePack(const std::string& dir, std::uint64_t model, const std::string& pack) {
  absl::StatusOr<std::unique_ptr<WalkStore>> source = WalkStore::Open(OptionsFor(dir, true));
  ASSERT_TRUE(source.ok()) << source.status();
  for (int i = 0; i < kRows; ++i) {
    std::vector<std::pair<WalkKey, StoredWalk>> row;
    for (int j = 0; j < kCols; ++j) row.emplace_back(KeyOf(model, i, j), WalkOf(model, i, j));
    ASSERT_TRUE((*source)->PutBatch(row).ok());
  }
  store::ExportOptions files;
  files.max_file_bytes = 256 << 10;
  absl::StatusOr<store::ExportStats> exported = (*source)->ExportModel(model, pack, files);
  ASSERT_TRUE(exported.ok()) << exported.status();
  ASSERT_GE(exported->files.size(), 4u);
  ASSERT_TRUE((*source)->Close().ok());
}

// How many of `model`'s answers the store holds, each checked against what was written; -1 when
// one differs or cannot be read.
long CountEqual(const WalkStore& store, std::uint64_t model) {
  long stored = 0;
  for (int i = 0; i < kRows; ++i) {
    std::vector<WalkKey> keys;
    for (int j = 0; j < kCols; ++j) keys.push_back(KeyOf(model, i, j));
    std::vector<std::optional<StoredWalk>> got;
    if (!store.MultiGet(keys, &got).ok()) return -1;
    for (int j = 0; j < kCols; ++j) {
      if (!got[j].has_value()) continue;
      if (!(*got[j] == WalkOf(model, i, j))) return -1;
      ++stored;
    }
  }
  return stored;
}

// A file the tool writes, somewhere under the folder it writes in: the kill point.
struct KillPoint {
  std::string name;  // a file name starting with `name`, or ending with it when it starts with .
  int count = 1;     // killed once this many such files are there
};

int CountMatching(const std::string& root, const KillPoint& point) {
  int count = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const bool match =
        point.name.front() == '.'
            ? name.size() >= point.name.size() &&
                  name.compare(name.size() - point.name.size(), point.name.size(), point.name) == 0
            : name.rfind(point.name, 0) == 0;
    count += match ? 1 : 0;
  }
  return count;
}

// Runs `argv` and kills it with SIGKILL once `point` is seen under `root` (polled, at most a
// bounded number of times). True when it was killed, false when it ended first.
bool RunAndKillAt(const std::vector<std::string>& argv, const std::string& root,
                  const KillPoint& point) {
  ChildProcess child(argv);
  for (int poll = 0; poll < 2'000'000; ++poll) {
    if (CountMatching(root, point) >= point.count) {
      child.Signal(SIGKILL);
      const int code = child.Wait();
      EXPECT_TRUE(code == 128 + SIGKILL || code == 0) << child.FinishOutput();
      return code == 128 + SIGKILL;
    }
    if (child.Exited()) break;
  }
  const int code = child.Wait();
  EXPECT_EQ(code, 0) << child.FinishOutput();
  return false;
}

// Where an ingest into a new store is killed: each file RocksDB writes as it creates a store,
// then the tables it copies in, then the second manifest and options files RocksDB writes when
// the finished store is opened again.
const std::vector<KillPoint>& NewStorePoints() {
  static const std::vector<KillPoint> points = {
      {"LOCK"},    {"LOG"},     {"IDENTITY"}, {"MANIFEST-"},    {"CURRENT"},     {"OPTIONS-"},
      {".sst", 1}, {".sst", 3}, {".sst", 5},  {"MANIFEST-", 2}, {"OPTIONS-", 2},
  };
  return points;
}

// Where an ingest into a whole store, or an export, is killed: the tables it writes (counted
// beyond those there before), and the pack's manifest.
const std::vector<KillPoint>& TablePoints() {
  static const std::vector<KillPoint> points = {
      {".sst", 1}, {".sst", 2}, {".sst", 4}, {"walkpack.json"}};
  return points;
}

// The command a refusal names between backquotes, starting with `start`; empty when none.
std::string QuotedCommand(const std::string& message, const std::string& start) {
  const std::size_t at = message.find("`" + start);
  if (at == std::string::npos) return "";
  const std::size_t end = message.find('`', at + 1);
  return end == std::string::npos ? "" : message.substr(at + 1, end - at - 1);
}

class WalkctlStoreTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new store::testing::TempDir;
    MakePack(tmp_->Sub("source"), kModel, Pack());
    MakePack(tmp_->Sub("source2"), kModel2, Pack2());
  }
  static void TearDownTestSuite() { delete tmp_; }

  static std::string Pack() { return tmp_->Sub("pack"); }
  static std::string Pack2() { return tmp_->Sub("pack2"); }

  // The store in `dir` opens (nothing created) and holds every answer of `models`.
  static void ExpectWhole(const std::string& dir, const std::vector<std::uint64_t>& models) {
    absl::StatusOr<std::unique_ptr<WalkStore>> store = WalkStore::Open(OptionsFor(dir, false));
    ASSERT_TRUE(store.ok()) << store.status();
    for (std::uint64_t model : models) {
      EXPECT_EQ(CountEqual(**store, model), kRows * kCols) << dir << ": model " << model;
    }
  }

  static constexpr std::uint64_t kModel = 0x1111222233334444;
  static constexpr std::uint64_t kModel2 = 0x5555666677778888;
  static store::testing::TempDir* tmp_;
};
store::testing::TempDir* WalkctlStoreTest::tmp_;

TEST_F(WalkctlStoreTest, AnIngestIntoANewStoreKilledLeavesNoStoreOrAWholeOne) {
  int absent = 0, whole = 0;
  for (std::size_t k = 0; k < NewStorePoints().size(); ++k) {
    const KillPoint& point = NewStorePoints()[k];
    SCOPED_TRACE("killed at " + point.name + " #" + std::to_string(point.count));
    const std::string root = tmp_->Sub("new-" + std::to_string(k));
    const std::string target = root + "/store";
    fs::create_directories(root);
    const bool killed =
        RunAndKillAt({WALKCTL_BIN, "store", "ingest", Pack(), "--store", target}, root, point);
    if (!fs::exists(target)) {
      ++absent;
    } else {
      ++whole;
      ExpectWhole(target, {kModel});
    }
    std::printf("kill at %s #%d: %s; the target is %s\n", point.name.c_str(), point.count,
                killed ? "killed" : "ended first", fs::exists(target) ? "there" : "absent");
    // The same command again: it ends well, without cleaning by hand.
    const auto again = RunCommand({WALKCTL_BIN, "store", "ingest", Pack(), "--store", target});
    EXPECT_EQ(again.exit_code, 0) << again.output;
    ExpectWhole(target, {kModel});
  }
  EXPECT_GT(absent, 0) << "no kill landed before the store was whole";
  std::printf("%d kills left no store, %d a whole one\n", absent, whole);
}

TEST_F(WalkctlStoreTest, AnIngestIntoAWholeStoreKilledLeavesItWhole) {
  for (std::size_t k = 0; k < TablePoints().size(); ++k) {
    const KillPoint& point = TablePoints()[k];
    SCOPED_TRACE("killed at " + point.name + " #" + std::to_string(point.count));
    const std::string root = tmp_->Sub("old-" + std::to_string(k));
    const std::string target = root + "/store";
    fs::create_directories(root);
    const auto first = RunCommand({WALKCTL_BIN, "store", "ingest", Pack(), "--store", target});
    ASSERT_EQ(first.exit_code, 0) << first.output;
    const int before = CountMatching(root, point);
    const bool killed = RunAndKillAt({WALKCTL_BIN, "store", "ingest", Pack2(), "--store", target},
                                     root, KillPoint{point.name, before + point.count});
    absl::StatusOr<std::unique_ptr<WalkStore>> store = WalkStore::Open(OptionsFor(target, false));
    ASSERT_TRUE(store.ok()) << store.status();
    EXPECT_EQ(CountEqual(**store, kModel), kRows * kCols);
    const long second = CountEqual(**store, kModel2);
    EXPECT_TRUE(second == 0 || second == kRows * kCols) << second << " answers of the pack";
    std::printf("kill at %s #%d: %s; the store holds %ld answers of the second pack\n",
                point.name.c_str(), point.count, killed ? "killed" : "ended first", second);
    store->reset();
    const auto again = RunCommand({WALKCTL_BIN, "store", "ingest", Pack2(), "--store", target});
    EXPECT_EQ(again.exit_code, 0) << again.output;
    ExpectWhole(target, {kModel, kModel2});
  }
}

TEST_F(WalkctlStoreTest, AnExportKilledLeavesNoHalfPackAndARerunExports) {
  const std::string source = tmp_->Sub("source");
  const std::string model = nav::FormatId(kModel);
  int absent = 0;
  for (std::size_t k = 0; k < TablePoints().size(); ++k) {
    const KillPoint& point = TablePoints()[k];
    SCOPED_TRACE("killed at " + point.name + " #" + std::to_string(point.count));
    const std::string root = tmp_->Sub("export-" + std::to_string(k));
    const std::string out = root + "/pack";
    fs::create_directories(root);
    const std::vector<std::string> command = {WALKCTL_BIN, "store", "export", "--store", source,
                                              "--model",   model,   "--out",  out};
    const bool killed = RunAndKillAt(command, root, point);
    // OUT is absent, empty, or a whole pack: never SST files without their manifest.
    if (!fs::exists(out) || fs::is_empty(out)) {
      ++absent;
    } else {
      EXPECT_TRUE(fs::exists(fs::path(out) / store::kPackManifestName)) << out << " is half a pack";
    }
    std::printf("export killed at %s #%d: %s\n", point.name.c_str(), point.count,
                killed ? "killed" : "ended first");
    if (!fs::exists(fs::path(out) / store::kPackManifestName)) {
      const auto again = RunCommand(command);
      EXPECT_EQ(again.exit_code, 0) << again.output;
    }
    const auto ingested =
        RunCommand({WALKCTL_BIN, "store", "ingest", out, "--store", root + "/store"});
    EXPECT_EQ(ingested.exit_code, 0) << ingested.output;
    ExpectWhole(root + "/store", {kModel});
  }
  EXPECT_GT(absent, 0) << "no kill landed before the pack was whole";
}

// A store folder whose creation was cut short: RocksDB's first files, no CURRENT, no answers.
TEST_F(WalkctlStoreTest, AHalfStoreIsRefusedNamingTheCommandThatMendsIt) {
  const std::string dir = tmp_->Sub("half/store");
  fs::create_directories(tmp_->Sub("half"));
  {
    absl::StatusOr<std::unique_ptr<WalkStore>> made = WalkStore::Open(OptionsFor(dir, true));
    ASSERT_TRUE(made.ok()) << made.status();
    ASSERT_TRUE((*made)->Close().ok());
  }
  fs::remove(fs::path(dir) / "CURRENT");
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{WALKCTL_BIN, "store", "models", "--store", dir},
        std::vector<std::string>{WALKCTL_BIN, "store", "ingest", Pack(), "--store", dir}}) {
    const auto refused = RunCommand(command);
    EXPECT_EQ(refused.exit_code, 1) << refused.output;
    EXPECT_NE(refused.output.find(dir), std::string::npos) << refused.output;
    EXPECT_NE(refused.output.find("half store"), std::string::npos) << refused.output;
    EXPECT_NE(QuotedCommand(refused.output, "rm -r"), "") << refused.output;
  }
  EXPECT_FALSE(fs::exists(fs::path(dir) / "CURRENT")) << "nothing was made over it";
  // The command it names mends it: the ingest then makes a whole store.
  const auto refused = RunCommand({WALKCTL_BIN, "store", "ingest", Pack(), "--store", dir});
  const std::string mend = QuotedCommand(refused.output, "rm -r");
  ASSERT_EQ(RunCommand({"/bin/sh", "-c", mend}).exit_code, 0) << mend;
  const auto ingested = RunCommand({WALKCTL_BIN, "store", "ingest", Pack(), "--store", dir});
  EXPECT_EQ(ingested.exit_code, 0) << ingested.output;
  ExpectWhole(dir, {kModel});
}

}  // namespace
}  // namespace walk::client
