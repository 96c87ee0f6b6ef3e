#include "store/open_checks.h"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "rocksdb/db.h"
#include "rocksdb/iterator.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/table_properties.h"
#include "store/rocks_status.h"
#include "store/staged_dir.h"

namespace walk::store {
namespace fs = std::filesystem;

namespace {

// What to do about a damaged store, said the same way wherever one is found.
std::string DamagedAdvice(const std::string& dir) {
  return absl::StrCat(
      " walkd will not use it. Move it aside (`mv -- ", ShellQuoted(dir), " ",
      ShellQuoted(dir + ".damaged"),
      "`, and keep it to look at) and start with an empty store: answers are computed again as "
      "they are asked, or ingest store packs to refill it. RocksDB's `ldb repair --db=",
      ShellQuoted(dir), "`, run on a copy, salvages what it can.");
}

// The file names RocksDB writes that hold data (not the LOCK, not the info LOG).
bool IsRocksDataFile(const std::string& name) {
  return name == "IDENTITY" || absl::StartsWith(name, "MANIFEST-") ||
         absl::StartsWith(name, "OPTIONS-") || absl::EndsWith(name, ".sst") ||
         absl::EndsWith(name, ".log") || absl::EndsWith(name, ".blob");
}

// The stores open in this process, by canonical directory.
std::mutex open_dirs_mutex;
std::set<std::string>* open_dirs = new std::set<std::string>;  // never destroyed

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

// What a table file holds that the store no longer has.
struct UnlistedTable {
  // The table reads whole. A table that does not is an unfinished output of a flush or a
  // compaction: never listed, never acknowledged.
  bool whole = false;
  bool ingested = false;  // a copy of a pack's table (an external file), not a flush's output
  std::uint64_t answers = 0;
  std::uint64_t missing = 0;  // of `answers`, those the store does not have
};

// Reads table file `path` and looks each of its answers up in `db`, the store in `dir`.
absl::StatusOr<UnlistedTable> ReadUnlistedTable(const rocksdb::Options& options, rocksdb::DB& db,
                                                const std::string& path, const std::string& dir) {
  UnlistedTable table;
  rocksdb::SstFileReader reader(options);
  if (!reader.Open(path).ok() || !reader.VerifyChecksum().ok()) return table;
  if (const auto props = reader.GetTableProperties(); props != nullptr) {
    // The property RocksDB's SstFileWriter gives every file it writes (a pack's tables, not
    // those of a flush or a compaction); RocksDB's own name for it is not in its public headers.
    table.ingested =
        props->user_collected_properties.count("rocksdb.external_sst_file.version") != 0;
  }
  std::unique_ptr<rocksdb::Iterator> it(reader.NewIterator(rocksdb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    ++table.answers;
    rocksdb::PinnableSlice value;
    const rocksdb::Status s =
        db.Get(rocksdb::ReadOptions(), db.DefaultColumnFamily(), it->key(), &value);
    if (s.IsNotFound()) {
      ++table.missing;
    } else if (!s.ok()) {
      return OpenError(s, dir, /*has_current=*/true);
    }
  }
  table.whole = it->status().ok();
  return table;
}

}  // namespace

absl::StatusOr<StoreDirContents> LookAtStoreDir(const std::string& dir) {
  std::error_code ec;
  const fs::file_status status = fs::status(dir, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    return absl::FailedPreconditionError(
        absl::StrCat("walk store ", dir, ": cannot look at it: ", ec.message()));
  }
  StoreDirContents contents;
  std::string data_file;
  bool answers = false;  // files that may hold answers: tables, blobs, a log with records
  if (fs::exists(status)) {
    if (!fs::is_directory(status)) {
      return absl::FailedPreconditionError(
          absl::StrCat("walk store ", dir,
                       " is not a directory: give --store a directory (it is created when "
                       "missing)"));
    }
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (contents.empty) contents.first_name = name;
      contents.empty = false;
      if (name == "CURRENT") contents.has_current = true;
      if (data_file.empty() && IsRocksDataFile(name)) data_file = name;
      if (absl::EndsWith(name, ".sst")) contents.tables.push_back(name);
      if (absl::StartsWith(name, kIngestMarkerPrefix)) contents.ingest_markers.push_back(name);
      if (absl::EndsWith(name, ".sst") || absl::EndsWith(name, ".blob")) answers = true;
      std::error_code size_ec;
      if (absl::EndsWith(name, ".log") && (it->file_size(size_ec) > 0 || size_ec)) answers = true;
    }
    if (ec) {
      return absl::FailedPreconditionError(
          absl::StrCat("walk store ", dir, ": cannot list it: ", ec.message()));
    }
  }
  if (!contents.has_current && !data_file.empty() && !answers) {
    return absl::FailedPreconditionError(absl::StrCat(
        "walk store ", dir, " is a half store: it holds RocksDB's first files (", data_file,
        ") but no CURRENT file and no answers, as a store whose creation was cut short leaves "
        "it. Nothing is lost by removing it: `rm -r -- ",
        ShellQuoted(dir), "`, then start again"));
  }
  if (!contents.has_current && !data_file.empty()) {
    return absl::DataLossError(absl::StrCat(
        "walk store ", dir, " is damaged: it holds store files (", data_file,
        ") but no CURRENT file, so which manifest is current is lost.", DamagedAdvice(dir)));
  }
  return contents;
}

absl::StatusOr<std::string> ClaimStoreDir(const std::string& dir) {
  std::error_code ec;
  const std::string canonical = fs::weakly_canonical(dir, ec).string();
  bool claimed = false;
  if (!ec) {
    std::lock_guard<std::mutex> lock(open_dirs_mutex);
    claimed = open_dirs->insert(canonical).second;
  }
  if (!claimed) {
    return absl::FailedPreconditionError(
        absl::StrCat("walk store ", dir, " is in use: this process has it open already"));
  }
  return canonical;
}

void ReleaseStoreDir(const std::string& canonical) {
  std::lock_guard<std::mutex> lock(open_dirs_mutex);
  open_dirs->erase(canonical);
}

absl::Status CheckNotInUse(const std::string& dir) {
  if (const pid_t holder = LockHolder(dir); holder != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("walk store ", dir, " is in use by another process (pid ", holder,
                     "): stop it, or give this walkd another --store"));
  }
  return absl::OkStatus();
}

absl::Status CheckNoTableForgotten(const rocksdb::Options& base, const std::string& dir,
                                   const std::vector<std::string>& tables,
                                   bool ingest_interrupted) {
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
    absl::StatusOr<UnlistedTable> table =
        ReadUnlistedTable(options, *db, (fs::path(dir) / name).string(), dir);
    if (!table.ok()) return table.status();
    if (ingest_interrupted && table->ingested) continue;  // copied, never listed: RocksDB drops it
    if (table->whole && table->missing > 0) {
      return absl::DataLossError(
          absl::StrCat("walk store ", dir, " is damaged: its MANIFEST does not list table file ",
                       name, ", which holds ", table->missing, " of its ", table->answers,
                       " answers that the store no longer has (a truncated or replaced MANIFEST).",
                       DamagedAdvice(dir)));
    }
  }
  return absl::OkStatus();
}

absl::Status VerifyTableChecksums(rocksdb::DB& db, const std::string& dir) {
  const rocksdb::Status v = db.VerifyChecksum();
  if (v.ok()) return absl::OkStatus();
  return absl::DataLossError(absl::StrCat(
      "walk store ", dir, " is damaged: a table file fails its checksums (RocksDB: ", v.ToString(),
      ").", DamagedAdvice(dir)));
}

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

void CloseQuietly(rocksdb::DB* db) {
  if (db == nullptr) return;
  // Deliberately ignored: this runs on a path that already reports a failure, and the DB's
  // own close problem (logged in its LOG) would only hide that first error.
  db->Close().PermitUncheckedError();
  delete db;
}

}  // namespace walk::store
