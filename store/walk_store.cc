#include "store/walk_store.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "rocksdb/cache.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/iterator.h"
#include "rocksdb/options.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/sst_file_manager.h"
#include "rocksdb/table.h"
#include "rocksdb/write_batch.h"
#include "store/open_checks.h"
#include "store/rocks_status.h"
#include "store/staged_dir.h"
#include "store/store_log.h"

namespace walk::store {
namespace {

// The best compression this RocksDB build has: LZ4 (fast to decode), else Snappy, else none.
rocksdb::CompressionType ChooseCompression() {
  const std::vector<rocksdb::CompressionType> supported = rocksdb::GetSupportedCompressions();
  for (rocksdb::CompressionType type : {rocksdb::kLZ4Compression, rocksdb::kSnappyCompression}) {
    if (std::find(supported.begin(), supported.end(), type) != supported.end()) return type;
  }
  return rocksdb::kNoCompression;
}

rocksdb::Options MakeOptions(const WalkStoreOptions& options) {
  rocksdb::Options o;
  o.create_if_missing = options.create_if_missing;
  o.paranoid_checks = true;
  // A torn record at the log's tail (the process died while writing it) ends recovery there: the
  // unacknowledged batch is dropped, everything before it is kept.
  o.wal_recovery_mode = rocksdb::WALRecoveryMode::kPointInTimeRecovery;
  o.max_background_jobs = 2;
  o.bytes_per_sync = 1 << 20;
  o.write_buffer_size = options.write_buffer_bytes;
  o.level_compaction_dynamic_level_bytes = true;
  o.compression = ChooseCompression();
  // The model is the prefix: prefix blooms in the memtable and in every table make a model's
  // answers (CountAnswers, ExportModel) cheap to find, and skip tables of other models.
  o.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(kModelPrefixBytes));
  o.memtable_prefix_bloom_size_ratio = 0.1;
  o.memtable_whole_key_filtering = true;

  rocksdb::BlockBasedTableOptions t;
  t.block_cache = rocksdb::NewLRUCache(options.block_cache_bytes);
  // Whole-key blooms answer "not stored" (the usual case for a new pair) without reading a data
  // block; the prefix blooms come from the prefix extractor above.
  t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  t.whole_key_filtering = true;
  // Index and filter blocks live in the block cache, charged to its budget, so the store's
  // memory stays bounded however many answers it holds (outside the cache they grow ~2.5 bytes
  // an answer). High priority and pinned at level 0 keep the hot ones from churning.
  t.cache_index_and_filter_blocks = true;
  t.cache_index_and_filter_blocks_with_high_priority = true;
  t.pin_l0_filter_and_index_blocks_in_cache = true;
  // A hash index inside each data block: a point lookup jumps to its restart interval.
  t.data_block_index_type = rocksdb::BlockBasedTableOptions::kDataBlockBinaryAndHash;
  t.data_block_hash_table_util_ratio = 0.75;
  t.format_version = 5;
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  // Whole answers by key, ahead of the tables: a hit skips the filter, the index and the block.
  if (options.row_cache_bytes > 0) o.row_cache = rocksdb::NewLRUCache(options.row_cache_bytes);
  return o;
}

// FAILED_PRECONDITION when the store `dir`, which holds no store, has the half store of an
// interrupted ingest beside it: the store it was meant to be is not there.
absl::Status NoIngestLeftover(const std::string& dir) {
  const absl::Status leftover = StagedLeftover(StagingPathOf(dir, kIngestStagingSuffix),
                                               "the half store of an interrupted ingest");
  if (leftover.ok()) return leftover;
  return absl::Status(leftover.code(), absl::StrCat("walk store ", dir, " holds no store, and ",
                                                    leftover.message()));
}

// The command that ingests `pack_dir` into `dir` again, as messages give it.
std::string IngestCommand(const std::string& pack_dir, const std::string& dir) {
  std::error_code ec;
  const std::filesystem::path pack = std::filesystem::absolute(pack_dir, ec);
  return absl::StrCat("walkctl store ingest ", ShellQuoted(ec ? pack_dir : pack.string()),
                      " --store ", ShellQuoted(dir));
}

}  // namespace

struct WalkStore::Impl {
  rocksdb::Options options;
  // Held shared by every use of `db`, exclusively to close or reopen it.
  mutable std::shared_mutex mu;
  rocksdb::DB* db = nullptr;  // owned; null once closed (or a reopen failed)
  rocksdb::ReadOptions read;
  rocksdb::WriteOptions write;
  std::string claimed_dir;  // claimed (ClaimStoreDir) while this store is alive

  ~Impl() {
    CloseQuietly(db);
    if (!claimed_dir.empty()) ReleaseStoreDir(claimed_dir);
  }

  absl::Status Live(const std::string& dir) const {
    if (db == nullptr) {
      return absl::FailedPreconditionError(absl::StrCat("walk store ", dir, " is closed"));
    }
    return absl::OkStatus();
  }
  std::shared_lock<std::shared_mutex> Use() const { return std::shared_lock(mu); }
};

WalkStore::WalkStore(std::string dir, std::unique_ptr<Impl> impl)
    : dir_(std::move(dir)), impl_(std::move(impl)) {}

WalkStore::~WalkStore() {
  if (impl_ != nullptr && impl_->db != nullptr) {
    // Deliberately ignored: a destructor has no one to tell. Callers who care call Close().
    Close().IgnoreError();
  }
}

absl::StatusOr<std::unique_ptr<WalkStore>> WalkStore::Open(const WalkStoreOptions& options) {
  const std::string& dir = options.dir;
  if (dir.empty()) return absl::InvalidArgumentError("walk store: no directory given");
  absl::StatusOr<StoreDirContents> contents = LookAtStoreDir(dir);
  if (!contents.ok()) return contents.status();
  if (!contents->has_current) {
    if (absl::Status s = NoIngestLeftover(dir); !s.ok()) return s;
    if (!options.create_if_missing) {
      return absl::FailedPreconditionError(
          absl::StrCat("walk store ", dir, " holds no store, and creating one was not asked for"));
    }
  }

  auto impl = std::make_unique<Impl>();
  absl::StatusOr<std::string> claimed = ClaimStoreDir(dir);
  if (!claimed.ok()) return claimed.status();
  impl->claimed_dir = *std::move(claimed);  // released when `impl` goes, whatever happens below
  impl->options = MakeOptions(options);
  if (options.create_if_missing) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);  // RocksDB would; the log goes in it first
  }
  impl->options.info_log = OpenStoreLog(dir);
  if (options.max_bytes > 0) {
    // RocksDB tracks the table files and refuses what would pass the quota.
    impl->options.sst_file_manager.reset(rocksdb::NewSstFileManager(impl->options.env));
    impl->options.sst_file_manager->SetMaxAllowedSpaceUsage(options.max_bytes);
  }
  impl->write.sync = options.sync_writes;
  impl->write.disableWAL = false;

  if (contents->has_current) {
    if (absl::Status s = CheckNotInUse(dir); !s.ok()) return s;
    if (absl::Status s = CheckNoTableForgotten(impl->options, dir, contents->tables,
                                               !contents->ingest_markers.empty());
        !s.ok()) {
      return s;
    }
  }

  rocksdb::DB* db = nullptr;
  if (const rocksdb::Status s = rocksdb::DB::Open(impl->options, dir, &db); !s.ok()) {
    CloseQuietly(db);
    return OpenError(s, dir, contents->has_current);
  }
  impl->db = db;
  // RocksDB has dropped the tables a cut-short ingest had copied in: its markers are done with.
  for (const std::string& marker : contents->ingest_markers) {
    std::error_code ec;
    // Best effort, ignored visibly: a marker left over only makes the next Open forgive unlisted
    // copies of pack tables again, which RocksDB deletes anyway.
    std::filesystem::remove(std::filesystem::path(dir) / marker, ec);
  }

  if (options.verify_checksums_on_open) {
    // Returning drops `impl`, whose destructor closes the DB.
    if (absl::Status s = VerifyTableChecksums(*db, dir); !s.ok()) return s;
  }
  return std::unique_ptr<WalkStore>(new WalkStore(dir, std::move(impl)));
}

absl::StatusOr<std::unique_ptr<WalkStore>> WalkStore::OpenAndIngest(const WalkStoreOptions& options,
                                                                    const std::string& pack_dir,
                                                                    IngestDone* done) {
  *done = IngestDone();
  const std::string& dir = options.dir;
  if (dir.empty()) return absl::InvalidArgumentError("walk store: no directory given");
  absl::StatusOr<StoreDirContents> contents = LookAtStoreDir(dir);
  if (!contents.ok()) return contents.status();
  if (contents->has_current) {
    absl::StatusOr<std::unique_ptr<WalkStore>> store = Open(options);
    if (!store.ok()) return store.status();
    absl::StatusOr<std::vector<IngestStats>> packs = (*store)->IngestPacks(pack_dir);
    done->packs_failed = !packs.ok();
    if (!packs.ok()) return packs.status();
    done->packs = *std::move(packs);
    return store;
  }
  if (!contents->empty) {
    return absl::FailedPreconditionError(
        absl::StrCat("walk store ", dir, " holds files (", contents->first_name,
                     ") but no store: ingest into a new or an empty folder"));
  }
  // A new store: built beside, renamed into place whole.
  absl::StatusOr<std::unique_ptr<StagedDir>> staged =
      StagedDir::Begin(dir, kIngestStagingSuffix, IngestCommand(pack_dir, dir));
  if (!staged.ok()) {
    return absl::Status(staged.status().code(),
                        absl::StrCat("walk store ", dir, ": ", staged.status().message()));
  }
  done->cleared_leftover = (*staged)->cleared_leftover();
  {
    WalkStoreOptions beside = options;
    beside.dir = (*staged)->path();
    beside.create_if_missing = true;
    absl::StatusOr<std::unique_ptr<WalkStore>> store = Open(beside);
    if (!store.ok()) return store.status();
    absl::StatusOr<std::vector<IngestStats>> packs = (*store)->IngestPacks(pack_dir);
    done->packs_failed = !packs.ok();
    if (!packs.ok()) return packs.status();
    done->packs = *std::move(packs);
    if (absl::Status s = (*store)->Close(); !s.ok()) return s;
  }
  if (absl::Status s = (*staged)->Commit(); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat("walk store ", dir, ": ", s.message()));
  }
  done->built_beside = true;
  // Every table was checked as it was ingested: no need to read them all again.
  WalkStoreOptions reopen = options;
  reopen.verify_checksums_on_open = false;
  return Open(reopen);
}

absl::Status WalkStore::Get(const WalkKey& key, StoredWalk* out, bool* found) const {
  const auto in_use = impl_->Use();
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  char bytes[kWalkKeyBytes];
  EncodeWalkKeyTo(key, bytes);
  rocksdb::PinnableSlice value;
  const rocksdb::Status s = impl_->db->Get(impl_->read, impl_->db->DefaultColumnFamily(),
                                           rocksdb::Slice(bytes, kWalkKeyBytes), &value);
  if (s.IsNotFound()) {
    *found = false;
    return absl::OkStatus();
  }
  if (!s.ok()) return FromRocks(s, dir_, "get");
  if (absl::Status d = DecodeWalkValue(absl::string_view(value.data(), value.size()), out);
      !d.ok()) {
    return absl::DataLossError(absl::StrCat("walk store ", dir_, ": a stored ", d.message()));
  }
  *found = true;
  return absl::OkStatus();
}

absl::Status WalkStore::MultiGet(const std::vector<WalkKey>& keys,
                                 std::vector<std::optional<StoredWalk>>* out) const {
  const auto in_use = impl_->Use();
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  const std::size_t n = keys.size();
  out->clear();
  out->resize(n);
  if (n == 0) return absl::OkStatus();
  std::string bytes(n * kWalkKeyBytes, '\0');
  std::vector<rocksdb::Slice> slices(n);
  for (std::size_t i = 0; i < n; ++i) {
    char* at = bytes.data() + i * kWalkKeyBytes;
    EncodeWalkKeyTo(keys[i], at);
    slices[i] = rocksdb::Slice(at, kWalkKeyBytes);
  }
  std::vector<rocksdb::PinnableSlice> values(n);
  std::vector<rocksdb::Status> statuses(n);
  impl_->db->MultiGet(impl_->read, impl_->db->DefaultColumnFamily(), n, slices.data(),
                      values.data(), statuses.data());
  for (std::size_t i = 0; i < n; ++i) {
    if (statuses[i].IsNotFound()) continue;
    if (!statuses[i].ok()) return FromRocks(statuses[i], dir_, absl::StrCat("multiget key ", i));
    StoredWalk& walk = (*out)[i].emplace();
    if (absl::Status d =
            DecodeWalkValue(absl::string_view(values[i].data(), values[i].size()), &walk);
        !d.ok()) {
      return absl::DataLossError(
          absl::StrCat("walk store ", dir_, ": multiget key ", i, ": a stored ", d.message()));
    }
  }
  return absl::OkStatus();
}

absl::Status WalkStore::PutBatch(const std::vector<std::pair<WalkKey, StoredWalk>>& answers) {
  const auto in_use = impl_->Use();
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  if (answers.empty()) return absl::OkStatus();
  rocksdb::WriteBatch batch;
  char key[kWalkKeyBytes];
  std::string value;
  for (const auto& [walk_key, walk] : answers) {
    EncodeWalkKeyTo(walk_key, key);
    value.clear();
    AppendWalkValue(walk, &value);
    const rocksdb::Status s = batch.Put(rocksdb::Slice(key, kWalkKeyBytes), value);
    if (!s.ok()) return FromRocks(s, dir_, "batch put");
  }
  const rocksdb::Status s = impl_->db->Write(impl_->write, &batch);
  if (!s.ok()) return FromRocks(s, dir_, absl::StrCat("write a batch of ", answers.size()));
  return absl::OkStatus();
}

absl::Status WalkStore::Resume() {
  const auto in_use = impl_->Use();
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  const rocksdb::Status s = impl_->db->Resume();
  if (!s.ok()) return FromRocks(s, dir_, "resume writing");
  return absl::OkStatus();
}

absl::StatusOr<std::uint64_t> WalkStore::EstimateAnswers() const {
  const auto in_use = impl_->Use();
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  std::uint64_t keys = 0;
  if (!impl_->db->GetIntProperty(rocksdb::DB::Properties::kEstimateNumKeys, &keys)) {
    return absl::InternalError(
        absl::StrCat("walk store ", dir_, ": RocksDB gave no rocksdb.estimate-num-keys"));
  }
  return keys;
}

absl::StatusOr<WalkStore::MemoryUse> WalkStore::Memory() const {
  const auto in_use = impl_->Use();
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  MemoryUse use;
  for (const auto& [property, out] :
       {std::pair{rocksdb::DB::Properties::kBlockCacheUsage, &use.block_cache},
        std::pair{rocksdb::DB::Properties::kCurSizeAllMemTables, &use.memtables},
        std::pair{rocksdb::DB::Properties::kEstimateTableReadersMem, &use.table_readers}}) {
    if (!impl_->db->GetIntProperty(property, out)) {
      return absl::InternalError(absl::StrCat("walk store ", dir_, ": RocksDB gave no ", property));
    }
  }
  return use;
}

void WalkStore::SetBlockCacheBytes(std::size_t bytes) {
  // The cache belongs to the options every (re)open uses, not to the open database.
  const auto* table = impl_->options.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
  if (table != nullptr && table->block_cache != nullptr) table->block_cache->SetCapacity(bytes);
}

absl::StatusOr<std::uint64_t> WalkStore::CountAnswers(std::uint64_t model) const {
  const auto in_use = impl_->Use();
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  const std::string prefix = EncodeModelPrefix(model);
  rocksdb::ReadOptions read;
  read.prefix_same_as_start = true;
  read.fill_cache = false;  // a count must not push the warm answers out of the cache
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(read));
  std::uint64_t count = 0;
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) ++count;
  if (!it->status().ok()) return FromRocks(it->status(), dir_, "count answers");
  return count;
}

absl::Status WalkStore::ForEachOutcome(
    const std::function<bool(const WalkKey&, const WalkOutcome&)>& fn) const {
  const auto in_use = impl_->Use();
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  rocksdb::ReadOptions read;
  read.total_order_seek = true;  // across prefixes
  read.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(read));
  StoredWalk walk;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    absl::StatusOr<WalkKey> key =
        DecodeWalkKey(absl::string_view(it->key().data(), it->key().size()));
    if (!key.ok())
      return absl::DataLossError(absl::StrCat("walk store ", dir_, ": ", key.status().message()));
    if (absl::Status d =
            DecodeWalkValue(absl::string_view(it->value().data(), it->value().size()), &walk);
        !d.ok()) {
      return absl::DataLossError(absl::StrCat("walk store ", dir_, ": a stored ", d.message()));
    }
    if (!fn(*key, OutcomeOf(walk))) return absl::OkStatus();
  }
  if (!it->status().ok()) return FromRocks(it->status(), dir_, "read every answer");
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::uint64_t>> WalkStore::Models() const {
  const auto in_use = impl_->Use();
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  rocksdb::ReadOptions read;
  read.total_order_seek = true;  // across prefixes
  read.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(read));
  std::vector<std::uint64_t> models;
  it->SeekToFirst();
  while (it->Valid()) {
    const rocksdb::Slice key = it->key();
    if (key.size() < kModelPrefixBytes) {
      return absl::DataLossError(absl::StrCat("walk store ", dir_, ": a key of ", key.size(),
                                              " bytes, shorter than a model"));
    }
    const std::uint64_t model = DecodeModelPrefix(absl::string_view(key.data(), key.size()));
    models.push_back(model);
    if (model == UINT64_MAX) break;
    it->Seek(EncodeModelPrefix(model + 1));
  }
  if (!it->status().ok()) return FromRocks(it->status(), dir_, "list models");
  return models;
}

absl::StatusOr<ExportStats> WalkStore::ExportModel(std::uint64_t model, const std::string& out_dir,
                                                   const ExportOptions& options) const {
  const auto in_use = impl_->Use();
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  return ExportPack(RocksStore{impl_->db, &impl_->options, dir_}, model, out_dir, options);
}

absl::StatusOr<IngestStats> WalkStore::Ingest(const std::string& pack_dir) {
  const auto in_use = impl_->Use();
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  return IngestPack(RocksStore{impl_->db, &impl_->options, dir_}, pack_dir);
}

absl::StatusOr<std::vector<IngestStats>> WalkStore::IngestPacks(const std::string& dir) {
  constexpr char kHalfPack[] = "the half pack of an interrupted export";
  std::error_code error;
  std::vector<std::string> packs;
  if (std::filesystem::exists(std::filesystem::path(dir) / kPackManifestName, error)) {
    packs.push_back(dir);
  } else {
    for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
      if (!entry.is_directory()) continue;
      if (absl::EndsWith(entry.path().filename().string(), kExportStagingSuffix)) {
        // A model's pack that is not there: refused, not skipped.
        if (absl::Status s = StagedLeftover(entry.path().string(), kHalfPack); !s.ok()) return s;
      }
      if (std::filesystem::exists(entry.path() / kPackManifestName, error)) {
        packs.push_back(entry.path().string());
      }
    }
    std::sort(packs.begin(), packs.end());
  }
  if (packs.empty()) {
    if (absl::Status s = StagedLeftover(StagingPathOf(dir, kExportStagingSuffix), kHalfPack);
        !s.ok()) {
      return absl::Status(s.code(), absl::StrCat(dir, ": no store pack, and ", s.message()));
    }
    return absl::NotFoundError(absl::StrCat(dir, ": no store pack (no ", kPackManifestName,
                                            ", nor a subfolder holding one)"));
  }
  std::vector<IngestStats> ingested;
  for (const std::string& pack : packs) {
    absl::StatusOr<IngestStats> stats = Ingest(pack);
    if (!stats.ok()) return stats.status();
    ingested.push_back(*stats);
  }
  return ingested;
}

absl::Status WalkStore::Flush() {
  const auto in_use = impl_->Use();
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  const rocksdb::Status s = impl_->db->Flush(rocksdb::FlushOptions());
  if (!s.ok()) return FromRocks(s, dir_, "flush");
  return absl::OkStatus();
}

absl::StatusOr<bool> WalkStore::FlushInBackgroundIfAbove(std::uint64_t answers) {
  const auto in_use = impl_->Use();
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  std::uint64_t in_memory = 0;
  if (!impl_->db->GetIntProperty(rocksdb::DB::Properties::kNumEntriesActiveMemTable, &in_memory) ||
      in_memory < answers) {
    return false;
  }
  rocksdb::FlushOptions flush;
  flush.wait = false;
  flush.allow_write_stall = true;
  const rocksdb::Status s = impl_->db->Flush(flush);
  if (!s.ok()) return FromRocks(s, dir_, "flush");
  return true;
}

absl::Status WalkStore::CompactAll() {
  const auto in_use = impl_->Use();
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  rocksdb::CompactRangeOptions compact;
  compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  const rocksdb::Status s = impl_->db->CompactRange(compact, nullptr, nullptr);
  if (!s.ok()) return FromRocks(s, dir_, "compact");
  return absl::OkStatus();
}

absl::Status WalkStore::Close() {
  std::unique_lock<std::shared_mutex> only(impl_->mu);
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  rocksdb::DB* db = impl_->db;
  impl_->db = nullptr;
  const rocksdb::Status s = db->Close();
  delete db;
  ReleaseStoreDir(impl_->claimed_dir);  // after the DB has let go of its LOCK
  impl_->claimed_dir.clear();
  if (!s.ok()) return FromRocks(s, dir_, "close");
  return absl::OkStatus();
}

absl::Status WalkStore::Reopen() {
  std::unique_lock<std::shared_mutex> only(impl_->mu);
  if (impl_->claimed_dir.empty()) {
    return absl::FailedPreconditionError(absl::StrCat("walk store ", dir_, " is closed"));
  }
  // Closing reports what the error left behind (an unflushed memtable): the log keeps it, and
  // opening again replays it.
  CloseQuietly(impl_->db);
  impl_->db = nullptr;
  rocksdb::DB* db = nullptr;
  const rocksdb::Status s = rocksdb::DB::Open(impl_->options, dir_, &db);
  if (!s.ok()) {
    CloseQuietly(db);
    return FromRocks(s, dir_, "reopen");
  }
  impl_->db = db;
  return absl::OkStatus();
}

}  // namespace walk::store
