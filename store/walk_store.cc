#include "store/walk_store.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "rocksdb/cache.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/iterator.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/write_batch.h"

namespace walk::store {
namespace fs = std::filesystem;

namespace {

constexpr char kPackFormat[] = "walkd-store-pack";
constexpr int kPackVersion = 1;

std::string HexId(std::uint64_t id) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(id));
  return text;
}

// What to do about a damaged store, said the same way wherever one is found.
std::string DamagedAdvice(const std::string& dir) {
  return absl::StrCat(
      " walkd will not use it. Move ", dir,
      " aside (keep it to look at) and start with an empty store: answers are computed again as "
      "they are asked, or ingest store packs to refill it. RocksDB's `ldb repair --db=",
      dir, "`, run on a copy, salvages what it can.");
}

// `s` (not OK) as an absl::Status of the most specific code, naming the store and the action.
absl::Status FromRocks(const rocksdb::Status& s, const std::string& dir, absl::string_view what) {
  const std::string message = absl::StrCat("walk store ", dir, ": ", what, ": ", s.ToString());
  if (s.IsCorruption()) return absl::DataLossError(message);
  if (s.IsNoSpace()) return absl::ResourceExhaustedError(message);
  if (s.IsNotFound() || s.IsPathNotFound()) return absl::NotFoundError(message);
  if (s.IsInvalidArgument()) return absl::InvalidArgumentError(message);
  if (s.IsBusy() || s.IsTryAgain() || s.IsTimedOut() || s.IsShutdownInProgress()) {
    return absl::UnavailableError(message);
  }
  if (s.IsAborted()) return absl::AbortedError(message);
  if (s.IsNotSupported()) return absl::UnimplementedError(message);
  return absl::InternalError(message);
}

// The file names RocksDB writes that hold data (not the LOCK, not the info LOG).
bool IsRocksDataFile(const std::string& name) {
  return name == "IDENTITY" || absl::StartsWith(name, "MANIFEST-") ||
         absl::StartsWith(name, "OPTIONS-") || absl::EndsWith(name, ".sst") ||
         absl::EndsWith(name, ".log") || absl::EndsWith(name, ".blob");
}

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
  o.keep_log_file_num = 10;
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
  // Index and filter blocks live with the open table readers (max_open_files = -1), outside the
  // block cache: a lookup never waits on their cache entries and they are never evicted.
  t.cache_index_and_filter_blocks = false;
  // A hash index inside each data block: a point lookup jumps to its restart interval.
  t.data_block_index_type = rocksdb::BlockBasedTableOptions::kDataBlockBinaryAndHash;
  t.data_block_hash_table_util_ratio = 0.75;
  t.format_version = 5;
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  // Whole answers by key, ahead of the tables: a hit skips the filter, the index and the block.
  if (options.row_cache_bytes > 0) o.row_cache = rocksdb::NewLRUCache(options.row_cache_bytes);
  return o;
}

// Closes a DB, or reports that nothing closed it.
void CloseQuietly(rocksdb::DB* db) {
  if (db == nullptr) return;
  // Deliberately ignored: this runs on a path that already reports a failure, and the DB's
  // own close problem (logged in its LOG) would only hide that first error.
  db->Close().PermitUncheckedError();
  delete db;
}

// Reads a whole file's CRC-32 (zlib's) and size.
absl::Status FileCrc32(const std::string& path, std::uint32_t* crc, std::uint64_t* bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  uLong value = crc32(0L, Z_NULL, 0);
  std::uint64_t total = 0;
  std::vector<char> buffer(1 << 20);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const std::streamsize got = in.gcount();
    if (got <= 0) break;
    value = crc32(value, reinterpret_cast<const Bytef*>(buffer.data()), static_cast<uInt>(got));
    total += static_cast<std::uint64_t>(got);
  }
  if (in.bad()) return absl::DataLossError(absl::StrCat("cannot read ", path));
  *crc = static_cast<std::uint32_t>(value);
  *bytes = total;
  return absl::OkStatus();
}

// Writes `text` to `path` and syncs it.
absl::Status WriteFileSynced(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return absl::InternalError(absl::StrCat("cannot create ", path, ": ", std::strerror(errno)));
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      return absl::InternalError(absl::StrCat("cannot write ", path, ": ", std::strerror(err)));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    return absl::InternalError(absl::StrCat("cannot sync ", path, ": ", std::strerror(err)));
  }
  if (::close(fd) != 0) {
    return absl::InternalError(absl::StrCat("cannot close ", path, ": ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

// Releases a snapshot when it goes out of scope.
class SnapshotGuard {
 public:
  explicit SnapshotGuard(rocksdb::DB* db) : db_(db), snapshot_(db->GetSnapshot()) {}
  ~SnapshotGuard() { db_->ReleaseSnapshot(snapshot_); }
  const rocksdb::Snapshot* get() const { return snapshot_; }

 private:
  rocksdb::DB* db_;
  const rocksdb::Snapshot* snapshot_;
};

// One file of a pack, as its manifest lists it.
struct PackFile {
  std::string name;
  std::uint64_t bytes = 0;
  std::uint64_t answers = 0;
  std::uint32_t crc32 = 0;
};

struct PackManifest {
  std::uint64_t model = 0;
  std::uint64_t answers = 0;
  std::vector<PackFile> files;
};

std::string ManifestText(const PackManifest& manifest) {
  nlohmann::json files = nlohmann::json::array();
  for (const PackFile& f : manifest.files) {
    char crc[9];
    std::snprintf(crc, sizeof crc, "%08x", f.crc32);
    files.push_back({{"name", f.name}, {"bytes", f.bytes}, {"answers", f.answers}, {"crc32", crc}});
  }
  nlohmann::json json = {{"format", kPackFormat},
                         {"version", kPackVersion},
                         {"model", HexId(manifest.model)},
                         {"answers", manifest.answers},
                         {"key_bytes", kWalkKeyBytes},
                         {"value_version", kWalkValueVersion},
                         {"files", files}};
  return json.dump(2) + "\n";
}

// Parses a manifest; DATA_LOSS naming the field that is missing or wrong.
absl::StatusOr<PackManifest> ParseManifest(const std::string& text, const std::string& path) {
  const auto bad = [&](const std::string& what) {
    return absl::DataLossError(absl::StrCat("store pack manifest ", path, ": ", what));
  };
  nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) return bad("not a JSON object");
  if (!json.contains("format") || json["format"] != kPackFormat) {
    return bad(absl::StrCat("\"format\" is not \"", kPackFormat, "\""));
  }
  if (!json.contains("version") || !json["version"].is_number_integer() ||
      json["version"].get<int>() != kPackVersion) {
    return bad(absl::StrCat("\"version\" is not ", kPackVersion));
  }
  if (!json.contains("key_bytes") || json["key_bytes"] != kWalkKeyBytes) {
    return bad(absl::StrCat("\"key_bytes\" is not ", kWalkKeyBytes));
  }
  if (!json.contains("value_version") || json["value_version"] != kWalkValueVersion) {
    return bad(
        absl::StrCat("\"value_version\" is not ", kWalkValueVersion, " (a pack of another walkd)"));
  }
  PackManifest manifest;
  if (!json.contains("model") || !json["model"].is_string() ||
      json["model"].get<std::string>().size() != 16 ||
      !absl::SimpleHexAtoi(json["model"].get<std::string>(), &manifest.model)) {
    return bad("\"model\" is not 16 hex digits");
  }
  if (!json.contains("answers") || !json["answers"].is_number_unsigned()) {
    return bad("\"answers\" is not a count");
  }
  manifest.answers = json["answers"].get<std::uint64_t>();
  if (!json.contains("files") || !json["files"].is_array()) return bad("\"files\" is not a list");
  for (std::size_t i = 0; i < json["files"].size(); ++i) {
    const nlohmann::json& f = json["files"][i];
    const std::string field = absl::StrCat("files[", i, "]");
    if (!f.is_object()) return bad(field + " is not an object");
    PackFile file;
    if (!f.contains("name") || !f["name"].is_string()) return bad(field + ".name is missing");
    file.name = f["name"].get<std::string>();
    if (file.name.empty() || file.name.find('/') != std::string::npos || file.name == "." ||
        file.name == "..") {
      return bad(absl::StrCat(field, ".name \"", file.name, "\" is not a plain file name"));
    }
    if (!f.contains("bytes") || !f["bytes"].is_number_unsigned()) {
      return bad(field + ".bytes is not a size");
    }
    file.bytes = f["bytes"].get<std::uint64_t>();
    if (!f.contains("answers") || !f["answers"].is_number_unsigned()) {
      return bad(field + ".answers is not a count");
    }
    file.answers = f["answers"].get<std::uint64_t>();
    std::uint32_t crc = 0;
    if (!f.contains("crc32") || !f["crc32"].is_string() ||
        f["crc32"].get<std::string>().size() != 8 ||
        !absl::SimpleHexAtoi(f["crc32"].get<std::string>(), &crc)) {
      return bad(field + ".crc32 is not 8 hex digits");
    }
    file.crc32 = crc;
    manifest.files.push_back(std::move(file));
  }
  return manifest;
}

// The stores open in this process, by canonical directory. RocksDB's LOCK keeps other processes
// out; this keeps a second WalkStore of this process out, before Open looks at the directory
// (closing any descriptor of LOCK would drop the POSIX lock RocksDB holds on it).
std::mutex open_dirs_mutex;
std::set<std::string>* open_dirs = new std::set<std::string>;  // never destroyed

bool ClaimDir(const std::string& canonical) {
  std::lock_guard<std::mutex> lock(open_dirs_mutex);
  return open_dirs->insert(canonical).second;
}

void ReleaseDir(const std::string& canonical) {
  std::lock_guard<std::mutex> lock(open_dirs_mutex);
  open_dirs->erase(canonical);
}

// The pid of another process holding the store's LOCK (RocksDB locks it with fcntl), or 0.
pid_t LockHolder(const std::string& dir) {
  const std::string path = (fs::path(dir) / "LOCK").string();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;  // no LOCK file: nobody holds it
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  pid_t holder = 0;
  if (::fcntl(fd, F_GETLK, &lock) == 0 && lock.l_type != F_UNLCK) holder = lock.l_pid;
  ::close(fd);
  return holder;
}

// A failed DB::Open (or OpenForReadOnly) as the status Open reports.
absl::Status OpenError(const rocksdb::Status& s, const std::string& dir, bool has_current) {
  const std::string reason = s.ToString();
  if (s.IsCorruption() || (has_current && (s.IsPathNotFound() || s.IsNotFound() ||
                                           absl::StrContains(reason, "No such file")))) {
    return absl::DataLossError(absl::StrCat("walk store ", dir, " is damaged (RocksDB: ", reason,
                                            ").", DamagedAdvice(dir)));
  }
  if (s.IsIOError() && absl::StrContains(reason, "lock")) {
    return absl::FailedPreconditionError(
        absl::StrCat("walk store ", dir, " is in use by another process (RocksDB: ", reason,
                     "): stop it, or give this walkd another --store"));
  }
  if (s.IsIOError() && absl::StrContains(reason, "Permission denied")) {
    return absl::PermissionDeniedError(
        absl::StrCat("walk store ", dir, ": permission denied (RocksDB: ", reason, ")"));
  }
  return FromRocks(s, dir, "open");
}

// Looks at the store read-only before RocksDB opens it for writing, which deletes every table
// file its manifest does not list. Such files are normal after a crash (the unfinished output of
// a flush or a compaction: their answers are in the log or in other tables), but a damaged or
// truncated MANIFEST makes RocksDB forget finished tables too, and their answers with them. So
// each unlisted table that reads whole is checked: every answer in it must still be in the store.
absl::Status CheckNoTableForgotten(const rocksdb::Options& base, const std::string& dir,
                                   const std::vector<std::string>& tables) {
  rocksdb::Options options = base;
  options.create_if_missing = false;
  options.max_open_files = 64;  // open tables as asked, not all at once
  options.skip_stats_update_on_db_open = true;
  rocksdb::DB* db = nullptr;
  if (rocksdb::Status s = rocksdb::DB::OpenForReadOnly(options, dir, &db); !s.ok()) {
    CloseQuietly(db);
    return OpenError(s, dir, /*has_current=*/true);
  }
  std::unique_ptr<rocksdb::DB, void (*)(rocksdb::DB*)> guard(db, CloseQuietly);
  std::vector<rocksdb::LiveFileMetaData> live;
  db->GetLiveFilesMetaData(&live);
  std::set<std::string> listed;
  for (const rocksdb::LiveFileMetaData& file : live) listed.insert(file.relative_filename);
  for (const std::string& name : tables) {
    if (listed.count(name) != 0) continue;
    rocksdb::SstFileReader reader(options);
    // Unreadable or failing its checksums: an unfinished output, never listed, never acknowledged.
    if (!reader.Open((fs::path(dir) / name).string()).ok() || !reader.VerifyChecksum().ok()) {
      continue;
    }
    std::unique_ptr<rocksdb::Iterator> it(reader.NewIterator(rocksdb::ReadOptions()));
    std::uint64_t answers = 0, missing = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      ++answers;
      rocksdb::PinnableSlice value;
      const rocksdb::Status s =
          db->Get(rocksdb::ReadOptions(), db->DefaultColumnFamily(), it->key(), &value);
      if (s.IsNotFound()) {
        ++missing;
      } else if (!s.ok()) {
        return OpenError(s, dir, /*has_current=*/true);
      }
    }
    if (!it->status().ok()) continue;  // as above: an unfinished output
    if (missing > 0) {
      return absl::DataLossError(
          absl::StrCat("walk store ", dir, " is damaged: its MANIFEST does not list table file ",
                       name, ", which holds ", missing, " of its ", answers,
                       " answers that the store no longer has (a truncated or replaced MANIFEST).",
                       DamagedAdvice(dir)));
    }
  }
  return absl::OkStatus();
}

}  // namespace

struct WalkStore::Impl {
  rocksdb::Options options;
  rocksdb::DB* db = nullptr;  // owned; null once closed
  rocksdb::ReadOptions read;
  rocksdb::WriteOptions write;
  std::string claimed_dir;  // in open_dirs while this store is alive

  ~Impl() {
    CloseQuietly(db);
    if (!claimed_dir.empty()) ReleaseDir(claimed_dir);
  }

  absl::Status Live(const std::string& dir) const {
    if (db == nullptr) {
      return absl::FailedPreconditionError(absl::StrCat("walk store ", dir, " is closed"));
    }
    return absl::OkStatus();
  }
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

  // Look at the directory before RocksDB does: RocksDB would create a fresh, empty store over a
  // directory whose CURRENT file is gone, dropping every answer in it.
  std::error_code ec;
  const fs::file_status status = fs::status(dir, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    return absl::FailedPreconditionError(
        absl::StrCat("walk store ", dir, ": cannot look at it: ", ec.message()));
  }
  bool has_current = false;
  std::string data_file;
  std::vector<std::string> tables;
  if (fs::exists(status)) {
    if (!fs::is_directory(status)) {
      return absl::FailedPreconditionError(
          absl::StrCat("walk store ", dir,
                       " is not a directory: give --store a directory (it is created when "
                       "missing)"));
    }
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (name == "CURRENT") has_current = true;
      if (data_file.empty() && IsRocksDataFile(name)) data_file = name;
      if (absl::EndsWith(name, ".sst")) tables.push_back(name);
    }
    if (ec) {
      return absl::FailedPreconditionError(
          absl::StrCat("walk store ", dir, ": cannot list it: ", ec.message()));
    }
  }
  if (!has_current && !data_file.empty()) {
    return absl::DataLossError(absl::StrCat(
        "walk store ", dir, " is damaged: it holds store files (", data_file,
        ") but no CURRENT file, so which manifest is current is lost.", DamagedAdvice(dir)));
  }
  if (!has_current && !options.create_if_missing) {
    return absl::FailedPreconditionError(
        absl::StrCat("walk store ", dir, " holds no store, and creating one was not asked for"));
  }

  auto impl = std::make_unique<Impl>();
  const std::string canonical = fs::weakly_canonical(dir, ec).string();
  if (ec || !ClaimDir(canonical)) {
    return absl::FailedPreconditionError(
        absl::StrCat("walk store ", dir, " is in use: this process has it open already"));
  }
  impl->claimed_dir = canonical;  // released when `impl` goes, whatever happens below
  impl->options = MakeOptions(options);
  impl->write.sync = options.sync_writes;
  impl->write.disableWAL = false;

  if (has_current) {
    if (const pid_t holder = LockHolder(dir); holder != 0) {
      return absl::FailedPreconditionError(
          absl::StrCat("walk store ", dir, " is in use by another process (pid ", holder,
                       "): stop it, or give this walkd another --store"));
    }
    if (absl::Status s = CheckNoTableForgotten(impl->options, dir, tables); !s.ok()) return s;
  }

  rocksdb::DB* db = nullptr;
  if (const rocksdb::Status s = rocksdb::DB::Open(impl->options, dir, &db); !s.ok()) {
    CloseQuietly(db);
    return OpenError(s, dir, has_current);
  }
  impl->db = db;

  if (options.verify_checksums_on_open) {
    const rocksdb::Status v = db->VerifyChecksum();
    if (!v.ok()) {
      // Returning drops `impl`, whose destructor closes the DB.
      return absl::DataLossError(absl::StrCat(
          "walk store ", dir, " is damaged: a table file fails its checksums (RocksDB: ",
          v.ToString(), ").", DamagedAdvice(dir)));
    }
  }
  return std::unique_ptr<WalkStore>(new WalkStore(dir, std::move(impl)));
}

absl::Status WalkStore::Get(const WalkKey& key, StoredWalk* out, bool* found) const {
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

absl::StatusOr<std::uint64_t> WalkStore::EstimateAnswers() const {
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  std::uint64_t keys = 0;
  if (!impl_->db->GetIntProperty(rocksdb::DB::Properties::kEstimateNumKeys, &keys)) {
    return absl::InternalError(
        absl::StrCat("walk store ", dir_, ": RocksDB gave no rocksdb.estimate-num-keys"));
  }
  return keys;
}

absl::StatusOr<std::uint64_t> WalkStore::CountAnswers(std::uint64_t model) const {
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
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  std::error_code ec;
  if (fs::exists(out_dir, ec)) {
    if (!fs::is_directory(out_dir, ec)) {
      return absl::FailedPreconditionError(
          absl::StrCat("store pack ", out_dir, " exists and is not a directory"));
    }
    if (!fs::is_empty(out_dir, ec)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "store pack ", out_dir, " is not empty: export into a new or empty directory"));
    }
  }
  fs::create_directories(out_dir, ec);
  if (ec) {
    return absl::FailedPreconditionError(
        absl::StrCat("store pack ", out_dir, ": cannot create it: ", ec.message()));
  }

  PackManifest manifest;
  manifest.model = model;
  ExportStats stats;
  stats.model = model;
  bool open = false;  // `current` is being written
  PackFile current;
  // Removes what this export wrote, when it fails part way.
  auto fail = [&](absl::Status status) {
    std::vector<std::string> names;
    for (const PackFile& f : manifest.files) names.push_back(f.name);
    if (open) names.push_back(current.name);
    for (const std::string& name : names) {
      fs::remove(fs::path(out_dir) / name, ec);  // best effort: `status` is the error to report
    }
    return status;
  };

  SnapshotGuard snapshot(impl_->db);
  rocksdb::ReadOptions read;
  read.snapshot = snapshot.get();
  read.prefix_same_as_start = true;
  read.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(read));
  const std::string prefix = EncodeModelPrefix(model);

  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), impl_->options);
  auto finish_file = [&]() -> absl::Status {
    rocksdb::ExternalSstFileInfo info;
    const rocksdb::Status s = writer.Finish(&info);
    if (!s.ok()) return FromRocks(s, dir_, absl::StrCat("export: finish ", current.name));
    const std::string path = (fs::path(out_dir) / current.name).string();
    if (absl::Status c = FileCrc32(path, &current.crc32, &current.bytes); !c.ok()) return c;
    open = false;
    stats.files.push_back(current.name);
    stats.bytes += current.bytes;
    manifest.files.push_back(current);
    return absl::OkStatus();
  };

  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    if (!open) {
      current = PackFile();
      char name[32];
      std::snprintf(name, sizeof name, "walks-%06zu.sst", manifest.files.size() + 1);
      current.name = name;
      const rocksdb::Status s = writer.Open((fs::path(out_dir) / current.name).string());
      if (!s.ok()) return fail(FromRocks(s, dir_, absl::StrCat("export: create ", current.name)));
      open = true;
    }
    const rocksdb::Status s = writer.Put(it->key(), it->value());
    if (!s.ok()) return fail(FromRocks(s, dir_, "export: put"));
    ++current.answers;
    if (writer.FileSize() >= options.max_file_bytes) {
      if (absl::Status f = finish_file(); !f.ok()) return fail(f);
    }
  }
  if (!it->status().ok()) return fail(FromRocks(it->status(), dir_, "export: read"));
  if (open) {
    if (absl::Status f = finish_file(); !f.ok()) return fail(f);
  }
  for (const PackFile& f : manifest.files) manifest.answers += f.answers;
  stats.answers = manifest.answers;

  // The manifest last, written whole then renamed: a pack with a manifest is complete.
  const std::string tmp = (fs::path(out_dir) / (std::string(kPackManifestName) + ".tmp")).string();
  if (absl::Status w = WriteFileSynced(tmp, ManifestText(manifest)); !w.ok()) return fail(w);
  fs::rename(tmp, fs::path(out_dir) / kPackManifestName, ec);
  if (ec) {
    return fail(absl::InternalError(
        absl::StrCat("store pack ", out_dir, ": cannot rename its manifest: ", ec.message())));
  }
  return stats;
}

absl::StatusOr<IngestStats> WalkStore::Ingest(const std::string& pack_dir) {
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  const std::string manifest_path = (fs::path(pack_dir) / kPackManifestName).string();
  std::ifstream in(manifest_path);
  if (!in) {
    return absl::NotFoundError(absl::StrCat("store pack ", pack_dir, ": no ", kPackManifestName,
                                            " (not a store pack, or its export did not finish)"));
  }
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) return absl::DataLossError(absl::StrCat("cannot read ", manifest_path));
  absl::StatusOr<PackManifest> manifest = ParseManifest(text.str(), manifest_path);
  if (!manifest.ok()) return manifest.status();

  const std::string prefix = EncodeModelPrefix(manifest->model);
  const auto damaged = [&](const std::string& name, const std::string& what) {
    return absl::DataLossError(absl::StrCat("store pack ", pack_dir, ": ", name, " ", what,
                                            "; the pack is damaged and was not loaded (export "
                                            "it again, or copy it again)"));
  };
  IngestStats stats;
  stats.model = manifest->model;
  std::vector<std::string> paths;
  std::uint64_t answers = 0;
  for (const PackFile& f : manifest->files) {
    const std::string path = (fs::path(pack_dir) / f.name).string();
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return damaged(f.name, "is missing");
    std::uint32_t crc = 0;
    std::uint64_t bytes = 0;
    if (absl::Status c = FileCrc32(path, &crc, &bytes); !c.ok())
      return damaged(f.name, "cannot be read");
    if (bytes != f.bytes) {
      return damaged(f.name, absl::StrCat("is ", bytes, " bytes, the manifest says ", f.bytes,
                                          " (truncated or replaced)"));
    }
    if (crc != f.crc32) {
      char got[9], want[9];
      std::snprintf(got, sizeof got, "%08x", crc);
      std::snprintf(want, sizeof want, "%08x", f.crc32);
      return damaged(f.name, absl::StrCat("has CRC-32 ", got, ", the manifest says ", want));
    }
    // RocksDB's own checks: block checksums, the entry count, and the keys' model.
    rocksdb::SstFileReader reader(impl_->options);
    if (rocksdb::Status s = reader.Open(path); !s.ok()) {
      return damaged(f.name, absl::StrCat("is not a table RocksDB can open: ", s.ToString()));
    }
    if (rocksdb::Status s = reader.VerifyChecksum(); !s.ok()) {
      return damaged(f.name, absl::StrCat("fails its checksums: ", s.ToString()));
    }
    const std::shared_ptr<const rocksdb::TableProperties> props = reader.GetTableProperties();
    if (props == nullptr || props->num_entries != f.answers) {
      return damaged(f.name, absl::StrCat("holds ", props ? props->num_entries : 0,
                                          " entries, the manifest says ", f.answers));
    }
    rocksdb::ReadOptions read;
    read.total_order_seek = true;
    std::unique_ptr<rocksdb::Iterator> it(reader.NewIterator(read));
    for (bool first : {true, false}) {
      first ? it->SeekToFirst() : it->SeekToLast();
      if (!it->Valid()) {
        if (!it->status().ok()) return damaged(f.name, it->status().ToString());
        return damaged(f.name, "holds no answers");
      }
      if (it->key().size() != kWalkKeyBytes || !it->key().starts_with(prefix)) {
        return damaged(f.name, absl::StrCat("holds a key that is not a walk key of model ",
                                            HexId(manifest->model)));
      }
    }
    paths.push_back(path);
    answers += f.answers;
    stats.bytes += bytes;
  }
  if (answers != manifest->answers) {
    return damaged(kPackManifestName,
                   absl::StrCat("says ", manifest->answers, " answers, its files hold ", answers));
  }
  stats.answers = answers;
  stats.files = paths.size();
  if (paths.empty()) return stats;

  rocksdb::IngestExternalFileOptions ingest;
  ingest.move_files = false;  // the pack stays as it is
  ingest.verify_checksums_before_ingest = true;
  ingest.allow_blocking_flush = true;  // a memtable overlapping the pack is flushed first
  ingest.allow_global_seqno = true;
  ingest.write_global_seqno = false;  // never rewrite the copies in place
  const rocksdb::Status s = impl_->db->IngestExternalFile(paths, ingest);
  if (!s.ok()) {
    if (s.IsCorruption()) return damaged("a file", absl::StrCat("was refused: ", s.ToString()));
    return FromRocks(s, dir_, absl::StrCat("ingest ", pack_dir));
  }
  return stats;
}

absl::Status WalkStore::Flush() {
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  const rocksdb::Status s = impl_->db->Flush(rocksdb::FlushOptions());
  if (!s.ok()) return FromRocks(s, dir_, "flush");
  return absl::OkStatus();
}

absl::StatusOr<bool> WalkStore::FlushInBackgroundIfAbove(std::uint64_t answers) {
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
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  rocksdb::CompactRangeOptions compact;
  compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  const rocksdb::Status s = impl_->db->CompactRange(compact, nullptr, nullptr);
  if (!s.ok()) return FromRocks(s, dir_, "compact");
  return absl::OkStatus();
}

absl::Status WalkStore::Close() {
  if (absl::Status live = impl_->Live(dir_); !live.ok()) return live;
  rocksdb::DB* db = impl_->db;
  impl_->db = nullptr;
  const rocksdb::Status s = db->Close();
  delete db;
  ReleaseDir(impl_->claimed_dir);  // after the DB has let go of its LOCK
  impl_->claimed_dir.clear();
  if (!s.ok()) return FromRocks(s, dir_, "close");
  return absl::OkStatus();
}

}  // namespace walk::store
