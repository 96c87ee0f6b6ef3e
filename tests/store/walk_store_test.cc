// The walk store against a real RocksDB in a temporary directory: lookups, models kept apart,
// counts, store packs (export, ingest, refusal of damaged packs), and stores with damaged files.
// The crash-and-reopen test is walk_store_crash_test.cc.
#include "store/walk_store.h"

#include <filesystem>
#include <fstream>
#include <random>

#include "gtest/gtest.h"
#include "nav/query/walk_pipeline.h"
#include "store/model_hash.h"
#include "store/open_checks.h"
#include "store/staged_dir.h"
#include "tests/nav/ascii_grid.h"
#include "tests/store/temp_dir.h"

namespace walk::store {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

WalkStoreOptions OptionsFor(const std::string& dir) {
  WalkStoreOptions options;
  options.dir = dir;
  options.block_cache_bytes = 8 << 20;
  return options;
}

std::unique_ptr<WalkStore> OpenOrDie(const std::string& dir) {
  absl::StatusOr<std::unique_ptr<WalkStore>> store = WalkStore::Open(OptionsFor(dir));
  EXPECT_TRUE(store.ok()) << store.status();
  return store.ok() ? *std::move(store) : nullptr;
}

// A key of `model` from (i, 0) to (j, 1) on continent 0.
WalkKey KeyOf(std::uint64_t model, int i, int j) {
  WalkKey key;
  key.model = model;
  key.from.x_decis = i;
  key.from.surface = static_cast<std::uint32_t>(i);
  key.to.x_decis = j;
  key.to.y_decis = 1;
  key.to.has_z = j % 2 == 0;
  key.to.z_decis = key.to.has_z ? -j : 0;
  key.to.surface = static_cast<std::uint32_t>(j);
  return key;
}

StoredWalk WalkOf(int i, int j) {
  StoredWalk walk;
  walk.status = (i + j) % 5 == 0 ? nav::WalkStatus::kNoWalk : nav::WalkStatus::kOk;
  walk.method = nav::Method::kFineGrid;
  walk.seconds = i * 1.5 + j;
  walk.yards = i + j * 0.25;
  walk.retried = i % 7 == 0;
  for (int k = 0; k < (i + j) % 4; ++k)
    walk.zone_cells.push_back({k, -k, static_cast<std::uint16_t>(i), 1.0 * j});
  return walk;
}

std::vector<std::pair<WalkKey, StoredWalk>> Batch(std::uint64_t model, int rows, int cols) {
  std::vector<std::pair<WalkKey, StoredWalk>> batch;
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) batch.emplace_back(KeyOf(model, i, j), WalkOf(i, j));
  }
  return batch;
}

void ExpectAllStored(const WalkStore& store,
                     const std::vector<std::pair<WalkKey, StoredWalk>>& batch) {
  for (const auto& [key, walk] : batch) {
    StoredWalk got;
    bool found = false;
    ASSERT_TRUE(store.Get(key, &got, &found).ok());
    ASSERT_TRUE(found);
    ASSERT_EQ(got, walk);
  }
}

TEST(WalkStoreTest, PutThenGetAndMultiGet) {
  TempDir tmp;
  auto store = OpenOrDie(tmp.Sub("store"));
  ASSERT_NE(store, nullptr);
  const auto batch = Batch(42, 20, 30);
  ASSERT_TRUE(store->PutBatch(batch).ok());
  ExpectAllStored(*store, batch);

  StoredWalk got;
  bool found = true;
  ASSERT_TRUE(store->Get(KeyOf(42, 20, 0), &got, &found).ok());
  EXPECT_FALSE(found);

  // Present and missing keys mixed; answers come back in the order asked.
  std::vector<WalkKey> keys = {KeyOf(42, 3, 4), KeyOf(42, 99, 99), KeyOf(42, 0, 0),
                               KeyOf(43, 3, 4)};
  std::vector<std::optional<StoredWalk>> out;
  ASSERT_TRUE(store->MultiGet(keys, &out).ok());
  ASSERT_EQ(out.size(), 4u);
  ASSERT_TRUE(out[0].has_value());
  EXPECT_EQ(*out[0], WalkOf(3, 4));
  EXPECT_FALSE(out[1].has_value());
  ASSERT_TRUE(out[2].has_value());
  EXPECT_EQ(*out[2], WalkOf(0, 0));
  EXPECT_FALSE(out[3].has_value());
  ASSERT_TRUE(store->MultiGet({}, &out).ok());
  EXPECT_TRUE(out.empty());
  EXPECT_TRUE(store->PutBatch({}).ok());

  // From the tables as from the memtable.
  ASSERT_TRUE(store->Flush().ok());
  ExpectAllStored(*store, batch);
  std::vector<WalkKey> all;
  for (const auto& [key, walk] : batch) all.push_back(key);
  ASSERT_TRUE(store->MultiGet(all, &out).ok());
  for (std::size_t i = 0; i < all.size(); ++i) {
    ASSERT_TRUE(out[i].has_value());
    ASSERT_EQ(*out[i], batch[i].second);
  }
}

TEST(WalkStoreTest, AnswersSurviveCloseAndReopen) {
  TempDir tmp;
  const std::string dir = tmp.Sub("store");
  const auto flushed = Batch(1, 10, 10);
  const auto logged_only = Batch(2, 10, 10);
  {
    auto store = OpenOrDie(dir);
    ASSERT_TRUE(store->PutBatch(flushed).ok());
    ASSERT_TRUE(store->Flush().ok());
    ASSERT_TRUE(store->PutBatch(logged_only).ok());  // in the log and the memtable only
    ASSERT_TRUE(store->Close().ok());
    StoredWalk got;
    bool found = false;
    EXPECT_EQ(store->Get(KeyOf(1, 0, 0), &got, &found).code(),
              absl::StatusCode::kFailedPrecondition);
    EXPECT_EQ(store->Close().code(), absl::StatusCode::kFailedPrecondition);
  }
  auto store = OpenOrDie(dir);
  ExpectAllStored(*store, flushed);
  ExpectAllStored(*store, logged_only);
}

TEST(WalkStoreTest, AShrunkBlockCacheGivesItsBlocksBackAndStaysShrunkThroughAReopen) {
  TempDir tmp;
  auto store = OpenOrDie(tmp.Sub("store"));
  ASSERT_NE(store, nullptr);
  const auto batch = Batch(5, 300, 300);
  ASSERT_TRUE(store->PutBatch(batch).ok());
  ASSERT_TRUE(store->CompactAll().ok());
  std::vector<WalkKey> all;
  for (const auto& [key, walk] : batch) all.push_back(key);
  std::vector<std::optional<StoredWalk>> out;
  auto cached = [&] {
    EXPECT_TRUE(store->MultiGet(all, &out).ok());
    absl::StatusOr<WalkStore::MemoryUse> use = store->Memory();
    EXPECT_TRUE(use.ok()) << use.status();
    return use.ok() ? use->block_cache : 0;
  };
  const std::uint64_t full = cached();
  ASSERT_GT(full, std::uint64_t{1} << 20) << "90,000 answers' blocks read into the cache";
  store->SetBlockCacheBytes(std::size_t{256} << 10);
  EXPECT_LE(cached(), std::uint64_t{256} << 10);
  ASSERT_TRUE(store->Reopen().ok());
  EXPECT_LE(cached(), std::uint64_t{256} << 10) << "the cache is the options', kept by a reopen";
  ASSERT_TRUE(out.back().has_value());
  EXPECT_EQ(*out.back(), batch.back().second);
  store->SetBlockCacheBytes(std::size_t{8} << 20);
  EXPECT_GT(cached(), std::uint64_t{1} << 20);
}

TEST(WalkStoreTest, AQuotaStopsWritesAndKeepsReadsAndReopenKeepsEverythingStored) {
  TempDir tmp;
  WalkStoreOptions options;
  options.dir = tmp.Sub("store");
  options.write_buffer_bytes = 64 << 10;  // flush often, so the tables meet the quota soon
  options.max_bytes = 256 << 10;
  absl::StatusOr<std::unique_ptr<WalkStore>> opened = WalkStore::Open(options);
  ASSERT_TRUE(opened.ok()) << opened.status();
  WalkStore& store = **opened;
  absl::Status refused;
  int batches = 0;
  for (; batches < 2000 && refused.ok(); ++batches) {
    refused = store.PutBatch(Batch(7, batches, 20));
    if (refused.ok() && batches % 20 == 19) refused = store.Flush();
  }
  ASSERT_FALSE(refused.ok()) << "the quota never stopped a write";
  EXPECT_NE(refused.message().find("walk store"), std::string::npos) << refused;
  // Lookups go on: the first batches are answered.
  ExpectAllStored(store, Batch(7, 5, 20));
  // Opened again, it still holds them; writes stay refused while the quota is met.
  ASSERT_TRUE(store.Reopen().ok());
  ExpectAllStored(store, Batch(7, 5, 20));
}

TEST(WalkStoreTest, ModelsAreKeptApart) {
  TempDir tmp;
  auto store = OpenOrDie(tmp.Sub("store"));
  const std::uint64_t a = 0x1111, b = 0xFFFFFFFFFFFFFFFFULL, c = 0;
  ASSERT_TRUE(store->PutBatch(Batch(a, 10, 12)).ok());
  ASSERT_TRUE(store->Flush().ok());
  ASSERT_TRUE(store->PutBatch(Batch(b, 3, 5)).ok());
  ASSERT_TRUE(store->PutBatch(Batch(c, 1, 1)).ok());
  // The same ends under a model that holds none of them: not found.
  StoredWalk got;
  bool found = true;
  ASSERT_TRUE(store->Get(KeyOf(a + 1, 0, 0), &got, &found).ok());
  EXPECT_FALSE(found);
  ASSERT_TRUE(store->Get(KeyOf(b, 5, 5), &got, &found).ok());
  EXPECT_FALSE(found);
  ASSERT_TRUE(store->Get(KeyOf(b, 2, 4), &got, &found).ok());
  EXPECT_TRUE(found);

  absl::StatusOr<std::vector<std::uint64_t>> models = store->Models();
  ASSERT_TRUE(models.ok()) << models.status();
  EXPECT_EQ(*models, (std::vector<std::uint64_t>{c, a, b}));

  EXPECT_EQ(*store->CountAnswers(a), 120u);
  EXPECT_EQ(*store->CountAnswers(b), 15u);
  EXPECT_EQ(*store->CountAnswers(c), 1u);
  EXPECT_EQ(*store->CountAnswers(a + 1), 0u);
  // Overwriting answers does not count them twice, in memtable or tables.
  ASSERT_TRUE(store->PutBatch(Batch(a, 10, 12)).ok());
  EXPECT_EQ(*store->CountAnswers(a), 120u);
  ASSERT_TRUE(store->Flush().ok());
  EXPECT_EQ(*store->CountAnswers(a), 120u);
  absl::StatusOr<std::uint64_t> estimate = store->EstimateAnswers();
  ASSERT_TRUE(estimate.ok());
  EXPECT_GT(*estimate, 0u);
  ASSERT_TRUE(store->CompactAll().ok());
  EXPECT_EQ(*store->CountAnswers(a), 120u);
  EXPECT_EQ(*store->EstimateAnswers(), 136u) << "exact once compacted";
}

// Real answers from the walker on a small world with walls and water, for two profiles.
class StorePackTest : public ::testing::Test {
 protected:
  StorePackTest() {
    for (const char* name : {"shortest", "neutral"}) {
      metrics_.push_back(std::make_unique<nav::Metric>(world_, *nav::FindProfile(name), 0));
    }
    std::mt19937_64 rng(17);
    for (int i = 0; i < 24; ++i) {
      nav::Place p;
      p.x_yards = static_cast<double>(rng() % 140) / 10.0;  // some in walls, some off the map
      p.y_yards = static_cast<double>(rng() % 70) / 10.0;
      if (i % 3 == 0) p.z_yards = 0.0;
      places_.push_back(p);
    }
  }

  std::uint64_t Model(int m) const { return ModelHash({world_.content_id, metrics_[m].get()}); }

  // Every answer of model `m`, computed now (with `walker`, else the fixture's).
  std::vector<std::pair<WalkKey, StoredWalk>> Compute(int m, nav::FineGridAStar* astar = nullptr) {
    std::vector<std::pair<WalkKey, StoredWalk>> answers;
    for (const nav::Place& from : places_) {
      for (const nav::Place& to : places_) {
        absl::StatusOr<nav::WalkAnswer> answer =
            nav::AnswerWalk(world_, *metrics_[m], from, to, astar != nullptr ? *astar : walker_);
        EXPECT_TRUE(answer.ok()) << answer.status();
        answers.emplace_back(MakeWalkKey(Model(m), world_, from, to), FromAnswer(*answer));
      }
    }
    return answers;
  }

  const nav::World world_ = nav::testing::AsciiWorld({
      "......@.....",
      "..WW..@..S..",
      "..WW..@.....",
      "......@@@@..",
      "............",
      "..@@@.......",
  });
  std::vector<std::unique_ptr<nav::Metric>> metrics_;
  std::vector<nav::Place> places_;
  nav::FineGridAStar walker_;
};

TEST_F(StorePackTest, AnswersAfterIngestEqualThoseComputedOnline) {
  ASSERT_NE(Model(0), Model(1));
  TempDir tmp;
  auto source = OpenOrDie(tmp.Sub("source"));
  const auto first = Compute(0);
  ASSERT_TRUE(source->PutBatch(first).ok());
  ASSERT_TRUE(source->PutBatch(Compute(1)).ok());
  // Some answers in tables, some only in the memtable: the export reads both.
  ASSERT_TRUE(source->Flush().ok());
  ASSERT_TRUE(source->PutBatch(Compute(0)).ok());

  ExportOptions small_files;
  small_files.max_file_bytes = 4096;
  absl::StatusOr<ExportStats> exported =
      source->ExportModel(Model(0), tmp.Sub("pack"), small_files);
  ASSERT_TRUE(exported.ok()) << exported.status();
  const std::uint64_t distinct = *source->CountAnswers(Model(0));
  EXPECT_EQ(exported->answers, distinct);
  EXPECT_GT(exported->files.size(), 1u) << "split at 4 KB";
  EXPECT_TRUE(fs::exists(fs::path(tmp.Sub("pack")) / kPackManifestName));

  auto fresh = OpenOrDie(tmp.Sub("fresh"));
  absl::StatusOr<IngestStats> ingested = fresh->Ingest(tmp.Sub("pack"));
  ASSERT_TRUE(ingested.ok()) << ingested.status();
  EXPECT_EQ(ingested->model, Model(0));
  EXPECT_EQ(ingested->answers, distinct);
  EXPECT_EQ(ingested->files, exported->files.size());
  EXPECT_EQ(*fresh->CountAnswers(Model(0)), distinct);
  EXPECT_EQ(*fresh->CountAnswers(Model(1)), 0u) << "only the exported model";
  EXPECT_EQ(*fresh->Models(), std::vector<std::uint64_t>{Model(0)});

  // Computed again, now, with a fresh walker: equal to what the ingested store answers.
  nav::FineGridAStar fresh_walker;
  for (const auto& [key, walk] : Compute(0, &fresh_walker)) {
    StoredWalk got;
    bool found = false;
    ASSERT_TRUE(fresh->Get(key, &got, &found).ok());
    ASSERT_TRUE(found);
    ASSERT_EQ(got, walk);
  }
  // Also after reopening the ingested store.
  ASSERT_TRUE(fresh->Close().ok());
  fresh = OpenOrDie(tmp.Sub("fresh"));
  ExpectAllStored(*fresh, first);

  // Ingesting the same pack again changes nothing; the pack itself is left as it was.
  ASSERT_TRUE(fresh->Ingest(tmp.Sub("pack")).ok());
  EXPECT_EQ(*fresh->CountAnswers(Model(0)), distinct);
  ASSERT_TRUE(fresh->CompactAll().ok());
  EXPECT_EQ(*fresh->CountAnswers(Model(0)), distinct);
  ExpectAllStored(*fresh, first);
}

TEST_F(StorePackTest, ExportRefusesADirectoryInUseAndExportsAnEmptyModel) {
  TempDir tmp;
  auto store = OpenOrDie(tmp.Sub("store"));
  ASSERT_TRUE(store->PutBatch(Compute(0)).ok());
  fs::create_directories(tmp.Sub("busy"));
  std::ofstream(tmp.Sub("busy/x")) << "x";
  EXPECT_EQ(store->ExportModel(Model(0), tmp.Sub("busy")).status().code(),
            absl::StatusCode::kFailedPrecondition);

  absl::StatusOr<ExportStats> empty = store->ExportModel(Model(1), tmp.Sub("empty"));
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->answers, 0u);
  EXPECT_TRUE(empty->files.empty());
  auto fresh = OpenOrDie(tmp.Sub("fresh"));
  absl::StatusOr<IngestStats> ingested = fresh->Ingest(tmp.Sub("empty"));
  ASSERT_TRUE(ingested.ok()) << ingested.status();
  EXPECT_EQ(ingested->answers, 0u);
}

class DamagedPackTest : public StorePackTest {
 protected:
  void SetUp() override {
    auto store = OpenOrDie(tmp_.Sub("source"));
    ASSERT_TRUE(store->PutBatch(Compute(0)).ok());
    ExportOptions small_files;
    small_files.max_file_bytes = 4096;
    absl::StatusOr<ExportStats> exported = store->ExportModel(Model(0), pack_, small_files);
    ASSERT_TRUE(exported.ok()) << exported.status();
    ASSERT_GE(exported->files.size(), 2u);
    second_file_ = (fs::path(pack_) / exported->files[1]).string();
  }

  // Ingests the pack into a fresh store: it must be refused with `code`, saying `says`, and
  // leave the store without a single answer of the pack (a pack loads whole or not at all).
  void ExpectRefused(absl::StatusCode code, const std::string& says) {
    TempDir fresh_dir;
    auto fresh = OpenOrDie(fresh_dir.Sub("store"));
    absl::StatusOr<IngestStats> ingested = fresh->Ingest(pack_);
    ASSERT_FALSE(ingested.ok());
    EXPECT_EQ(ingested.status().code(), code) << ingested.status();
    EXPECT_NE(ingested.status().message().find(says), absl::string_view::npos)
        << ingested.status().message();
    EXPECT_EQ(*fresh->CountAnswers(Model(0)), 0u);
  }

  TempDir tmp_;
  const std::string pack_ = tmp_.Sub("pack");
  std::string second_file_;
};

TEST_F(DamagedPackTest, ATruncatedTableIsRefusedClearly) {
  fs::resize_file(second_file_, fs::file_size(second_file_) - 100);
  ExpectRefused(absl::StatusCode::kDataLoss, fs::path(second_file_).filename().string() + " is ");
  ExpectRefused(absl::StatusCode::kDataLoss, "truncated");
}

TEST_F(DamagedPackTest, AFlippedByteIsRefusedClearly) {
  std::fstream f(second_file_, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(100);
  f.put('\x5A');
  f.close();
  ExpectRefused(absl::StatusCode::kDataLoss, "CRC-32");
}

TEST_F(DamagedPackTest, AMissingTableIsRefusedClearly) {
  fs::remove(second_file_);
  ExpectRefused(absl::StatusCode::kDataLoss, "is missing");
}

TEST_F(DamagedPackTest, ADirectoryWithoutManifestIsNotAPack) {
  fs::remove(fs::path(pack_) / kPackManifestName);
  ExpectRefused(absl::StatusCode::kNotFound, "no walkpack.json");
}

TEST_F(DamagedPackTest, AManifestOfAnotherFormatIsRefused) {
  std::ofstream(fs::path(pack_) / kPackManifestName) << R"({"format": "something-else"})";
  ExpectRefused(absl::StatusCode::kDataLoss, "\"format\"");
  std::ofstream(fs::path(pack_) / kPackManifestName) << "not json {";
  ExpectRefused(absl::StatusCode::kDataLoss, "not a JSON object");
}

// What an ingest or an export killed midway leaves, and what finds it: a new store and a pack
// are built beside (store/staged_dir.h) and renamed into place whole. The kills themselves, of a
// real walkctl, are tests/client/walkctl_store_test.cc.
class InterruptedTest : public StorePackTest {
 protected:
  void SetUp() override {
    auto source = OpenOrDie(tmp_.Sub("source"));
    ASSERT_TRUE(source->PutBatch(Compute(0)).ok());
    ExportOptions small_files;
    small_files.max_file_bytes = 4096;
    absl::StatusOr<ExportStats> exported = source->ExportModel(Model(0), pack_, small_files);
    ASSERT_TRUE(exported.ok()) << exported.status();
    first_table_ = (fs::path(pack_) / exported->files[0]).string();
    answers_ = exported->answers;
  }

  // A staging folder as a builder killed midway leaves it: a marker naming a pid and a command,
  // nobody holding its lock, and `file` in it.
  static void LeaveStaging(const std::string& staging, const std::string& file) {
    fs::create_directories(staging);
    std::ofstream(fs::path(staging) / kStagingMarkerName) << "pid 4242\ncommand walkctl again\n";
    std::ofstream(fs::path(staging) / file) << "half";
  }

  TempDir tmp_;
  const std::string pack_ = tmp_.Sub("pack");
  std::string first_table_;
  std::uint64_t answers_ = 0;
};

TEST_F(InterruptedTest, ANewStoreIsBuiltBesideAndAPackAtFaultMakesNone) {
  const std::string dir = tmp_.Sub("new/store");
  IngestDone done;
  // A damaged pack: no store is made, and nothing is left beside.
  const std::string saved = tmp_.Sub("saved.sst");
  fs::copy_file(first_table_, saved);
  fs::resize_file(first_table_, 100);
  absl::StatusOr<std::unique_ptr<WalkStore>> refused =
      WalkStore::OpenAndIngest(OptionsFor(dir), pack_, &done);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kDataLoss) << refused.status();
  EXPECT_TRUE(done.packs_failed);
  EXPECT_FALSE(fs::exists(dir));
  EXPECT_FALSE(fs::exists(dir + kIngestStagingSuffix));
  fs::copy_file(saved, first_table_, fs::copy_options::overwrite_existing);

  absl::StatusOr<std::unique_ptr<WalkStore>> store =
      WalkStore::OpenAndIngest(OptionsFor(dir), pack_, &done);
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_TRUE(done.built_beside);
  EXPECT_FALSE(done.cleared_leftover);
  ASSERT_EQ(done.packs.size(), 1u);
  EXPECT_EQ(done.packs[0].answers, answers_);
  EXPECT_EQ(*(*store)->CountAnswers(Model(0)), answers_);
  EXPECT_FALSE(fs::exists(dir + kIngestStagingSuffix));
  EXPECT_FALSE(fs::exists(fs::path(dir) / kStagingMarkerName));
  ASSERT_TRUE((*store)->Close().ok());
  // Into the store that is there now: as IngestPacks, nothing built beside.
  store = WalkStore::OpenAndIngest(OptionsFor(dir), pack_, &done);
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_FALSE(done.built_beside);
  EXPECT_EQ(*(*store)->CountAnswers(Model(0)), answers_);
  ASSERT_TRUE((*store)->Close().ok());
  // Into a folder that holds something else: refused, untouched.
  fs::create_directories(tmp_.Sub("busy"));
  std::ofstream(tmp_.Sub("busy/notes.txt")) << "mine";
  const absl::Status busy =
      WalkStore::OpenAndIngest(OptionsFor(tmp_.Sub("busy")), pack_, &done).status();
  EXPECT_EQ(busy.code(), absl::StatusCode::kFailedPrecondition) << busy;
  EXPECT_NE(busy.message().find("notes.txt"), absl::string_view::npos) << busy;
}

TEST_F(InterruptedTest, TheHalfStoreOfAnInterruptedIngestIsNamedThenClearedByTheRerun) {
  const std::string dir = tmp_.Sub("store");
  const std::string staging = dir + kIngestStagingSuffix;
  LeaveStaging(staging, "IDENTITY");
  // Opening the store it was meant to be: refused, naming the leftover and the commands.
  for (bool create : {true, false}) {
    WalkStoreOptions options = OptionsFor(dir);
    options.create_if_missing = create;
    const absl::Status s = WalkStore::Open(options).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
    EXPECT_NE(s.message().find(staging), absl::string_view::npos) << s;
    EXPECT_NE(s.message().find("interrupted ingest"), absl::string_view::npos) << s;
    EXPECT_NE(s.message().find("`walkctl again`"), absl::string_view::npos) << s;
    EXPECT_NE(s.message().find("`rm -r -- " + staging + "`"), absl::string_view::npos) << s;
  }
  EXPECT_FALSE(fs::exists(dir)) << "no empty store was made in its place";
  // The ingest again: clears it, builds the store.
  IngestDone done;
  absl::StatusOr<std::unique_ptr<WalkStore>> store =
      WalkStore::OpenAndIngest(OptionsFor(dir), pack_, &done);
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_TRUE(done.cleared_leftover);
  EXPECT_EQ(*(*store)->CountAnswers(Model(0)), answers_);
  EXPECT_FALSE(fs::exists(staging));
}

TEST_F(InterruptedTest, AHalfStoreIsRefusedWithTheCommandThatMendsIt) {
  const std::string dir = tmp_.Sub("half");
  ASSERT_TRUE(OpenOrDie(dir)->Close().ok());
  fs::remove(fs::path(dir) / "CURRENT");  // as a creation cut short leaves it: no answers
  const absl::Status s = WalkStore::Open(OptionsFor(dir)).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_NE(s.message().find("walk store " + dir + " is a half store"), absl::string_view::npos)
      << s;
  EXPECT_NE(s.message().find("`rm -r -- " + dir + "`"), absl::string_view::npos) << s;
  IngestDone done;
  EXPECT_EQ(WalkStore::OpenAndIngest(OptionsFor(dir), pack_, &done).status(), s);
  EXPECT_FALSE(fs::exists(fs::path(dir) / "CURRENT"));
}

TEST_F(InterruptedTest, TheHalfPackOfAnInterruptedExportIsNamedThenClearedByTheRerun) {
  const std::string out = tmp_.Sub("packs/model");
  const std::string staging = out + kExportStagingSuffix;
  LeaveStaging(staging, "walks-000001.sst");
  // Ingesting the folder of packs, or the pack that is not there: refused, naming it.
  auto fresh = OpenOrDie(tmp_.Sub("fresh"));
  for (const std::string& dir : {tmp_.Sub("packs"), out}) {
    fs::create_directories(dir);
    const absl::Status s = fresh->IngestPacks(dir).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
    EXPECT_NE(s.message().find(staging + " is the half pack of an interrupted export"),
              absl::string_view::npos)
        << s;
    EXPECT_NE(s.message().find("`rm -r -- " + staging + "`"), absl::string_view::npos) << s;
  }
  EXPECT_EQ(*fresh->CountAnswers(Model(0)), 0u);
  // The export again: clears it, writes the whole pack into the empty folder.
  auto source = OpenOrDie(tmp_.Sub("source"));
  absl::StatusOr<ExportStats> exported = source->ExportModel(Model(0), out + "/");
  ASSERT_TRUE(exported.ok()) << exported.status();
  EXPECT_TRUE(exported->cleared_leftover);
  EXPECT_FALSE(fs::exists(staging));
  EXPECT_FALSE(fs::exists(fs::path(out) / kStagingMarkerName));
  absl::StatusOr<std::vector<IngestStats>> ingested = fresh->IngestPacks(tmp_.Sub("packs"));
  ASSERT_TRUE(ingested.ok()) << ingested.status();
  EXPECT_EQ(*fresh->CountAnswers(Model(0)), answers_);
}

TEST_F(InterruptedTest, AnExportOrIngestRunningNowIsWaitedForNotCleared) {
  const std::string out = tmp_.Sub("busy-pack");
  absl::StatusOr<std::unique_ptr<StagedDir>> running =
      StagedDir::Begin(out, kExportStagingSuffix, "walkctl store export (the first)");
  ASSERT_TRUE(running.ok()) << running.status();
  auto source = OpenOrDie(tmp_.Sub("source"));
  const absl::Status s = source->ExportModel(Model(0), out).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_NE(s.message().find("being built now"), absl::string_view::npos) << s;
  EXPECT_TRUE(fs::exists((*running)->path()));
  running->reset();
  EXPECT_FALSE(fs::exists(out + kExportStagingSuffix)) << "an unfinished build is removed";
  EXPECT_TRUE(source->ExportModel(Model(0), out).ok());
}

// An ingest into a store that is there, killed while RocksDB copies the pack's tables in, leaves
// copies the manifest does not list: with the ingest's marker they are dropped, not taken for
// tables a damaged manifest forgot.
TEST_F(InterruptedTest, TablesACutShortIngestCopiedAreDroppedNotReportedForgotten) {
  const std::string dir = tmp_.Sub("store");
  auto store = OpenOrDie(dir);
  ASSERT_TRUE(store->PutBatch(Batch(7, 10, 10)).ok());
  ASSERT_TRUE(store->Close().ok());
  const fs::path copy = fs::path(dir) / "000999.sst";
  fs::copy_file(first_table_, copy);
  // Without a marker: a table with answers the store does not have, so a forgotten one.
  const absl::Status forgotten = WalkStore::Open(OptionsFor(dir)).status();
  EXPECT_EQ(forgotten.code(), absl::StatusCode::kDataLoss) << forgotten;
  EXPECT_NE(forgotten.message().find("000999.sst"), absl::string_view::npos) << forgotten;
  // With it: the ingest was cut short; the copy goes, the marker too.
  const fs::path marker = fs::path(dir) / (std::string(kIngestMarkerPrefix) + "1-1");
  std::ofstream(marker) << pack_ << "\n";
  store = OpenOrDie(dir);
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(*store->CountAnswers(Model(0)), 0u);
  ExpectAllStored(*store, Batch(7, 10, 10));
  EXPECT_FALSE(fs::exists(copy));
  EXPECT_FALSE(fs::exists(marker));
}

// Store files damaged while the store was closed: Open reports them, never crashes, and never
// replaces the store by an empty one.
class DamagedStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = OpenOrDie(dir_);
    for (int round = 0; round < 3; ++round) {
      ASSERT_TRUE(store->PutBatch(Batch(round, 60, 60)).ok());
      ASSERT_TRUE(store->Flush().ok());
    }
    ASSERT_TRUE(store->Close().ok());
  }

  std::vector<std::string> FilesEndingWith(const std::string& suffix,
                                           const std::string& prefix = "") {
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(dir_)) {
      const std::string name = entry.path().filename().string();
      if (name.size() >= suffix.size() &&
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
          name.rfind(prefix, 0) == 0) {
        files.push_back(entry.path().string());
      }
    }
    std::sort(files.begin(), files.end());
    return files;
  }

  absl::Status OpenStatus(bool verify = true) {
    WalkStoreOptions options = OptionsFor(dir_);
    options.verify_checksums_on_open = verify;
    return WalkStore::Open(options).status();
  }

  void ExpectDamaged(const absl::Status& s) {
    EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
    EXPECT_NE(s.message().find(dir_), absl::string_view::npos)
        << "names the store: " << s.message();
    EXPECT_NE(s.message().find("damaged"), absl::string_view::npos) << s.message();
    EXPECT_NE(s.message().find("aside"), absl::string_view::npos)
        << "says what to do: " << s.message();
  }

  TempDir tmp_;
  const std::string dir_ = tmp_.Sub("store");
};

TEST_F(DamagedStoreTest, CorruptBytesInATableAreReportedAtOpen) {
  const std::vector<std::string> tables = FilesEndingWith(".sst");
  ASSERT_FALSE(tables.empty());
  {
    std::fstream f(tables[0], std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(fs::file_size(tables[0]) / 3));
    for (int i = 0; i < 16; ++i) f.put('\xEE');
  }
  ExpectDamaged(OpenStatus());

  // Without the full check at open, the damage surfaces when the answers are read, as a status.
  WalkStoreOptions options = OptionsFor(dir_);
  options.verify_checksums_on_open = false;
  absl::StatusOr<std::unique_ptr<WalkStore>> store = WalkStore::Open(options);
  if (!store.ok()) {
    ExpectDamaged(store.status());  // the damage hit a block Open reads itself
    return;
  }
  int damaged = 0;
  for (int round = 0; round < 3; ++round) {
    for (const auto& [key, walk] : Batch(round, 60, 60)) {
      StoredWalk got;
      bool found = false;
      const absl::Status s = (*store)->Get(key, &got, &found);
      if (!s.ok()) {
        EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
        ++damaged;
      } else {
        EXPECT_TRUE(found);
        EXPECT_EQ(got, walk);
      }
    }
  }
  EXPECT_GT(damaged, 0);
}

TEST_F(DamagedStoreTest, ATruncatedTableIsReportedAtOpen) {
  const std::vector<std::string> tables = FilesEndingWith(".sst");
  ASSERT_FALSE(tables.empty());
  fs::resize_file(tables.back(), fs::file_size(tables.back()) / 2);
  ExpectDamaged(OpenStatus(/*verify=*/false));
}

TEST_F(DamagedStoreTest, ADeletedCurrentFileIsReportedNotReplacedByAnEmptyStore) {
  fs::remove(fs::path(dir_) / "CURRENT");
  const auto tables_before = FilesEndingWith(".sst");
  const absl::Status s = OpenStatus();
  ExpectDamaged(s);
  EXPECT_NE(s.message().find("CURRENT"), absl::string_view::npos) << s.message();
  EXPECT_EQ(FilesEndingWith(".sst"), tables_before) << "nothing was deleted";
  EXPECT_FALSE(fs::exists(fs::path(dir_) / "CURRENT")) << "no new store was made";
}

TEST_F(DamagedStoreTest, AnEmptyCurrentFileIsReported) {
  fs::resize_file(fs::path(dir_) / "CURRENT", 0);
  ExpectDamaged(OpenStatus());
}

TEST_F(DamagedStoreTest, ATruncatedManifestIsReported) {
  const std::vector<std::string> manifests = FilesEndingWith("", "MANIFEST-");
  ASSERT_FALSE(manifests.empty());
  for (const std::string& m : manifests) fs::resize_file(m, fs::file_size(m) / 2);
  ExpectDamaged(OpenStatus());
}

TEST_F(DamagedStoreTest, ADeletedManifestIsReported) {
  for (const std::string& m : FilesEndingWith("", "MANIFEST-")) fs::remove(m);
  ExpectDamaged(OpenStatus());
}

TEST(WalkStoreOpenTest, APathThatIsAFileIsRefusedClearly) {
  TempDir tmp;
  const std::string file = tmp.Sub("not-a-dir");
  std::ofstream(file) << "hello";
  const absl::Status s = WalkStore::Open(OptionsFor(file)).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_NE(s.message().find("is not a directory"), absl::string_view::npos) << s.message();
  EXPECT_NE(s.message().find(file), absl::string_view::npos) << s.message();
}

TEST(WalkStoreOpenTest, AStoreOpenElsewhereIsRefused) {
  TempDir tmp;
  auto first = OpenOrDie(tmp.Sub("store"));
  const absl::Status s = WalkStore::Open(OptionsFor(tmp.Sub("store"))).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_NE(s.message().find("in use"), absl::string_view::npos) << s.message();
}

TEST(WalkStoreOpenTest, NoStoreAndNoCreateIsRefused) {
  TempDir tmp;
  WalkStoreOptions options = OptionsFor(tmp.Sub("none"));
  options.create_if_missing = false;
  EXPECT_EQ(WalkStore::Open(options).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(WalkStore::Open(WalkStoreOptions()).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace walk::store
